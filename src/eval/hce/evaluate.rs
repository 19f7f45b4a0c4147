//! The evaluation itself: all the terms, tapered, scaled, from White's side
//! or the side to move's, with or without the pawn cache.

use shakmaty::{Bitboard, Chess, Color, Position as _};

use super::accumulator::Sum;
use super::pawn_cache::PawnCache;
use super::tapered::{S, finish, phase, taper};
use super::terms::complexity;
use super::terms::endgame::scale_factor;
use super::terms::material;
use super::terms::{count_terms, pawn_terms, positional_terms};
use crate::eval::endgame::known_win::known_win;

/// The cheap part of an evaluation: the terms of the pawn cache, of the
/// piece counts and of the pieces' material and tables, before any attack
/// map is built. [`Partial::estimate`] is what a lazy evaluation stands on;
/// [`complete`] adds the rest. Every evaluation goes through it.
#[derive(Debug, Clone, Copy)]
pub struct Partial {
    sum: S,
    passed: Bitboard,
    phase: i32,
    /// A known win's score for White: then it is the whole evaluation.
    known_win: Option<i32>,
    turn: Color,
}

impl Partial {
    /// The cheap part given the pawn-and-king and piece-count terms.
    #[inline(always)]
    fn new(pos: &Chess, cached: S, passed: Bitboard) -> Partial {
        let board = pos.board();
        let mut acc = Sum::new(cached);
        let known_win = known_win(board);
        if known_win.is_none() {
            material::pieces(board, &mut acc);
        }
        Partial {
            sum: acc.total(),
            passed,
            phase: phase(board),
            known_win,
            turn: pos.turn(),
        }
    }

    /// The evaluation from the side to move's point of view as far as it
    /// is known: exact for a known win, else the cheap terms tapered (no
    /// positional terms, no complexity, no scale factor).
    pub fn estimate(&self) -> i32 {
        let white = self
            .known_win
            .unwrap_or_else(|| taper(self.sum, self.phase));
        if self.turn == Color::White {
            white
        } else {
            -white
        }
    }

    /// Whether [`Partial::estimate`] is already the whole evaluation (a
    /// known win).
    pub fn is_exact(&self) -> bool {
        self.known_win.is_some()
    }

    /// The whole evaluation for White.
    #[inline(always)]
    fn complete_white(self, pos: &Chess) -> i32 {
        if let Some(win) = self.known_win {
            return win;
        }
        let board = pos.board();
        let mut acc = Sum::new(self.sum);
        positional_terms(pos, self.passed, &mut acc);
        let total = complexity::apply(acc.total(), board, self.passed);
        finish(total, self.phase, |ahead| {
            scale_factor(board, self.passed, ahead)
        })
    }
}

/// The cheap part of the evaluation of `pos`, with the pawn-and-king and
/// piece-count terms from `cache`.
#[inline(always)]
pub fn partial_cached(pos: &Chess, cache: &mut PawnCache) -> Partial {
    let (pawn_score, passed) = cache.probe(pos.board());
    let counts = cache.probe_counts(pos.board());
    Partial::new(pos, pawn_score + counts, passed)
}

/// The whole evaluation from the side to move's point of view, given its
/// cheap part (made for `pos`): equal to [`evaluate_cached`].
pub fn complete(pos: &Chess, partial: Partial) -> i32 {
    for_side_to_move(pos, partial.complete_white(pos))
}

/// The evaluation for White, in centipawns (tempo for the side to move
/// included).
pub fn evaluate_white(pos: &Chess) -> i32 {
    let mut acc = Sum::default();
    let passed = pawn_terms(pos.board(), &mut acc);
    count_terms(pos.board(), &mut acc);
    Partial::new(pos, acc.total(), passed).complete_white(pos)
}

/// [`evaluate_white`] with the pawn-and-king and piece-count terms from
/// `cache`.
pub fn evaluate_white_cached(pos: &Chess, cache: &mut PawnCache) -> i32 {
    partial_cached(pos, cache).complete_white(pos)
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
