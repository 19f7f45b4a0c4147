//! [`ScoreModel`]: how an evaluation's centipawns read as chances, fitted
//! on games, and the `score cp` shown normalised by it. Each evaluation has
//! its own centipawns, so each has its own model: the hand-crafted
//! evaluation's is [`ScoreModel::HAND_CRAFTED`]; a net's is its own, in
//! its file (`nnue/file.rs`, version 3) or none. This module owns the
//! model's numbers and its arithmetic; the win/draw/loss of an `info` line
//! (`uci/wdl.rs`) and the scores `eval` shows are read through it.
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
//! coefficients are fitted by maximum likelihood to games:
//! `scripts/wdl_fit.py` fits them to the search scores of match games
//! (docs/tuning.md: "Win/draw/loss"), `shears train` to a net's own
//! evaluations of its data's positions.
//!
//! **Normalised scores.** A model may also normalise the `score cp` it
//! shows, as Stockfish does: `cp · 100 / a(58)`, so that a shown 100 is an
//! even chance of a win with the material of the game's middle (`t = 1`);
//! the win/draw/loss chances stay those of the internal score, so the two
//! always agree. A net's model normalises; the hand-crafted evaluation's
//! scores are shown as they are (its games and their records use them).
//!
//! ```
//! use shears::eval::ScoreModel;
//! let model = ScoreModel::net([0.0, 0.0, 0.0, 120.0], [0.0, 0.0, 0.0, 60.0]).unwrap();
//! assert_eq!(model.pawn(), 120.0);
//! assert_eq!(model.shown_cp(240), 200);
//! assert_eq!(ScoreModel::HAND_CRAFTED.shown_cp(240), 240);
//! ```

use thiserror::Error;

/// Smallest material the model tells apart; less counts as this much.
/// Stockfish clamps at 17; Shears' games have many long endgames with less,
/// and telling them apart predicts their results better (docs/tuning.md).
pub const MATERIAL_MIN: u32 = 3;
/// Largest material the model tells apart (the start position has 78).
pub const MATERIAL_MAX: u32 = 78;
/// Material that maps to `t = 1`: the game's middle.
pub const MATERIAL_SCALE: u32 = 58;

/// Coefficients of the hand-crafted evaluation's `a(t)`, centipawns,
/// highest power first (`scripts/wdl_fit.py`, docs/tuning.md).
const AS: [f64; 4] = [-594.912, 1609.610, -1407.704, 483.281];
/// Coefficients of the hand-crafted evaluation's `b(t)`, centipawns,
/// highest power first.
const BS: [f64; 4] = [-209.866, 533.070, -399.585, 147.071];

/// The smallest `a` and `b` a net's model may reach over the material
/// range, centipawns: below it the chances are all but certain at a score
/// of 0, which no fit of real games gives. The arithmetic floors `a` and
/// `b` at this too, which keeps `P(win) + P(loss) <= 1` for any model.
pub const PARAMETER_FLOOR: f64 = 1.0;

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

/// Why coefficients are not a model a net can carry.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ScoreModelError {
    /// A coefficient is infinite or not a number.
    #[error("score model coefficient {index} of {parameter} is {value}, not a finite number")]
    NotFinite {
        /// `a` or `b`.
        parameter: char,
        /// Its place, highest power first, from 0.
        index: usize,
        /// What it is.
        value: String,
    },
    /// A parameter falls below [`PARAMETER_FLOOR`] within the material
    /// range.
    #[error(
        "score model's {parameter} is {value} cp with {material} material; it must be at least 1 \
         cp from material 3 to 78"
    )]
    TooSmall {
        /// `a` or `b`.
        parameter: char,
        /// The material where it is smallest.
        material: u32,
        /// Its value there, centipawns.
        value: String,
    },
}

impl ScoreModel {
    /// The hand-crafted evaluation's model (docs/tuning.md), its scores
    /// shown as they are.
    pub const HAND_CRAFTED: ScoreModel = ScoreModel {
        a: AS,
        b: BS,
        normalised: false,
    };

    /// A net's model, its `score cp` normalised, from the coefficients of
    /// `a(t)` and `b(t)` (centipawns of the net, highest power first).
    ///
    /// # Errors
    ///
    /// A coefficient that is not a finite number, or `a` or `b` below
    /// [`PARAMETER_FLOOR`] at some material from [`MATERIAL_MIN`] to
    /// [`MATERIAL_MAX`].
    pub fn net(a: [f64; 4], b: [f64; 4]) -> Result<ScoreModel, ScoreModelError> {
        for (parameter, coefficients) in [('a', &a), ('b', &b)] {
            if let Some(index) = coefficients.iter().position(|c| !c.is_finite()) {
                return Err(ScoreModelError::NotFinite {
                    parameter,
                    index,
                    value: coefficients[index].to_string(),
                });
            }
            let (material, value) = (MATERIAL_MIN..=MATERIAL_MAX)
                .map(|m| (m, polynomial(coefficients, t_of(m))))
                .min_by(|x, y| x.1.total_cmp(&y.1))
                .expect("the material range is not empty");
            if value < PARAMETER_FLOOR {
                return Err(ScoreModelError::TooSmall {
                    parameter,
                    material,
                    value: format!("{value:.3}"),
                });
            }
        }
        Ok(ScoreModel {
            a,
            b,
            normalised: true,
        })
    }

