//! `shears train`: the learned evaluation (NNUE) trained on data files and
//! written as a net file (the trainer is `crate::train`).

use std::path::PathBuf;
use std::process::ExitCode;

use super::fit_args::{FitArgs, non_negative, positive, ratio};
use crate::train::{self, RunConfig, Schedule, Settings, Target};
use shears::eval::nnue::arch::{DEFAULT_HIDDEN, Layout};

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
    /// Hidden neurons per side: a width the engine plays (32, 64, 128, 256
    /// or 512; the net file records it).
    #[arg(long, default_value_t = DEFAULT_HIDDEN)]
    pub hidden: usize,
    /// King mirroring: each side sees the board flipped a↔h when its own
    /// king stands on files e–h (the net file records the layout).
    #[arg(long)]
    pub mirror: bool,
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
    /// λ, K, the held-out games, the first N positions, the threads: the
    /// options `tune` shares.
    #[command(flatten)]
    pub fit: FitArgs,
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
        RunConfig {
            files: self.files.clone(),
            first: self.fit.positions,
            settings: Settings {
                hidden: self.hidden,
                layout: if self.mirror {
                    Layout::KingMirrored
                } else {
                    Layout::Plain
                },
                epochs: self.epochs,
                batch_size: self.batch_size as usize,
                lr: self.lr,
                wd: self.wd,
                target: Target {
                    scale: self.fit.scale.unwrap_or(1.0),
                    lambda: self.fit.lambda,
                },
                schedule,
                seed: self.seed,
            },
            scale: self.fit.scale,
            split: self.fit.split(),
            threads: self.fit.threads(),
            out: self.out.clone(),
            replace: self.force,
            checkpoint_dir: self.checkpoint_dir.clone(),
            resume: self.resume.clone(),
        }
    }
}

/// Runs `shears train`: exit 0 when the net is written, 2 on bad input.
pub(super) fn run(args: &TrainArgs) -> ExitCode {
    match train::run(&args.config()) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("shears train: {e}");
            ExitCode::from(2)
        }
    }
}
