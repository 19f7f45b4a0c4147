//! The loss: the squared error between the net's expected result and a
//! target, both through the same sigmoid of centipawns over the scale K,
//! from the side to move's view:
//!
//! ```text
//! prediction = sigmoid(eval_cp / K)                  eval_cp = SCALE · out
//! target     = (1 − λ) · result + λ · sigmoid(score_cp / K)
//! loss       = (prediction − target)²                (the mean over the positions)
//! ```
//!
//! K puts the net's centipawns on the search scores' scale: by default it
//! is fitted to the data ([`fit_scale`]), the K with which the search
//! scores best predict the results.

use rayon::prelude::*;

use shears::eval::nnue::arch::SCALE;

use super::sample::Sample;

/// The scale K is searched for within these bounds (centipawns).
pub const SCALE_RANGE: (f64, f64) = (10.0, 10_000.0);

/// At most this many positions (spread over the data) fit K.
const SCALE_FIT_POSITIONS: usize = 1_000_000;

/// Positions per parallel work item of the fit.
const FIT_CHUNK: usize = 8192;

/// `1 / (1 + e^−x)`.
#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// What a position's prediction is compared with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Target {
    /// K, centipawns.
    pub scale: f32,
    /// λ: the weight of the search score in the target, from 0 (the results
    /// alone) to 1 (the scores alone).
    pub lambda: f32,
}

impl Target {
    /// The target of `sample`. A position without a score is compared with
    /// its result alone (the loader refuses such positions when λ > 0).
    #[inline]
    pub fn of(&self, sample: &Sample) -> f32 {
        let result = sample.result();
        match sample.score() {
            Some(score) if self.lambda > 0.0 => {
                (1.0 - self.lambda) * result + self.lambda * sigmoid(score as f32 / self.scale)
            }
            _ => result,
        }
    }

    /// The same scale against the results alone.
    pub fn results_only(&self) -> Target {
        Target {
            lambda: 0.0,
            ..*self
        }
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
/// results (least squares) over the positions `indices` of `samples` that
/// have a score, by golden-section search on log K. `None` when none has a
/// score.
pub fn fit_scale(samples: &[Sample], indices: &[u32]) -> Option<f32> {
    let stride = indices.len().div_ceil(SCALE_FIT_POSITIONS).max(1);
    let pairs: Vec<(f64, f64)> = indices
        .iter()
        .step_by(stride)
        .filter_map(|&i| {
            let s = &samples[i as usize];
            s.score()
                .map(|score| (f64::from(score), f64::from(s.result())))
        })
        .collect();
    if pairs.is_empty() {
        return None;
    }
    // Summed by chunks in a fixed order: the same K on every run.
    let loss = |log_k: f64| -> f64 {
        let k = log_k.exp();
        let sums: Vec<f64> = pairs
            .par_chunks(FIT_CHUNK)
            .map(|chunk| {
                chunk
                    .iter()
                    .map(|&(score, result)| {
                        let p = 1.0 / (1.0 + (-score / k).exp());
                        (p - result) * (p - result)
                    })
                    .sum::<f64>()
            })
            .collect();
        sums.iter().sum()
    };
    let (mut lo, mut hi) = (SCALE_RANGE.0.ln(), SCALE_RANGE.1.ln());
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if loss(a) < loss(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    Some(((lo + hi) / 2.0).exp() as f32)
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
