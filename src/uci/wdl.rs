//! Win/draw/loss estimates for a reported score (`UCI_ShowWDL`): how often
//! Shears, in its own games, went on to win, draw or lose from positions it
//! scored so; and, for an evaluation whose model says so, the `score cp`
//! normalised by it. This module owns the fitted models (one per
//! evaluation: [`ScoreModel`]) and their rounding. It lives with the one
//! that uses it, the formatting of `info` lines, which gets the material of
//! the root position and the evaluation that played with each report
//! ([`ScoreContext`](crate::engine::ScoreContext)).
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
//! **Normalised scores.** Each evaluation has its own centipawns, so each
//! has its own model ([`ScoreModel::HAND_CRAFTED`], [`ScoreModel::NET`]),
//! always in that evaluation's own (internal) centipawns. A model may also
//! normalise the `score cp` it shows, as Stockfish does: `cp · 100 /
//! a(58)`, so that a shown 100 is an even chance of a win with the
//! material of the game's middle (`t = 1`), and the win/draw/loss chances
//! stay those of the internal score, so the two always agree. The
//! hand-crafted evaluation's scores are shown as they are (its games and
//! their records use them); the net's are normalised by its own model,
//! fitted on Shears' games played with it (see [`ScoreModel::NET`]).
//!
//! ```
//! use shears::search::Score;
//! use shears::uci::wdl::Wdl;
//! let even = Wdl::from_score(Score::Cp(0), 58);
//! assert_eq!(even.win + even.draw + even.loss, 1000);
//! assert_eq!(Wdl::from_score(Score::Mate(3), 58), Wdl { win: 1000, draw: 0, loss: 0 });
//! ```

use std::fmt;

use crate::eval::EvalKind;
use crate::search::Score;

/// Smallest material the model tells apart; less counts as this much.
/// Stockfish clamps at 17; Shears' games have many long endgames with less,
/// and telling them apart predicts their results better (docs/tuning.md).
pub const MATERIAL_MIN: u32 = 3;
/// Largest material the model tells apart (the start position has 78).
pub const MATERIAL_MAX: u32 = 78;
/// Material that maps to `t = 1`.
const MATERIAL_SCALE: f64 = 58.0;

/// Coefficients of the hand-crafted evaluation's `a(t)`, centipawns,
/// highest power first.
const AS: [f64; 4] = [-594.912, 1609.610, -1407.704, 483.281];
/// Coefficients of the hand-crafted evaluation's `b(t)`, centipawns,
/// highest power first.
const BS: [f64; 4] = [-209.866, 533.070, -399.585, 147.071];

/// Coefficients of the net's `a(t)`, in the net's centipawns, highest
/// power first: fitted by `scripts/wdl_fit.py` on 400 games of the
/// built-in net against itself (issue 71: s6-g2, 25,000 nodes a move;
/// docs/nnue.md, "Scores with the net"), then scaled from the shown scores
/// of those games to the net's own by the model they were shown with (the
/// model of the net before it, s6-e40's, `a(t = 1)` = 104.343 cp).
/// `a(t = 1)` = 114.3 cp: a shown 100.
const AS_NET: [f64; 4] = [-946.076, 2407.064, -1936.437, 589.700];
/// Coefficients of the net's `b(t)`, the net's centipawns, highest power
/// first (the same fit).
const BS_NET: [f64; 4] = [-463.316, 1066.263, -710.164, 198.611];

/// How one evaluation's scores are read: its win/draw/loss model, in its
/// own centipawns, and whether the `score cp` shown is normalised by it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScoreModel {
    /// Coefficients of `a(t)`, centipawns, highest power first.
    pub a: [f64; 4],
    /// Coefficients of `b(t)`, centipawns, highest power first.
    pub b: [f64; 4],
    /// Whether `score cp` shows `cp · 100 / a(t = 1)` instead of `cp`.
    pub normalised: bool,
}

impl ScoreModel {
    /// The hand-crafted evaluation's model (docs/tuning.md), its scores
    /// shown as they are.
    pub const HAND_CRAFTED: ScoreModel = ScoreModel {
        a: AS,
        b: BS,
        normalised: false,
    };

    /// The net's model, its `score cp` normalised: fitted on Shears'
    /// games with the net ([`AS_NET`], `a(t = 1)` = 114.3 of the net's
    /// centipawns). How it is fitted again for a new net (docs/nnue.md,
    /// "Scores with the net"): play Shears against Shears with `Use NNUE`
    /// true, run `scripts/wdl_fit.py` on the games (docs/tuning.md,
    /// "Win/draw/loss") with `--shown-pawn` the `a(t = 1)` of the model the
    /// games were played with (their PGN scores are the normalised ones), and
    /// put the `AS_NET` and `BS_NET` it prints in `a` and `b`.
    pub const NET: ScoreModel = ScoreModel {
        a: AS_NET,
        b: BS_NET,
        normalised: true,
    };

