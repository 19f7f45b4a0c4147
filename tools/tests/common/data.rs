//! What the data commands' tests share: a short `datagen` run through the
//! binary, and a written file's bytes.

use std::path::Path;
use std::process::Output;

use super::{run_cli, text};

/// `shears datagen FILE --games GAMES --nodes NODES --threads THREADS`
/// then `extra`, run in `dir`; its output, whatever its exit code.
pub fn run_datagen(
    dir: &Path,
    file: &str,
    games: &str,
    nodes: &str,
    threads: &str,
    extra: &[&str],
) -> Output {
    let mut args = vec![
        "datagen",
        file,
        "--games",
        games,
        "--nodes",
        nodes,
        "--threads",
        threads,
    ];
    args.extend_from_slice(extra);
    run_cli(dir, &args)
}

/// A short datagen run into `file` in `dir` on `threads` threads (300
/// nodes a move, seed 11, then `extra`), which must succeed.
pub fn datagen(dir: &Path, file: &str, games: &str, threads: &str, extra: &[&str]) -> Output {
    let mut args = vec!["--seed", "11"];
    args.extend_from_slice(extra);
    let out = run_datagen(dir, file, games, "300", threads, &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    out
}

/// The bytes of `file` in `dir`.
pub fn read(dir: &Path, file: &str) -> Vec<u8> {
    std::fs::read(dir.join(file)).unwrap()
}
