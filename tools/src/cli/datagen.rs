//! `shears datagen`: self-play training data written to a game file
//! (the run is `crate::datagen`), with its progress on stderr.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::adjudication_args::AdjudicationArgs;
use super::eval_args::EvalArgs;
use crate::data::filter::MIN_PLY;
use crate::datagen::{self, Book, DatagenConfig, Openings};
use crate::util::progress::bar;
use shears::engine::options::Options;
use shears::search::MAX_DEPTH;

/// How often a run without a terminal reports its progress on stderr.
const LOG_EVERY: Duration = Duration::from_secs(60);

/// `shears datagen`.
#[derive(Debug, clap::Args)]
// A negative value after a space (`--nodes -5`) is a value, so that the
// option's own check names what is allowed.
#[command(allow_negative_numbers = true)]
pub struct DatagenArgs {
    /// The game file (created, or resumed): its name ends in `.games`
    /// (`shears data convert` makes packed or text files of it). An
    /// existing file that is not this run's own game file is refused.
    pub file: PathBuf,
    /// Games in the file at the end (games already there count).
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// Nodes per move (default 5000 when --depth is not given either; with
    /// both, a search stops at whichever comes first).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Depth of every move's search.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_DEPTH as i64))]
    pub depth: Option<u32>,
    /// Games played at once (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: Option<u32>,
    /// Seed of the openings: the same seed, book and settings give the same
    /// games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Opening book (PGN, or EPD when the name ends in `.epd`); may be
    /// given more than once. Game i starts from
    /// one of its lines (each line once before any twice, in the seed's
    /// order), then plays the random plies.
    #[arg(long = "book", value_name = "FILE")]
    pub books: Vec<PathBuf>,
    /// Random plies after the book line, or from the start position (odd
    /// games play one more) [default: 2 with a book, 8 without].
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=40))]
    pub random_plies: Option<u32>,
    /// Positions before this game ply are not kept (16: from move 9 on);
    /// the opening's own plies never are.
    #[arg(long, default_value_t = MIN_PLY, value_parser = clap::value_parser!(u32).range(0..=400))]
    pub min_ply: u32,
    /// Search each move first with this many nodes: a position the quiet
    /// filter drops anyway (in check, or the probe's move a capture, a
    /// promotion or a check) plays the probe's move, and only the others
    /// get the full search (default: no probe, every move searched in
    /// full).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub probe_nodes: Option<u64>,
    /// The evaluation both sides play with.
    #[command(flatten)]
    pub eval: EvalArgs,
    /// How games end before the rules end them.
    #[command(flatten)]
    pub adjudication: AdjudicationArgs,
}

/// The progress of a run: a bar on a terminal, else a line on stderr now
/// and then; both with the rates.
struct Progress {
    bar: indicatif::ProgressBar,
    start: Instant,
    games: AtomicU64,
    positions: AtomicU64,
    last_log: Mutex<Instant>,
    target: u64,
}

impl Progress {
    fn new(have: u64, target: u64) -> Progress {
        let bar = bar(
            target,
            "{bar:30} {pos}/{len} games {msg} {elapsed_precise} eta {eta}",
        );
        bar.set_position(have.min(target));
        let now = Instant::now();
        Progress {
            bar,
            start: now,
            games: AtomicU64::new(0),
            positions: AtomicU64::new(0),
            last_log: Mutex::new(now),
            target,
        }
    }

    /// `G games, P positions this run (X games/h, Y positions/h)`.
    fn rates(&self) -> String {
        let games = self.games.load(Ordering::Relaxed);
        let positions = self.positions.load(Ordering::Relaxed);
        let hours = self.start.elapsed().as_secs_f64().max(1e-3) / 3600.0;
        format!(
            "{games} games, {positions} positions this run ({:.0} games/h, {:.0} positions/h)",
            games as f64 / hours,
            positions as f64 / hours
        )
    }

    fn game_done(&self, positions: u64) {
        self.games.fetch_add(1, Ordering::Relaxed);
        self.positions.fetch_add(positions, Ordering::Relaxed);
        self.bar.inc(1);
        if !self.bar.is_hidden() {
            self.bar.set_message(self.rates());
            return;
        }
        let Ok(mut last) = self.last_log.lock() else {
            return;
        };
        if last.elapsed() >= LOG_EVERY {
            *last = Instant::now();
            eprintln!(
                "datagen: {}/{} games in the file; {}",
                self.bar.position(),
                self.target,
                self.rates()
            );
        }
    }
}

/// Runs `shears datagen`: exit 0 when the games are written, 2 on bad
/// input or a failed run.
pub(super) fn run(args: &DatagenArgs, settings: &Options) -> ExitCode {
    let file = &args.file;
    let evaluation = match args.eval.evaluation(settings) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("shears datagen: {e}");
            return ExitCode::from(2);
        }
    };
    let book = match Book::load(&args.books) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("shears datagen: {e}");
            return ExitCode::from(2);
        }
    };
    let random_plies = args.random_plies.unwrap_or(if book.is_empty() {
        datagen::RANDOM_PLIES
    } else {
        datagen::BOOK_RANDOM_PLIES
    });
    let nodes = match (args.nodes, args.depth) {
        (None, None) => Some(datagen::DEFAULT_NODES),
        (nodes, _) => nodes,
    };
    let config = DatagenConfig {
        games: args.games,
        nodes,
        depth: args.depth,
        threads: args
            .threads
            .map_or_else(rayon::current_num_threads, |t| t as usize),
        seed: args.seed,
        random_plies,
        min_ply: args.min_ply,
        adjudication: args.adjudication.rule(),
        probe_nodes: args.probe_nodes,
    };
    let openings = Openings::new(book, random_plies, args.seed);
    let header = datagen::run_header(&config, &openings, &evaluation);
    let existing = match datagen::resume(file, &header) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("shears datagen: {e}");
            return ExitCode::from(2);
        }
    };
    let have = existing.games;
    eprintln!(
        "{}: {have} games, {} moves already; playing {} more on {} threads ({}, {}{})",
        file.display(),
        existing.positions,
        args.games.saturating_sub(have),
        config.threads,
        config.describe(),
        openings.describe(),
        datagen::describe_evaluation(&evaluation)
    );
    let progress = Progress::new(have, args.games);
    let result = datagen::run(file, &config, &evaluation, &openings, &|game| {
        progress.game_done(game.positions.len() as u64);
    });
    progress.bar.finish_and_clear();
    match result {
        Ok((games, positions)) => {
            println!(
                "wrote {games} games, {positions} positions in {:.0} s to {} ({})",
                progress.start.elapsed().as_secs_f64(),
                file.display(),
                progress.rates()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("shears datagen: {e}");
            ExitCode::from(2)
        }
    }
}
