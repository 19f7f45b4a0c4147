//! The quantised net against the float net it was quantised from.
//!
//! Two checks per position (docs/nnue.md § Quantisation derives both):
//!
//! 1. The integer pipeline is the float pass over the quantised weights:
//!    with `A` the integer accumulators, `W2`, `B2` the integer output
//!    weights, the evaluation is within `1 + SCALE / (QA · QB)` cp of
//!    `SCALE · (Σ (clamp(A, 0, QA) / QA)² · W2 / QB + B2 / (QA · QB))`
//!    (the two truncating divisions).
//! 2. The quantised evaluation is within the quantisation bound of the
//!    float evaluation: with `n` pieces on the board each accumulator is
//!    within `ε = (n + 1) / (2 · QA)` of the float one (n + 1 rounded
//!    weights of error ≤ 1/2 each), so each activation moves at most
//!    `Δ_i = max(screlu(a_i + ε) − screlu(a_i), screlu(a_i) − screlu(a_i − ε))`,
//!    and the output weights are off by at most `1 / (2 · QB)`, the bias by
//!    `1 / (2 · QA · QB)`: `|q − f| ≤ SCALE · (Σ_i |W2_i / QB| · Δ_i +
//!    Σ_i screlu(a_i) / (2 · QB) + 1.5 / (QA · QB)) + 1`, plus a little for
//!    the float pass's own rounding.

use shakmaty::{Chess, Color, Position as _};

use super::super::accumulator::Accumulator;
use super::super::any::AnyNet;
use super::super::arch::{Layout, QA, QB, SCALE};
use super::super::error::NetError;
use super::super::float::FloatNet;
use super::super::net::Net;
use super::{for_each_width, positions, random_float_net, random_games};

/// Slack for f32 rounding in the float pass: on an accumulator (33 terms
/// of at most 2), and on the evaluation (512 terms, in cp).
const ACC_ROUNDING: f64 = 1e-4;
const EVAL_ROUNDING: f64 = 0.1;

/// The evaluation the integer pipeline computes, in f64 from its integer
/// accumulators: check 1's reference.
fn dequantised_eval<const H: usize>(net: &Net<H>, acc: &Accumulator<H>, stm: Color) -> f64 {
    let [w_us, w_them] = net.output_weights();
    let mut out = 0.0;
    for (half, w) in [
        (acc.perspective(stm), w_us),
        (acc.perspective(!stm), w_them),
    ] {
        for (&a, &w) in half.0.iter().zip(&w.0) {
            let v = f64::from(a.clamp(0, QA as i16)) / f64::from(QA);
            out += v * v * f64::from(w) / f64::from(QB);
        }
    }
    out += f64::from(net.output_bias()) / f64::from(QA * QB);
    out * f64::from(SCALE)
}

/// Check 2's bound for one position, in cp.
fn quantisation_bound<const H: usize>(float: &FloatNet, net: &Net<H>, pos: &Chess) -> f64 {
    let pieces = pos.board().occupied().count();
    let eps = (pieces as f64 + 1.0) / (2.0 * f64::from(QA)) + ACC_ROUNDING;
    let s = |x: f64| x.clamp(0.0, 1.0).powi(2);
    let stm = pos.turn();
    let mut bound = 1.5 / f64::from(QA * QB);
    for (k, side) in [stm, !stm].into_iter().enumerate() {
        let hidden = float.hidden(pos.board(), side);
        for (&a, &w2) in hidden.iter().zip(&net.output_weights()[k].0) {
            let a = f64::from(a);
            let moved = (s(a + eps) - s(a)).max(s(a) - s(a - eps));
            let w2 = f64::from(w2) / f64::from(QB);
            bound += w2.abs() * moved + s(a) / (2.0 * f64::from(QB));
        }
    }
    f64::from(SCALE) * bound + 1.0 + EVAL_ROUNDING
}

/// Runs both checks on every position of some random games (`games` of
/// each kind); returns the mean and largest error and the mean bound, for
/// the report.
fn check<const H: usize>(float: &FloatNet, games: usize) -> (f64, f64, f64) {
    let net = float.quantise_to::<H>();
    let positions = positions(&random_games(games, games, 120));
    assert!(positions.len() > 70 * games);
    let (mut worst, mut errors, mut bounds) = (0.0f64, 0.0, 0.0);
    for pos in &positions {
        let stm = pos.turn();
        let acc = Accumulator::refresh(&net, pos.board());
        let q = net.evaluate(&acc, stm);
        let pipeline = dequantised_eval(&net, &acc, stm);
        let pipeline_slack = 1.0 + f64::from(SCALE) / f64::from(QA * QB) + 1e-6;
        assert!(
            (f64::from(q) - pipeline).abs() < pipeline_slack,
            "integer pipeline {q} against {pipeline}"
        );
        let f = f64::from(float.evaluate(pos.board(), stm));
        let bound = quantisation_bound(float, &net, pos);
        let error = (f64::from(q) - f).abs();
        assert!(
            error <= bound,
            "quantised {q} float {f}: error {error} over the bound {bound}"
        );
        worst = worst.max(error);
        errors += error;
        bounds += bound;
    }
    let n = positions.len() as f64;
    (errors / n, worst, bounds / n)
}

