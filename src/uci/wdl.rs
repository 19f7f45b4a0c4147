//! Win/draw/loss estimates for a reported score (`UCI_ShowWDL`): how often
//! Shears, in its own games, went on to win, draw or lose from positions it
//! scored so. This module owns the fitted model and its rounding; it does
//! not change any score. It lives with the one that uses it, the formatting
//! of `info` lines, which gets the material of the root position with each
//! report ([`material_points`](crate::chess::values::material_points)).
//!
//! The model is Stockfish's: from the side to move's view, for a score of
//! `x` centipawns with `m` material on the board,
//!
//! ```text
//! P(win)  = 1 / (1 + exp((a(m) - x) / b(m)))
//! P(loss) = 1 / (1 + exp((a(m) + x) / b(m)))
//! P(draw) = 1 - P(win) - P(loss)
//! ```
//!
//! `a(m)`, the score at which a win is as likely as not, and `b(m)`, how
//! fast that likelihood rises with the score, are cubic polynomials in
//! `t = clamp(m, MATERIAL_MIN, MATERIAL_MAX) / MATERIAL_SCALE`, with `m` =
//! pawns + 3 knights + 3 bishops + 5 rooks + 9 queens of both sides
//! ([`material_points`](crate::chess::values::material_points)). The
//! coefficients were fitted by maximum likelihood to Shears' self-play games
//! by `scripts/wdl_fit.py` (docs/tuning.md: "Win/draw/loss"), which prints them.
//!
//! ```
//! use shears::search::Score;
//! use shears::uci::wdl::Wdl;
//! let even = Wdl::from_score(Score::Cp(0), 58);
//! assert_eq!(even.win + even.draw + even.loss, 1000);
//! assert_eq!(Wdl::from_score(Score::Mate(3), 58), Wdl { win: 1000, draw: 0, loss: 0 });
//! ```

use std::fmt;

use crate::search::Score;

/// Smallest material the model tells apart; less counts as this much.
/// Stockfish clamps at 17; Shears' games have many long endgames with less,
/// and telling them apart predicts their results better (docs/tuning.md).
pub const MATERIAL_MIN: u32 = 3;
/// Largest material the model tells apart (the start position has 78).
pub const MATERIAL_MAX: u32 = 78;
/// Material that maps to `t = 1`.
const MATERIAL_SCALE: f64 = 58.0;

/// Coefficients of `a(t)`, centipawns, highest power first.
const AS: [f64; 4] = [-594.912, 1609.610, -1407.704, 483.281];
/// Coefficients of `b(t)`, centipawns, highest power first.
const BS: [f64; 4] = [-209.866, 533.070, -399.585, 147.071];

/// The smallest `a` and `b` the model uses, in centipawns. The fitted
/// polynomials stay well above these over the whole material range (a test
/// checks); the floor only keeps `P(win) + P(loss) <= 1` guaranteed.
const PARAMETER_FLOOR: f64 = 1.0;

/// Win, draw and loss chances in per mille, from the side to move's view;
/// they always add up to 1000.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Wdl {
    /// Chance of winning, per mille.
    pub win: u32,
    /// Chance of a draw, per mille.
    pub draw: u32,
    /// Chance of losing, per mille.
    pub loss: u32,
}

impl Wdl {
    /// A certain draw (stalemate at the root).
    pub const DRAW: Wdl = Wdl {
        win: 0,
        draw: 1000,
        loss: 0,
    };
    /// A certain win (we mate).
    pub const WIN: Wdl = Wdl {
        win: 1000,
        draw: 0,
        loss: 0,
    };
    /// A certain loss (we are mated).
    pub const LOSS: Wdl = Wdl {
        win: 0,
        draw: 0,
        loss: 1000,
    };

    /// The model's chances for `score` with `material` on the board (see
    /// [`material_points`](crate::chess::values::material_points)). A mate score is a certain result: `Mate(n)` with
    /// `n > 0` a win, otherwise (being mated; `Mate(0)` is mated now) a loss.
    ///
    /// The win and loss chances are rounded to the nearest per mille and the
    /// draw is the rest, so the three add up to exactly 1000; the win chance
    /// never falls and the loss chance never rises as the score rises.
    pub fn from_score(score: Score, material: u32) -> Wdl {
        let cp = match score {
            Score::Mate(n) if n > 0 => return Wdl::WIN,
            Score::Mate(_) => return Wdl::LOSS,
            Score::Cp(cp) => f64::from(cp),
        };
        let (a, b) = parameters(material);
        let win = per_mille(logistic((cp - a) / b));
        let loss = per_mille(logistic((-cp - a) / b));
        // With a > 0, P(win) + P(loss) < 1, so the rounded sum is at most
        // 1000 (each rounding adds less than a half); min() is a guard only.
        let loss = loss.min(1000 - win);
        Wdl {
            win,
            draw: 1000 - win - loss,
            loss,
        }
    }
}

