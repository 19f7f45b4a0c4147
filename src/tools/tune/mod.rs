//! Texel tuning (`shears tune`): fits every evaluation weight to game
//! results by gradient descent.
//!
//! The evaluation is linear in its weights before the phase blend and the
//! endgame scale factor (`eval::coefficients`), so each position is loaded
//! once as its feature vector, and the evaluation with any weights is a dot
//! product. The loss is the mean squared error between the game's result
//! (1, ½, 0 for White) and `sigmoid(K * eval)`:
//!
//! 1. **Quiet positions.** Every labelled position is replaced by the leaf
//!    of its quiescence search (`quiet.rs`).
//! 2. **K.** The scaling constant is fitted first, with the current weights,
//!    by golden-section search; it then stays fixed.
//! 3. **Adam** over all weights, midgame and endgame, on the full data set
//!    each step, gradients summed in parallel (rayon).
//! 4. The rounded weights are written as `src/eval/weights.rs`
//!    (`eval::layout::render`), a generated file that is committed.

pub mod quiet;

use std::fs;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use thiserror::Error;

use crate::chess::Position;
use crate::eval::layout::{self, COUNT};
use crate::eval::{Coefficients, MAX_PHASE, S, SCALE_NORMAL, coefficients};

/// Adam's decay of the mean gradient.
pub const ADAM_BETA1: f64 = 0.9;
/// Adam's decay of the mean squared gradient.
pub const ADAM_BETA2: f64 = 0.999;
/// Adam's guard against division by zero.
pub const ADAM_EPSILON: f64 = 1e-8;
/// Where the golden-section search for K looks (per centipawn, natural log
/// units: `sigmoid(K * cp)`).
pub const K_RANGE: (f64, f64) = (1e-4, 0.05);
/// Positions per parallel work item.
const CHUNK: usize = 8192;

/// One training position: the features of its quiet leaf and the result.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    /// `(weight index, White-minus-Black count)`.
    features: Box<[(u16, i16)]>,
    /// Game phase, 0 to [`MAX_PHASE`].
    phase: u8,
    /// Endgame scale factor when White, or Black, is ahead.
    scale: [u8; 2],
    /// Game result for White: 1.0, 0.5 or 0.0.
    result: f32,
}

impl Sample {
    /// The sample of `coefs` with `result`.
    pub fn new(coefs: &Coefficients, result: f32) -> Sample {
        let byte = |v: i32| u8::try_from(v).expect("phase and scale fit a byte");
        Sample {
            features: coefs.features.clone().into_boxed_slice(),
            phase: byte(coefs.phase),
            scale: [byte(coefs.scale.white), byte(coefs.scale.black)],
            result,
        }
    }

    /// The evaluation for White with `w`, in floating point: the phase blend
    /// and the scale factor of the side ahead. Also returns the factors that
    /// turn a change of a midgame or endgame weight into a change of the
    /// evaluation (per unit of coefficient).
    fn evaluate(&self, w: &[[f64; 2]]) -> (f64, f64, f64) {
        let (mut mg, mut eg) = (0.0, 0.0);
        for &(i, c) in self.features.iter() {
            let [wm, we] = w[i as usize];
            mg += f64::from(c) * wm;
            eg += f64::from(c) * we;
        }
        let phase = f64::from(self.phase) / f64::from(MAX_PHASE);
        let blend = mg * phase + eg * (1.0 - phase);
        let scale = f64::from(self.scale[usize::from(blend <= 0.0)]) / f64::from(SCALE_NORMAL);
        (blend * scale, phase * scale, (1.0 - phase) * scale)
    }
}

/// Why tuning could not run.
#[derive(Debug, Error)]
pub enum TuneError {
    /// A data file could not be read.
    #[error("{path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The weights file could not be written.
    #[error("{path}: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// No usable position in the data.
    #[error("no usable positions in the data")]
    Empty,
}

