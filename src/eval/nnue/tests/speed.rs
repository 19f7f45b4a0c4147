//! A micro-benchmark of the accumulator update and the output, on one
//! core (ignored by `cargo test`; run it in release):
//!
//! ```text
//! cargo test --release --lib eval::nnue::tests::speed -- --ignored --nocapture
//! ```
//!
//! It prints nanoseconds per call of the path the build uses, and of the
//! scalar kernels for comparison.

use std::hint::black_box;
use std::time::Instant;

use shakmaty::{Color, Move, Position as _};

use super::super::accumulator::Accumulator;
use super::super::arch::feature;
use super::super::column::Column;
use super::super::delta::{Delta, Placed};
use super::super::net::Net;
use super::super::simd::{self, scalar};
use super::{random_games, random_net};

/// Nanoseconds per item of `run`, which handles `items` items; the best
/// of a few rounds.
fn time_per_item(items: usize, mut run: impl FnMut()) -> f64 {
    (0..15)
        .map(|_| {
            let start = Instant::now();
            run();
            start.elapsed().as_secs_f64() * 1e9 / items as f64
        })
        .fold(f64::INFINITY, f64::min)
}

/// The scalar path's version of `Accumulator::apply_into`, to compare.
fn scalar_apply(parent: &Accumulator, child: &mut [Column; 2], net: &Net, delta: Delta) {
    for (i, p) in [Color::Black, Color::White].into_iter().enumerate() {
        let col = |(piece, sq): Placed| net.column(feature(p, piece, sq));
        let (input, out) = (parent.perspective(p), &mut child[i]);
        match delta {
            Delta::Quiet { add, sub } => scalar::update(out, input, [col(add)], [col(sub)]),
            Delta::Capture { add, sub: [a, b] } => {
                scalar::update(out, input, [col(add)], [col(a), col(b)]);
            }
            Delta::Castle {
                add: [a1, a2],
                sub: [s1, s2],
            } => scalar::update(out, input, [col(a1), col(a2)], [col(s1), col(s2)]),
            Delta::Put { add } => scalar::update(out, input, [col(add)], []),
        }
    }
}

#[test]
#[ignore = "a benchmark: run in release with --ignored --nocapture"]
fn accumulator_update_and_output_speed() {
    let net = random_net(61, 505);
    let mut steps: Vec<(Accumulator, Color, Move, Color)> = Vec::new();
    for game in random_games(20, 20, 200) {
        let Some(first) = game.first() else { continue };
        let mut acc = Accumulator::refresh(&net, first.before.board());
        for ply in &game {
            let mover = ply.before.turn();
            steps.push((acc, mover, ply.played, !mover));
            acc = acc.after_move(&net, mover, ply.played);
        }
    }
    let n = steps.len();
    let mut child = Accumulator::default();
    let update = time_per_item(n, || {
        for (acc, mover, m, _) in &steps {
            black_box(acc).update_into(&mut child, &net, *mover, *m);
            black_box(&child);
        }
    });
    let mut halves = [Column::ZERO; 2];
    let update_scalar = time_per_item(n, || {
        for (acc, mover, m, _) in &steps {
            scalar_apply(
                black_box(acc),
                &mut halves,
                &net,
                Delta::of_move(*mover, *m),
            );
            black_box(&halves);
        }
    });
    let evaluate = time_per_item(n, || {
        for (acc, _, _, stm) in &steps {
            black_box(net.evaluate(black_box(acc), *stm));
        }
    });
    let [w_us, w_them] = net.output_weights();
    let evaluate_scalar = time_per_item(n, || {
        for (acc, _, _, stm) in &steps {
            let (us, them) = (acc.perspective(*stm), acc.perspective(!*stm));
            black_box(scalar::screlu_dot(black_box(us), them, w_us, w_them));
        }
    });
    let positions: Vec<_> = random_games(5, 5, 100)
        .into_iter()
        .flatten()
        .map(|p| p.after())
        .collect();
    let refresh = time_per_item(positions.len(), || {
        for pos in &positions {
            black_box(Accumulator::refresh(&net, black_box(pos.board())));
        }
    });
    println!("{n} moves; SIMD path: {}", simd::PATH);
    println!("update (both perspectives): {update:.1} ns; scalar kernels {update_scalar:.1} ns");
    println!("output: {evaluate:.1} ns; scalar dot product {evaluate_scalar:.1} ns");
    println!("refresh from scratch: {refresh:.1} ns");
}
