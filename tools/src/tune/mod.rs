//! Texel tuning (`shears tune`): fits every evaluation weight to game
//! results by gradient descent.
//!
//! The evaluation is linear in its weights before the complexity
//! adjustment, the phase blend and the endgame scale factor
//! (`eval::coefficients`), so each position is loaded once as its feature
//! vector (and its complexity features), and the evaluation with any
//! weights is a dot product, adjusted by the complexity; the gradient of
//! the complexity weights follows the adjustment by the chain rule. The
//! loss is the mean squared error between `sigmoid(eval / K)` and the
//! target of `data::target`, the one `shears train` fits to (White's view
//! here: the sigmoid is symmetric, so the loss is the side to move's too):
//!
//! ```text
//! target = (1 − λ) · result + λ · sigmoid(score / K)        K in centipawns
//! ```
//!
//! 1. **Quiet positions.** Every labelled position read from the files
//!    (`load.rs`, through the one reader) is replaced by the leaf of its
//!    quiescence search (`quiet.rs`); its labels stay. Whole games are
//!    held out (`data::split`, as `train` holds them out).
//! 2. **K.** Unless given, fitted first by the one K fitter
//!    (`data::target::fit_k`), as `train` fits it: the K with which the
//!    training positions' search scores best predict their results; on
//!    data without scores (old result-only files), the K with which the
//!    evaluation with the current weights does ([`fit_k`]). It then stays
//!    fixed, and the targets are blended with it ([`set_targets`]). λ = 0
//!    leaves every target the exact result.
//! 3. **Adam** over all weights, midgame and endgame, on the full data set
//!    each step, gradients summed in parallel (rayon).
//! 4. The rounded weights are written as `src/eval/hce/weights.rs`
//!    (`eval::layout::render`), a generated file that is committed.

mod load;
pub mod quiet;

pub use load::{BadLine, Loaded, TuneError, load};

use std::fs;
use std::path::Path;

use rayon::prelude::*;
use shakmaty::Color;

use crate::data::target::{self, Target, k_fit_stride, sigmoid};
use shears::eval::layout::{self, COUNT};
use shears::eval::{
    COMPLEXITY_FEATURES, Coefficients, DANGER_EG_DIVISOR, DANGER_FEATURES, DANGER_MG_DIVISOR,
    MAX_PHASE, S, SCALE_NORMAL,
};

/// Adam's decay of the mean gradient.
pub const ADAM_BETA1: f64 = 0.9;
/// Adam's decay of the mean squared gradient.
pub const ADAM_BETA2: f64 = 0.999;
/// Adam's guard against division by zero.
pub const ADAM_EPSILON: f64 = 1e-8;
/// Positions per parallel work item.
const CHUNK: usize = 8192;

/// One training position: the features of its quiet leaf and its labels.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    /// `(weight index, White-minus-Black count)`.
    features: Box<[(u16, i16)]>,
    /// Game phase, 0 to [`MAX_PHASE`].
    phase: u8,
    /// Endgame scale factor when White, or Black, is ahead.
    scale: [u8; 2],
    /// The complexity features (`eval::complexity`).
    complexity: [i16; COMPLEXITY_FEATURES],
    /// Each king's danger features (`eval::king`), by the king's colour
    /// index (`Color as usize`: Black 0, White 1).
    danger: [[i16; DANGER_FEATURES]; 2],
    /// Game result for White: 1.0, 0.5 or 0.0.
    result: f32,
    /// The search score for White, centipawns (`None` in old data files).
    score: Option<i32>,
    /// What `sigmoid(eval / K)` is fitted to: the result until
    /// [`set_targets`] blends in the score.
    target: f32,
}

impl Sample {
    /// The sample of `coefs` labelled with `result` and, if known, the
    /// search `score` (both from White's side); its target is the result.
    pub fn new(coefs: &Coefficients, result: f32, score: Option<i32>) -> Sample {
        let byte = |v: i32| u8::try_from(v).expect("phase and scale fit a byte");
        Sample {
            features: coefs.features.clone().into_boxed_slice(),
            phase: byte(coefs.phase),
            scale: [byte(coefs.scale.white), byte(coefs.scale.black)],
            complexity: coefs.complexity,
            danger: coefs.danger,
            result,
            score,
            target: result,
        }
    }

