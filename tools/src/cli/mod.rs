//! The command line (clap): `shears` runs UCI; subcommands run bench, perft,
//! perft suites and EPD test suites (`suites.rs`), datagen and tune
//! (`train.rs`), the data files' tools (`data.rs`), tree and compare
//! (`theory.rs`), make and show opening books (`book.rs`), and tb, tb-play
//! and tb-gen (`tablebase.rs`). Each command returns its process exit
//! code. UCI commands given as arguments run as UCI input, and `genfens`
//! is answered in UCI mode (`uci_args.rs`).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{ArgGroup, Parser, Subcommand};

use crate::epd;
use crate::theory::compare::CompareConfig;
use shears::engine::bench;
use shears::engine::config::Config;
use shears::search::OrderingStep;
use shears::search::params::SearchConfig;
use shears::search::theory::TheoryConfig;
use shears::search::{SearchLimits, Signals};

mod book;
mod data;
mod suites;
mod tablebase;
mod theory;
mod train;
mod uci_args;

pub use book::BookCommand;
pub use data::{DataArgs, DataCommand};
pub use tablebase::{TbArgs, TbGenArgs, TbPlayArgs};
pub use theory::{CliAlgorithm, CliLeaf, CliOrdering, TheoryCliError, TreeFormat};
pub use train::{DatagenArgs, TuneArgs};
pub use uci_args::{run_uci_lines, uci_lines};

/// Shears, a UCI chess engine. With no subcommand it speaks UCI on
/// stdin/stdout. UCI commands given as arguments, one an argument, run as
/// its input (`shears "position startpos" "go depth 10"`; OpenBench's
/// `shears "genfens 10 seed 1 book None" quit`).
#[derive(Debug, Parser)]
#[command(name = "shears", version, about)]
pub struct Cli {
    /// Settings file (default: ./engine.toml, else engine.toml next to the
    /// executable, else built-in defaults).
    #[arg(long, global = true, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// What to run (default: the UCI engine).
    #[command(subcommand)]
    pub command: Option<CliCommand>,
}

