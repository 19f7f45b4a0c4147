//! The training commands: `datagen` (self-play data), `tune` (fit the
//! evaluation weights to it) and `spsa` (the search tunables for
//! OpenBench's SPSA tuner).

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::bench;
use super::fit_args::FitArgs;
use crate::data::{Target, split_games};
use crate::datagen::{self, Book, DatagenConfig, Openings};
use crate::progress::bar;
use crate::tune;
use shears::engine::options::Options;
use shears::eval::is_built_in;
use shears::search::{MAX_DEPTH, TUNABLE_AT_RUN_TIME, tunable_specs};

/// How often a run without a terminal reports its progress on stderr.
const LOG_EVERY: Duration = Duration::from_secs(60);

/// `shears datagen`.
#[derive(Debug, clap::Args)]
// A negative value after a space (`--lr -1`) is a value, so that the
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
    #[arg(long, default_value_t = datagen::MIN_PLY, value_parser = clap::value_parser!(u32).range(0..=400))]
    pub min_ply: u32,
    /// Play with the net (the built-in one, or --eval-file's) instead of
    /// the hand-crafted evaluation (or `Use NNUE = true` in engine.toml).
    #[arg(long)]
    pub nnue: bool,
    /// The net for --nnue (default: engine.toml's `EvalFile`, else the
    /// one built into the engine).
    #[arg(long, value_name = "FILE", requires = "nnue")]
    pub eval_file: Option<PathBuf>,
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

pub(super) fn run_datagen(args: &DatagenArgs, settings: &Options) -> ExitCode {
    let file = &args.file;
    // The flags first, else engine.toml's Use NNUE and EvalFile.
    let nnue = args.nnue || settings.use_nnue();
    let eval_file = args.eval_file.clone().or_else(|| {
        let name = settings.eval_file();
        (!is_built_in(name)).then(|| PathBuf::from(name))
    });
    let evaluation = match bench::evaluation(nnue, eval_file.as_ref()) {
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

/// `shears tune`.
#[derive(Debug, clap::Args)]
// A negative value after a space (`--lr -1`) is a value, so that the
// option's own check names what is allowed.
#[command(allow_negative_numbers = true)]
pub struct TuneArgs {
    /// Data files: game files (`.games`), packed records (`.bin`) or text.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Full-batch Adam steps.
    #[arg(long, default_value_t = 2_000, value_parser = clap::value_parser!(u32).range(1..))]
    pub epochs: u32,
    /// Adam step size, centipawns.
    #[arg(long, default_value_t = 1.0)]
    pub rate: f64,
    /// L2 penalty on each weight's distance from its anchor
    /// (`--l2-anchor`).
    #[arg(long, default_value_t = 0.0)]
    pub l2: f64,
    /// What the L2 penalty pulls toward: each weight's current value, or
    /// zero.
    #[arg(long, value_enum, default_value_t = CliAnchor::Start)]
    pub l2_anchor: CliAnchor,
    /// λ, K, the held-out games, the first N positions, the threads: the
    /// options `train` shares.
    #[command(flatten)]
    pub fit: FitArgs,
    /// Fit only this weight group (a name of `eval/hce/layout.rs`, e.g.
    /// `KNIGHT_OUTPOST`; repeat for several): every other weight keeps its
    /// current value. A new term is fitted on top of the committed weights.
    #[arg(long, value_name = "GROUP")]
    pub only: Vec<String>,
    /// Where to write the weights (the engine's own file by default).
    #[arg(long, default_value = "src/eval/hce/weights.rs")]
    pub out: PathBuf,
}

/// `--l2-anchor`: what the L2 penalty pulls toward.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CliAnchor {
    /// Each weight's current value.
    Start,
    /// Zero.
    Zero,
}

impl From<CliAnchor> for tune::L2Anchor {
    fn from(a: CliAnchor) -> tune::L2Anchor {
        match a {
            CliAnchor::Start => tune::L2Anchor::Start,
            CliAnchor::Zero => tune::L2Anchor::Zero,
        }
    }
}

pub(super) fn run_tune(args: &TuneArgs) -> ExitCode {
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(args.fit.threads())
        .build()
    {
        Ok(p) => p,
        Err(e) => {
            eprintln!("shears tune: cannot start threads: {e}");
            return ExitCode::from(2);
        }
    };
    pool.install(|| match tune_with(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("shears tune: {e}");
            ExitCode::from(2)
        }
    })
}

/// Loads the data, reporting bad lines (skipped) on stderr.
fn load(args: &TuneArgs) -> Result<tune::Loaded, tune::TuneError> {
    let start = Instant::now();
    let loading = bar(0, "{spinner} loading: {pos} lines {elapsed_precise}");
    let loaded = tune::load(
        &args.files,
        args.fit.lambda > 0.0,
        args.fit.positions,
        &|n| loading.set_position(n),
    );
    loading.finish_and_clear();
    let loaded = loaded?;
    let bad = &loaded.bad;
    for b in bad.iter().take(10) {
        eprintln!(
            "shears tune: {}:{}: {} (skipped)",
            b.path.display(),
            b.line,
            b.reason
        );
    }
    if bad.len() > 10 {
        eprintln!("shears tune: … {} bad lines in all (skipped)", bad.len());
    }
    if let Some(first) = args.fit.positions {
        println!("the first {first} positions of the data (--positions {first})");
    }
    println!(
        "{} quiet positions loaded in {:.1} s ({} with a search score)",
        loaded.samples.len(),
        start.elapsed().as_secs_f64(),
        tune::scored(&loaded.samples)
    );
    Ok(loaded)
}

