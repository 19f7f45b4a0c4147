//! The net's own score model, fitted at the end of a run, so that the net
//! file the run writes shows its scores by its own centipawns wherever it
//! is loaded (docs/nnue.md, Scores with the net).
//!
//! The model is the engine's ([`ScoreModel`]: Stockfish's win/draw/loss
//! model, `a(t)` and `b(t)` cubic in the material), fitted by maximum
//! likelihood, as `scripts/wdl_fit.py` fits it to games, but to what the
//! run has: the quantised net's own evaluation of the data's positions
//! (the engine's integer pass, as the search sees it before its endgame
//! knowledge) against the results of their games. A model fitted on the
//! net's games (`wdl_fit.py`, then `shears net set-model`) reads the
//! search's scores more closely and replaces it.
//!
//! The fit: BFGS with a backtracking line search on the mean negative log
//! likelihood and its exact gradient, from a flat `a` = 150, `b` = 80, over
//! at most [`MAX_POSITIONS`] positions taken evenly from the data. The
//! sums run over fixed chunks in a fixed order, so the model is the same
//! on any number of threads. Data that leaves part of the material range
//! empty (few endgames) can bend a cubic below zero where it has no
//! positions: then `a` and `b` are fitted as polynomials of a lower degree
//! (2, 1, then constants), the first that is a model.

use rayon::prelude::*;

use shears::chess::values::material_points;
use shears::eval::nnue::AnyNet;
use shears::eval::score_model::{MATERIAL_MAX, MATERIAL_MIN, MATERIAL_SCALE};
use shears::eval::{NET_EVAL_LIMIT, ScoreModel};

use super::sample::Sample;

/// The most positions the fit reads (evenly spaced over the data): far
/// more than eight coefficients need, and seconds of work.
pub const MAX_POSITIONS: usize = 400_000;

/// Fewest positions a fit is tried on.
pub const MIN_POSITIONS: usize = 1_000;

/// Positions per chunk of the sums.
const CHUNK: usize = 8_192;

/// The most BFGS iterations.
const MAX_ITERATIONS: usize = 400;

/// One position of the fit: the net's evaluation, `t` of its material and
/// its game's result, from the side to move's view.
#[derive(Clone, Copy, Debug)]
struct Point {
    cp: f64,
    t: f64,
    result: f64,
}

/// A fitted model and how well it predicts.
#[derive(Clone, Debug, PartialEq)]
pub struct ScoreFit {
    /// The model.
    pub model: ScoreModel,
    /// The degree of its polynomials `a(t)` and `b(t)` (3 unless a cubic
    /// was no model).
    pub degree: usize,
    /// Why the higher degrees were no model (empty for a cubic).
    pub refused: Vec<String>,
    /// Positions it was fitted on.
    pub positions: usize,
    /// Its mean negative log likelihood of the results.
    pub log_loss: f64,
    /// That of the results' frequencies alone (no score).
    pub baseline: f64,
}

