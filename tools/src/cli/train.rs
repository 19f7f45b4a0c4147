//! `shears train`: the learned evaluation (NNUE) trained on data files and
//! written as a net file (the trainer is `crate::train`). Its defaults are
//! the recipe that made the built-in net (docs/nets/manifest.toml, s6-g2):
//! K 250, weight decay 0.3, 40 epochs.

use std::path::PathBuf;
use std::process::ExitCode;

use super::fit_args::{FitArgs, non_negative, positive, ratio};
use crate::train::{self, RunConfig, Schedule, Settings, Target};
use shears::eval::nnue::arch::{DEFAULT_HIDDEN, Layout};

/// The recipe's K, centipawns: the default `--scale` (`--fit-scale` fits
/// one instead).
pub const RECIPE_SCALE: f32 = 250.0;
/// The recipe's weight decay: the default `--wd`.
pub const RECIPE_WD: f32 = 0.3;
/// The recipe's epochs: the default `--epochs`.
pub const RECIPE_EPOCHS: u32 = 40;

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
    /// resumed run); the default is the built-in net's recipe.
    /// At least 1: a run writes only a net that was trained.
    #[arg(long, default_value_t = RECIPE_EPOCHS, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub epochs: u32,
    /// Positions per optimiser step.
    #[arg(long, default_value_t = 16_384, value_parser = clap::value_parser!(u64).range(1..=1 << 24))]
    pub batch_size: u64,
    /// The learning rate (AdamW's step size) at the start.
    #[arg(long, default_value_t = 0.01, value_parser = positive)]
    pub lr: f32,
    /// AdamW's decoupled weight decay (each step takes lr · wd · w off
    /// each weight w); the default is the built-in net's recipe.
    #[arg(long, default_value_t = RECIPE_WD, value_parser = non_negative)]
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
    /// options `tune` shares (K is the recipe's 250 unless --scale gives
    /// another or --fit-scale fits it).
    #[command(flatten)]
    pub fit: FitArgs,
    /// Fit K instead of the recipe's 250: the K with which the training
    /// positions' search scores best predict their results (`tune`'s
    /// default). A resumed run keeps its checkpoint's K unless --scale
    /// gives one.
    #[arg(long, conflicts_with = "scale")]
    pub fit_scale: bool,
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
    /// K for the run: `--scale`'s; none with `--fit-scale` or a resumed
    /// run without `--scale` (fitted, or the checkpoint's); else the
    /// recipe's.
    pub fn scale(&self) -> Option<f32> {
        match self.fit.scale {
            Some(k) => Some(k),
            None if self.fit_scale || self.resume.is_some() => None,
            None => Some(RECIPE_SCALE),
        }
    }

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
                    scale: self.scale().unwrap_or(RECIPE_SCALE),
                    lambda: self.fit.lambda,
                },
                schedule,
                seed: self.seed,
            },
            scale: self.scale(),
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

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::super::{Cli, CliCommand};
    use super::*;

    fn parsed(args: &str) -> TrainArgs {
        let words = format!("shears train data.bin {args}");
        match Cli::try_parse_from(words.split_whitespace()) {
            Ok(Cli {
                command: Some(CliCommand::Train(args)),
                ..
            }) => args,
            other => panic!("{args}: {other:?}"),
        }
    }

    #[test]
    fn the_defaults_are_the_recipe_of_the_built_in_net() {
        let config = parsed("").config();
        assert_eq!(config.scale, Some(250.0));
        assert_eq!(config.settings.target.scale, 250.0);
        assert_eq!((config.settings.epochs, config.settings.wd), (40, 0.3));
        // The recipe spelt out is the same run.
        let spelt = parsed("--scale 250 --wd 0.3 --epochs 40").config();
        assert_eq!(format!("{spelt:?}"), format!("{config:?}"));
        // The old default behind a flag: K fitted; a resumed run keeps its
        // checkpoint's K unless --scale gives one.
        assert_eq!(parsed("--fit-scale").config().scale, None);
        assert_eq!(parsed("--resume ck.ckpt").config().scale, None);
        assert_eq!(
            parsed("--resume ck.ckpt --scale 200").config().scale,
            Some(200.0)
        );
        assert_eq!(parsed("--scale 104.5").config().scale, Some(104.5));
        let both = Cli::try_parse_from("shears train d.bin --scale 250 --fit-scale".split(' '));
        assert!(
            both.unwrap_err()
                .to_string()
                .contains("cannot be used with")
        );
    }
}
