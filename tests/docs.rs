//! The written docs against the repository, so that they cannot drift:
//!
//! - every copy of the option list (the README's table, docs/uci.md's
//!   table, engine.toml's commented lines) names every option of the
//!   engine's table (the normal build's, [`OPTION_TABLE`]) with its default
//!   and range, and no other;
//! - every repository path that a command or a code span of the docs names
//!   (`scripts/…`, `src/…`, `tools/…`, `tests/…`, `docs/…`, `perft/…`,
//!   `fuzz/…`, `.ci/…`) exists, and so does the target of every relative
//!   link;
//! - no committed doc, script or source names a machine's own folders.
//!
//! `tests/docs_facts.rs` holds the anchors of the links and the facts the
//! docs state (the bench signature, the built-in net's sha256).

use std::collections::BTreeSet;
use std::path::Path;

#[path = "common/doc_files.rs"]
mod doc_files;
use doc_files::{assert_none, doc_files, repo};

use shears::engine::config::Config;
use shears::engine::options::{OPTION_TABLE, OptionKind, OptionSpec};

fn read(relative: &str) -> String {
    std::fs::read_to_string(repo().join(relative))
        .unwrap_or_else(|e| panic!("{relative} is readable: {e}"))
}

// ---------------------------------------------------------------------------
// The option lists.

/// A default as the tables write it: `true`, `16`, `Engine`, `<empty>`.
fn default_text(spec: &OptionSpec) -> Option<String> {
    match spec.kind {
        OptionKind::Check { default } => Some(default.to_string()),
        OptionKind::Spin { default, .. } => Some(default.to_string()),
        OptionKind::Combo { default, .. } => Some(default.to_owned()),
        OptionKind::String { default: "" } => Some("`<empty>`".to_owned()),
        OptionKind::String { default } => Some(format!("`{default}`")),
        OptionKind::Button => None,
    }
}

/// A range as the tables write it: `1–65536` for a spin, the values for a
/// combo, nothing for the rest.
fn range_text(spec: &OptionSpec) -> String {
    match spec.kind {
        OptionKind::Spin { min, max, .. } => format!("{min}–{max}"),
        OptionKind::Combo { vars, .. } => vars.join(", "),
        _ => String::new(),
    }
}

fn kind_text(spec: &OptionSpec) -> &'static str {
    match spec.kind {
        OptionKind::Check { .. } => "check",
        OptionKind::Spin { .. } => "spin",
        OptionKind::Button => "button",
        OptionKind::Combo { .. } => "combo",
        OptionKind::String { .. } => "string",
    }
}

/// The rows of the markdown table under the heading `heading` whose first
/// cell is a code span: the cells of each, the code span's backticks
/// removed from the first.
fn option_rows(text: &str, heading: &str) -> Vec<Vec<String>> {
    let mut in_section = false;
    let mut rows = Vec::new();
    for line in text.lines() {
        if line.starts_with('#') {
            in_section = line.trim() == heading;
            continue;
        }
        if !in_section || !line.starts_with("| `") {
            continue;
        }
        let mut cells: Vec<String> = line
            .trim()
            .trim_matches('|')
            .split('|')
            .map(|c| c.trim().to_owned())
            .collect();
        cells[0] = cells[0].trim_matches('`').to_owned();
        rows.push(cells);
    }
    rows
}

/// The options named twice, and the names that are not options.
fn names_problems(copy: &str, names: &[&str]) -> Vec<String> {
    let mut problems = Vec::new();
    let mut seen = BTreeSet::new();
    for name in names {
        if !seen.insert(*name) {
            problems.push(format!("{copy}: {name} is listed twice"));
        }
        if !OPTION_TABLE.iter().any(|s| s.name == *name) {
            problems.push(format!("{copy}: {name} is not an option of the engine"));
        }
    }
    problems
}

#[test]
fn the_readme_lists_every_option_with_its_default_and_range() {
    let rows = option_rows(&read("README.md"), "## Options");
    let names: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
    let mut problems = names_problems("README.md", &names);
    for spec in OPTION_TABLE {
        let Some(row) = rows.iter().find(|r| r[0] == spec.name) else {
            problems.push(format!("README.md: no row for {}", spec.name));
            continue;
        };
        let expected = match (default_text(spec), range_text(spec)) {
            (None, _) => "button".to_owned(),
            (Some(default), range) if matches!(spec.kind, OptionKind::Spin { .. }) => {
                format!("{default} ({range})")
            }
            (Some(default), _) => default,
        };
        if row.get(1) != Some(&expected) {
            problems.push(format!(
                "README.md: {}: {:?}, the table says {expected:?}",
                spec.name,
                row.get(1)
            ));
        }
    }
    assert!(
        rows.len() >= 20,
        "README.md: only {} option rows found",
        rows.len()
    );
    assert_none(
        &problems,
        "the README's option table differs from the engine's",
    );
}