/// Fits `net`'s score model on `samples` (at most [`MAX_POSITIONS`] of
/// them, evenly spaced).
///
/// # Errors
///
/// Why there is no model: too few positions, no won or no lost game, or a
/// fit that is not a model ([`ScoreModel::net`]) or predicts the results
/// no better than their frequencies.
pub fn fit(net: &AnyNet, samples: &[Sample]) -> Result<ScoreFit, String> {
    if samples.len() < MIN_POSITIONS {
        return Err(format!(
            "{} positions, fewer than the {MIN_POSITIONS} a fit needs",
            samples.len()
        ));
    }
    let step = samples.len().div_ceil(MAX_POSITIONS);
    let picked: Vec<&Sample> = samples.iter().step_by(step).collect();
    let points: Vec<Point> = picked.par_iter().map(|s| point(net, s)).collect();
    let frequency = |r: f64| points.iter().filter(|p| p.result == r).count() as f64;
    let (wins, draws, losses) = (frequency(1.0), frequency(0.5), frequency(0.0));
    if wins == 0.0 || losses == 0.0 {
        return Err("the data has no won or no lost game".to_owned());
    }
    let n = points.len() as f64;
    let baseline = -[wins, draws, losses]
        .iter()
        .filter(|&&k| k > 0.0)
        .map(|&k| k * (k / n).ln())
        .sum::<f64>()
        / n;
    let mut refused = Vec::new();
    for degree in (0..=3).rev() {
        let mut start = [0.0; 8];
        (start[3], start[7]) = (150.0, 80.0);
        let (params, log_loss) = minimise(&points, start, degree);
        let (a, b) = split(&params);
        let model = match ScoreModel::net(a, b) {
            Ok(model) => model,
            Err(e) => {
                refused.push(format!("degree {degree}: {e}"));
                continue;
            }
        };
        if log_loss.is_nan() || log_loss >= baseline {
            return Err(format!(
                "the fit predicts the results no better than their frequencies (log-loss \
                 {log_loss:.4} against {baseline:.4})"
            ));
        }
        return Ok(ScoreFit {
            model,
            degree,
            refused,
            positions: points.len(),
            log_loss,
            baseline,
        });
    }
    Err(format!("the fit is no model: {}", refused.join("; ")))
}

/// A sample as a point of the fit.
fn point(net: &AnyNet, sample: &Sample) -> Point {
    let board = sample.board();
    let cp = net
        .evaluate_board(&board, sample.side_to_move())
        .clamp(-NET_EVAL_LIMIT, NET_EVAL_LIMIT);
    let material = material_points(&board).clamp(MATERIAL_MIN, MATERIAL_MAX);
    Point {
        cp: f64::from(cp),
        t: f64::from(material) / f64::from(MATERIAL_SCALE),
        result: f64::from(sample.result()),
    }
}

/// The coefficients of `a` and `b` in a parameter vector.
fn split(params: &[f64; 8]) -> ([f64; 4], [f64; 4]) {
    let mut a = [0.0; 4];
    let mut b = [0.0; 4];
    a.copy_from_slice(&params[..4]);
    b.copy_from_slice(&params[4..]);
    (a, b)
}

/// The smallest `b` the likelihood divides by.
const B_FLOOR: f64 = 1e-3;
/// The smallest probability whose logarithm is taken.
const P_FLOOR: f64 = 1e-12;

