//! What the docs tests (`tests/docs.rs`, `tests/docs_facts.rs`) share,
//! included by each through a `#[path]`: where the repository is, which
//! files are the docs, and how a test reports every problem it found.

use std::path::{Path, PathBuf};

/// The repository root (the engine library's package folder).
pub fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Fails with every problem found, one a line.
pub fn assert_none(problems: &[String], what: &str) {
    assert!(problems.is_empty(), "{what}:\n{}", problems.join("\n"));
}

/// The docs: the README, CONTRIBUTING.md, perft/README.md and every
/// `.md` file under `docs/`, sorted.
pub fn doc_files() -> Vec<PathBuf> {
    let mut files = vec![
        repo().join("README.md"),
        repo().join("CONTRIBUTING.md"),
        repo().join("perft/README.md"),
    ];
    let mut stack = vec![repo().join("docs")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("docs/ is readable") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}