    /// `(a, b)` in centipawns for `material`, each at least
    /// [`PARAMETER_FLOOR`].
    pub fn parameters(&self, material: u32) -> (f64, f64) {
        let t = t_of(material);
        (
            polynomial(&self.a, t).max(PARAMETER_FLOOR),
            polynomial(&self.b, t).max(PARAMETER_FLOOR),
        )
    }

    /// The centipawns of a pawn as the model reads the game's middle:
    /// `a(t = 1)`, the score that wins half the time with 58 material.
    pub fn pawn(&self) -> f64 {
        self.parameters(MATERIAL_SCALE).0
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

    /// The chances of a win and of a loss, from 0 to 1, for `cp` of the
    /// evaluation's own centipawns with `material` on the board; their sum
    /// is below 1 (the rest is the draw).
    pub fn chances(&self, cp: f64, material: u32) -> (f64, f64) {
        let (a, b) = self.parameters(material);
        (logistic((cp - a) / b), logistic((-cp - a) / b))
    }
}

/// `t` for `material`: clamped to the range the model tells apart, over
/// the game's middle.
fn t_of(material: u32) -> f64 {
    f64::from(material.clamp(MATERIAL_MIN, MATERIAL_MAX)) / f64::from(MATERIAL_SCALE)
}

/// The cubic with `coefficients` (highest power first) at `t`.
fn polynomial(coefficients: &[f64; 4], t: f64) -> f64 {
    coefficients.iter().fold(0.0, |acc, &k| acc * t + k)
}

fn logistic(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hand_crafted_model_is_positive_over_the_whole_range_and_shows_scores_as_they_are() {
        let model = ScoreModel::HAND_CRAFTED;
        for m in MATERIAL_MIN..=MATERIAL_MAX {
            let (a, b) = model.parameters(m);
            assert!(a > 20.0 && b > 20.0, "material {m}");
        }
        assert!((model.pawn() - 90.275).abs() < 0.01, "{}", model.pawn());
        for cp in [-700, -90, 0, 1, 54, 90, 3000] {
            assert_eq!(model.shown_cp(cp), cp);
        }
        // Its coefficients pass a net's checks too.
        assert_eq!(
            ScoreModel::net(AS, BS),
            Ok(ScoreModel {
                normalised: true,
                ..model
            })
        );
    }

    #[test]
    fn a_normalised_score_of_100_wins_half_the_time_in_the_middle_of_the_game() {
        let model = ScoreModel::net(AS, BS).unwrap();
        let pawn = model.pawn();
        let cp = pawn.round() as i32;
        assert_eq!(model.shown_cp(cp), 100);
        assert_eq!(model.shown_cp(-cp), -100);
        assert_eq!(model.shown_cp(0), 0);
        let (win, loss) = model.chances(pawn, MATERIAL_SCALE);
        assert!((win - 0.5).abs() < 1e-9, "{win}");
        assert!(loss < win && win + loss < 1.0);
        // Less material counts as the least, more as the most.
        assert_eq!(model.parameters(0), model.parameters(MATERIAL_MIN));
        assert_eq!(model.parameters(200), model.parameters(MATERIAL_MAX));
    }

    #[test]
    fn coefficients_that_are_no_model_are_refused_with_the_reason() {
        let flat = |c: f64| [0.0, 0.0, 0.0, c];
        assert_eq!(
            ScoreModel::net([0.0, f64::NAN, 0.0, 100.0], flat(50.0)),
            Err(ScoreModelError::NotFinite {
                parameter: 'a',
                index: 1,
                value: "NaN".to_owned()
            })
        );
        assert_eq!(
            ScoreModel::net(flat(100.0), [f64::INFINITY, 0.0, 0.0, 1.0]),
            Err(ScoreModelError::NotFinite {
                parameter: 'b',
                index: 0,
                value: "inf".to_owned()
            })
        );
        // b(t) = 60 - 50 t falls below 1 cp past t = 1.18 (material 69).
        let err = ScoreModel::net(flat(100.0), [0.0, 0.0, -50.0, 60.0]).unwrap_err();
        assert_eq!(
            err,
            ScoreModelError::TooSmall {
                parameter: 'b',
                material: 78,
                value: "-7.241".to_owned()
            }
        );
        assert_eq!(
            err.to_string(),
            "score model's b is -7.241 cp with 78 material; it must be at least 1 cp from \
             material 3 to 78"
        );
        assert!(ScoreModel::net(flat(0.5), flat(50.0)).is_err());
        assert!(ScoreModel::net(flat(1.0), flat(1.0)).is_ok());
    }
}