#[test]
fn quantised_net_equals_float_net_within_the_bound() {
    for layout in Layout::ALL {
        // Weights of a trained net's size: accumulators mostly inside (0, 1).
        let float = random_float_net(256, layout, 21, 0.12, 0.15);
        let (mean, worst, bound) = check::<256>(&float, 10);
        println!(
            "{} small weights: error mean {mean:.2} cp, largest {worst:.2} cp; mean bound {bound:.1} cp",
            layout.name()
        );
        // Weights anywhere within the training clip.
        let float = random_float_net(256, layout, 22, 1.98, 1.98);
        let (mean, worst, bound) = check::<256>(&float, 10);
        println!(
            "{} clipped range: error mean {mean:.2} cp, largest {worst:.2} cp; mean bound {bound:.1} cp",
            layout.name()
        );
    }
}

#[test]
fn every_width_is_within_the_bound_of_its_float_net() {
    fn check_width<const H: usize>(layout: Layout)
    where
        AnyNet: From<Net<H>>,
    {
        for (seed, first, output) in [(23, 0.12, 0.15), (24, 1.98, 1.98)] {
            let float = random_float_net(H, layout, seed, first, output);
            let (mean, worst, bound) = check::<H>(&float, 4);
            println!(
                "H = {H}, {}, weights ±{first}: error mean {mean:.2} cp, largest {worst:.2} cp; \
                 mean bound {bound:.1} cp",
                layout.name()
            );
            // The net of any width, through the width chosen at run time.
            let any = float.quantise().expect("a width the engine plays");
            assert_eq!((any.hidden(), any.layout()), (H, layout));
            assert!(any == AnyNet::from(float.quantise_to::<H>()));
        }
    }
    for layout in Layout::ALL {
        for_each_width!(check_width(layout));
    }
}

#[test]
fn a_float_net_of_a_width_the_engine_does_not_play_is_not_quantised() {
    let float = FloatNet::zeroed(100, Layout::Plain);
    assert_eq!(
        float.quantise(),
        Err(NetError::UnsupportedWidth { found: 100 })
    );
}

#[test]
fn quantisation_rounds_to_nearest_and_clamps() {
    let mut float = FloatNet::zeroed(32, Layout::Plain);
    float.w1[5 * 32 + 7] = 0.5 / QA as f32 + 1e-4; // rounds up to 1
    float.w1[6 * 32] = -2.4 / QA as f32; // rounds to -2
    float.b1[3] = 1000.0; // clamped to i16::MAX
    float.w2[0][1] = 1.98; // 126.72: 127
    float.w2[1][2] = -3.0; // clamped to -127
    float.b2 = 0.25; // 0.25 · 255 · 64 = 4080
    let net = float.quantise_to::<32>();
    assert_eq!(net.column(5).0[7], 1);
    assert_eq!(net.column(6).0[0], -2);
    assert_eq!(net.biases().0[3], i16::MAX);
    assert_eq!(net.output_weights()[0].0[1], 127);
    assert_eq!(net.output_weights()[1].0[2], -127);
    assert_eq!(net.output_bias(), 4080);
}

#[test]
fn the_output_follows_the_formula_on_a_hand_made_net() {
    // One neuron: a white pawn on e2 gives the side that owns it 0.5 and
    // the other side 1.5 (clamped to 1); the output reads 2 · screlu of
    // the side to move's neuron and −1 · the other's.
    use super::super::arch::feature;
    use shakmaty::{Piece, Role, Square};
    let mut float = FloatNet::zeroed(32, Layout::Plain);
    let pawn = Piece {
        color: Color::White,
        role: Role::Pawn,
    };
    float.w1[feature(Color::White, pawn, Square::E2) * 32] = 0.5;
    float.w1[feature(Color::Black, pawn, Square::E2) * 32] = 1.5;
    float.w2[0][0] = 1.0;
    float.w2[1][0] = -0.5;
    float.b2 = 0.1;
    let pos: Chess = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
        .parse::<shakmaty::fen::Fen>()
        .unwrap()
        .into_position(shakmaty::CastlingMode::Standard)
        .unwrap();
    // White to move: 0.25 · 1 + 1 · (−0.5) + 0.1 = −0.15 → −60 cp.
    assert!((float.evaluate(pos.board(), Color::White) - -60.0).abs() < 1e-3);
    // Black to move: 1 · 1 + 0.25 · (−0.5) + 0.1 = 0.975 → 390 cp.
    assert!((float.evaluate(pos.board(), Color::Black) - 390.0).abs() < 1e-3);
    let net = float.quantise_to::<32>();
    let acc = Accumulator::refresh(&net, pos.board());
    // Integers: A = round(127.5) = 128 for White, 383 for Black (clamped
    // to 255), W2 = 64 and −32, b2 = round(0.1 · 16320) = 1632.
    // White to move: sum = 128² · 64 − 255² · 32 = −1,032,224;
    // (−1,032,224 / 255 + 1632) · 400 / 16320 = −2415 · 400 / 16320 = −59.
    assert_eq!(net.evaluate(&acc, Color::White), -59);
    // Black to move: sum = 255² · 64 − 128² · 32 = 3,637,312;
    // (3,637,312 / 255 + 1632) · 400 / 16320 = 15895 · 400 / 16320 = 389.
    assert_eq!(net.evaluate(&acc, Color::Black), 389);
}
