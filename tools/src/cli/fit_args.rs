//! The options `tune` and `train` share, one struct flattened into both so
//! that the two fitters take the same words with the same meanings and
//! defaults: λ, K, the held-out games, the first N positions and the
//! threads (`data::target`, `data::split`, `data::files`).

use crate::data::{DEFAULT_SPLIT, Split};

/// The shared options of the two fitters.
#[derive(Debug, Clone, clap::Args)]
pub struct FitArgs {
    /// λ, the weight of the search score in the target, 0 (the game
    /// results alone) to 1 (the search scores alone): the target is
    /// (1 − λ) · result + λ · sigmoid(score / K). Above 0 every position
    /// needs a score.
    #[arg(long, default_value_t = 1.0, value_parser = lambda)]
    pub lambda: f32,
    /// K, centipawns: an evaluation e predicts the result sigmoid(e / K)
    /// [default: tune fits it, the K with which the training positions'
    /// search scores best predict their results; train uses 250, the
    /// built-in net's recipe, and fits it with --fit-scale].
    #[arg(long, value_name = "K", value_parser = positive)]
    pub scale: Option<f32>,
    /// Hold out every Nth game (whole games) to measure the fit
    /// [default: 20].
    #[arg(long, value_name = "N", conflicts_with = "val_percent",
          value_parser = clap::value_parser!(u32).range(2..))]
    pub val_every_games: Option<u32>,
    /// Hold out the last P percent of the games instead (0: none; `train`
    /// needs a held-out game).
    #[arg(long, value_name = "P", value_parser = clap::value_parser!(u32).range(0..=50))]
    pub val_percent: Option<u32>,
    /// Only the first N positions of the files, in the order given (the
    /// held-out games among them) [default: all].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub positions: Option<u64>,
    /// Worker threads [default: all cores].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: Option<u32>,
}

impl FitArgs {
    /// The held-out games asked for.
    pub fn split(&self) -> Split {
        match (self.val_percent, self.val_every_games) {
            (Some(p), _) => Split::LastPercent(p),
            (None, Some(n)) => Split::EveryNthGame(n),
            (None, None) => DEFAULT_SPLIT,
        }
    }

    /// The worker threads asked for.
    pub fn threads(&self) -> usize {
        self.threads
            .map_or_else(rayon::current_num_threads, |t| t as usize)
    }
}

fn number(text: &str, ok: impl Fn(f32) -> bool, what: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(x) if x.is_finite() && ok(x) => Ok(x),
        _ => Err(format!("`{text}` is not {what}")),
    }
}

/// A number above 0.
pub(super) fn positive(text: &str) -> Result<f32, String> {
    number(text, |x| x > 0.0, "a number above 0")
}

/// A number from 0 up.
pub(super) fn non_negative(text: &str) -> Result<f32, String> {
    number(text, |x| x >= 0.0, "a number from 0 up")
}

/// A number from 0 to 1.
fn lambda(text: &str) -> Result<f32, String> {
    number(text, |x| (0.0..=1.0).contains(&x), "a number from 0 to 1")
}

/// A number above 0, at most 1.
pub(super) fn ratio(text: &str) -> Result<f32, String> {
    number(text, |x| x > 0.0 && x <= 1.0, "a number above 0, at most 1")
}