#[test]
fn docs_uci_lists_every_option_with_its_type_default_and_range() {
    let rows = option_rows(&read("docs/uci.md"), "## Options");
    let names: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
    let mut problems = names_problems("docs/uci.md", &names);
    for spec in OPTION_TABLE {
        let Some(row) = rows.iter().find(|r| r[0] == spec.name) else {
            problems.push(format!("docs/uci.md: no row for {}", spec.name));
            continue;
        };
        let expected = [
            kind_text(spec).to_owned(),
            default_text(spec).unwrap_or_default(),
            range_text(spec),
        ];
        let written = row.get(1..4).unwrap_or_default();
        if written != expected {
            problems.push(format!(
                "docs/uci.md: {}: type, default, range {written:?}, the table says {expected:?}",
                spec.name
            ));
        }
    }
    assert!(
        rows.len() >= 20,
        "docs/uci.md: only {} option rows found",
        rows.len()
    );
    assert_none(
        &problems,
        "docs/uci.md's option table differs from the engine's",
    );
}

/// One setting of engine.toml's `[options]`, commented: the key, the line
/// (without its `# `), and the text of the line with its continuation lines
/// (comment lines below it that hold only a further comment).
struct TomlEntry {
    key: String,
    line: String,
    text: String,
}

/// The commented settings of engine.toml's `[options]` table: every line
/// `# KEY = VALUE  # comment` that is a TOML key and value once its first
/// `#` goes.
fn toml_entries(text: &str) -> Vec<TomlEntry> {
    let mut entries: Vec<TomlEntry> = Vec::new();
    let mut in_options = false;
    for line in text.lines() {
        if line.starts_with('[') {
            in_options = line.trim() == "[options]";
            continue;
        }
        let Some(rest) = line.strip_prefix('#').filter(|_| in_options) else {
            continue;
        };
        match rest.parse::<toml::Table>() {
            Ok(table) if table.len() == 1 => {
                let key = table.keys().next().expect("one key").clone();
                entries.push(TomlEntry {
                    key,
                    line: rest.trim().to_owned(),
                    text: rest.to_owned(),
                });
            }
            // A comment alone: the continuation of the setting above.
            Ok(table) if table.is_empty() && rest.trim_start().starts_with('#') => {
                if let Some(last) = entries.last_mut() {
                    last.text.push('\n');
                    last.text.push_str(rest);
                }
            }
            _ => {}
        }
    }
    entries
}

#[test]
fn engine_toml_shows_every_option_at_its_default() {
    let text = read("engine.toml");
    let entries = toml_entries(&text);
    let names: Vec<&str> = entries.iter().map(|e| e.key.as_str()).collect();
    let mut problems = names_problems("engine.toml", &names);
    for spec in OPTION_TABLE {
        let entry = entries.iter().find(|e| e.key == spec.name);
        match (spec.kind, entry) {
            (OptionKind::Button, Some(_)) => problems.push(format!(
                "engine.toml: {} is a button, which engine.toml cannot set",
                spec.name
            )),
            (OptionKind::Button, None) if !text.contains(spec.name) => problems.push(format!(
                "engine.toml: the button {} is not named",
                spec.name
            )),
            (OptionKind::Button, None) => {}
            (_, None) => problems.push(format!("engine.toml: no line for {}", spec.name)),
            (OptionKind::Spin { min, max, .. }, Some(entry))
                if !entry.text.contains(&format!("{min}-{max}")) =>
            {
                problems.push(format!(
                    "engine.toml: {} does not give its range {min}-{max}",
                    spec.name
                ));
            }
            (OptionKind::Combo { vars, .. }, Some(entry)) => {
                for var in vars {
                    if !entry.text.contains(var) {
                        problems.push(format!("engine.toml: {} does not name {var}", spec.name));
                    }
                }
            }
            _ => {}
        }
    }
    // Every value shown is the default: the lines uncommented are a valid
    // engine.toml that changes nothing.
    let uncommented: String = std::iter::once("[options]".to_owned())
        .chain(entries.iter().map(|e| e.line.clone()))
        .collect::<Vec<_>>()
        .join("\n");
    match Config::parse(&uncommented, Path::new("engine.toml")) {
        Ok(config) => {
            if config.options != Config::default().options {
                for ((spec, value), (_, default)) in
                    config.options.iter().zip(Config::default().options.iter())
                {
                    if value != default {
                        problems.push(format!(
                            "engine.toml: {} = {value}, the default is {default}",
                            spec.name
                        ));
                    }
                }
            }
        }
        Err(e) => problems.push(format!("engine.toml, uncommented: {e}")),
    }
    assert!(
        entries.len() >= 20,
        "engine.toml: only {} settings found",
        entries.len()
    );
    assert_none(&problems, "engine.toml's options differ from the engine's");
}

