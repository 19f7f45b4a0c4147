//! What the two fitters fit to, in one vocabulary: `shears tune` (the
//! hand-crafted evaluation's weights) and `shears train` (the net) both
//! compare a prediction with a [`Target`] made of a position's two labels,
//! the search score and the game result, from one point of view:
//!
//! ```text
//! prediction = sigmoid(eval_cp / K)
//! target     = (1 − λ) · result + λ · sigmoid(score_cp / K)
//! loss       = mean (prediction − target)²
//! ```
//!
//! K is in centipawns (a larger K, a flatter curve), λ the weight of the
//! search score: 0 the results alone, 1 the scores alone. Unless given, K
//! is fitted by [`fit_k`], the one fitter of both commands: the K with
//! which a set of centipawn values best predicts the results.
//!
//! It does not own the evaluations themselves (the net's forward pass is
//! `train::model`, the weights' dot product `tune`).

use std::ops::{Add, Div, Neg};

use rayon::prelude::*;

/// K is searched for within these bounds (centipawns).
pub const K_RANGE: (f64, f64) = (10.0, 10_000.0);

/// At most this many points (spread over the data) fit K.
pub const K_FIT_POINTS: usize = 1_000_000;

/// Points per parallel work item of the fit.
const FIT_CHUNK: usize = 8192;

/// The floats the fitters compute in: `f32` (`train`) and `f64` (`tune`
/// and the K fit), so that [`sigmoid`] is written once for both.
pub trait Real: Copy + Add<Output = Self> + Div<Output = Self> + Neg<Output = Self> {
    /// 1.
    const ONE: Self;
    /// `e^self`.
    fn exp(self) -> Self;
}

impl Real for f32 {
    const ONE: f32 = 1.0;
    #[inline]
    fn exp(self) -> f32 {
        f32::exp(self)
    }
}

impl Real for f64 {
    const ONE: f64 = 1.0;
    #[inline]
    fn exp(self) -> f64 {
        f64::exp(self)
    }
}

/// `1 / (1 + e^−x)`: the one sigmoid of both fitters.
#[inline]
pub fn sigmoid<T: Real>(x: T) -> T {
    T::ONE / (T::ONE + (-x).exp())
}

/// What a position's prediction is compared with: K and λ.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Target {
    /// K, centipawns: an evaluation `e` predicts `sigmoid(e / K)`.
    pub scale: f32,
    /// λ: the weight of the search score in the target, from 0 (the results
    /// alone) to 1 (the scores alone).
    pub lambda: f32,
}

impl Target {
    /// The target of a position with the search score `score` (centipawns)
    /// and the result `result` (1, ½ or 0), both from the same side. A
    /// position without a score is compared with its result alone (the
    /// readers refuse such positions when λ > 0), and so is every position
    /// when λ is 0.
    #[inline]
    pub fn blend(&self, score: Option<i32>, result: f32) -> f32 {
        match score {
            Some(score) if self.lambda > 0.0 => {
                (1.0 - self.lambda) * result + self.lambda * sigmoid(score as f32 / self.scale)
            }
            _ => result,
        }
    }

    /// The same K against the results alone.
    pub fn results_only(&self) -> Target {
        Target {
            lambda: 0.0,
            ..*self
        }
    }

    /// The expected result of an evaluation of `eval_cp` centipawns.
    #[inline]
    pub fn predict(&self, eval_cp: f32) -> f32 {
        sigmoid(eval_cp / self.scale)
    }
}

/// Every how many points a fit of K over `len` points takes one, so that
/// at most [`K_FIT_POINTS`] are taken, spread over them.
pub fn k_fit_stride(len: usize) -> usize {
    len.div_ceil(K_FIT_POINTS).max(1)
}

/// Fits K: the K with which `sigmoid(cp / K)` best predicts the result
/// over the `(cp, result)` points (least squares), by golden-section search
/// on log K within [`K_RANGE`]. `None` without points. The same points give
/// the same K on every run and thread count (the loss is summed by chunks
/// in a fixed order).
pub fn fit_k(points: &[(f64, f64)]) -> Option<f32> {
    if points.is_empty() {
        return None;
    }
    let loss = |log_k: f64| -> f64 {
        let k = log_k.exp();
        let sums: Vec<f64> = points
            .par_chunks(FIT_CHUNK)
            .map(|chunk| {
                chunk
                    .iter()
                    .map(|&(cp, result)| {
                        let p = sigmoid(cp / k);
                        (p - result) * (p - result)
                    })
                    .sum::<f64>()
            })
            .collect();
        sums.iter().sum()
    };
    let (mut lo, mut hi) = (K_RANGE.0.ln(), K_RANGE.1.ln());
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn k_fitted_to_results_drawn_with_a_known_k_comes_out_near_it() {
        // Results drawn from sigmoid(cp / 150) by a fixed sequence: the
        // expected result itself, rounded to a win, draw or loss by turns.
        let points: Vec<(f64, f64)> = (-400..=400)
            .flat_map(|cp| {
                let p = 1.0 / (1.0 + (-f64::from(cp) / 150.0).exp());
                [(f64::from(cp), p), (f64::from(cp), p)]
            })
            .collect();
        let k = fit_k(&points).unwrap();
        assert!((k - 150.0).abs() < 0.5, "{k}");
        assert_eq!(fit_k(&[]), None);
    }

    #[test]
    fn lambda_weighs_the_score_against_the_result() {
        let t = Target {
            scale: 100.0,
            lambda: 0.25,
        };
        let expected = 0.75 * 1.0 + 0.25 * sigmoid(0.5f32);
        assert_eq!(t.blend(Some(50), 1.0), expected);
        assert_eq!(t.blend(None, 1.0), 1.0);
        assert_eq!(t.results_only().blend(Some(50), 0.5), 0.5);
        assert_eq!(t.predict(0.0), 0.5);
        assert_eq!(k_fit_stride(10), 1);
        assert_eq!(k_fit_stride(2 * K_FIT_POINTS + 1), 3);
    }
}