    /// The model of the evaluation `kind`.
    pub fn of(kind: EvalKind) -> &'static ScoreModel {
        match kind {
            EvalKind::HandCrafted => &ScoreModel::HAND_CRAFTED,
            EvalKind::Net => &ScoreModel::NET,
        }
    }

    /// `(a, b)` in centipawns for `material`.
    fn parameters(&self, material: u32) -> (f64, f64) {
        let t = f64::from(material.clamp(MATERIAL_MIN, MATERIAL_MAX)) / MATERIAL_SCALE;
        let poly = |c: &[f64; 4]| c.iter().fold(0.0, |acc, &k| acc * t + k);
        (
            poly(&self.a).max(PARAMETER_FLOOR),
            poly(&self.b).max(PARAMETER_FLOOR),
        )
    }

    /// The centipawns of a pawn as the model reads the game's middle:
    /// `a(t = 1)`, the score that wins half the time with 58 material.
    pub fn pawn(&self) -> f64 {
        self.parameters(MATERIAL_SCALE as u32).0
    }

    /// The `score cp` shown for an evaluation's `cp` (not a mate or
    /// tablebase score): `cp · 100 / a(t = 1)` rounded when the model is
    /// normalised, else `cp`.
    pub fn shown_cp(&self, cp: i32) -> i32 {
        if self.normalised {
            (f64::from(cp) * 100.0 / self.pawn()).round() as i32
        } else {
            cp
        }
    }

    /// The chances for `score` (in the evaluation's own centipawns) with
    /// `material` on the board: see [`Wdl::from_score`].
    pub fn wdl(&self, score: Score, material: u32) -> Wdl {
        let cp = match score {
            Score::Mate(n) if n > 0 => return Wdl::WIN,
            Score::Mate(_) => return Wdl::LOSS,
            Score::Cp(cp) => f64::from(cp),
        };
        let (a, b) = self.parameters(material);
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

    /// The hand-crafted evaluation's chances for `score` with `material`
    /// on the board (see
    /// [`material_points`](crate::chess::values::material_points));
    /// [`ScoreModel::wdl`] gives any evaluation's. A mate score is a
    /// certain result: `Mate(n)` with `n > 0` a win, otherwise (being
    /// mated; `Mate(0)` is mated now) a loss.
    ///
    /// The win and loss chances are rounded to the nearest per mille and the
    /// draw is the rest, so the three add up to exactly 1000; the win chance
    /// never falls and the loss chance never rises as the score rises.
    pub fn from_score(score: Score, material: u32) -> Wdl {
        ScoreModel::HAND_CRAFTED.wdl(score, material)
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
        for model in [ScoreModel::HAND_CRAFTED, ScoreModel::NET] {
            for m in MATERIAL_MIN..=MATERIAL_MAX {
                let t = f64::from(m) / MATERIAL_SCALE;
                let poly = |c: &[f64; 4]| c.iter().fold(0.0, |acc, &k| acc * t + k);
                assert!(
                    poly(&model.a) > 20.0 && poly(&model.b) > 20.0,
                    "material {m}"
                );
            }
        }
    }

    #[test]
    fn the_hand_crafted_scores_are_shown_as_they_are() {
        let model = ScoreModel::of(EvalKind::HandCrafted);
        assert!(!model.normalised);
        for cp in [-700, -90, 0, 1, 54, 90, 3000] {
            assert_eq!(model.shown_cp(cp), cp);
            assert_eq!(
                model.wdl(Score::Cp(cp), 40),
                Wdl::from_score(Score::Cp(cp), 40)
            );
        }
    }

    #[test]
    fn a_normalised_score_of_100_wins_half_the_time_in_the_middle_of_the_game() {
        // The net's model, and any fitted model normalised.
        assert!(ScoreModel::of(EvalKind::Net).normalised);
        let model = ScoreModel {
            normalised: true,
            ..ScoreModel::HAND_CRAFTED
        };
        let pawn = model.pawn();
        assert!((pawn - 90.275).abs() < 0.01, "a(t = 1) = {pawn}");
        let cp = pawn.round() as i32;
        assert_eq!(model.shown_cp(cp), 100);
        assert_eq!(model.shown_cp(-cp), -100);
        assert_eq!(model.shown_cp(0), 0);
        // The chances stay those of the evaluation's own score: even at a
        // shown 100 with the middle's material.
        let w = model.wdl(Score::Cp(cp), MATERIAL_SCALE as u32);
        assert!((495..=505).contains(&w.win), "{w}");
        // The net's model slots in the same way.
        assert_eq!(ScoreModel::of(EvalKind::Net), &ScoreModel::NET);
    }

    #[test]
    fn the_nets_own_model_shows_100_at_its_own_even_chance() {
        // Fitted on games with the net: its pawn is its own, not the
        // hand-crafted evaluation's.
        let net = ScoreModel::of(EvalKind::Net);
        let pawn = net.pawn();
        assert!((pawn - 114.251).abs() < 0.01, "a(t = 1) = {pawn}");
        assert_ne!(net.a, ScoreModel::HAND_CRAFTED.a);
        // 114 of the net's centipawns show as 100, and 200 as 175.
        assert_eq!(net.shown_cp(114), 100);
        assert_eq!(net.shown_cp(200), 175);
        assert_eq!(net.shown_cp(-114), -100);
        let even = net.wdl(Score::Cp(114), MATERIAL_SCALE as u32);
        assert!((490..=510).contains(&even.win), "{even}");
        // The chances the hand-crafted model gives the same centipawns
        // differ: its pawn is 90.
        let hce = ScoreModel::HAND_CRAFTED.wdl(Score::Cp(114), MATERIAL_SCALE as u32);
        assert!(hce.win > even.win + 30, "{hce} / {even}");
        // Over the whole range the net's chances add up and are monotone.
        for m in MATERIAL_MIN..=MATERIAL_MAX {
            let mut last = net.wdl(Score::Cp(-3000), m);
            for cp in (-3000..=3000).step_by(5) {
                let w = net.wdl(Score::Cp(cp), m);
                assert_eq!(w.win + w.draw + w.loss, 1000, "cp {cp} m {m}");
                assert!(w.win >= last.win && w.loss <= last.loss, "cp {cp} m {m}");
                last = w;
            }
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