#[test]
fn the_option_checks_see_a_missing_or_wrong_row() {
    // The README's table with a row taken out and another row's default
    // changed: both are found.
    let readme = read("README.md");
    let rows = option_rows(&readme, "## Options");
    assert!(
        rows.iter()
            .any(|r| r[0] == "Hash" && r[1] == "16 (1–65536)")
    );
    let changed = readme
        .replace("| `Hash` | 16 (1–65536) |", "| `Hash` | 32 (1–65536) |")
        .lines()
        .filter(|l| !l.starts_with("| `Threads`"))
        .collect::<Vec<_>>()
        .join("\n");
    let rows = option_rows(&changed, "## Options");
    assert!(!rows.iter().any(|r| r[0] == "Threads"));
    assert!(
        rows.iter()
            .any(|r| r[0] == "Hash" && r[1] == "32 (1–65536)")
    );
    // engine.toml: a setting with its continuation lines, a plain comment
    // left out.
    let entries = toml_entries(
        "[options]\n# A comment = not a setting\n# Hash = 16   # MB (1-65536)\n#              # more\n\
         # \"Move Overhead\" = 10\n[engine]\n# log_file = \"x\"\n",
    );
    let keys: Vec<&str> = entries.iter().map(|e| e.key.as_str()).collect();
    assert_eq!(keys, ["Hash", "Move Overhead"]);
    assert!(entries[0].text.contains("more"), "{}", entries[0].text);
}

// ---------------------------------------------------------------------------
// Paths named by the docs.

/// The code of a markdown text: its fenced blocks and its code spans.
fn code_of_markdown(text: &str) -> Vec<String> {
    let mut code = Vec::new();
    let mut fence: Option<String> = None;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            match fence.take() {
                Some(block) => code.push(block),
                None => fence = Some(String::new()),
            }
            continue;
        }
        if let Some(block) = fence.as_mut() {
            block.push_str(line);
            block.push('\n');
        }
    }
    // Code spans, across line breaks (a span may wrap in the source).
    let mut prose = String::new();
    let mut in_fence = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
        } else if !in_fence {
            prose.push_str(line);
            prose.push('\n');
        }
    }
    let mut parts = prose.split('`');
    parts.next();
    while let Some(span) = parts.next() {
        code.push(span.to_owned());
        parts.next();
    }
    code
}

/// The top folders of the repository a doc's path may start with.
const REPO_FOLDERS: &[&str] = &[
    "scripts/", "src/", "tools/", "tests/", "docs/", "perft/", "fuzz/", ".ci/",
];

/// The repository paths a piece of code names: words starting with one of
/// [`REPO_FOLDERS`] (also after `$REPO/`, `./` or `NAME=`), without
/// trailing punctuation, anchors or line numbers. Placeholders (`<name>`,
/// `…`) are left out.
fn repo_paths(code: &str) -> Vec<String> {
    let mut paths = Vec::new();
    for word in code.split(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | '"' | '\'' | ','))
    {
        let word = word.rsplit('=').next().unwrap_or(word);
        let word = word
            .strip_prefix("$REPO/")
            .or_else(|| word.strip_prefix("./"))
            .unwrap_or(word);
        if !REPO_FOLDERS.iter().any(|f| word.starts_with(f)) {
            continue;
        }
        if word.contains(['<', '…', '{', '$']) {
            continue;
        }
        let word = word.split(['#', ':']).next().unwrap_or(word);
        let word = word.trim_end_matches(['.', ';', ']', '*']);
        let word = word.trim_end_matches('.');
        if !word.is_empty() {
            paths.push(word.to_owned());
        }
    }
    paths
}

/// The folders and files `.gitignore` keeps out of git by a plain name
/// (`/fuzz/corpus`, `target/`): what commands write, not what is committed.
fn ignored_by_git() -> Vec<String> {
    read(".gitignore")
        .lines()
        .map(|l| l.trim().trim_matches('/').to_owned())
        .filter(|l| !l.is_empty() && !l.starts_with('#') && !l.contains(['*', '?', '[', '!']))
        .collect()
}