/// A line of a data file that could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadLine {
    /// The file.
    pub path: PathBuf,
    /// Its line number, from 1.
    pub line: usize,
    /// Why.
    pub reason: String,
}

/// Parses one data line, `<fen> | <result>`.
fn parse_line(line: &str) -> Result<(Position, f32), String> {
    let (fen, result) = line
        .rsplit_once('|')
        .ok_or_else(|| "expected `<fen> | <result>`".to_owned())?;
    let result: f32 = result
        .trim()
        .parse()
        .map_err(|_| format!("bad result `{}`", result.trim()))?;
    if ![0.0, 0.5, 1.0].contains(&result) {
        return Err(format!("result {result} is not 1.0, 0.5 or 0.0"));
    }
    let pos = Position::from_fen(fen.trim(), false).map_err(|e| e.to_string())?;
    Ok((pos, result))
}

/// Loads the data files (lines starting with `#` are comments): parses each
/// position, resolves it to its quiet leaf and takes its features, in
/// parallel. Positions whose leaf is in check are dropped (not an error).
/// `on_progress` gets the number of lines done so far, now and then.
///
/// # Errors
///
/// When a file cannot be read, or nothing usable is left.
pub fn load(
    paths: &[PathBuf],
    on_progress: &(dyn Fn(u64) + Sync),
) -> Result<(Vec<Sample>, Vec<BadLine>), TuneError> {
    let mut lines = Vec::new();
    let texts: Vec<(PathBuf, String)> = paths
        .iter()
        .map(|p| {
            fs::read_to_string(p)
                .map(|t| (p.clone(), t))
                .map_err(|source| TuneError::Read {
                    path: p.clone(),
                    source,
                })
        })
        .collect::<Result<_, _>>()?;
    for (path, text) in &texts {
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if !line.is_empty() && !line.starts_with('#') {
                lines.push((path, n + 1, line));
            }
        }
    }
    let done = std::sync::atomic::AtomicU64::new(0);
    let parsed: Vec<Result<Option<Sample>, BadLine>> =
        lines
            .par_iter()
            .map(|&(path, number, line)| {
                let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if n.is_multiple_of(10_000) {
                    on_progress(n);
                }
                let (pos, result) = parse_line(line).map_err(|reason| BadLine {
                    path: path.clone(),
                    line: number,
                    reason,
                })?;
                Ok(quiet::quiet_leaf(pos.board())
                    .map(|leaf| Sample::new(&coefficients(&leaf), result)))
            })
            .collect();
    let mut samples = Vec::with_capacity(parsed.len());
    let mut bad = Vec::new();
    for p in parsed {
        match p {
            Ok(Some(s)) => samples.push(s),
            Ok(None) => {}
            Err(b) => bad.push(b),
        }
    }
    if samples.is_empty() {
        return Err(TuneError::Empty);
    }
    Ok((samples, bad))
}

/// The current weights, as floating-point `[midgame, endgame]` pairs.
pub fn current_weights() -> Vec<[f64; 2]> {
    layout::ALL
        .iter()
        .map(|s| [f64::from(s.0), f64::from(s.1)])
        .collect()
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean squared error of `sigmoid(k * eval)` against the results.
pub fn loss(samples: &[Sample], w: &[[f64; 2]], k: f64) -> f64 {
    let total: f64 = samples
        .par_chunks(CHUNK)
        .map(|chunk| {
            chunk
                .iter()
                .map(|s| {
                    let e = f64::from(s.result) - sigmoid(k * s.evaluate(w).0);
                    e * e
                })
                .sum::<f64>()
        })
        .sum();
    total / samples.len() as f64
}

/// The K that minimises the loss with weights `w` (golden-section search
/// over [`K_RANGE`]; the loss is unimodal in K).
pub fn fit_k(samples: &[Sample], w: &[[f64; 2]]) -> f64 {
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut lo, mut hi) = K_RANGE;
    let mut a = hi - ratio * (hi - lo);
    let mut b = lo + ratio * (hi - lo);
    let (mut fa, mut fb) = (loss(samples, w, a), loss(samples, w, b));
    while hi - lo > 1e-7 {
        if fa < fb {
            hi = b;
            b = a;
            fb = fa;
            a = hi - ratio * (hi - lo);
            fa = loss(samples, w, a);
        } else {
            lo = a;
            a = b;
            fa = fb;
            b = lo + ratio * (hi - lo);
            fb = loss(samples, w, b);
        }
    }
    (lo + hi) / 2.0
}