fn logistic(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// The mean negative log likelihood of the results of `points` under
/// `params` (a's coefficients, then b's, highest power first), and its
/// gradient.
fn loss_and_gradient(points: &[Point], params: &[f64; 8]) -> (f64, [f64; 8]) {
    let parts: Vec<(f64, [f64; 8])> = points
        .par_chunks(CHUNK)
        .map(|chunk| {
            let mut loss = 0.0;
            let mut grad = [0.0; 8];
            for p in chunk {
                let powers = [p.t * p.t * p.t, p.t * p.t, p.t, 1.0];
                let poly = |c: &[f64]| c.iter().zip(&powers).map(|(c, x)| c * x).sum::<f64>();
                let a = poly(&params[..4]);
                let raw_b = poly(&params[4..]);
                let b = raw_b.max(B_FLOOR);
                let (u, v) = ((p.cp - a) / b, (-p.cp - a) / b);
                let (win, lose) = (logistic(u), logistic(v));
                let draw = (1.0 - win - lose).max(P_FLOOR);
                // d ln P / du and d ln P / dv for the result (σ' = σ(1 − σ)).
                let (prob, du, dv) = if p.result == 1.0 {
                    (win, 1.0 - win, 0.0)
                } else if p.result == 0.0 {
                    (lose, 0.0, 1.0 - lose)
                } else {
                    (draw, -win * (1.0 - win) / draw, -lose * (1.0 - lose) / draw)
                };
                loss -= prob.max(P_FLOOR).ln();
                // u and v both fall by 1/b as a rises, and by u/b (v/b) as
                // b rises (not below its floor).
                let da = -(du + dv) / b;
                let db = if raw_b > B_FLOOR {
                    -(du * u + dv * v) / b
                } else {
                    0.0
                };
                for k in 0..4 {
                    grad[k] -= da * powers[k];
                    grad[k + 4] -= db * powers[k];
                }
            }
            (loss, grad)
        })
        .collect();
    let n = points.len() as f64;
    let mut loss = 0.0;
    let mut grad = [0.0; 8];
    for (l, g) in parts {
        loss += l;
        for (total, g) in grad.iter_mut().zip(g) {
            *total += g;
        }
    }
    (loss / n, grad.map(|g| g / n))
}

fn dot(x: &[f64; 8], y: &[f64; 8]) -> f64 {
    x.iter().zip(y).map(|(a, b)| a * b).sum()
}

/// BFGS from `start`, the coefficients of the powers above `degree` held
/// at 0: the parameters that minimise the loss, and the loss.
fn minimise(points: &[Point], start: [f64; 8], degree: usize) -> ([f64; 8], f64) {
    // A held coefficient gets no gradient, so no step ever moves it: the
    // estimate's row and column for it stay those of the identity's.
    let free = |i: usize| i % 4 >= 3 - degree;
    let evaluate = |x: &[f64; 8]| {
        let (f, g) = loss_and_gradient(points, x);
        (f, std::array::from_fn(|i| if free(i) { g[i] } else { 0.0 }))
    };
    let mut x = start;
    let (mut f, mut g): (f64, [f64; 8]) = evaluate(&x);
    // The inverse Hessian's estimate, row-major; the identity until the
    // first step scales it.
    let mut h = [[0.0; 8]; 8];
    for (i, row) in h.iter_mut().enumerate() {
        row[i] = 1.0;
    }
    let mut first = true;
    for _ in 0..MAX_ITERATIONS {
        if g.iter().all(|d| d.abs() < 1e-10) {
            break;
        }
        let mut direction = [0.0; 8];
        for (d, row) in direction.iter_mut().zip(&h) {
            *d = -dot(row, &g);
        }
        let slope = dot(&direction, &g);
        if slope >= 0.0 {
            // Not a descent direction: start the estimate again.
            for (i, row) in h.iter_mut().enumerate() {
                *row = [0.0; 8];
                row[i] = 1.0;
            }
            first = true;
            continue;
        }
        // Backtracking until the loss falls enough (Armijo).
        let mut step = 1.0;
        let mut next = None;
        for _ in 0..60 {
            let trial: [f64; 8] = std::array::from_fn(|i| x[i] + step * direction[i]);
            let (ft, gt) = evaluate(&trial);
            if ft.is_finite() && ft <= f + 1e-4 * step * slope {
                next = Some((trial, ft, gt));
                break;
            }
            step /= 2.0;
        }
        let Some((x_new, f_new, g_new)) = next else {
            break;
        };
        let s: [f64; 8] = std::array::from_fn(|i| x_new[i] - x[i]);
        let y: [f64; 8] = std::array::from_fn(|i| g_new[i] - g[i]);
        let done = (f - f_new).abs() <= 1e-14 * f.abs().max(1.0);
        (x, f, g) = (x_new, f_new, g_new);
        if done {
            break;
        }
        let sy = dot(&s, &y);
        if sy <= 1e-300 {
            continue;
        }
        if first {
            // Scale the identity to the curvature seen (Nocedal & Wright).
            let scale = sy / dot(&y, &y);
            for (i, row) in h.iter_mut().enumerate() {
                *row = [0.0; 8];
                row[i] = scale;
            }
            first = false;
        }
        // H ← (I − ρ s yᵀ) H (I − ρ y sᵀ) + ρ s sᵀ.
        let rho = 1.0 / sy;
        let hy: [f64; 8] = std::array::from_fn(|i| dot(&h[i], &y));
        let yhy = dot(&y, &hy);
        for i in 0..8 {
            for j in 0..8 {
                h[i][j] +=
                    (1.0 + rho * yhy) * rho * s[i] * s[j] - rho * (hy[i] * s[j] + s[i] * hy[j]);
            }
        }
    }
    (x, f)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions drawn from a known model: for each material and score, a
    /// result with the model's chances (a seeded generator).
    fn drawn(model: &ScoreModel, count: usize) -> Vec<Point> {
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        let mut uniform = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        (0..count)
            .map(|_| {
                let material = MATERIAL_MIN + (uniform() * 76.0) as u32;
                let cp = (uniform() - 0.5) * 1200.0;
                let (win, lose) = model.chances(cp, material);
                let r = uniform();
                let result = if r < win {
                    1.0
                } else if r < win + lose {
                    0.0
                } else {
                    0.5
                };
                Point {
                    cp,
                    t: f64::from(material) / f64::from(MATERIAL_SCALE),
                    result,
                }
            })
            .collect()
    }

    #[test]
    fn the_gradient_is_the_losss_slope() {
        let truth = ScoreModel::HAND_CRAFTED;
        let points = drawn(&truth, 2_000);
        let params = [-300.0, 900.0, -800.0, 300.0, -100.0, 300.0, -250.0, 120.0];
        let (_, grad) = loss_and_gradient(&points, &params);
        for k in 0..8 {
            let h = 1e-4;
            let mut up = params;
            up[k] += h;
            let mut down = params;
            down[k] -= h;
            let slope = (loss_and_gradient(&points, &up).0 - loss_and_gradient(&points, &down).0)
                / (2.0 * h);
            assert!(
                (slope - grad[k]).abs() <= 1e-6 + 1e-4 * slope.abs(),
                "coefficient {k}: {slope} against {}",
                grad[k]
            );
        }
    }

    #[test]
    fn a_known_model_is_found_again_from_its_results() {
        let truth = ScoreModel::net(
            [-946.076, 2407.064, -1936.437, 589.700],
            [-463.316, 1066.263, -710.164, 198.611],
        )
        .unwrap();
        let points = drawn(&truth, 60_000);
        let mut start = [0.0; 8];
        (start[3], start[7]) = (150.0, 80.0);
        let (params, loss) = minimise(&points, start, 3);
        let (a, b) = split(&params);
        let fitted = ScoreModel::net(a, b).expect("a model");
        // Its pawn, and its parameters over the material the data has.
        assert!(
            (fitted.pawn() - truth.pawn()).abs() < 6.0,
            "{} against {}",
            fitted.pawn(),
            truth.pawn()
        );
        for m in [10, 30, 58, 78] {
            let (fa, fb) = fitted.parameters(m);
            let (ta, tb) = truth.parameters(m);
            assert!((fa - ta).abs() < 0.1 * ta, "a at {m}: {fa} against {ta}");
            assert!((fb - tb).abs() < 0.15 * tb, "b at {m}: {fb} against {tb}");
        }
        // No worse than the truth on its own draws.
        let (_, truth_loss) = {
            let (a, b) = (truth.a, truth.b);
            let mut p = [0.0; 8];
            p[..4].copy_from_slice(&a);
            p[4..].copy_from_slice(&b);
            (p, loss_and_gradient(&points, &p).0)
        };
        assert!(loss <= truth_loss + 1e-9, "{loss} against {truth_loss}");
    }

    #[test]
    fn a_lower_degree_holds_the_higher_coefficients_at_zero() {
        let truth = ScoreModel::net([0.0, 0.0, 30.0, 100.0], [0.0, 0.0, 0.0, 60.0]).unwrap();
        let points = drawn(&truth, 30_000);
        let mut start = [0.0; 8];
        (start[3], start[7]) = (150.0, 80.0);
        let (params, _) = minimise(&points, start, 1);
        assert_eq!([params[0], params[1], params[4], params[5]], [0.0; 4]);
        assert!(
            (params[2] - 30.0).abs() < 10.0 && (params[3] - 100.0).abs() < 10.0,
            "{params:?}"
        );
        let (constant, _) = minimise(&points, start, 0);
        assert_eq!(constant[..3], [0.0; 3]);
        assert_eq!(constant[4..7], [0.0; 3]);
    }
}
