//! Where the test Syzygy tables are: `$SHEARS_SYZYGY`, else
//! `../shared/syzygy` beside the repository (CI has it there), else beside
//! the main checkout when this is a git worktree of it. Tests that need
//! them are skipped, with a message, when none is found.
//!
//! Both crates' tests use this file: the library's (tests/) and the tools'
//! (tools/tests/, through a `#[path]`), so the repository is found from the
//! crate's folder by its `Cargo.lock`, which only the workspace root has.

use std::path::{Path, PathBuf};

/// The environment variable that names the test tables' folder.
pub const SYZYGY_ENV: &str = "SHEARS_SYZYGY";

/// The folder of the test tables, if there is one.
pub fn syzygy_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os(SYZYGY_ENV) {
        let dir = PathBuf::from(dir);
        return dir.is_dir().then_some(dir);
    }
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = crate_dir
        .ancestors()
        .find(|d| d.join("Cargo.lock").is_file())
        .unwrap_or(crate_dir);
    let mut candidates = vec![root.join("../shared/syzygy")];
    // A worktree's `.git` is a file: `gitdir: <main>/.git/worktrees/<name>`.
    if let Ok(text) = std::fs::read_to_string(root.join(".git"))
        && let Some(gitdir) = text.trim().strip_prefix("gitdir: ")
        && let Some(main_git) = Path::new(gitdir).ancestors().find(|p| p.ends_with(".git"))
        && let Some(main) = main_git.parent()
    {
        candidates.push(main.join("../shared/syzygy"));
    }
    candidates
        .into_iter()
        .find(|d| d.join("KRvK.rtbw").is_file())
}

/// The tables' folder, or `None` after printing why the test is skipped.
pub fn syzygy_or_skip(test: &str) -> Option<PathBuf> {
    let dir = syzygy_dir();
    if dir.is_none() {
        eprintln!(
            "{test}: skipped: no Syzygy tables (set {SYZYGY_ENV}, or put them in ../shared/syzygy)"
        );
    }
    dir
}
