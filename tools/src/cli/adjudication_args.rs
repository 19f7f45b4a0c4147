//! The adjudication thresholds on the command line, shared by `datagen`
//! (the rule its games end by) and `data convert` (a stricter rule to cut
//! a game file's games by): `crate::data::adjudication`.

use crate::data::adjudication::Adjudication;

/// The five thresholds; each one not given is datagen's default.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct AdjudicationArgs {
    /// Adjudication: resign at a score at least this large for one side,
    /// centipawns [default: 1000] ...
    #[arg(long, value_name = "CP", value_parser = clap::value_parser!(i32).range(1..=30_000))]
    pub resign_score: Option<i32>,
    /// ... on this many consecutive plies [default: 6].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=400))]
    pub resign_plies: Option<u32>,
    /// Adjudication: a draw from this game ply on [default: 80] ...
    #[arg(long, value_name = "PLY", value_parser = clap::value_parser!(u32).range(0..=400))]
    pub draw_min_ply: Option<u32>,
    /// ... when the scores are within this many centipawns of zero
    /// [default: 10] ...
    #[arg(long, value_name = "CP", value_parser = clap::value_parser!(i32).range(0..=30_000))]
    pub draw_score: Option<i32>,
    /// ... on this many consecutive plies [default: 12].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=400))]
    pub draw_plies: Option<u32>,
}

impl AdjudicationArgs {
    /// The rule, when any threshold is given (the others datagen's).
    pub fn given(&self) -> Option<Adjudication> {
        let any = self.resign_score.is_some()
            || self.resign_plies.is_some()
            || self.draw_min_ply.is_some()
            || self.draw_score.is_some()
            || self.draw_plies.is_some();
        any.then(|| self.rule())
    }

    /// The rule: each threshold given, else datagen's.
    pub fn rule(&self) -> Adjudication {
        let base = Adjudication::default();
        Adjudication {
            resign_score: self.resign_score.unwrap_or(base.resign_score),
            resign_plies: self.resign_plies.unwrap_or(base.resign_plies),
            draw_min_ply: self.draw_min_ply.unwrap_or(base.draw_min_ply),
            draw_score: self.draw_score.unwrap_or(base.draw_score),
            draw_plies: self.draw_plies.unwrap_or(base.draw_plies),
        }
    }
}
