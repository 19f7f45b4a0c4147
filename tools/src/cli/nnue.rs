//! The net's command: `shears train` (the trainer is `crate::train`).

use std::path::PathBuf;
use std::process::ExitCode;

use crate::train::{self, RunConfig, Schedule, Settings, Split, Target};
use shears::eval::nnue::arch::HIDDEN;

/// `--schedule`: how the learning rate falls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CliSchedule {
    /// From --lr down to --final-lr-ratio times it along half a cosine.
    Cosine,
    /// --lr times --step-gamma after every --step-epochs epochs.
    Step,
    /// --lr throughout.
    Constant,
}

/// `shears train`.
#[derive(Debug, clap::Args)]
// A negative value after a space (`--lr -1`) is a value, so that the
// option's own check names what is allowed.
#[command(allow_negative_numbers = true)]
pub struct TrainArgs {
    /// Data files of `shears datagen`: game files (`.games`, through their
    /// quiet filter), packed records (`.bin`) or text.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Hidden neurons per side: must be the engine's (256).
    #[arg(long, default_value_t = HIDDEN)]
    pub hidden: usize,
    /// Passes over the training positions (in all, counting those of a
    /// resumed run).
    /// At least 1: a run writes only a net that was trained.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub epochs: u32,
    /// Positions per optimiser step.
    #[arg(long, default_value_t = 16_384, value_parser = clap::value_parser!(u64).range(1..=1 << 24))]
    pub batch_size: u64,
    /// The learning rate (AdamW's step size) at the start.
    #[arg(long, default_value_t = 0.01, value_parser = positive)]
    pub lr: f32,
    /// AdamW's decoupled weight decay (each step takes lr · wd · w off
    /// each weight w).
    #[arg(long, default_value_t = 0.01, value_parser = non_negative)]
    pub wd: f32,
    /// The weight of the search score in the target, 0 (the results alone)
    /// to 1 (the scores alone): (1 − λ) · result + λ · sigmoid(score / K).
    #[arg(long, default_value_t = 1.0, value_parser = lambda)]
    pub lambda: f32,
    /// K, centipawns: prediction sigmoid(eval / K) (default: fitted, the
    /// K with which the data's search scores best predict its results).
    #[arg(long, value_parser = positive)]
    pub scale: Option<f32>,
    /// How the learning rate falls.
    #[arg(long, value_enum, default_value_t = CliSchedule::Cosine)]
    pub schedule: CliSchedule,
    /// Cosine: the rate at the end, as a share of --lr.
    #[arg(long, default_value_t = 0.01, value_parser = ratio)]
    pub final_lr_ratio: f32,
    /// Step: epochs between drops.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..))]
    pub step_epochs: u32,
    /// Step: the factor of each drop.
    #[arg(long, default_value_t = 0.3, value_parser = ratio)]
    pub step_gamma: f32,
    /// Hold out every Nth game for validation [default: 20].
    #[arg(long, conflicts_with = "val_percent", value_parser = clap::value_parser!(u32).range(2..))]
    pub val_every_games: Option<u32>,
    /// Hold out the last P percent of the games instead.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=50))]
    pub val_percent: Option<u32>,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: Option<u32>,
    /// Seed of the starting net and of the shuffles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The net file to write (written whole to a temporary file beside it,
    /// then renamed). An existing file is refused unless --force is given.
    #[arg(long, default_value = "data/shears.nnue")]
    pub out: PathBuf,
    /// Replace an existing --out.
    #[arg(long)]
    pub force: bool,
    /// Where a checkpoint is written after each epoch
    /// (`epoch-NNNN.ckpt`).
    #[arg(long, default_value = "data/checkpoints")]
    pub checkpoint_dir: PathBuf,
    /// Go on from this checkpoint (with --epochs no more than it has done:
    /// export it).
    #[arg(long, value_name = "CHECKPOINT")]
    pub resume: Option<PathBuf>,
}

fn number(text: &str, ok: impl Fn(f32) -> bool, what: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(x) if x.is_finite() && ok(x) => Ok(x),
        _ => Err(format!("`{text}` is not {what}")),
    }
}

fn positive(text: &str) -> Result<f32, String> {
    number(text, |x| x > 0.0, "a number above 0")
}

fn non_negative(text: &str) -> Result<f32, String> {
    number(text, |x| x >= 0.0, "a number from 0 up")
}

fn lambda(text: &str) -> Result<f32, String> {
    number(text, |x| (0.0..=1.0).contains(&x), "a number from 0 to 1")
}

fn ratio(text: &str) -> Result<f32, String> {
    number(text, |x| x > 0.0 && x <= 1.0, "a number above 0, at most 1")
}

impl TrainArgs {
    /// The run these arguments ask for.
    pub fn config(&self) -> RunConfig {
        let schedule = match self.schedule {
            CliSchedule::Cosine => Schedule::Cosine {
                final_ratio: self.final_lr_ratio,
            },
            CliSchedule::Step => Schedule::Step {
                every: self.step_epochs,
                gamma: self.step_gamma,
            },
            CliSchedule::Constant => Schedule::Constant,
        };
        let split = match self.val_percent {
            Some(p) => Split::LastPercent(p),
            None => Split::EveryNthGame(self.val_every_games.unwrap_or(20)),
        };
        RunConfig {
            files: self.files.clone(),
            settings: Settings {
                hidden: self.hidden,
                epochs: self.epochs,
                batch_size: self.batch_size as usize,
                lr: self.lr,
                wd: self.wd,
                target: Target {
                    scale: self.scale.unwrap_or(1.0),
                    lambda: self.lambda,
                },
                schedule,
                seed: self.seed,
            },
            scale: self.scale,
            split,
            threads: self
                .threads
                .map_or_else(rayon::current_num_threads, |t| t as usize),
            out: self.out.clone(),
            replace: self.force,
            checkpoint_dir: self.checkpoint_dir.clone(),
            resume: self.resume.clone(),
        }
    }
}

/// Runs `shears train`: exit 0 when the net is written, 2 on bad input.
pub(super) fn run_train(args: &TrainArgs) -> ExitCode {
    match train::run(&args.config()) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("shears train: {e}");
            ExitCode::from(2)
        }
    }
}