    /// The evaluation for White with `w`, in floating point: the complexity
    /// adjustment of the endgame sum, the phase blend and the scale factor
    /// of the side ahead. Also returns what turns a change of a linear
    /// weight's midgame or endgame value, and of a complexity weight, into
    /// a change of the evaluation (per unit of feature).
    fn evaluate(&self, w: &[[f64; 2]]) -> Eval {
        let (mut mg, mut eg) = (0.0, 0.0);
        for &(i, c) in self.features.iter() {
            let [wm, we] = w[i as usize];
            mg += f64::from(c) * wm;
            eg += f64::from(c) * we;
        }
        // King danger: count d per king, midgame cost max(d, 0)² / MG_DIV,
        // endgame cost max(d, 0) / EG_DIV, against the king's side. The
        // slopes of those costs in d, signed for White's view.
        let mut danger_slope = [[0.0; 2]; 2];
        for (c, features) in self.danger.iter().enumerate() {
            if features.iter().all(|&f| f == 0) {
                continue;
            }
            let (mut dm, mut de) = (0.0, 0.0);
            for (j, &f) in features.iter().enumerate() {
                let [wm, we] = w[layout::KING_DANGER.at(j)];
                dm += f64::from(f) * wm;
                de += f64::from(f) * we;
            }
            // White's king costs White (-1), Black's king costs Black (+1).
            let sign = if c == Color::White as usize {
                -1.0
            } else {
                1.0
            };
            if dm > 0.0 {
                mg += sign * dm * dm / f64::from(DANGER_MG_DIVISOR);
                danger_slope[c][0] = sign * 2.0 * dm / f64::from(DANGER_MG_DIVISOR);
            }
            if de > 0.0 {
                eg += sign * de / f64::from(DANGER_EG_DIVISOR);
                danger_slope[c][1] = sign / f64::from(DANGER_EG_DIVISOR);
            }
        }
        // eg' = eg + sign(eg) * max(c, -|eg|): slope 1 in eg and sign(eg) in
        // c while c > -|eg|, else eg' = 0 and both slopes are 0.
        let c: f64 = self
            .complexity
            .iter()
            .enumerate()
            .map(|(j, &f)| f64::from(f) * w[layout::COMPLEXITY.at(j)][1])
            .sum();
        let sign = if eg > 0.0 {
            1.0
        } else if eg < 0.0 {
            -1.0
        } else {
            0.0
        };
        let (eg, eg_slope, c_slope) = if c > -eg.abs() {
            (eg + sign * c, 1.0, sign)
        } else {
            (0.0, 0.0, 0.0)
        };
        let phase = f64::from(self.phase) / f64::from(MAX_PHASE);
        let blend = mg * phase + eg * (1.0 - phase);
        let scale = f64::from(self.scale[usize::from(blend <= 0.0)]) / f64::from(SCALE_NORMAL);
        let to_eg = (1.0 - phase) * scale;
        let to_mg = phase * scale;
        let to_eg = to_eg * eg_slope;
        Eval {
            value: blend * scale,
            to_mg,
            to_eg,
            to_complexity: (1.0 - phase) * scale * c_slope,
            to_danger: danger_slope.map(|[m, e]| [m * to_mg, e * to_eg]),
        }
    }
}

/// A sample's evaluation and its slopes (see [`Sample::evaluate`]).
struct Eval {
    value: f64,
    to_mg: f64,
    to_eg: f64,
    to_complexity: f64,
    /// Per king (colour index), the change of the evaluation per unit of
    /// its danger count, midgame and endgame.
    to_danger: [[f64; 2]; 2],
}

/// Sets every sample's target to `target`'s blend of its result and
/// score, `(1 − λ) · result + λ · sigmoid(score / K)`; λ = 0 makes it
/// exactly the result, also for samples without a score. Returns how many
/// samples had no score (their target is then the result whatever λ is;
/// [`load`] with `need_scores` rules them out).
///
/// # Errors
///
/// When λ is not within 0 to 1.
pub fn set_targets(samples: &mut [Sample], target: Target) -> Result<usize, TuneError> {
    if !(0.0..=1.0).contains(&target.lambda) {
        return Err(TuneError::BadLambda(f64::from(target.lambda)));
    }
    let mut unscored = 0;
    for s in samples {
        unscored += usize::from(s.score.is_none());
        s.target = target.blend(s.score, s.result);
    }
    Ok(unscored)
}

