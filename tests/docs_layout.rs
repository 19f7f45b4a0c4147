//! The source map of docs/engine.md (its "## Layout" section) against the
//! tree: every folder inside both crates' sources (`src/` and `tools/src/`,
//! at any depth, none left out) is in the map, and every file and folder
//! the map names exists.
//!
//! The map is one fenced block of lines `NAME  what it holds`, the name
//! column ending at the first two spaces. A name at the start of a line is
//! a path from the repository root; an indented name is inside the nearest
//! folder (`…/`) above it that is indented less (`src/eval/`, then `  hce/`,
//! then `    terms/` is `src/eval/hce/terms/`). A name column may list
//! several names, joined by `, `. A line indented as far as the
//! descriptions (20 spaces or more) continues the description above it.

use std::collections::BTreeSet;
use std::path::Path;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The lines of the Layout section's fenced block.
fn layout_block(text: &str) -> Vec<&str> {
    let section = text
        .split("\n## ")
        .find(|s| s.starts_with("Layout\n"))
        .expect("docs/engine.md has a ## Layout section");
    let mut fences = section.split("```");
    fences.next();
    let block = fences
        .next()
        .expect("the Layout section has a fenced block");
    block.lines().filter(|l| !l.trim().is_empty()).collect()
}

/// Every path the map names, from the repository root (folders end in
/// `/`).
fn mapped_paths(lines: &[&str]) -> Vec<String> {
    let mut paths = Vec::new();
    // The folders that indented names are inside: (indent, path).
    let mut folders: Vec<(usize, String)> = Vec::new();
    for line in lines {
        let indent = line.len() - line.trim_start().len();
        if indent >= 20 {
            continue;
        }
        let names = line.trim_start();
        let names = names.split("  ").next().unwrap_or(names);
        while folders.last().is_some_and(|(at, _)| *at >= indent) {
            folders.pop();
        }
        let base = match folders.last() {
            Some((_, folder)) if indent > 0 => folder.clone(),
            _ => String::new(),
        };
        let mut folder_here = None;
        for name in names.split(", ") {
            let path = format!("{base}{}", name.trim());
            if path.ends_with('/') && folder_here.is_none() {
                folder_here = Some(path.clone());
            }
            paths.push(path);
        }
        if let Some(folder) = folder_here {
            folders.push((indent, folder));
        }
    }
    paths
}

/// Every folder below `dir` (from the repository root), with a trailing `/`.
fn folders_below(dir: &str, out: &mut Vec<String>) {
    let entries = std::fs::read_dir(repo().join(dir)).expect("a readable source folder");
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            let name = path.file_name().expect("a name").to_string_lossy();
            let folder = format!("{dir}{name}/");
            out.push(folder.clone());
            folders_below(&folder, out);
        }
    }
}

fn engine_md_map() -> Vec<String> {
    let text = std::fs::read_to_string(repo().join("docs/engine.md")).expect("docs/engine.md");
    mapped_paths(&layout_block(&text))
}

#[test]
fn every_source_folder_is_in_the_layout_map() {
    let mapped: BTreeSet<String> = engine_md_map().into_iter().collect();
    // Every folder inside the two roots (the roots themselves are named by
    // their files' lines, src/lib.rs, tools/src/main.rs, …).
    let mut folders = Vec::new();
    folders_below("src/", &mut folders);
    folders_below("tools/src/", &mut folders);
    assert!(folders.len() > 20, "only {} folders found", folders.len());
    let missing: Vec<&String> = folders.iter().filter(|f| !mapped.contains(*f)).collect();
    assert!(
        missing.is_empty(),
        "folders missing from docs/engine.md § Layout: {missing:?}"
    );
}

#[test]
fn everything_the_layout_map_names_exists() {
    let mapped = engine_md_map();
    assert!(mapped.len() > 60, "only {} names read", mapped.len());
    let missing: Vec<&String> = mapped
        .iter()
        .filter(|p| !p.contains('*') && !repo().join(p).exists())
        .collect();
    assert!(
        missing.is_empty(),
        "docs/engine.md § Layout names what is not there: {missing:?}"
    );
}

#[test]
fn the_map_reader_resolves_indented_names_into_their_folders() {
    let lines = [
        "src/a/                     the a",
        "  b.rs, c/                 b and c",
        "                           a wrapped description",
        "    d.rs                   inside c",
        "  e/                       e",
        "src/f.rs                   f",
    ];
    assert_eq!(
        mapped_paths(&lines),
        [
            "src/a/",
            "src/a/b.rs",
            "src/a/c/",
            "src/a/c/d.rs",
            "src/a/e/",
            "src/f.rs"
        ]
    );
}