/// The loss and its gradient with respect to every weight.
fn gradient(samples: &[Sample], w: &[[f64; 2]], k: f64) -> (f64, Vec<[f64; 2]>) {
    let (loss, mut grad) = samples
        .par_chunks(CHUNK)
        .map(|chunk| {
            let mut grad = vec![[0.0; 2]; w.len()];
            let mut loss = 0.0;
            for s in chunk {
                let (v, to_mg, to_eg) = s.evaluate(w);
                let p = sigmoid(k * v);
                let e = p - f64::from(s.result);
                loss += e * e;
                let d = 2.0 * e * p * (1.0 - p) * k;
                for &(i, c) in s.features.iter() {
                    let g = &mut grad[i as usize];
                    g[0] += d * f64::from(c) * to_mg;
                    g[1] += d * f64::from(c) * to_eg;
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
}

/// Adam on all weights from `start` (see [`AdamConfig`]). `on_epoch(epoch,
/// loss)` is called after each step with the data loss before it. Returns
/// the fitted weights.
pub fn adam(
    samples: &[Sample],
    start: &[[f64; 2]],
    k: f64,
    config: AdamConfig,
    on_epoch: &mut dyn FnMut(u32, f64),
) -> Vec<[f64; 2]> {
    let AdamConfig { epochs, rate, l2 } = config;
    let mut w = start.to_vec();
    let mut m = vec![[0.0; 2]; w.len()];
    let mut v = vec![[0.0; 2]; w.len()];
    for epoch in 1..=epochs {
        let (l, mut grad) = gradient(samples, &w, k);
        for ((g, wi), si) in grad.iter_mut().zip(&w).zip(start) {
            g[0] += 2.0 * l2 * (wi[0] - si[0]);
            g[1] += 2.0 * l2 * (wi[1] - si[1]);
        }
        let bias1 = 1.0 - ADAM_BETA1.powi(epoch as i32);
        let bias2 = 1.0 - ADAM_BETA2.powi(epoch as i32);
        for i in 0..w.len() {
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

/// The weights rounded to whole centipawns.
pub fn rounded(w: &[[f64; 2]]) -> Vec<S> {
    w.iter()
        .map(|[mg, eg]| S(mg.round() as i32, eg.round() as i32))
        .collect()
}

/// Writes `weights` as the Rust source of `eval/weights.rs` to `path`.
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

/// The side-to-move view is not needed by the tuner; kept here so a test can
/// check that a sample rebuilds the engine's own evaluation.
#[cfg(test)]
fn white_eval(pos: &shakmaty::Chess) -> i32 {
    use shakmaty::Position as _;
    let v = crate::eval::evaluate(pos);
    if pos.turn() == shakmaty::Color::White {
        v
    } else {
        -v
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::ByColor;

    use super::*;

    const FENS: [&str; 4] = [
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        "8/5pk1/6p1/8/3B4/8/5PPP/6K1 b - - 0 40",
        "r3k2r/pp3ppp/2n5/3p4/3P4/2N5/PP3PPP/R3K2R w KQkq - 0 15",
        "8/8/4k3/8/2b5/8/4K3/3B4 w - - 0 60",
    ];

    fn samples() -> Vec<Sample> {
        FENS.iter()
            .zip([1.0, 0.0, 0.5, 0.5])
            .map(|(fen, r)| {
                let pos = Position::from_fen(fen, false).unwrap();
                Sample::new(&coefficients(pos.board()), r)
            })
            .collect()
    }

    #[test]
    fn a_sample_evaluates_like_the_engine_with_the_current_weights() {
        let w = current_weights();
        for (fen, s) in FENS.iter().zip(samples()) {
            let pos = Position::from_fen(fen, false).unwrap();
            let engine = white_eval(pos.board());
            let float = s.evaluate(&w).0;
            // The engine truncates twice (blend, then scale): within 2 cp.
            assert!(
                (float - f64::from(engine)).abs() <= 2.0,
                "{fen}: {float} vs {engine}"
            );
        }
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        let s = samples();
        let w = current_weights();
        let k = 0.006;
        let (_, grad) = gradient(&s, &w, k);
        let used: Vec<usize> = s[0]
            .features
            .iter()
            .map(|&(i, _)| i as usize)
            .take(5)
            .collect();
        for i in used {
            for j in 0..2 {
                let h = 1e-3;
                let mut up = w.clone();
                up[i][j] += h;
                let mut down = w.clone();
                down[i][j] -= h;
                let numeric = (loss(&s, &up, k) - loss(&s, &down, k)) / (2.0 * h);
                assert!(
                    (numeric - grad[i][j]).abs() <= 1e-6 + 1e-3 * numeric.abs(),
                    "weight {i}/{j}: analytic {} numeric {numeric}",
                    grad[i][j]
                );
            }
        }
    }

    #[test]
    fn adam_lowers_the_loss_and_k_is_inside_its_range() {
        let s = samples();
        let w = current_weights();
        let k = fit_k(&s, &w);
        assert!(k > K_RANGE.0 && k < K_RANGE.1, "{k}");
        let before = loss(&s, &w, k);
        let config = AdamConfig {
            epochs: 50,
            rate: 1.0,
            l2: 0.0,
        };
        let after = loss(&s, &adam(&s, &w, k, config, &mut |_, _| {}), k);
        assert!(after < before, "{after} !< {before}");
    }

    #[test]
    fn a_strong_l2_penalty_holds_the_weights_at_their_start() {
        let s = samples();
        let w = current_weights();
        let config = AdamConfig {
            epochs: 50,
            rate: 1.0,
            l2: 1e3,
        };
        let fitted = adam(&s, &w, 0.006, config, &mut |_, _| {});
        let drift = fitted
            .iter()
            .zip(&w)
            .map(|(a, b)| (a[0] - b[0]).abs().max((a[1] - b[1]).abs()))
            .fold(0.0, f64::max);
        assert!(drift < 1.0, "{drift}");
    }

    #[test]
    fn data_lines_are_parsed_or_rejected_with_a_reason() {
        assert!(parse_line("8/8/8/8/8/8/8/K6k w - - 0 1 | 0.5").is_ok());
        assert!(
            parse_line("8/8/8/8/8/8/8/K6k w - - 0 1")
                .unwrap_err()
                .contains("expected")
        );
        assert!(
            parse_line("8/8/8/8/8/8/8/K6k w - - 0 1 | 0.7")
                .unwrap_err()
                .contains("0.7")
        );
        assert!(parse_line("not a fen | 1.0").is_err());
    }

    #[test]
    fn scale_is_read_from_the_side_ahead() {
        let coefs = Coefficients {
            features: vec![(0, 1)],
            phase: 0,
            scale: ByColor {
                white: 32,
                black: 64,
            },
        };
        let s = Sample::new(&coefs, 1.0);
        let mut w = vec![[0.0; 2]; COUNT];
        w[0] = [0.0, 100.0];
        assert_eq!(s.evaluate(&w).0, 50.0);
        w[0] = [0.0, -100.0];
        assert_eq!(s.evaluate(&w).0, -100.0);
    }
}
