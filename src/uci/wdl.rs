//! Win/draw/loss estimates for a reported score (`UCI_ShowWDL`): how often
//! Shears, in its own games, went on to win, draw or lose from positions it
//! scored so, by the score model of the evaluation that played
//! ([`ScoreModel`]: the model, its fit and the normalised `score cp`, in
//! `eval/score_model.rs`); this module owns their rounding to per mille.
//! It lives with the one that uses it, the formatting of `info` lines,
//! which gets the material of the root position and the model of the
//! evaluation that played with each report
//! ([`ScoreContext`](crate::engine::ScoreContext)).
//!
//! ```
//! use shears::search::Score;
//! use shears::uci::wdl::Wdl;
//! let even = Wdl::from_score(Score::Cp(0), 58);
//! assert_eq!(even.win + even.draw + even.loss, 1000);
//! assert_eq!(Wdl::from_score(Score::Mate(3), 58), Wdl { win: 1000, draw: 0, loss: 0 });
//! ```

use std::fmt;

use crate::eval::ScoreModel;
use crate::search::Score;

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

    /// The chances `model` gives `score` (in the evaluation's own
    /// centipawns) with `material` on the board (see
    /// [`material_points`](crate::chess::values::material_points)). A mate
    /// score is a certain result: `Mate(n)` with `n > 0` a win, otherwise
    /// (being mated; `Mate(0)` is mated now) a loss.
    ///
    /// The win and loss chances are rounded to the nearest per mille and the
    /// draw is the rest, so the three add up to exactly 1000; the win chance
    /// never falls and the loss chance never rises as the score rises.
    pub fn of(model: &ScoreModel, score: Score, material: u32) -> Wdl {
        let cp = match score {
            Score::Mate(n) if n > 0 => return Wdl::WIN,
            Score::Mate(_) => return Wdl::LOSS,
            Score::Cp(cp) => f64::from(cp),
        };
        let (win, loss) = model.chances(cp, material);
        let (win, loss) = (per_mille(win), per_mille(loss));
        // With a > 0, P(win) + P(loss) < 1, so the rounded sum is at most
        // 1000 (each rounding adds less than a half); min() is a guard only.
        let loss = loss.min(1000 - win);
        Wdl {
            win,
            draw: 1000 - win - loss,
            loss,
        }
    }

    /// The hand-crafted evaluation's chances for `score` with `material`
    /// on the board: [`Wdl::of`] its model.
    pub fn from_score(score: Score, material: u32) -> Wdl {
        Wdl::of(&ScoreModel::HAND_CRAFTED, score, material)
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

fn per_mille(p: f64) -> u32 {
    // p is in [0, 1]; the cast cannot overflow.
    (p * 1000.0).round() as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::score_model::{MATERIAL_MAX, MATERIAL_MIN, MATERIAL_SCALE};

    const SCORES: std::ops::RangeInclusive<i32> = -3000..=3000;

    /// A net's model as fitted (s6-g2's, docs/nnue.md).
    fn net_model() -> ScoreModel {
        ScoreModel::net(
            [-946.076, 2407.064, -1936.437, 589.700],
            [-463.316, 1066.263, -710.164, 198.611],
        )
        .unwrap()
    }

    #[test]
    fn the_three_chances_add_up_to_1000_everywhere() {
        for model in [ScoreModel::HAND_CRAFTED, net_model()] {
            for m in 0..=110 {
                for cp in SCORES.step_by(7) {
                    let w = Wdl::of(&model, Score::Cp(cp), m);
                    assert_eq!(w.win + w.draw + w.loss, 1000, "cp {cp} material {m}: {w}");
                }
            }
        }
    }

    #[test]
    fn win_rises_and_loss_falls_with_the_score() {
        for model in [ScoreModel::HAND_CRAFTED, net_model()] {
            for m in 0..=MATERIAL_MAX + 5 {
                let mut last = Wdl::of(&model, Score::Cp(*SCORES.start()), m);
                for cp in SCORES {
                    let w = Wdl::of(&model, Score::Cp(cp), m);
                    assert!(w.win >= last.win && w.loss <= last.loss, "cp {cp} m {m}");
                    last = w;
                }
            }
        }
        for m in 0..=MATERIAL_MAX + 5 {
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
    fn a_nets_own_model_gives_its_own_chances() {
        // Fitted on games with the net: its pawn is its own, not the
        // hand-crafted evaluation's.
        let net = net_model();
        assert!((net.pawn() - 114.251).abs() < 0.01, "{}", net.pawn());
        assert_eq!(net.shown_cp(114), 100);
        assert_eq!(net.shown_cp(200), 175);
        let even = Wdl::of(&net, Score::Cp(114), MATERIAL_SCALE);
        assert!((490..=510).contains(&even.win), "{even}");
        // The chances the hand-crafted model gives the same centipawns
        // differ: its pawn is 90.
        let hce = Wdl::from_score(Score::Cp(114), MATERIAL_SCALE);
        assert!(hce.win > even.win + 30, "{hce} / {even}");
        let level = Wdl::of(&net, Score::Cp(0), MATERIAL_MIN);
        assert_eq!(level.win, level.loss, "{level}");
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
        assert_eq!(Wdl::of(&net_model(), Score::Mate(2), 30), Wdl::WIN);
        assert_eq!(Wdl::LOSS.to_string(), "0 0 1000");
    }
}
