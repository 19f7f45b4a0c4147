//! The crate's layering, checked on its source: dependencies point one way
//! and no module imports, through any chain, from itself.
//!
//! Every file under `src/` is a module (`a/mod.rs` is `a`, `a/b.rs` is
//! `a::b`). A module depends on another when its code (tests left out)
//! names a path into it: `use crate::…`, `use super::…`, `use self::…`,
//! or a path written out in an expression. `mod x;` declares a child and is
//! not a dependency. A path is resolved to the longest module it names, so
//! `crate::chess::Position` is the module `chess` (its `mod.rs`, which
//! re-exports) and `crate::chess::position::Position` is `chess::position`.
//!
//! Two properties:
//!
//! - **No cycles** between modules. Siblings import each other by their own
//!   paths (`super::sibling::Item`), never through their parent's
//!   re-exports, and a `mod.rs` holds declarations, re-exports and at most
//!   items its children do not need.
//! - **Layers point down**: `error`, `chess`, `tb`, `eval`, `search`,
//!   `book`, `engine`, `uci`, `tools`, in that order, each using only those
//!   before it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, lowest first.
const LAYERS: &[&str] = &[
    "error", "chess", "tb", "eval", "search", "book", "engine", "uci", "tools",
];

/// A module path, such as `["search", "tt"]`.
type ModPath = Vec<String>;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable") {
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

fn graph() -> BTreeMap<ModPath, BTreeSet<ModPath>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
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
    let edges = graph();
    assert!(edges.len() > 50, "only {} modules found", edges.len());
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
            visit(m, &edges, &mut state, &mut Vec::new(), &mut cycles);
        }
    }
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

#[test]
fn layers_depend_only_on_the_layers_below() {
    let rank = |m: &ModPath| {
        m.first()
            .and_then(|top| LAYERS.iter().position(|l| l == top))
    };
    let mut wrong = Vec::new();
    for (from, targets) in graph() {
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