/// The samples of the games to fit and of the held-out games (whole games,
/// `data::split`, as `train` holds them out).
fn split(
    args: &TuneArgs,
    loaded: tune::Loaded,
) -> Result<(Vec<tune::Sample>, Vec<tune::Sample>), tune::TuneError> {
    let rule = args.fit.split();
    let parts = split_games(&loaded.ends, rule, false)?;
    let mut held = vec![false; loaded.samples.len()];
    for &i in &parts.validation {
        held[i as usize] = true;
    }
    let (test, train): (Vec<_>, Vec<_>) = loaded
        .samples
        .into_iter()
        .zip(held)
        .partition(|(_, held)| *held);
    println!(
        "{} positions to fit ({} games), {} held out ({} games, {})",
        train.len(),
        parts.train_games,
        test.len(),
        parts.validation_games,
        rule.describe()
    );
    let strip = |v: Vec<(tune::Sample, bool)>| v.into_iter().map(|(s, _)| s).collect();
    Ok((strip(train), strip(test)))
}

fn tune_with(args: &TuneArgs) -> Result<(), tune::TuneError> {
    let config = tune::AdamConfig {
        epochs: args.epochs,
        rate: args.rate,
        l2: args.l2,
        anchor: args.l2_anchor.into(),
    };
    let lambda = args.fit.lambda;
    let free = tune::free_weights(&args.only)?;
    let (mut train, mut test) = split(args, load(args)?)?;
    let start_weights = tune::current_weights();
    let (k, whence) = match args.fit.scale {
        Some(k) => (f64::from(k), "given"),
        None => match tune::fit_k(&train, &start_weights) {
            Some((k, tune::KSource::Scores)) => (k, "fitted: the scores' best fit to the results"),
            Some((k, tune::KSource::Evaluation)) => (
                k,
                "fitted: the evaluation's best fit to the results, the data having no scores",
            ),
            // The split leaves a position to fit: not reached.
            None => {
                return Err(tune::TuneError::Empty {
                    bad: 0,
                    first: None,
                });
            }
        },
    };
    let results_before = tune::loss(&test, &start_weights, k);
    println!(
        "K = {k:.1} cp ({whence}); loss with the current weights {:.6}",
        tune::loss(&train, &start_weights, k)
    );
    let target = Target {
        scale: k as f32,
        lambda,
    };
    if lambda > 0.0 {
        tune::set_targets(&mut train, target)?;
        tune::set_targets(&mut test, target)?;
        println!(
            "targets: {:.2} * result + {lambda:.2} * sigmoid(score / K); loss against them {:.6}",
            1.0 - lambda,
            tune::loss(&train, &start_weights, k)
        );
    }
    let before = tune::loss(&train, &start_weights, k);
    let test_before = tune::loss(&test, &start_weights, k);

    let epochs = config.epochs;
    let progress = bar(
        u64::from(epochs),
        "{bar:40} {pos}/{len} epochs {msg} eta {eta}",
    );
    let fitted = tune::adam(
        &train,
        &start_weights,
        free.as_deref(),
        k,
        config,
        &mut |epoch, loss| {
            progress.set_position(u64::from(epoch));
            progress.set_message(format!("loss {loss:.6}"));
            if epoch.is_multiple_of(250) {
                progress.suspend(|| eprintln!("epoch {epoch}: loss {loss:.6}"));
            }
        },
    );
    progress.finish_and_clear();
    let weights = tune::rounded(&fitted);
    let as_float: Vec<[f64; 2]> = weights
        .iter()
        .map(|s| [f64::from(s.0), f64::from(s.1)])
        .collect();
    let after = tune::loss(&train, &as_float, k);
    println!("loss after {epochs} epochs (rounded weights): {after:.6} (was {before:.6})");
    if !test.is_empty() {
        let test_after = tune::loss(&test, &as_float, k);
        println!("held-out loss: {test_after:.6} (was {test_before:.6})");
        if lambda > 0.0 {
            tune::set_targets(&mut test, target.results_only())?;
            println!(
                "held-out loss against the results alone: {:.6} (was {results_before:.6})",
                tune::loss(&test, &as_float, k)
            );
        }
    }
    tune::write_weights(&args.out, &weights)?;
    println!("weights written to {}", args.out.display());
    Ok(())
}

/// `shears spsa`: one OpenBench SPSA line per search tunable, and a warning
/// when this build cannot take them as options.
pub(super) fn run_spsa() -> ExitCode {
    for spec in tunable_specs() {
        println!("{}", spec.openbench_line());
    }
    if !TUNABLE_AT_RUN_TIME {
        eprintln!(
            "shears: this build has the tunables as constants, not as UCI options; \
             tune a build made with `cargo build --release --features spsa` \
             (or `make FEATURES=spsa`)"
        );
    }
    ExitCode::SUCCESS
}
