//! The held-out games of both fitters (`tune` and `train`): which whole
//! games are kept out of the fit to measure it ([`Split`]), and the
//! positions that gives ([`Parts`]).
//!
//! Whole *games*, not positions: the positions of one game are alike, and
//! a fit tested on positions of the games it learned from looks better
//! than it is.

use thiserror::Error;

/// Which games are held out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split {
    /// Every `n`th game (games `n - 1`, `2n - 1`, … counting from 0 over
    /// the files in the order given).
    EveryNthGame(u32),
    /// The last `p` percent of the games (at least one when `p` > 0; none
    /// when `p` is 0).
    LastPercent(u32),
}

/// The default rule of both fitters: every 20th game.
pub const DEFAULT_SPLIT: Split = Split::EveryNthGame(20);

impl Split {
    /// The rule as its command-line option.
    pub fn describe(self) -> String {
        match self {
            Split::EveryNthGame(n) => format!("--val-every-games {n}"),
            Split::LastPercent(p) => format!("--val-percent {p}"),
        }
    }

    /// Whether game `game` of `games` is held out.
    pub fn holds_out(self, game: usize, games: usize) -> bool {
        match self {
            Split::EveryNthGame(n) => n > 0 && game % n as usize == n as usize - 1,
            Split::LastPercent(p) => {
                let held = (games * p as usize).div_ceil(100);
                game >= games - held.min(games)
            }
        }
    }
}

/// The positions of a split, as indices into the positions split.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Parts {
    /// Positions to fit.
    pub train: Vec<u32>,
    /// Held-out positions.
    pub validation: Vec<u32>,
    /// Games to fit.
    pub train_games: usize,
    /// Held-out games.
    pub validation_games: usize,
}

/// A split that leaves nothing to fit, or (where a held-out set is needed)
/// nothing held out.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("{games} games in the data; {rule} holds out {held_out} of them: {advice}")]
pub struct SplitError {
    /// Games in the data.
    pub games: usize,
    /// The rule, as an option (`--val-every-games 20`).
    pub rule: String,
    /// Games it holds out.
    pub held_out: usize,
    /// What to do.
    pub advice: &'static str,
}

/// Splits the games that end at `ends` (exclusive, in order: game `g` is
/// the positions `ends[g - 1]..ends[g]`, from 0 for the first) by `rule`.
///
/// # Errors
///
/// When no position is left to fit, or `need_held_out` and none is held
/// out.
pub fn split_games(ends: &[usize], rule: Split, need_held_out: bool) -> Result<Parts, SplitError> {
    let games = ends.len();
    let mut parts = Parts::default();
    let mut start = 0;
    for (game, &end) in ends.iter().enumerate() {
        let range = start as u32..end as u32;
        if rule.holds_out(game, games) {
            parts.validation.extend(range);
            parts.validation_games += 1;
        } else {
            parts.train.extend(range);
            parts.train_games += 1;
        }
        start = end;
    }
    let bad = |advice| SplitError {
        games,
        rule: rule.describe(),
        held_out: parts.validation_games,
        advice,
    };
    if need_held_out && parts.validation.is_empty() {
        return Err(bad(
            "no held-out position; hold out more games (a smaller --val-every-games, a \
             larger --val-percent) or give more data",
        ));
    }
    if parts.train.is_empty() {
        return Err(bad(
            "no position left to train on; hold out fewer games or give more data",
        ));
    }
    Ok(parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_games_are_held_out() {
        // Games of 2, 0, 3, 1 positions.
        let ends = [2, 2, 5, 6];
        let parts = split_games(&ends, Split::EveryNthGame(2), true).unwrap();
        assert_eq!(parts.validation, vec![5]);
        assert_eq!(parts.train, vec![0, 1, 2, 3, 4]);
        assert_eq!((parts.train_games, parts.validation_games), (2, 2));
        let parts = split_games(&ends, Split::LastPercent(50), true).unwrap();
        assert_eq!(parts.validation, vec![2, 3, 4, 5]);
        let none = split_games(&ends, Split::LastPercent(0), false).unwrap();
        assert!(none.validation.is_empty());
        let err = split_games(&ends, Split::LastPercent(0), true).unwrap_err();
        assert!(
            err.to_string()
                .contains("4 games in the data; --val-percent 0")
        );
        let err = split_games(&[3], Split::LastPercent(50), false).unwrap_err();
        assert!(err.to_string().contains("no position left"), "{err}");
    }
}
