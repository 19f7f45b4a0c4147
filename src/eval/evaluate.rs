//! The evaluation itself: all the terms, tapered, scaled, from White's side
//! or the side to move's, with or without the pawn cache.

use shakmaty::{Bitboard, Chess, Color, Position as _};

use super::accumulator::Sum;
use super::complexity;
use super::endgame::scale_factor;
use super::known_win::known_win;
use super::material;
use super::pawn_cache::PawnCache;
use super::tapered::{S, finish, phase, taper};
use super::terms::{count_terms, pawn_terms, piece_terms, positional_terms};

/// The cheap part of an evaluation: the terms of the pawn cache, of the
/// piece counts and of the pieces' material and tables, before any attack
/// map is built. [`Partial::estimate`] is what a lazy evaluation stands on;
/// [`complete`] adds the rest and gives exactly [`evaluate_cached`].
#[derive(Debug, Clone, Copy)]
pub struct Partial {
    sum: S,
    passed: Bitboard,
    /// The evaluation from the side to move's point of view as far as it
    /// is known: exact for a known win, else `sum` tapered (no positional
    /// terms, no complexity, no scale factor).
    pub estimate: i32,
    /// Whether `estimate` is already the whole evaluation (a known win).
    pub exact: bool,
}

/// The cheap part of the evaluation of `pos`, with the pawn-and-king and
/// piece-count terms from `cache`.
#[inline(always)]
pub fn partial_cached(pos: &Chess, cache: &mut PawnCache) -> Partial {
    let board = pos.board();
    if let Some(win) = known_win(board) {
        return Partial {
            sum: S::ZERO,
            passed: Bitboard::EMPTY,
            estimate: for_side_to_move(pos, win),
            exact: true,
        };
    }
    let (pawn_score, passed) = cache.probe(board);
    let counts = cache.probe_counts(board);
    let mut acc = Sum::new(pawn_score + counts);
    material::pieces(board, &mut acc);
    let sum = acc.total();
    Partial {
        sum,
        passed,
        estimate: for_side_to_move(pos, taper(sum, phase(board))),
        exact: false,
    }
}

/// The whole evaluation from the side to move's point of view, given its
/// cheap part: equal to [`evaluate_cached`].
pub fn complete(pos: &Chess, partial: Partial) -> i32 {
    if partial.exact {
        return partial.estimate;
    }
    let board = pos.board();
    let mut acc = Sum::new(partial.sum);
    positional_terms(pos, partial.passed, &mut acc);
    let total = complexity::apply(acc.total(), board, partial.passed);
    let white = finish(total, phase(board), |ahead| {
        scale_factor(board, partial.passed, ahead)
    });
    for_side_to_move(pos, white)
}

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
