//! The crates' layering, checked on their source: dependencies point one
//! way and no module imports, through any chain, from itself.
//!
//! The engine library (`src/`) and the tools crate (`tools/src/`, which
//! builds the binary) are checked alike for cycles; the engine's layers are
//! checked below, and the crate boundary keeps the tools above them all: the
//! engine's manifest names no tools crate, and no command-line or progress
//! bar crate either.
//!
//! Every file under a crate's `src/` is a module (`a/mod.rs` is `a`, `a/b.rs` is
//! `a::b`). A module depends on another when its code (tests left out)
//! names a path into it: `use crate::…`, `use super::…`, `use self::…`,
//! or a path written out in an expression. `mod x;` declares a child and is
//! not a dependency. A path is resolved to the longest module it names, so
//! `crate::chess::Position` is the module `chess` (its `mod.rs`, which
//! re-exports) and `crate::chess::position::Position` is `chess::position`.
//!
//! Three properties:
//!
//! - **No cycles** between modules. Siblings import each other by their own
//!   paths (`super::sibling::Item`), never through their parent's
//!   re-exports, and a `mod.rs` holds declarations, re-exports and at most
//!   items its children do not need.
//! - **Layers point down**: `error`, `chess`, `tb`, `eval`, `search`,
//!   `book`, `engine`, `uci`, in that order, each using only those before
//!   it.
//! - **One way between the tools' rooms**: `data` (the formats, the filter,
//!   the reader) never uses `datagen` (the games that write them), which
//!   uses `data`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, lowest first.
const LAYERS: &[&str] = &[
    "error", "chess", "tb", "eval", "search", "book", "engine", "uci",
];

/// The crates whose modules are checked for cycles, by folder from the
/// repository root (the engine library and the tools), each with fewer
/// modules than it has (a sign the checker read it).
const CRATE_SOURCES: &[(&str, usize)] = &[("src", 50), ("tools/src", 20)];

/// Dependencies the engine library must not have: the tools crate, and the
/// crates only the tools use (the command line, progress bars) or nothing
/// uses.
const NOT_ENGINE_DEPENDENCIES: &[&str] = &["shears-tools", "clap", "indicatif", "serde"];

/// Rooms of the tools crate, `(room, other)`: no module of `room` uses
/// one of `other`.
const TOOLS_ONE_WAY: &[(&str, &str)] = &[("data", "datagen")];

