//! The evaluation itself: all the terms, tapered, scaled, from White's side
//! or the side to move's, with or without the pawn cache.

use shakmaty::{Bitboard, Chess, Color, Position as _};

use super::accumulator::Sum;
use super::complexity;
use super::endgame::scale_factor;
use super::known_win::known_win;
use super::pawn_cache::PawnCache;
use super::tapered::{S, finish, phase};
use super::terms::{count_terms, pawn_terms, piece_terms};

/// The evaluation given the pawn-and-king and piece-count parts.
#[inline(always)]
fn evaluate_white_with(pos: &Chess, cached: S, passed: Bitboard) -> i32 {
    let board = pos.board();
    if let Some(win) = known_win(board) {
        return win;
    }
    let mut acc = Sum::new(cached);
    piece_terms(pos, passed, &mut acc);
    let total = complexity::apply(acc.total(), board, passed);
    finish(total, phase(board), |ahead| {
        scale_factor(board, passed, ahead)
    })
}

/// The evaluation for White, in centipawns (tempo for the side to move
/// included).
pub fn evaluate_white(pos: &Chess) -> i32 {
    let mut acc = Sum::default();
    let passed = pawn_terms(pos.board(), &mut acc);
    count_terms(pos.board(), &mut acc);
    evaluate_white_with(pos, acc.total(), passed)
}

/// [`evaluate_white`] with the pawn-and-king and piece-count terms from
/// `cache`.
pub fn evaluate_white_cached(pos: &Chess, cache: &mut PawnCache) -> i32 {
    let (pawn_score, passed) = cache.probe(pos.board());
    let counts = cache.probe_counts(pos.board());
    evaluate_white_with(pos, pawn_score + counts, passed)
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