/// How many samples carry a search score.
pub fn scored(samples: &[Sample]) -> usize {
    samples.iter().filter(|s| s.score.is_some()).count()
}

/// The current weights, as floating-point `[midgame, endgame]` pairs.
pub fn current_weights() -> Vec<[f64; 2]> {
    layout::ALL
        .iter()
        .map(|s| [f64::from(s.0), f64::from(s.1)])
        .collect()
}

/// Mean squared error of `sigmoid(eval / k)` (`k` in centipawns) against
/// the targets (the results, unless [`set_targets`] blended in the
/// scores).
pub fn loss(samples: &[Sample], w: &[[f64; 2]], k: f64) -> f64 {
    let total: f64 = samples
        .par_chunks(CHUNK)
        .map(|chunk| {
            chunk
                .iter()
                .map(|s| {
                    let e = f64::from(s.target) - sigmoid(s.evaluate(w).value / k);
                    e * e
                })
                .sum::<f64>()
        })
        .sum();
    total / samples.len() as f64
}

/// Where K came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KSource {
    /// The search scores' best fit to the results (as `train` fits it).
    Scores,
    /// The evaluation's best fit to the results with weights `w` (data
    /// without scores).
    Evaluation,
}

/// Fits K (centipawns) by the one K fitter (`data::target::fit_k`) on the
/// samples' search scores against their results, as `train` does; when no
/// sample has a score, on their evaluation with weights `w`. Fit it before
/// the targets are blended. `None` without samples.
pub fn fit_k(samples: &[Sample], w: &[[f64; 2]]) -> Option<(f64, KSource)> {
    let stride = k_fit_stride(samples.len());
    let scores: Vec<(f64, f64)> = samples
        .iter()
        .step_by(stride)
        .filter_map(|s| s.score.map(|c| (f64::from(c), f64::from(s.result))))
        .collect();
    if let Some(k) = target::fit_k(&scores) {
        return Some((f64::from(k), KSource::Scores));
    }
    let evals: Vec<(f64, f64)> = samples
        .par_iter()
        .step_by(stride)
        .map(|s| (s.evaluate(w).value, f64::from(s.result)))
        .collect();
    target::fit_k(&evals).map(|k| (f64::from(k), KSource::Evaluation))
}

/// The loss and its gradient with respect to every weight.
fn gradient(samples: &[Sample], w: &[[f64; 2]], k: f64) -> (f64, Vec<[f64; 2]>) {
    let (loss, mut grad) = samples
        .par_chunks(CHUNK)
        .map(|chunk| {
            let mut grad = vec![[0.0; 2]; w.len()];
            let mut loss = 0.0;
            for s in chunk {
                let ev = s.evaluate(w);
                let p = sigmoid(ev.value / k);
                let e = p - f64::from(s.target);
                loss += e * e;
                let d = 2.0 * e * p * (1.0 - p) / k;
                for &(i, c) in s.features.iter() {
                    let g = &mut grad[i as usize];
                    g[0] += d * f64::from(c) * ev.to_mg;
                    g[1] += d * f64::from(c) * ev.to_eg;
                }
                for (j, &f) in s.complexity.iter().enumerate() {
                    grad[layout::COMPLEXITY.at(j)][1] += d * f64::from(f) * ev.to_complexity;
                }
                for (features, slope) in s.danger.iter().zip(&ev.to_danger) {
                    if slope[0] == 0.0 && slope[1] == 0.0 {
                        continue;
                    }
                    for (j, &f) in features.iter().enumerate() {
                        let g = &mut grad[layout::KING_DANGER.at(j)];
                        g[0] += d * f64::from(f) * slope[0];
                        g[1] += d * f64::from(f) * slope[1];
                    }
                }
            }
            (loss, grad)
        })
        .reduce(
            || (0.0, vec![[0.0; 2]; w.len()]),
            |(la, mut ga), (lb, gb)| {
                for (a, b) in ga.iter_mut().zip(&gb) {
                    a[0] += b[0];
                    a[1] += b[1];
                }
                (la + lb, ga)
            },
        );
    let n = samples.len() as f64;
    for g in &mut grad {
        g[0] /= n;
        g[1] /= n;
    }
    (loss / n, grad)
}

