//! Build script: the commit the binary is built from, for the headers of
//! the data files (`data/format/header.rs`), as the environment variable
//! `SHEARS_COMMIT` of the compilation: `4f179d7`, `4f179d7-dirty` when
//! the engine's or the tools' tracked sources differ from that commit, or
//! `unknown` outside a git checkout (a source archive) or without git.
//!
//! It runs again when the checkout moves to another commit or a source
//! file changes (both rebuild the tools crate anyway), not on every build.

#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// What a build's sources are compared with the commit on: everything
/// compiled into the binary (relative to the tools crate).
const SOURCES: [&str; 5] = [
    "../src",
    "src",
    "../Cargo.toml",
    "Cargo.toml",
    "../Cargo.lock",
];

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

fn main() {
    let dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    for source in SOURCES {
        println!("cargo::rerun-if-changed={source}");
    }
    let commit = match git(&dir, &["rev-parse", "--short=7", "HEAD"]) {
        Some(commit) if !commit.is_empty() => {
            let mut args = vec!["status", "--porcelain", "--untracked-files=no", "--"];
            args.extend(SOURCES);
            let dirty = git(&dir, &args).is_none_or(|changes| !changes.is_empty());
            watch_git(&dir);
            if dirty {
                format!("{commit}-dirty")
            } else {
                commit
            }
        }
        _ => "unknown".to_owned(),
    };
    println!("cargo::rustc-env=SHEARS_COMMIT={commit}");
}

/// Asks for a new run when HEAD moves: the HEAD file, the branch it names,
/// the packed refs and the index (a commit or a checkout changes one of
/// them). Only files that exist are named (cargo reruns a script on every
/// build for a missing one).
fn watch_git(dir: &Path) {
    let path = |args: &[&str]| git(dir, args).map(|p| dir.join(p));
    let (Some(git_dir), Some(common)) = (
        path(&["rev-parse", "--git-dir"]),
        path(&["rev-parse", "--git-common-dir"]),
    ) else {
        return;
    };
    let mut files = vec![git_dir.join("HEAD"), git_dir.join("index")];
    if let Ok(head) = std::fs::read_to_string(git_dir.join("HEAD"))
        && let Some(branch) = head.trim().strip_prefix("ref: ")
    {
        files.push(common.join(branch));
    }
    files.push(common.join("packed-refs"));
    for file in files.iter().filter(|f| f.exists()) {
        println!("cargo::rerun-if-changed={}", file.display());
    }
}
