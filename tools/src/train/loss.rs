//! The net's loss: the squared error between the net's expected result and
//! the [`Target`] of `data::target` (the vocabulary `tune` shares), both
//! through the same sigmoid of centipawns over K, from the side to move's
//! view:
//!
//! ```text
//! prediction = sigmoid(eval_cp / K)                  eval_cp = SCALE · out
//! target     = (1 − λ) · result + λ · sigmoid(score_cp / K)
//! loss       = (prediction − target)²                (the mean over the positions)
//! ```
//!
//! K puts the net's centipawns on the search scores' scale: by default it
//! is fitted to the data ([`fit_scale`], through the one K fitter
//! `data::target::fit_k`), the K with which the search scores best predict
//! the results.

use shears::eval::nnue::arch::SCALE;

pub use crate::data::target::{Target, sigmoid};
use crate::data::target::{fit_k, k_fit_stride};

use super::sample::Sample;

impl Target {
    /// The target of `sample` (its score and result are the side to
    /// move's).
    #[inline]
    pub fn of(&self, sample: &Sample) -> f32 {
        self.blend(sample.score(), sample.result())
    }

    /// The loss of the output `out` (units of `SCALE` cp) against `target`,
    /// and its derivative by `out`.
    #[inline]
    pub fn loss(&self, out: f32, target: f32) -> (f32, f32) {
        let per_unit = SCALE as f32 / self.scale;
        let p = sigmoid(out * per_unit);
        let error = p - target;
        (error * error, 2.0 * error * p * (1.0 - p) * per_unit)
    }
}

/// Fits K: the scale with which `sigmoid(score / K)` best predicts the
/// results over the positions `indices` of `samples` that have a score (at
/// most `data::target::K_FIT_POINTS` of them, spread over the data).
/// `None` when none has a score.
pub fn fit_scale(samples: &[Sample], indices: &[u32]) -> Option<f32> {
    let points: Vec<(f64, f64)> = indices
        .iter()
        .step_by(k_fit_stride(indices.len()))
        .filter_map(|&i| {
            let s = &samples[i as usize];
            s.score()
                .map(|score| (f64::from(score), f64::from(s.result())))
        })
        .collect();
    fit_k(&points)
}

/// The loss of the search scores themselves against the results,
/// `mean (sigmoid(score / K) − result)²` over the positions `indices` of
/// `samples` that have a score: what a net that learned the scores
/// exactly would reach, a yardstick for the held-out loss. `None` when
/// none has a score.
pub fn score_loss(samples: &[Sample], indices: &[u32], scale: f32) -> Option<f64> {
    let (sum, n) = indices
        .iter()
        .filter_map(|&i| {
            let s = &samples[i as usize];
            s.score().map(|score| {
                let error = sigmoid(score as f32 / scale) - s.result();
                f64::from(error * error)
            })
        })
        .fold((0.0, 0usize), |(sum, n), e| (sum + e, n + 1));
    (n > 0).then(|| sum / n as f64)
}
