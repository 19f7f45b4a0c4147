//! The suite commands: `perft`, `perft-suite` and `epd` (with the points
//! of a point suite such as STS by theme).

use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use indicatif::ProgressBar;

use crate::epd::{parse_epd, run_suite, solved_count, theme_scores};
use crate::epd_points::report_lines;
use crate::perft_suite::{check_suite, parse_suite};
use crate::progress;
use shears::chess::perft::{self, PerftTable};
use shears::chess::{Position, START_FEN, fen_needs_chess960, move_to_uci};
use shears::search::SearchLimits;

pub(super) fn run_perft(
    depth: u32,
    fen: Option<String>,
    divide: bool,
    threads: u32,
    hash: u32,
) -> ExitCode {
    let fen = fen.unwrap_or_else(|| START_FEN.to_owned());
    let chess960 = fen_needs_chess960(&fen);
    let pos = match Position::from_fen(&fen, chess960) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("shears perft: --fen: {e}");
            return ExitCode::from(2);
        }
    };
    let table = match (hash > 0)
        .then(|| PerftTable::new(hash as usize))
        .transpose()
    {
        Ok(table) => table,
        Err(e) => {
            eprintln!("shears perft: --hash: {e}");
            return ExitCode::from(2);
        }
    };
    let start = Instant::now();
    let counts = perft::with_threads(threads as usize, || {
        perft::divide(&pos, depth, table.as_ref())
    });
    let elapsed = start.elapsed();
    if divide {
        for (m, n) in &counts {
            println!("{}: {n}", move_to_uci(*m, chess960));
        }
        println!();
    }
    let nodes: u64 = counts.iter().map(|(_, n)| n).sum();
    let nps = (nodes as u128 * 1_000_000_000 / elapsed.as_nanos().max(1)) as u64;
    println!("nodes {nodes} time {} ms nps {nps}", elapsed.as_millis());
    ExitCode::SUCCESS
}

/// A suite file as text (bytes that are not UTF-8 replaced), or `None`
/// after telling the user it cannot be read.
fn read_suite(file: &Path, command: &str) -> Option<String> {
    match std::fs::read(file) {
        Ok(bytes) => Some(String::from_utf8_lossy(&bytes).into_owned()),
        Err(e) => {
            eprintln!("shears {command}: {}: cannot read: {e}", file.display());
            None
        }
    }
}

/// A progress bar over `len` positions.
fn progress_bar(len: usize) -> ProgressBar {
    progress::bar(
        len as u64,
        "{bar:40} {pos}/{len} positions {elapsed_precise} eta {eta}",
    )
}

pub(super) fn run_perft_suite(
    file: &Path,
    max_depth: Option<u32>,
    max_nodes: Option<u64>,
    threads: Option<u32>,
) -> ExitCode {
    let Some(text) = read_suite(file, "perft-suite") else {
        return ExitCode::from(2);
    };
    let (entries, errors) = parse_suite(&text);
    for e in &errors {
        println!("{}: {e}", file.display());
    }
    let bar = progress_bar(entries.len());
    let threads = threads.map_or_else(rayon::current_num_threads, |t| t as usize);
    let mismatches = perft::with_threads(threads, || {
        check_suite(&entries, max_depth, max_nodes, &|| bar.inc(1))
    });
    bar.finish_and_clear();
    for m in &mismatches {
        println!("{m}");
    }
    let mut failed_lines: Vec<usize> = mismatches.iter().map(|m| m.line).collect();
    failed_lines.dedup();
    let total = entries.len() + errors.len();
    println!(
        "passed {}/{} positions",
        entries.len() - failed_lines.len(),
        total
    );
    if !errors.is_empty() {
        ExitCode::from(2)
    } else if !mismatches.is_empty() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

pub(super) fn run_epd(
    file: &Path,
    limits: &SearchLimits,
    threads: Option<u32>,
    hash: u32,
) -> ExitCode {
    let Some(text) = read_suite(file, "epd") else {
        return ExitCode::from(2);
    };
    let (entries, errors) = parse_epd(&text);
    for e in &errors {
        println!("{}: {e}", file.display());
    }
    let bar = progress_bar(entries.len());
    let threads = threads.map_or_else(rayon::current_num_threads, |t| t as usize);
    let results = run_suite(&entries, limits, hash as usize, threads, &|_| bar.inc(1));
    bar.finish_and_clear();
    let results = match results {
        Ok(r) => r,
        Err(e) => {
            eprintln!("shears epd: {e}");
            return ExitCode::from(2);
        }
    };
    for r in results.iter().filter(|r| !r.solved) {
        println!("{r}");
    }
    for line in report_lines(&theme_scores(&results)) {
        println!("{line}");
    }
    println!("solved {}/{}", solved_count(&results), results.len());
    if errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    }
}