impl Wdl {
    /// The chances of a score the tables prove (a tablebase verdict, or a
    /// mate: see `PvLine::tb_proven`): certain, by the sign of the
    /// score. A proven draw is `0 1000 0`, not the model's guess for a
    /// level score.
    pub fn proven(score: Score) -> Wdl {
        match score {
            Score::Mate(n) if n > 0 => Wdl::WIN,
            Score::Mate(_) => Wdl::LOSS,
            Score::Cp(cp) if cp > 0 => Wdl::WIN,
            Score::Cp(0) => Wdl::DRAW,
            Score::Cp(_) => Wdl::LOSS,
        }
    }
}

/// `W D L`, as the `wdl` field of an `info` line.
impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.win, self.draw, self.loss)
    }
}

/// `(a, b)` in centipawns for `material`.
fn parameters(material: u32) -> (f64, f64) {
    let t = f64::from(material.clamp(MATERIAL_MIN, MATERIAL_MAX)) / MATERIAL_SCALE;
    let poly = |c: &[f64; 4]| c.iter().fold(0.0, |acc, &k| acc * t + k);
    (
        poly(&AS).max(PARAMETER_FLOOR),
        poly(&BS).max(PARAMETER_FLOOR),
    )
}

fn logistic(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

fn per_mille(p: f64) -> u32 {
    // p is in [0, 1]; the cast cannot overflow.
    (p * 1000.0).round() as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCORES: std::ops::RangeInclusive<i32> = -3000..=3000;

    #[test]
    fn the_three_chances_add_up_to_1000_everywhere() {
        for m in 0..=110 {
            for cp in SCORES.step_by(7) {
                let w = Wdl::from_score(Score::Cp(cp), m);
                assert_eq!(w.win + w.draw + w.loss, 1000, "cp {cp} material {m}: {w}");
            }
        }
    }

    #[test]
    fn win_rises_and_loss_falls_with_the_score() {
        for m in 0..=MATERIAL_MAX + 5 {
            let mut last = Wdl::from_score(Score::Cp(*SCORES.start()), m);
            for cp in SCORES {
                let w = Wdl::from_score(Score::Cp(cp), m);
                assert!(w.win >= last.win && w.loss <= last.loss, "cp {cp} m {m}");
                last = w;
            }
            let low = Wdl::from_score(Score::Cp(-1000), m);
            let high = Wdl::from_score(Score::Cp(1000), m);
            assert!(low.loss > 900 && high.win > 900, "m {m}: {low} / {high}");
        }
    }

    #[test]
    fn an_even_score_is_symmetric_and_mostly_drawn() {
        for m in 0..=MATERIAL_MAX {
            let w = Wdl::from_score(Score::Cp(0), m);
            assert_eq!(w.win, w.loss);
            assert!(w.draw > w.win, "m {m}: {w}");
            let (up, down) = (
                Wdl::from_score(Score::Cp(90), m),
                Wdl::from_score(Score::Cp(-90), m),
            );
            assert_eq!((up.win, up.loss), (down.loss, down.win), "m {m}");
        }
    }

    #[test]
    fn the_fitted_parameters_are_positive_over_the_whole_range() {
        for m in MATERIAL_MIN..=MATERIAL_MAX {
            let t = f64::from(m) / MATERIAL_SCALE;
            let poly = |c: &[f64; 4]| c.iter().fold(0.0, |acc, &k| acc * t + k);
            assert!(poly(&AS) > 20.0 && poly(&BS) > 20.0, "material {m}");
        }
    }

    #[test]
    fn proven_scores_are_certain_by_their_sign() {
        assert_eq!(Wdl::proven(Score::Cp(0)), Wdl::DRAW);
        assert_eq!(Wdl::proven(Score::Cp(20_000)), Wdl::WIN);
        assert_eq!(Wdl::proven(Score::Cp(-19_990)), Wdl::LOSS);
        assert_eq!(Wdl::proven(Score::Mate(3)), Wdl::WIN);
        assert_eq!(Wdl::proven(Score::Mate(-2)), Wdl::LOSS);
        assert_ne!(Wdl::from_score(Score::Cp(0), 10), Wdl::DRAW);
    }

    #[test]
    fn mate_scores_are_certain() {
        assert_eq!(Wdl::from_score(Score::Mate(1), 3), Wdl::WIN);
        assert_eq!(Wdl::from_score(Score::Mate(-4), 40), Wdl::LOSS);
        assert_eq!(Wdl::from_score(Score::Mate(0), 78), Wdl::LOSS);
        assert_eq!(Wdl::LOSS.to_string(), "0 0 1000");
    }
}
