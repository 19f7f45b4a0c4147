//! The command line (clap): `shears` runs UCI; subcommands run bench
//! (`bench.rs`), perft, perft suites and EPD test suites (`suites.rs`),
//! datagen (`datagen.rs`), tune (`tune.rs`), spsa (`spsa.rs`), train
//! (`train.rs`), the data files' tools (`data.rs`), the nets' tools
//! (`net.rs`), tree and compare
//! (`theory.rs`), make and show opening books (`book.rs`), and tb, tb-play
//! and tb-gen (`tablebase.rs`). Each
//! command's arguments are one struct in its topic file, and each command
//! returns its process exit code. UCI commands given as arguments run as UCI
//! input, and `genfens` is answered in UCI mode (`uci_args.rs`). The
//! options `tune` and `train` share are one struct (`fit_args.rs`).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use shears::engine::config::Config;

mod adjudication_args;
mod bench;
mod book;
mod data;
mod datagen;
mod eval_args;
mod fit_args;
mod net;
mod spsa;
mod suites;
mod tablebase;
mod theory;
mod train;
mod tune;
mod uci_args;

pub use bench::{BenchArgs, BenchOrdering};
pub use book::BookCommand;
pub use data::{DataArgs, DataCommand};
pub use datagen::DatagenArgs;
pub use eval_args::EvalArgs;
pub use fit_args::FitArgs;
pub use net::{NetArgs, NetCommand, SetModelArgs, train_args};
pub use suites::{EpdArgs, PerftArgs, PerftSuiteArgs};
pub use tablebase::{TbArgs, TbGenArgs, TbPlayArgs};
pub use theory::{
    CliAlgorithm, CliLeaf, CliOrdering, CompareArgs, TheoryCliError, TreeArgs, TreeFormat,
};
pub use train::{CliSchedule, TrainArgs};
pub use tune::TuneArgs;
pub use uci_args::{run_uci_lines, uci_lines};

