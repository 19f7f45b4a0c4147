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
//! - Bishop and rook pawns of the wrong colour: the side ahead has bishops
//!   of one colour only and no other piece, all its pawns on the a-file (or
//!   all on the h-file), a promotion square its bishops never reach, and
//!   the defending king next to that square or on it: 0.
//! - Opposite-coloured bishops: with no other pieces 16 plus 8 per passed
//!   pawn of the side ahead; with other pieces 48.
//! - A drawish rook ending: one rook each and nothing else, the side ahead
//!   at most one pawn up with all its pawns on one wing (files a–d or
//!   e–h), the defending king beside one of its own pawns:
//!   [`ROOK_ENDING`] (Stockfish 11's rule).
//! - A lone queen (and pawns) against two or more pieces and no queen:
//!   [`LONE_QUEEN`] (Ethereal's rule).
//! - At most one piece each, no queens, and the side ahead three or more
//!   pawns up: [`LARGE_PAWN_MAJORITY`], above normal (Ethereal's rule).
//! - Otherwise few pawns: at most 36 plus 7 per pawn of the side ahead (so
//!   a lead with four pawns or more is not scaled), as in Stockfish 11.
//!
//! Pawns on one wing are not a scale factor: the complexity term
//! (`complexity.rs`, pawns on both wings) already lowers such endings, and
//! a scale factor on top (every pawn on one wing, no passed pawn for the
//! side ahead, at most one pawn more: 56, 48 or 40 of 64) made the tuning
//! data's held-out loss worse at each value (docs/strength.md).

use shakmaty::{Bitboard, Board, Color, File, Rank, Role, Square};

use crate::chess::values::piece_value;
use crate::eval::hce::masks::QUEEN_SIDE;

/// The scale factor that leaves a score unchanged.
pub const SCALE_NORMAL: i32 = 64;

fn non_pawn_material(board: &Board, color: Color) -> i32 {
    [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .into_iter()
        .map(|r| (board.by_role(r) & board.by_color(color)).count() as i32 * piece_value(r))
        .sum()
}

/// The scale factor (0 to [`SCALE_NORMAL`], or above for a large pawn
/// majority) when `strong` is ahead;
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

    if wrong_bishop(board, strong) {
        return 0;
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
    if drawish_rook_ending(board, strong) {
        return ROOK_ENDING;
    }
    // A lone queen against several pieces: hard to win.
    let them = board.by_color(weak);
    let pieces = |side: Bitboard| (side & !board.pawns() & !board.kings()).count();
    if count(Role::Queen, us) == 1
        && pieces(us) == 1
        && count(Role::Queen, them) == 0
        && pieces(them) >= 2
    {
        return LONE_QUEEN;
    }
    // A large pawn majority with at most a piece each and no queen: the
    // pawns decide more than the material count says.
    if board.queens().is_empty()
        && pieces(us) <= 1
        && pieces(them) <= 1
        && count(Role::Pawn, us) >= count(Role::Pawn, them) + LARGE_MAJORITY
    {
        return LARGE_PAWN_MAJORITY;
    }
    (FEW_PAWNS_BASE + FEW_PAWNS_STEP * count(Role::Pawn, us) as i32).min(SCALE_NORMAL)
}

/// The scale factor of a lone queen (and pawns) against two or more
/// pieces and no queen.
const LONE_QUEEN: i32 = 44;
/// A pawn lead of this many, at most one piece each and no queen…
const LARGE_MAJORITY: usize = 3;
/// …scales the score up to this (above [`SCALE_NORMAL`]).
const LARGE_PAWN_MAJORITY: i32 = 72;

/// The scale factor of a drawish rook ending.
const ROOK_ENDING: i32 = 36;

/// Whether the position is a rook ending `strong` can hardly win: one rook
/// each and no other piece, `strong` at most one pawn up with its pawns on
/// one wing, the defending king beside one of its pawns.
fn drawish_rook_ending(board: &Board, strong: Color) -> bool {
    let weak = !strong;
    let rook = piece_value(Role::Rook);
    if non_pawn_material(board, strong) != rook
        || non_pawn_material(board, weak) != rook
        || (board.rooks() & board.by_color(strong)).count() != 1
        || (board.rooks() & board.by_color(weak)).count() != 1
    {
        return false;
    }
    let ours = board.pawns() & board.by_color(strong);
    let theirs = board.pawns() & board.by_color(weak);
    let lead = ours.count() as i32 - theirs.count() as i32;
    let one_wing = (ours & QUEEN_SIDE).is_empty() != (ours & !QUEEN_SIDE).is_empty();
    lead <= 1
        && one_wing
        && board
            .king_of(weak)
            .is_some_and(|k| (shakmaty::attacks::king_attacks(k) & theirs).any())
}

/// The few-pawns scale factor with no pawn, and its rise per pawn.
const FEW_PAWNS_BASE: i32 = 36;
const FEW_PAWNS_STEP: i32 = 7;

/// Whether `strong` has only bishops of one colour and pawns on one rook
/// file whose promotion square is of the other colour, with the enemy king
/// on or next to that square.
fn wrong_bishop(board: &Board, strong: Color) -> bool {
    let us = board.by_color(strong);
    let pawns = board.pawns() & us;
    let bishops = board.bishops() & us;
    if pawns.is_empty()
        || bishops.is_empty()
        || (us & (board.knights() | board.rooks() | board.queens())).any()
    {
        return false;
    }
    let file = if (pawns & !Bitboard::from(File::A)).is_empty() {
        File::A
    } else if (pawns & !Bitboard::from(File::H)).is_empty() {
        File::H
    } else {
        return false;
    };
    let rank = if strong == Color::White {
        Rank::Eighth
    } else {
        Rank::First
    };
    let promotion = Square::from_coords(file, rank);
    let colour = if Bitboard::LIGHT_SQUARES.contains(promotion) {
        Bitboard::LIGHT_SQUARES
    } else {
        Bitboard::DARK_SQUARES
    };
    (bishops & colour).is_empty()
        && board
            .king_of(!strong)
            .is_some_and(|k| k.distance(promotion) <= 1)
}
