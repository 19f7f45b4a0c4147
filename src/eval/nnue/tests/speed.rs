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
use super::super::arch::{Layout, feature};
use super::super::column::Column;
use super::super::delta::{Delta, Placed};
use super::super::net::Net;
use super::super::simd::{self, scalar};
use super::{random_games, random_net};

/// Nanoseconds per item of each of `runs` (a name, the items it handles
/// and the work): the best of 15 rounds, the runs taking turns in each
/// round so that a busy moment of the machine does not favour one.
fn time_per_item(runs: &mut [(&str, usize, &mut dyn FnMut())]) -> Vec<f64> {
    let mut best = vec![f64::INFINITY; runs.len()];
    for _ in 0..15 {
        for (i, (_, items, run)) in runs.iter_mut().enumerate() {
            let start = Instant::now();
            run();
            best[i] = best[i].min(start.elapsed().as_secs_f64() * 1e9 / *items as f64);
        }
    }
    best
}

/// The scalar path's version of `Accumulator::apply_into`, to compare.
fn scalar_apply(
    parent: &Accumulator<256>,
    child: &mut [Column<256>; 2],
    net: &Net<256>,
    delta: Delta,
) {
    for (i, p) in [Color::Black, Color::White].into_iter().enumerate() {
        let col = |(piece, sq): Placed| net.column(feature(p, piece, sq));
        let (input, out) = (parent.perspective(p), &mut child[i]);
        match delta {
            Delta::Quiet { add, sub } => {
                scalar::Kernels::update(out, input, [col(add)], [col(sub)])
            }
            Delta::Capture { add, sub: [a, b] } => {
                scalar::Kernels::update(out, input, [col(add)], [col(a), col(b)]);
            }
            Delta::Castle {
                add: [a1, a2],
                sub: [s1, s2],
            } => scalar::Kernels::update(out, input, [col(a1), col(a2)], [col(s1), col(s2)]),
            Delta::Put { add } => scalar::Kernels::update(out, input, [col(add)], []),
        }
    }
}

#[test]
#[ignore = "a benchmark: run in release with --ignored --nocapture"]
fn accumulator_update_and_output_speed() {
    let net = random_net::<256>(61, 505, Layout::Plain);
    let mut steps: Vec<(Accumulator<256>, Color, Move, Color)> = Vec::new();
    for game in random_games(20, 20, 200) {
        let Some(first) = game.first() else { continue };
        let mut acc = Accumulator::refresh(&net, first.before.board());
        for ply in &game {
            let mover = ply.before.turn();
            steps.push((acc, mover, ply.played, !mover));
            acc = acc.after_move(&net, mover, ply.played, ply.after().board());
        }
    }
    // A plain net never reads the board after a move.
    let no_board = shakmaty::Board::empty();
    let n = steps.len();
    let positions: Vec<_> = random_games(5, 5, 100)
        .into_iter()
        .flatten()
        .map(|p| p.after())
        .collect();
    let [w_us, w_them] = net.output_weights();
    let mut child = Accumulator::default();
    let mut halves = [Column::ZERO; 2];
    let mut update = || {
        for (acc, mover, m, _) in &steps {
            black_box(acc).update_into(&mut child, &net, *mover, *m, &no_board);
            black_box(&child);
        }
    };
    let mut update_scalar = || {
        for (acc, mover, m, _) in &steps {
            scalar_apply(
                black_box(acc),
                &mut halves,
                &net,
                Delta::of_move(*mover, *m),
            );
            black_box(&halves);
        }
    };
    let mut evaluate = || {
        for (acc, _, _, stm) in &steps {
            black_box(net.evaluate(black_box(acc), *stm));
        }
    };
    let mut evaluate_scalar = || {
        for (acc, _, _, stm) in &steps {
            let (us, them) = (acc.perspective(*stm), acc.perspective(!*stm));
            black_box(scalar::Kernels::screlu_dot(
                black_box(us),
                them,
                w_us,
                w_them,
            ));
        }
    };
    let mut refresh = || {
        for pos in &positions {
            black_box(Accumulator::refresh(&net, black_box(pos.board())));
        }
    };
    let mut runs: [(&str, usize, &mut dyn FnMut()); 5] = [
        ("update (both perspectives)", n, &mut update),
        ("update, scalar kernels", n, &mut update_scalar),
        ("output", n, &mut evaluate),
        ("output, scalar dot product", n, &mut evaluate_scalar),
        ("refresh from scratch", positions.len(), &mut refresh),
    ];
    let times = time_per_item(&mut runs);
    println!("{n} moves; SIMD path: {}", simd::PATH);
    for ((name, _, _), ns) in runs.iter().zip(times) {
        println!("{name}: {ns:.1} ns");
    }
}
