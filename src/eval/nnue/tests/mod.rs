//! Tests of the net over random nets and random games (all seeded):
//!
//! - `incremental.rs`: accumulators followed move by move equal a refresh
//!   after every move of random games, every kind of move included, for
//!   every width and both input layouts (king moves across the d/e line
//!   included);
//! - `quantisation.rs`: the quantised net equals the float net within the
//!   quantisation bound (docs/nnue.md derives it), every width and layout;
//! - `symmetry.rs`: colour-mirrored positions evaluate the same, and a
//!   king-mirrored net sees a board and its a↔h twin alike;
//! - `file.rs`: the net file round-trips at every width and layout, with
//!   and without a score model, versions 1 and 2 still read, every bad
//!   file gets its error, no input panics;
//! - `read_file.rs`: the one reader from disk is bounded in size;
//! - `simd.rs`: the SIMD kernels equal the scalar ones;
//! - `speed.rs`: a micro-benchmark (ignored; run it in release).

mod file;
mod incremental;
mod quantisation;
mod read_file;
mod simd;
mod speed;
mod symmetry;

use std::path::Path;

use shakmaty::{Chess, Move, MoveList, Position as _};

use super::arch::{INPUTS, Layout, OUTPUT_WEIGHT_LIMIT};
use super::column::Column;
use super::float::FloatNet;
use super::net::Net;
use crate::chess::Position;
use crate::chess::random::{RandomGame, Rng, TRICKY_STARTS};

/// A uniform number in `[-range, range)`.
pub(super) fn uniform(rng: &mut Rng, range: f32) -> f32 {
    let unit = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
    (2.0 * unit - 1.0) * range
}

/// A uniform i16 in `-limit..=limit`.
pub(super) fn uniform_i16(rng: &mut Rng, limit: i16) -> i16 {
    let span = 2 * i32::from(limit) + 1;
    (rng.below(span as usize) as i32 - i32::from(limit)) as i16
}

/// Defines `for_each_width!(check(args…))`, which runs
/// `check::<H>(args…)` for every width the engine plays, from the one list
/// (`arch::widths!`).
macro_rules! define_for_each_width {
    ($d:tt ; $($width:literal => $variant:ident),*) => {
        /// Runs `$check::<H>($args)` for every width the engine plays.
        macro_rules! for_each_width {
            ($d check:ident $d args:tt) => {{
                $( $d check::<$width> $d args; )*
            }};
        }
    };
}
super::arch::widths!(define_for_each_width, $);
pub(super) use for_each_width;

/// A float net `hidden` wide read with `layout`, with uniform weights: the
/// first layer's and its biases in ±`first`, the output's in ±`output`.
pub(super) fn random_float_net(
    hidden: usize,
    layout: Layout,
    seed: u64,
    first: f32,
    output: f32,
) -> FloatNet {
    let mut rng = Rng::new(seed);
    let mut net = FloatNet::zeroed(hidden, layout);
    for w in &mut net.w1 {
        *w = uniform(&mut rng, first);
    }
    for w in &mut net.b1 {
        *w = uniform(&mut rng, first);
    }
    for w in net.w2.iter_mut().flatten() {
        *w = uniform(&mut rng, output);
    }
    net.b2 = uniform(&mut rng, output);
    net
}

/// A quantised net `H` wide read with `layout`, with uniform integer
/// weights: the first layer's and its biases in ±`first` (up to
/// `i16::MAX`: accumulators that wrap), the output's anywhere in their
/// range, `b2` anywhere.
pub(super) fn random_net<const H: usize>(seed: u64, first: i16, layout: Layout) -> Net<H> {
    let mut rng = Rng::new(seed);
    let mut column = |limit| {
        let mut col = Column::<H>::ZERO;
        col.0
            .iter_mut()
            .for_each(|w| *w = uniform_i16(&mut rng, limit));
        col
    };
    let mut w1 = Net::zero_first_layer();
    w1.iter_mut().for_each(|col| *col = column(first));
    let b1 = column(first);
    let w2 = [column(OUTPUT_WEIGHT_LIMIT), column(OUTPUT_WEIGHT_LIMIT)];
    let b2 = Rng::new(seed ^ 0xB2).next_u64() as i32;
    Net::new(w1, b1, w2, b2, layout).expect("output weights within the limit")
}