/// Move-ordering steps for `bench --ordering`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum BenchOrdering {
    /// Generation order (no TT move first either).
    None,
    /// TT move, then captures by MVV-LVA.
    Mvv,
    /// Plus SEE: losing captures last.
    See,
    /// Plus killers and countermove.
    Killers,
    /// Plus history for quiets.
    History,
    /// Plus quiet checks first: the engine's ordering.
    Full,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum CliCommand {
    /// Draw the tree a textbook search visits on a position (SVG, or
    /// Graphviz with --format dot): windows, values, bounds, MAX/MIN levels,
    /// the principal variation, and every cut-off as a greyed stub.
    Tree {
        /// The position (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Search depth in plies (the default picture fits one screen;
        /// depth 3 with --max-width 5 is some 12,000 px tall).
        #[arg(long, default_value_t = theory::DEFAULT_TREE_DEPTH, value_parser = clap::value_parser!(u32).range(1..=theory::MAX_TREE_DEPTH))]
        depth: u32,
        /// The search algorithm.
        #[arg(long, value_enum, default_value_t = CliAlgorithm::Alphabeta)]
        algorithm: CliAlgorithm,
        /// The move ordering.
        #[arg(long, value_enum, default_value_t = CliOrdering::MvvLva)]
        ordering: CliOrdering,
        /// What a horizon node is worth.
        #[arg(long, value_enum, default_value_t = CliLeaf::Eval)]
        leaf: CliLeaf,
        /// Children drawn per node before the rest fold into one "+N more"
        /// box (the principal variation and the child that made a cut-off
        /// are always drawn); 0 draws all.
        #[arg(long, default_value_t = theory::DEFAULT_TREE_WIDTH)]
        max_width: usize,
        /// File format.
        #[arg(long, value_enum, default_value_t = TreeFormat::Svg)]
        format: TreeFormat,
        /// Output file.
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: PathBuf,
        /// Most nodes recorded; a larger tree is an error.
        #[arg(long, default_value_t = 2_000_000, value_parser = clap::value_parser!(u64).range(1..=50_000_000))]
        max_nodes: u64,
    },
    /// Measure minimax, alpha-beta (without and with ordering), NegaScout,
    /// SSS* and MTD(f) side by side: nodes, leaves, time, effective
    /// branching factor, first-move cut-offs, memory, value; with b^d and
    /// the minimal tree, and the engine's real search for reference.
    #[command(group(ArgGroup::new("positions").args(["fen", "suite", "bench"])))]
    Compare {
        /// One position (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// A file of positions, one FEN (or EPD line) per line; totals over them.
        #[arg(long, value_name = "FILE")]
        suite: Option<PathBuf>,
        /// The bench positions.
        #[arg(long)]
        bench: bool,
        /// Search depth in plies.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=theory::MAX_COMPARE_DEPTH))]
        depth: u32,
        /// The ordering of every row but "alpha-beta (none)".
        #[arg(long, value_enum, default_value_t = CliOrdering::Full)]
        ordering: CliOrdering,
        /// What a horizon node is worth.
        #[arg(long, value_enum, default_value_t = CliLeaf::Eval)]
        leaf: CliLeaf,
        /// Node budget of one row (all positions together); a row past it
        /// is shown "over budget" and not run deeper.
        #[arg(long, default_value_t = 50_000_000, value_parser = clap::value_parser!(u64).range(1..))]
        max_nodes: u64,
        /// Also draw nodes against depth (log scale) to this SVG file; runs
        /// and prints every depth from 1.
        #[arg(long, value_name = "FILE")]
        plot: Option<PathBuf>,
        /// Leave out the engine's real search.
        #[arg(long)]
        no_engine: bool,
    },
    /// Search the fixed bench positions to a fixed depth on one thread; the
    /// last line is `<nodes> nodes <nps> nps`.
    Bench {
        /// Search depth.
        #[arg(long, default_value_t = bench::DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=64))]
        depth: u32,
        /// The depth as a bare word (`shears bench 13`, as the UCI command
        /// `bench 13` and Stockfish take it); the same as --depth.
        #[arg(value_name = "DEPTH", conflicts_with = "depth", value_parser = clap::value_parser!(u32).range(1..=64))]
        depth_word: Option<u32>,
        /// Use the move ordering only up to this step (to measure what each
        /// step buys); the engine plays with `full`.
        #[arg(long, value_enum, default_value_t = BenchOrdering::Full)]
        ordering: BenchOrdering,
        /// Turn the transposition table off (probes and stores).
        #[arg(long)]
        no_tt: bool,
    },
    /// Count the leaf nodes of the move tree to DEPTH; prints nodes, time and nps.
    Perft {
        /// Depth in plies.
        #[arg(value_parser = clap::value_parser!(u32).range(1..=20))]
        depth: u32,
        /// Start position (default: the standard start position). Chess960
        /// is recognised from the castling field.
        #[arg(long)]
        fen: Option<String>,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
        /// Worker threads.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: u32,
        /// Size in MB of a table of subtree counts (0: none); speeds up deep runs.
        #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=65536))]
        hash: u32,
    },
    /// Check a perft suite (`FEN ;D1 n ;D2 n …` lines). Exit 0 when all pass,
    /// 1 on a mismatch, 2 on an unreadable file or a malformed line.
    PerftSuite {
        /// The suite file.
        file: PathBuf,
        /// Skip depths beyond this.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=20))]
        max_depth: Option<u32>,
        /// Skip depths whose expected count is larger than this.
        #[arg(long)]
        max_nodes: Option<u64>,
        /// Worker threads (default: all cores).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: Option<u32>,
    },
    /// Run an EPD test suite (`bm`/`am` lines): prints each failure and
    /// `solved X/Y` last. A point suite (STS: `c8`/`c9` points and UCI
    /// moves, or `c0 "SAN=points, …"`) also gets its points per theme (the
    /// `id` without its number) and `total: P/MAX (pct%)`. Exit 0 when the
    /// run completed, 2 on an unreadable file or malformed lines (the other
    /// lines still run).
    #[command(group(ArgGroup::new("limit").args(["movetime", "depth", "nodes"])))]
    Epd {
        /// The suite file.
        file: PathBuf,
        /// Time per position in ms (the default, 1000, when no limit is given).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        movetime: Option<u64>,
        /// Depth per position.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=shears::search::MAX_DEPTH as i64))]
        depth: Option<u32>,
        /// Nodes per position.
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        nodes: Option<u64>,
        /// Positions searched at once, each on one search thread (default:
        /// all cores).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: Option<u32>,
        /// Hash table size in MB of each search.
        #[arg(long, default_value_t = epd::DEFAULT_HASH_MB as u32, value_parser = clap::value_parser!(u32).range(1..=65536))]
        hash: u32,
    },
    /// Make a Polyglot opening book from PGN games, or show a book's moves.
    Book {
        /// What to do with the book.
        #[command(subcommand)]
        command: BookCommand,
    },
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
    /// plies at a fixed node budget or depth, appended to FILE in game order
    /// (whole games in a `.games` file, kept positions in a `.bin` or text
    /// file). Stop it at any time; run it again to resume.
    Datagen(DatagenArgs),
    /// Fit the evaluation weights to data files from `datagen` (Texel tuning
    /// with Adam, against the results or a blend with the search scores)
    /// and write them as Rust source.
    Tune(TuneArgs),
    /// The data files: stats, verify against the manifest, convert a game
    /// file, convert match PGNs into a game file.
    Data(DataArgs),
}