/// How Adam runs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AdamConfig {
    /// Full-batch steps.
    pub epochs: u32,
    /// Step size, centipawns.
    pub rate: f64,
    /// Weight of the L2 penalty `l2 * sum((w - start)^2)` that holds each
    /// weight near its starting value unless the data says otherwise: a
    /// weight seen in few positions (a corner square, a rare king danger
    /// count) does not drift on noise.
    pub l2: f64,
    /// What the L2 penalty pulls each weight toward.
    pub anchor: L2Anchor,
}

/// What the L2 penalty of [`AdamConfig`] pulls each weight toward.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum L2Anchor {
    /// The weight's starting value (the committed weights).
    Start,
    /// Zero: a weight the data says little about (a rare square, a rare
    /// count) stays small instead of wandering to a large value on few
    /// positions; a weight seen often is held by its data.
    Zero,
}

/// Adam from `start` (see [`AdamConfig`]) on the weights that `free`
/// marks (all of them when `free` is `None`; the others keep their
/// starting values). `on_epoch(epoch, loss)` is called after each step
/// with the data loss before it. Returns the fitted weights.
pub fn adam(
    samples: &[Sample],
    start: &[[f64; 2]],
    free: Option<&[bool]>,
    k: f64,
    config: AdamConfig,
    on_epoch: &mut dyn FnMut(u32, f64),
) -> Vec<[f64; 2]> {
    debug_assert!(free.is_none_or(|f| f.len() == start.len()));
    let AdamConfig {
        epochs,
        rate,
        l2,
        anchor,
    } = config;
    let target = match anchor {
        L2Anchor::Start => start.to_vec(),
        L2Anchor::Zero => vec![[0.0; 2]; start.len()],
    };
    let mut w = start.to_vec();
    let mut m = vec![[0.0; 2]; w.len()];
    let mut v = vec![[0.0; 2]; w.len()];
    for epoch in 1..=epochs {
        let (l, mut grad) = gradient(samples, &w, k);
        for ((g, wi), si) in grad.iter_mut().zip(&w).zip(&target) {
            g[0] += 2.0 * l2 * (wi[0] - si[0]);
            g[1] += 2.0 * l2 * (wi[1] - si[1]);
        }
        let bias1 = 1.0 - ADAM_BETA1.powi(epoch as i32);
        let bias2 = 1.0 - ADAM_BETA2.powi(epoch as i32);
        for i in 0..w.len() {
            if free.is_some_and(|f| !f[i]) {
                continue;
            }
            for j in 0..2 {
                let g = grad[i][j];
                m[i][j] = ADAM_BETA1 * m[i][j] + (1.0 - ADAM_BETA1) * g;
                v[i][j] = ADAM_BETA2 * v[i][j] + (1.0 - ADAM_BETA2) * g * g;
                let step = m[i][j] / bias1 / ((v[i][j] / bias2).sqrt() + ADAM_EPSILON);
                w[i][j] -= rate * step;
            }
        }
        on_epoch(epoch, l);
    }
    w
}

/// Which weights a fit may move when only the groups `names` are to be
/// fitted: `None` (all of them) when `names` is empty.
///
/// # Errors
///
/// When a name is not a weight group of `eval/hce/layout.rs`.
pub fn free_weights(names: &[String]) -> Result<Option<Vec<bool>>, TuneError> {
    if names.is_empty() {
        return Ok(None);
    }
    if let Some(unknown) = names
        .iter()
        .find(|n| !layout::GROUPS.iter().any(|g| g.name == n.as_str()))
    {
        return Err(TuneError::UnknownGroup(unknown.clone()));
    }
    let free = (0..COUNT)
        .map(|i| {
            names
                .iter()
                .any(|n| layout::group_of(i).0.name == n.as_str())
        })
        .collect();
    Ok(Some(free))
}

/// The weights rounded to whole centipawns.
pub fn rounded(w: &[[f64; 2]]) -> Vec<S> {
    w.iter()
        .map(|[mg, eg]| S(mg.round() as i32, eg.round() as i32))
        .collect()
}

/// Writes `weights` as the Rust source of `eval/hce/weights.rs` to `path`.
///
/// # Errors
///
/// When the file cannot be written.
pub fn write_weights(path: &Path, weights: &[S]) -> Result<(), TuneError> {
    debug_assert_eq!(weights.len(), COUNT);
    fs::write(path, layout::render(weights)).map_err(|source| TuneError::Write {
        path: path.to_owned(),
        source,
    })
}

#[cfg(test)]
mod tests;
