//! Static evaluation: a tapered hand-crafted evaluation, from the side to
//! move's point of view, written to be tuned.
//!
//! Every term has a midgame and an endgame value ([`S`]), blended by the game
//! phase (24 = all minor and major pieces on the board, 0 = none), and every
//! value is a named weight in `weights.rs` (a file the tuner regenerates;
//! `layout.rs` lists the weights). The terms, one topic per file:
//!
//! | file | terms |
//! |---|---|
//! | `material.rs` | material, piece-square tables |
//! | `pawns.rs` | doubled, isolated, backward, supported, phalanx pawns |
//! | `passed.rs` | passed pawns: rank, king distances, free path, blockade |
//! | `mobility.rs` | safe squares per piece type; the attack maps |
//! | `king.rs` | shelter, storm, open files, attacks on the king zone, safe checks |
//! | `pieces.rs` | bishop pair, outposts, rooks on open files and the 7th |
//! | `threats.rs` | pieces attacked by pawns or lesser pieces, hanging pieces |
//! | `endgame.rs` | scale factors: opposite bishops, material that cannot mate |
//!
//! plus the tempo bonus for the side to move.
//!
//! **Linear in the weights.** Each term reports "weight *i*, *n* times, for
//! colour *c*" to an `Accumulator` (`accumulator.rs`): the search's
//! accumulator adds the values, the trace's records the counts. So the
//! score before the endgame scale factor is `sum(coefficient * weight)` in
//! midgame and endgame, and [`coefficients`] gives the tuner that feature
//! vector (see `trace.rs` for the exact formula).
//!
//! **Pawn cache.** What depends only on pawns and kings is computed apart
//! (`pawn_terms`) and cached per search thread ([`PawnCache`]);
//! [`evaluate_cached`] is what the search calls.
//!
//! **Symmetry.** Terms are computed per colour from that colour's side, so a
//! position and its colour-mirrored twin evaluate the same from the side to
//! move (tested on every position of the public suites).

mod accumulator;
mod endgame;
mod king;
pub mod layout;
mod masks;
mod material;
mod mobility;
mod passed;
mod pawn_cache;
mod pawns;
mod pieces;
mod score;
mod threats;
mod trace;
#[rustfmt::skip]
pub mod weights;

#[cfg(test)]
mod tests;

use shakmaty::{Bitboard, Board, Chess, Color, Position as _, Role};

use accumulator::{Accumulator, Score};
pub use endgame::SCALE_NORMAL;
pub use layout::Term;
pub use pawn_cache::{PawnCache, pawn_key};
pub use score::S;
pub use trace::{Coefficients, coefficients, trace};

/// Phase of the full set of pieces.
pub const MAX_PHASE: i32 = 24;

/// The game phase, 0 (no pieces) to [`MAX_PHASE`]: knights and bishops
/// count 1, rooks 2, queens 4.
pub fn phase(board: &Board) -> i32 {
    let p = board.knights().count()
        + board.bishops().count()
        + 2 * board.rooks().count()
        + 4 * board.queens().count();
    (p as i32).min(MAX_PHASE)
}

/// Blends a midgame/endgame pair by phase (truncating toward zero).
pub fn taper(s: S, phase: i32) -> i32 {
    (s.0 * phase + s.1 * (MAX_PHASE - phase)) / MAX_PHASE
}

/// The blend of `total` by `phase`, times the scale factor (out of
/// [`SCALE_NORMAL`]) of the side it favours: the last step of every
/// evaluation.
#[inline(always)]
fn finish(total: S, phase: i32, scale: impl FnOnce(Color) -> i32) -> i32 {
    let v = taper(total, phase);
    let ahead = if v > 0 { Color::White } else { Color::Black };
    v * scale(ahead) / SCALE_NORMAL
}

/// The terms that depend only on the pawns and kings (what the pawn cache
/// stores); returns the passed pawns.
fn pawn_terms<A: Accumulator>(board: &Board, acc: &mut A) -> Bitboard {
    material::pawns_and_kings(board, acc);
    let passed = pawns::structure(board, acc);
    passed::rank_and_kings(board, passed, acc);
    king::shelter(board, acc);
    passed
}

/// Every other term, given the passed pawns.
fn piece_terms<A: Accumulator>(pos: &Chess, passed: Bitboard, acc: &mut A) {
    let board = pos.board();
    material::pieces(board, acc);
    let maps = mobility::mobility(board, acc);
    king::danger(board, &maps, acc);
    pieces::pieces(board, acc);
    threats::threats(board, &maps, acc);
    passed::path(board, passed, acc);
    acc.add(pos.turn(), layout::TEMPO, 1);
}

/// The evaluation given the pawn-and-king part.
#[inline(always)]
fn evaluate_white_with(pos: &Chess, pawn_score: S, passed: Bitboard) -> i32 {
    let board = pos.board();
    let mut acc = Score(pawn_score);
    piece_terms(pos, passed, &mut acc);
    finish(acc.0, phase(board), |ahead| {
        endgame::scale_factor(board, passed, ahead)
    })
}

/// The evaluation for White, in centipawns (tempo for the side to move
/// included).
pub fn evaluate_white(pos: &Chess) -> i32 {
    let mut acc = Score::default();
    let passed = pawn_terms(pos.board(), &mut acc);
    evaluate_white_with(pos, acc.0, passed)
}

/// [`evaluate_white`] with the pawn-and-king terms from `cache`.
pub fn evaluate_white_cached(pos: &Chess, cache: &mut PawnCache) -> i32 {
    let (pawn_score, passed) = cache.probe(pos.board());
    evaluate_white_with(pos, pawn_score, passed)
}

fn for_side_to_move(pos: &Chess, white: i32) -> i32 {
    if pos.turn() == Color::White {
        white
    } else {
        -white
    }
}

/// The evaluation from the side to move's point of view.
pub fn evaluate(pos: &Chess) -> i32 {
    for_side_to_move(pos, evaluate_white(pos))
}

/// [`evaluate`] with the pawn-and-king terms from `cache`: what the search
/// calls. Always equal to [`evaluate`].
pub fn evaluate_cached(pos: &Chess, cache: &mut PawnCache) -> i32 {
    for_side_to_move(pos, evaluate_white_cached(pos, cache))
}

/// Centipawn value of a role for simple uses (pawn 100 … queen 900, king 0).
pub fn piece_value(role: Role) -> i32 {
    [100, 320, 330, 500, 900, 0][role as usize - 1]
}