/// Some Chess960 start positions (from the perft suite).
pub(super) fn chess960_starts(count: usize) -> Vec<Position> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("perft/fischer960_perft.epd");
    let text = std::fs::read_to_string(&path).expect("the Chess960 perft suite is readable");
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let step = (lines.len() / count).max(1);
    lines
        .iter()
        .step_by(step)
        .take(count)
        .map(|line| {
            let fen = line.split(';').next().unwrap_or("").trim();
            Position::from_fen(fen, true).expect("a suite position loads")
        })
        .collect()
}

/// One move of a game: the position before it and the move.
pub(super) struct Ply {
    /// The position before the move.
    pub before: Chess,
    /// The move.
    pub played: Move,
}

impl Ply {
    /// The position after the move.
    pub fn after(&self) -> Chess {
        let mut after = self.before.clone();
        after.play_unchecked(self.played);
        after
    }
}

/// Random games (seeded) from the tricky perft starts (`standard` games)
/// and from Chess960 starts (`chess960` games), at most `plies` moves
/// each. Castling, en passant and promotions are played half the time
/// they are legal, so that every kind of move occurs.
pub(super) fn random_games(standard: usize, chess960: usize, plies: usize) -> Vec<Vec<Ply>> {
    let mut starts: Vec<Position> = (0..standard)
        .map(|g| {
            let fen = TRICKY_STARTS[g % TRICKY_STARTS.len()];
            Position::from_fen(fen, false).expect("a tricky start loads")
        })
        .collect();
    starts.extend(chess960_starts(chess960));
    starts
        .into_iter()
        .enumerate()
        .map(|(g, start)| {
            let mut game = RandomGame::new(start, 1000 + g as u64);
            let mut plies_played = Vec::new();
            while plies_played.len() < plies {
                let before = game.position().board().clone();
                let choose = |_: &Position, moves: &MoveList, rng: &mut Rng| {
                    let special: MoveList = moves
                        .iter()
                        .filter(|m| m.is_castle() || m.is_en_passant() || m.is_promotion())
                        .copied()
                        .collect();
                    match rng.below(2) {
                        0 if !special.is_empty() => rng.pick(&special),
                        _ => rng.pick(moves),
                    }
                };
                if !game.step_with(choose) {
                    break;
                }
                let played = *game.moves().last().expect("a move was played");
                plies_played.push(Ply { before, played });
            }
            plies_played
        })
        .collect()
}

/// Every position of `games` (starts and the positions after each move).
pub(super) fn positions(games: &[Vec<Ply>]) -> Vec<Chess> {
    let mut out = Vec::new();
    for game in games {
        if let Some(first) = game.first() {
            out.push(first.before.clone());
        }
        out.extend(game.iter().map(Ply::after));
    }
    out
}

#[test]
fn the_random_nets_have_the_expected_shape() {
    let net = random_float_net(256, Layout::Plain, 1, 0.5, 0.25);
    assert!(net.w1.iter().all(|w| w.abs() <= 0.5));
    assert!(net.w1.iter().any(|w| w.abs() > 0.45));
    assert_eq!(net.w1.len(), INPUTS * 256);
    let q = random_net::<256>(2, 505, Layout::KingMirrored);
    assert_eq!(q.layout(), Layout::KingMirrored);
    let w1 = q.first_layer().iter().flat_map(|c| c.0);
    assert!(w1.clone().all(|w| w.abs() <= 505) && w1.clone().any(|w| w.abs() > 500));
    let w2 = q.output_weights().iter().flat_map(|c| c.0);
    assert!(
        w2.clone().all(|w| w.abs() <= OUTPUT_WEIGHT_LIMIT) && w2.clone().any(|w| w.abs() > 120)
    );
    assert_eq!(w2.count(), 2 * 256);
}
