//! The suite commands: `perft`, `perft-suite` and `epd` (with the points
//! of a point suite such as STS by theme).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use indicatif::ProgressBar;

use super::eval_args::EvalArgs;
use crate::suites::epd::{
    DEFAULT_HASH_MB, DEFAULT_MOVETIME_MS, parse_epd, run_suite, solved_count, theme_scores,
};
use crate::suites::epd_points::report_lines;
use crate::suites::perft::{check_suite, parse_suite};
use crate::util::progress;
use shears::chess::perft::{self, PerftTable};
use shears::chess::{Position, START_FEN, fen_needs_chess960, move_to_uci};
use shears::engine::options::Options;
use shears::search::{MAX_DEPTH, SearchLimits};

/// `shears perft`.
#[derive(Debug, clap::Args)]
pub struct PerftArgs {
    /// Depth in plies.
    #[arg(value_parser = clap::value_parser!(u32).range(1..=20))]
    pub depth: u32,
    /// Start position (default: the standard start position). Chess960
    /// is recognised from the castling field.
    #[arg(long)]
    pub fen: Option<String>,
    /// Print the count below each root move.
    #[arg(long)]
    pub divide: bool,
    /// Worker threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Size in MB of a table of subtree counts (0: none); speeds up deep runs.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=65536))]
    pub hash: u32,
}

/// `shears perft-suite`.
#[derive(Debug, clap::Args)]
pub struct PerftSuiteArgs {
    /// The suite file.
    pub file: PathBuf,
    /// Skip depths beyond this.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=20))]
    pub max_depth: Option<u32>,
    /// Skip depths whose expected count is larger than this.
    #[arg(long)]
    pub max_nodes: Option<u64>,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: Option<u32>,
}

/// `shears epd`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("limit").args(["movetime", "depth", "nodes"])))]
pub struct EpdArgs {
    /// The suite file.
    pub file: PathBuf,
    /// Time per position in ms (the default, 1000, when no limit is given).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: Option<u64>,
    /// Depth per position.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_DEPTH as i64))]
    pub depth: Option<u32>,
    /// Nodes per position.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Positions searched at once, each on one search thread (default:
    /// all cores).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: Option<u32>,
    /// Hash table size in MB of each search.
    #[arg(long, default_value_t = DEFAULT_HASH_MB as u32, value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub hash: u32,
    /// The evaluation the searches play with.
    #[command(flatten)]
    pub eval: EvalArgs,
}

impl EpdArgs {
    /// Each position's limits: the depth and nodes given, and the move
    /// time given (or the default one) when neither is.
    pub fn limits(&self) -> SearchLimits {
        let mut limits = SearchLimits {
            depth: self.depth,
            nodes: self.nodes,
            ..SearchLimits::default()
        };
        if self.depth.is_none() && self.nodes.is_none() {
            limits.clock.movetime = Some(self.movetime.unwrap_or(DEFAULT_MOVETIME_MS));
        }
        limits
    }
}

/// `shears perft`.
pub(super) fn run_perft(args: &PerftArgs) -> ExitCode {
    let PerftArgs {
        depth,
        divide,
        threads,
        hash,
        ..
    } = *args;
    let fen = args.fen.as_deref().unwrap_or(START_FEN);
    let chess960 = fen_needs_chess960(fen);
    let pos = match Position::from_fen(fen, chess960) {
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

/// `shears perft-suite`.
pub(super) fn run_perft_suite(args: &PerftSuiteArgs) -> ExitCode {
    let PerftSuiteArgs {
        ref file,
        max_depth,
        max_nodes,
        threads,
    } = *args;
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

/// `shears epd`.
pub(super) fn run_epd(args: &EpdArgs, settings: &Options) -> ExitCode {
    let file = &args.file;
    let evaluation = match args.eval.evaluation(settings) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("shears epd: {e}");
            return ExitCode::from(2);
        }
    };
    let Some(text) = read_suite(file, "epd") else {
        return ExitCode::from(2);
    };
    let (entries, errors) = parse_epd(&text);
    for e in &errors {
        println!("{}: {e}", file.display());
    }
    let bar = progress_bar(entries.len());
    let threads = args
        .threads
        .map_or_else(rayon::current_num_threads, |t| t as usize);
    let results = run_suite(
        &entries,
        &args.limits(),
        &evaluation,
        args.hash as usize,
        threads,
        &|_| bar.inc(1),
    );
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