/// A module path, such as `["search", "tt"]`.
type ModPath = Vec<String>;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("the source folder is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module a file under `src/` is.
fn module_of(src: &Path, file: &Path) -> ModPath {
    let rel = file.strip_prefix(src).expect("a file under src/");
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().expect("a file name");
    let stem = last.trim_end_matches(".rs");
    if !matches!(stem, "mod" | "lib" | "main") {
        parts.push(stem.to_owned());
    }
    parts
}

/// The code of a file without comments, string literals and its test
/// module (a `#[cfg(test)]` item runs to the end of the file by the
/// crate's habit; files named `tests.rs` are test-only).
fn code_of(text: &str) -> String {
    let text = match text.find("#[cfg(test)]") {
        Some(i) => &text[..i],
        None => text,
    };
    let mut out = String::with_capacity(text.len());
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if text[i..].starts_with("//") {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
        } else if text[i..].starts_with("/*") {
            i += text[i..].find("*/").map_or(bytes.len() - i, |e| e + 2);
        } else if bytes[i] == b'"' {
            i += 1;
            while i < bytes.len() && bytes[i] != b'"' {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if bytes[i] == b'\'' && text[i..].chars().nth(2) == Some('\'') {
            // A char literal such as 'a' (lifetimes have no closing quote).
            i += 3;
        } else {
            let c = text[i..].chars().next().expect("in bounds");
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// Expands the use-tree starting at `tree` (text after `use `, up to its
/// `;`) into full paths.
fn expand_use(prefix: &str, tree: &str, out: &mut Vec<String>) {
    let tree = tree.trim();
    if let Some(open) = tree.find('{') {
        let base = tree[..open].trim().trim_end_matches("::");
        let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
        let joined = join(prefix, base);
        let mut depth = 0;
        let mut start = 0;
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand_use(&joined, &inner[start..i], out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        expand_use(&joined, &inner[start..], out);
    } else if !tree.is_empty() {
        let path = tree.split(" as ").next().unwrap_or(tree).trim();
        out.push(join(prefix, path));
    }
}

fn join(a: &str, b: &str) -> String {
    match (a.is_empty(), b.is_empty()) {
        (true, _) => b.to_owned(),
        (_, true) => a.to_owned(),
        _ => format!("{a}::{b}"),
    }
}

/// Every path the code names that starts at `crate`, `super` or `self`.
fn paths_in(code: &str) -> Vec<String> {
    let mut paths = Vec::new();
    // use declarations, with their trees.
    let mut rest = code;
    while let Some(i) = rest.find("use ") {
        let before = rest[..i].chars().last();
        let after = &rest[i + 4..];
        rest = after;
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let end = after.find(';').unwrap_or(after.len());
        let tree = after[..end].trim();
        if tree.starts_with("crate::") || tree.starts_with("super::") || tree.starts_with("self::")
        {
            expand_use("", tree, &mut paths);
        }
    }
    // Paths written out in code.
    let bytes = code.as_bytes();
    for start in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(i) = code[from..].find(start) {
            let at = from + i;
            from = at + start.len();
            if at > 0
                && (bytes[at - 1].is_ascii_alphanumeric()
                    || bytes[at - 1] == b'_'
                    || bytes[at - 1] == b':')
            {
                continue;
            }
            let end = code[at..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .map_or(code.len(), |e| at + e);
            paths.push(code[at..end].trim_end_matches(':').to_owned());
        }
    }
    paths
}

/// The module `path`, written in module `here`, names (the longest known
/// module prefix), if any.
fn resolve(here: &ModPath, path: &str, modules: &BTreeSet<ModPath>) -> Option<ModPath> {
    let mut segments = path.split("::").filter(|s| !s.is_empty()).peekable();
    let mut base: ModPath = match segments.peek().copied() {
        Some("crate") => {
            segments.next();
            Vec::new()
        }
        Some("self") | Some("super") => {
            // `self` is the module itself (`a/mod.rs` and `a.rs` alike),
            // `super` its parent.
            let mut base = here.clone();
            while let Some(&s) = segments.peek() {
                match s {
                    "self" => {}
                    "super" => {
                        base.pop();
                    }
                    _ => break,
                }
                segments.next();
            }
            base
        }
        _ => return None,
    };
    let mut best = base.clone();
    for s in segments {
        base.push(s.to_owned());
        if modules.contains(&base) {
            best = base.clone();
        } else {
            break;
        }
    }
    Some(best)
}

/// The module graph of the crate whose source is `src` (a folder from the
/// repository root).
fn graph(src: &str) -> BTreeMap<ModPath, BTreeSet<ModPath>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join(src);
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let modules: BTreeSet<ModPath> = files.iter().map(|f| module_of(&src, f)).collect();
    let mut edges: BTreeMap<ModPath, BTreeSet<ModPath>> = BTreeMap::new();
    for file in &files {
        let here = module_of(&src, file);
        let name = file.file_name().unwrap().to_string_lossy();
        if name == "tests.rs" || name == "lib.rs" || name == "main.rs" {
            continue;
        }
        let text = std::fs::read_to_string(file).expect("a readable source file");
        let targets = edges.entry(here.clone()).or_default();
        for path in paths_in(&code_of(&text)) {
            if let Some(to) = resolve(&here, &path, &modules)
                && to != here
                && !to.is_empty()
            {
                targets.insert(to);
            }
        }
    }
    edges
}

fn show(m: &ModPath) -> String {
    if m.is_empty() {
        "crate".to_owned()
    } else {
        m.join("::")
    }
}

#[test]
fn the_module_graph_has_no_cycle() {
    for &(src, fewer) in CRATE_SOURCES {
        let edges = graph(src);
        assert!(
            edges.len() > fewer,
            "{src}: only {} modules found",
            edges.len()
        );
        let cycles = cycles_of(&edges);
        assert!(
            cycles.is_empty(),
            "{src}: import cycles:\n{}",
            cycles.join("\n")
        );
    }
}

/// Every import cycle of the graph, as `a -> b -> a` lines.
fn cycles_of(edges: &BTreeMap<ModPath, BTreeSet<ModPath>>) -> Vec<String> {
    // Depth-first search for a back edge, reporting the cycle it closes.
    fn visit(
        m: &ModPath,
        edges: &BTreeMap<ModPath, BTreeSet<ModPath>>,
        state: &mut BTreeMap<ModPath, u8>,
        stack: &mut Vec<ModPath>,
        cycles: &mut Vec<String>,
    ) {
        state.insert(m.clone(), 1);
        stack.push(m.clone());
        for to in edges.get(m).into_iter().flatten() {
            match state.get(to).copied().unwrap_or(0) {
                0 => visit(to, edges, state, stack, cycles),
                1 => {
                    let at = stack.iter().position(|s| s == to).unwrap_or(0);
                    let mut cycle: Vec<String> = stack[at..].iter().map(show).collect();
                    cycle.push(show(to));
                    cycles.push(cycle.join(" -> "));
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(m.clone(), 2);
    }
    let mut state = BTreeMap::new();
    let mut cycles = Vec::new();
    for m in edges.keys() {
        if !state.contains_key(m) {
            visit(m, edges, &mut state, &mut Vec::new(), &mut cycles);
        }
    }
    cycles
}

#[test]
fn layers_depend_only_on_the_layers_below() {
    let rank = |m: &ModPath| {
        m.first()
            .and_then(|top| LAYERS.iter().position(|l| l == top))
    };
    let mut wrong = Vec::new();
    for (from, targets) in graph("src") {
        let Some(from_rank) = rank(&from) else {
            continue;
        };
        for to in targets {
            if let Some(to_rank) = rank(&to)
                && to_rank > from_rank
            {
                wrong.push(format!("{} -> {}", show(&from), show(&to)));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports from a higher layer:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_tools_rooms_depend_one_way() {
    let edges = graph("tools/src");
    let room = |m: &ModPath, name: &str| m.first().is_some_and(|top| top == name);
    let mut wrong = Vec::new();
    for &(from_room, to_room) in TOOLS_ONE_WAY {
        // Both rooms are there, and the other one uses the first: the check
        // reads what it means to.
        assert!(
            edges.keys().any(|m| room(m, from_room)),
            "no module of {from_room} found"
        );
        assert!(
            edges
                .iter()
                .any(|(m, to)| room(m, to_room) && to.iter().any(|t| room(t, from_room))),
            "{to_room} does not use {from_room}"
        );
        for (from, targets) in edges.iter().filter(|(m, _)| room(m, from_room)) {
            for to in targets.iter().filter(|t| room(t, to_room)) {
                wrong.push(format!("{} -> {}", show(from), show(to)));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the tools' one-way rooms:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_engine_does_not_depend_on_the_tools() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest).expect("the root Cargo.toml is readable");
    let toml: toml::Table = text.parse().expect("the root Cargo.toml parses");
    // [dependencies], [dev-dependencies], [build-dependencies] and their
    // [target.'cfg(…)'.…] forms.
    fn dependency_tables(t: &toml::Table) -> impl Iterator<Item = &toml::Table> {
        ["dependencies", "dev-dependencies", "build-dependencies"]
            .into_iter()
            .filter_map(|key| t.get(key).and_then(toml::Value::as_table))
    }
    let targets = toml.get("target").and_then(toml::Value::as_table);
    let tables: Vec<&toml::Table> = dependency_tables(&toml)
        .chain(
            targets
                .into_iter()
                .flat_map(|t| t.values())
                .filter_map(toml::Value::as_table)
                .flat_map(dependency_tables),
        )
        .collect();
    assert!(
        tables.iter().any(|deps| deps.contains_key("shakmaty")),
        "no dependency tables found in {}",
        manifest.display()
    );
    let mut wrong = Vec::new();
    for deps in tables {
        for (name, spec) in deps {
            // A renamed dependency: `alias = { package = "real", … }`.
            let package = spec
                .get("package")
                .and_then(toml::Value::as_str)
                .unwrap_or(name);
            if NOT_ENGINE_DEPENDENCIES.contains(&package) {
                wrong.push(package.to_owned());
            }
        }
    }
    assert!(wrong.is_empty(), "the engine library depends on {wrong:?}");
    // Nor does its code name the tools crate.
    let mut files = Vec::new();
    rust_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    for file in files {
        let text = std::fs::read_to_string(&file).expect("a readable source file");
        assert!(
            !code_of(&text).contains("shears_tools"),
            "{} names the tools crate",
            file.display()
        );
    }
}

#[test]
fn the_checker_sees_paths_in_use_trees_and_code() {
    let code = code_of(
        "use crate::a::{b::C, d};\n// use crate::x;\nfn f() { super::g::h(); let s = \"crate::y\"; }\n#[cfg(test)]\nmod tests { use crate::z; }",
    );
    let paths = paths_in(&code);
    assert!(paths.contains(&"crate::a::b::C".to_owned()), "{paths:?}");
    assert!(paths.contains(&"crate::a::d".to_owned()), "{paths:?}");
    assert!(paths.contains(&"super::g::h".to_owned()), "{paths:?}");
    assert!(
        !paths
            .iter()
            .any(|p| p.contains('x') || p.contains('y') || p.contains('z')),
        "{paths:?}"
    );
}
