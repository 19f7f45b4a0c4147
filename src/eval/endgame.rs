//! Endgame knowledge: how much of the score the side ahead may keep, as a
//! scale factor out of [`SCALE_NORMAL`].
//!
//! The factor multiplies the phase-blended score, after all the linear
//! terms, and depends on the position only (never on the weights), so the
//! tuner treats it as a given. It is computed for each side as if that side
//! were ahead; the evaluation uses the one for the side its score favours.
//!
//! - Material that cannot mate: no pawns and at most one minor piece, or
//!   two knights against a bare king: 0 (a draw).
//! - No pawns and an edge of at most a bishop (KRvKB, KRBvKR): 8 against at
//!   most a minor piece, else 16.
//! - Opposite-coloured bishops: with no other pieces 16 plus 8 per passed
//!   pawn of the side ahead; with other pieces 48.

use shakmaty::{Bitboard, Board, Color, Role};

use crate::chess::values::piece_value;

/// The scale factor that leaves a score unchanged.
pub const SCALE_NORMAL: i32 = 64;

fn non_pawn_material(board: &Board, color: Color) -> i32 {
    [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .into_iter()
        .map(|r| (board.by_role(r) & board.by_color(color)).count() as i32 * piece_value(r))
        .sum()
}

/// The scale factor (0 to [`SCALE_NORMAL`]) when `strong` is ahead;
/// `passed` holds the passed pawns of both sides.
pub fn scale_factor(board: &Board, passed: Bitboard, strong: Color) -> i32 {
    let weak = !strong;
    let us = board.by_color(strong);
    let count = |role: Role, side: Bitboard| (board.by_role(role) & side).count();

    if count(Role::Pawn, us) == 0 {
        let minors = count(Role::Knight, us) + count(Role::Bishop, us);
        let majors = count(Role::Rook, us) + count(Role::Queen, us);
        let two_knights = count(Role::Knight, us) == 2 && count(Role::Bishop, us) == 0;
        let weak_is_bare = (board.by_color(weak) & !board.kings()).is_empty();
        if majors == 0 && (minors <= 1 || (two_knights && weak_is_bare)) {
            return 0;
        }
        let ours = non_pawn_material(board, strong);
        let theirs = non_pawn_material(board, weak);
        if ours - theirs <= piece_value(Role::Bishop) {
            return if theirs <= piece_value(Role::Bishop) {
                8
            } else {
                16
            };
        }
    }

    let bishops = board.bishops();
    let opposite_bishops = count(Role::Bishop, board.white()) == 1
        && count(Role::Bishop, board.black()) == 1
        && (bishops & Bitboard::LIGHT_SQUARES).count() == 1;
    if opposite_bishops {
        let others = board.knights() | board.rooks() | board.queens();
        return if others.is_empty() {
            (16 + 8 * (passed & us).count() as i32).min(SCALE_NORMAL)
        } else {
            48
        };
    }
    SCALE_NORMAL
}