/// Runs the parsed command line. UCI mode starts whatever engine.toml
/// holds (see [`shears::uci::run_lines`]); the other commands refuse a bad one.
pub fn run(cli: Cli) -> ExitCode {
    let Some(command) = cli.command else {
        let (config, problems) = Config::discover_lenient(cli.config.as_deref());
        return uci_args::run_stdin(&config, &problems);
    };
    let config = match Config::discover(cli.config.as_deref()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("shears: {e}");
            return ExitCode::from(2);
        }
    };
    match command {
        CliCommand::Bench {
            depth,
            depth_word,
            ordering,
            no_tt,
        } => {
            let depth = depth_word.unwrap_or(depth);
            let config = SearchConfig {
                ordering: ordering != BenchOrdering::None,
                ordering_step: match ordering {
                    BenchOrdering::None | BenchOrdering::Mvv => OrderingStep::MvvLva,
                    BenchOrdering::See => OrderingStep::See,
                    BenchOrdering::Killers => OrderingStep::Killers,
                    BenchOrdering::History => OrderingStep::History,
                    BenchOrdering::Full => OrderingStep::Full,
                },
                tt: !no_tt,
                ..SearchConfig::default()
            };
            let signals = Signals::new(false);
            let result = bench::run_with(depth, config, &signals, &mut |p| println!("{p}"));
            for line in result.report() {
                println!("{line}");
            }
            println!("{}", result.summary());
            ExitCode::SUCCESS
        }
        CliCommand::Tree {
            fen,
            depth,
            algorithm,
            ordering,
            leaf,
            max_width,
            format,
            output,
            max_nodes,
        } => theory::run_tree(&theory::TreeArgs {
            fen,
            depth,
            config: TheoryConfig {
                algorithm: algorithm.into(),
                ordering: ordering.into(),
                leaf: leaf.into(),
            },
            max_width,
            format,
            output,
            max_nodes: max_nodes as usize,
        }),
        CliCommand::Compare {
            fen,
            suite,
            bench,
            depth,
            ordering,
            leaf,
            max_nodes,
            plot,
            no_engine,
        } => theory::run_compare(&theory::CompareArgs {
            fen,
            suite,
            bench,
            depth,
            config: CompareConfig {
                ordering: ordering.into(),
                leaf: leaf.into(),
                max_nodes,
                engine: !no_engine,
            },
            plot,
        }),
        CliCommand::Perft {
            depth,
            fen,
            divide,
            threads,
            hash,
        } => suites::run_perft(depth, fen, divide, threads, hash),
        CliCommand::PerftSuite {
            file,
            max_depth,
            max_nodes,
            threads,
        } => suites::run_perft_suite(&file, max_depth, max_nodes, threads),
        CliCommand::Epd {
            file,
            movetime,
            depth,
            nodes,
            threads,
            hash,
        } => {
            let mut limits = SearchLimits {
                depth,
                nodes,
                ..SearchLimits::default()
            };
            if depth.is_none() && nodes.is_none() {
                limits.clock.movetime = Some(movetime.unwrap_or(epd::DEFAULT_MOVETIME_MS));
            }
            suites::run_epd(&file, &limits, threads, hash)
        }
        CliCommand::Book { command } => book::run(command, &config),
        CliCommand::Tb(args) => tablebase::run_tb(&args, &config),
        CliCommand::TbPlay(args) => tablebase::run_tb_play(&args, &config),
        CliCommand::TbGen(args) => tablebase::run_tb_gen(&args, &config),
        CliCommand::Spsa => {
            for spec in shears::search::tunable_specs() {
                println!("{}", spec.openbench_line());
            }
            if !shears::search::TUNABLE_AT_RUN_TIME {
                eprintln!(
                    "shears: this build has the tunables as constants, not as UCI options; \
                     tune a build made with `cargo build --release --features spsa` \
                     (or `make FEATURES=spsa`)"
                );
            }
            ExitCode::SUCCESS
        }
        CliCommand::Datagen(args) => train::run_datagen(&args),
        CliCommand::Tune(args) => train::run_tune(&args),
        CliCommand::Data(args) => data::run(&args),
    }
}