/// Whether `path` (from the repository root; `*` matches within one name)
/// names something in the repository.
fn exists(path: &str) -> bool {
    if !path.contains('*') {
        return repo().join(path).exists();
    }
    let (dir, pattern) = path.rsplit_once('/').unwrap_or(("", path));
    if dir.contains('*') {
        return true;
    }
    let Ok(entries) = std::fs::read_dir(repo().join(dir)) else {
        return false;
    };
    let (before, after) = pattern.split_once('*').expect("a star");
    entries.flatten().any(|e| {
        let name = e.file_name().to_string_lossy().into_owned();
        name.len() >= before.len() + after.len()
            && name.starts_with(before)
            && name.ends_with(after.split('*').next_back().unwrap_or(""))
    })
}

#[test]
fn every_repository_path_the_docs_name_exists() {
    let ignored = ignored_by_git();
    let made_by_commands = |path: &str| {
        let path = path.trim_end_matches('/');
        ignored
            .iter()
            .any(|i| path == i || path.starts_with(&format!("{i}/")))
    };
    let mut problems = Vec::new();
    let mut checked = 0;
    for file in doc_files() {
        let text = std::fs::read_to_string(&file).expect("a readable doc");
        let name = file
            .strip_prefix(repo())
            .unwrap_or(&file)
            .display()
            .to_string();
        for code in code_of_markdown(&text) {
            for path in repo_paths(&code) {
                checked += 1;
                if !exists(&path) && !made_by_commands(&path) {
                    problems.push(format!("{name}: {path}"));
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} paths found in the docs");
    problems.sort();
    problems.dedup();
    assert_none(
        &problems,
        "paths the docs name that are not in the repository",
    );
}

#[test]
fn every_relative_link_of_the_docs_leads_somewhere() {
    let mut problems = Vec::new();
    for file in doc_files() {
        let text = std::fs::read_to_string(&file).expect("a readable doc");
        let name = file
            .strip_prefix(repo())
            .unwrap_or(&file)
            .display()
            .to_string();
        let dir = file.parent().expect("a doc is in a folder");
        for (i, _) in text.match_indices("](") {
            let rest = &text[i + 2..];
            let Some(end) = rest.find(')') else { continue };
            let target = &rest[..end];
            if target.is_empty()
                || target.starts_with('#')
                || target.contains("://")
                || target.starts_with("mailto:")
            {
                continue;
            }
            let path = target.split('#').next().unwrap_or(target);
            if !dir.join(path).exists() {
                problems.push(format!("{name}: link to {target}"));
            }
        }
    }
    assert_none(&problems, "links of the docs to nothing");
}

#[test]
fn no_committed_text_names_a_machine_folder() {
    // Built so that this file does not name them itself.
    let machine = [["/", "work/"].concat(), ["/", "tmp/"].concat()];
    let mut files = doc_files();
    for dir in [
        "scripts",
        "src",
        "tools/src",
        ".ci",
        "tests/client",
        "tests/stress",
    ] {
        let mut stack = vec![repo().join(dir)];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).expect("a readable folder") {
                let path = entry.expect("a directory entry").path();
                if path.is_dir() {
                    stack.push(path);
                } else {
                    files.push(path);
                }
            }
        }
    }
    for top in ["Makefile", "engine.toml", "Cargo.toml", "tools/Cargo.toml"] {
        files.push(repo().join(top));
    }
    let mut problems = Vec::new();
    for file in files {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        for (n, line) in text.lines().enumerate() {
            if machine.iter().any(|m| line.contains(m.as_str())) {
                let name = file.strip_prefix(repo()).unwrap_or(&file).display();
                problems.push(format!("{name}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert_none(
        &problems,
        "machine folders named (use paths from the repository)",
    );
}

#[test]
fn the_path_checks_see_paths_and_leave_placeholders() {
    let paths = repo_paths(
        "python3 scripts/match.py x; cat tests/data/suites/wac.epd, src/engine/ \
         --svg=docs/x.svg $REPO/scripts/nps.py ../bin/shears-<name> scripts/strength_*.py \
         src/eval/{a,b}.rs docs/engine.md#layout target/release/shears",
    );
    assert_eq!(
        paths,
        [
            "scripts/match.py",
            "tests/data/suites/wac.epd",
            "src/engine/",
            "docs/x.svg",
            "scripts/nps.py",
            "scripts/strength_*.py",
            "docs/engine.md",
        ]
    );
    assert!(exists("scripts/strength_*.py"));
    assert!(!exists("scripts/no_such_script.py"));
    let code = code_of_markdown("a `src/lib.rs` b\n```sh\nmake\n```\nc `x\ny` d\n");
    assert_eq!(code, ["make\n", "src/lib.rs", "x\ny"]);
}