/// Shears, a UCI chess engine. With no subcommand it speaks UCI on
/// stdin/stdout. UCI commands given as arguments, one an argument, run as
/// its input (`shears "position startpos" "go depth 10"`; OpenBench's
/// `shears "genfens 10 seed 1 book None" quit`).
///
/// `--version` names the build as a game file's header does: the version
/// and the commit (`-dirty` when the sources differ from it).
#[derive(Debug, Parser)]
#[command(name = "shears", version = crate::data::format::header::BUILD, about)]
pub struct Cli {
    /// Settings file (default: ./engine.toml, else engine.toml next to the
    /// executable, else built-in defaults).
    #[arg(long, global = true, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// What to run (default: the UCI engine).
    #[command(subcommand)]
    pub command: Option<CliCommand>,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum CliCommand {
    /// Draw the tree a textbook search visits on a position (SVG, or
    /// Graphviz with --format dot): windows, values, bounds, MAX/MIN levels,
    /// the principal variation, and every cut-off as a greyed stub.
    Tree(TreeArgs),
    /// Measure minimax, alpha-beta (without and with ordering), NegaScout,
    /// SSS* and MTD(f) side by side: nodes, leaves, time, effective
    /// branching factor, first-move cut-offs, memory, value; with b^d and
    /// the minimal tree, and the engine's real search for reference.
    Compare(CompareArgs),
    /// Search the fixed bench positions to a fixed depth on one thread; the
    /// last line is `<nodes> nodes <nps> nps`.
    Bench(BenchArgs),
    /// Count the leaf nodes of the move tree to DEPTH; prints nodes, time and nps.
    Perft(PerftArgs),
    /// Check a perft suite (`FEN ;D1 n ;D2 n …` lines). Exit 0 when all pass,
    /// 1 on a mismatch, 2 on an unreadable file or a malformed line.
    PerftSuite(PerftSuiteArgs),
    /// Run an EPD test suite (`bm`/`am` lines): prints each failure and
    /// `solved X/Y` last. A point suite (STS: `c8`/`c9` points and UCI
    /// moves, or `c0 "SAN=points, …"`) also gets its points per theme (the
    /// `id` without its number) and `total: P/MAX (pct%)`. Exit 0 when the
    /// run completed, 2 on an unreadable file or malformed lines (the other
    /// lines still run).
    Epd(EpdArgs),
    /// Make a Polyglot opening book from PGN games, or show a book's moves.
    #[command(subcommand)]
    Book(BookCommand),
    /// Print what the Syzygy tables say about a position: its WDL and DTZ,
    /// and what every legal move leads to, best first.
    Tb(TbArgs),
    /// Play endgames out with Shears on both sides (a new search per
    /// move), and check each against the tables' verdict at the start: a
    /// win must end in a mate by the winning side, a draw in a draw.
    /// Prints each game and a summary (converted wins, held draws,
    /// failures). Exit 0 when every game ran, 2 on bad input.
    TbPlay(TbPlayArgs),
    /// Write a reproducible EPD of endgames from the materials of the
    /// tables, alternately won and drawn for the side to move (labelled by
    /// the tables), for tb-play.
    TbGen(TbGenArgs),
    /// Print the search tunables as OpenBench's SPSA input, one
    /// `name, int, value, min, max, step, learning-rate` line each. They are
    /// UCI options only in a build with `--features spsa`.
    Spsa,
    /// Generate training data: self-play games from a book line and random
    /// plies at a fixed node budget or depth, appended to FILE in game order:
    /// a game file (a name ending in `.games`; whole games, each move with
    /// its score; `shears data convert` makes packed or text files of it).
    /// Stop it at any time; run it again to resume.
    Datagen(DatagenArgs),
    /// Fit the evaluation weights to data files from `datagen` (Texel tuning
    /// with Adam, against a blend of the game results and the search scores:
    /// the target, K and held-out games of `train`) and write them as Rust
    /// source.
    Tune(TuneArgs),
    /// Train the learned evaluation (NNUE, docs/nnue.md) on data files
    /// from `datagen` and write it as a net file the engine loads.
    Train(TrainArgs),
    /// The data files: stats, verify against the manifest, convert a game
    /// file, convert match PGNs into a game file.
    Data(DataArgs),
    /// The nets: list the manifest's, show a net file, make a net again
    /// from its manifest entry and compare (verify), write a score model
    /// into a net file.
    Net(NetArgs),
}

/// Runs the parsed command line. UCI mode starts whatever engine.toml
/// holds (see [`shears::uci::run_lines`]); the other commands refuse a bad one.
pub fn run(cli: Cli) -> ExitCode {
    let Some(command) = cli.command else {
        let (config, problems) = Config::discover_lenient(cli.config.as_deref());
        return uci_args::run_stdin(&config, &problems);
    };
    let config = match Config::discover(cli.config.as_deref()) {
        Ok(config) => config,
        Err(e) => return fail(&e),
    };
    match command {
        CliCommand::Tree(args) => theory::run_tree(&args),
        CliCommand::Compare(args) => theory::run_compare(&args),
        CliCommand::Bench(args) => bench::run(&args),
        CliCommand::Perft(args) => suites::run_perft(&args),
        CliCommand::PerftSuite(args) => suites::run_perft_suite(&args),
        CliCommand::Epd(args) => suites::run_epd(&args, &config.options),
        CliCommand::Book(command) => book::run(command, &config),
        CliCommand::Tb(args) => tablebase::run_tb(&args, &config),
        CliCommand::TbPlay(args) => tablebase::run_tb_play(&args, &config),
        CliCommand::TbGen(args) => tablebase::run_tb_gen(&args, &config),
        CliCommand::Spsa => spsa::run(),
        CliCommand::Datagen(args) => datagen::run(&args, &config.options),
        CliCommand::Tune(args) => tune::run(&args),
        CliCommand::Train(args) => train::run(&args),
        CliCommand::Data(args) => data::run(&args),
        CliCommand::Net(args) => net::run(&args),
    }
}

/// Prints `e` and gives exit code 2.
fn fail(e: &dyn std::fmt::Display) -> ExitCode {
    eprintln!("shears: {e}");
    ExitCode::from(2)
}
