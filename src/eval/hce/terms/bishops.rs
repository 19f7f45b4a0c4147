//! Bishop terms: the bishop pair, outposts, a bishop behind a pawn, its
//! distance to its own king, own pawns on its colour (and those of them
//! blocked), a long diagonal, and a bishop shut in on the enemy's rook
//! file.

use shakmaty::attacks::bishop_attacks;
use shakmaty::{Bitboard, Board, Color, Role, Square};

use crate::eval::hce::accumulator::Accumulator;
use crate::eval::hce::attacks::AttackMaps;
use crate::eval::hce::layout as w;
use crate::eval::hce::masks::{bishop_pair, forward, outposts};

/// d4, e4, d5, e5.
const CENTRE: Bitboard = Bitboard(0x0000_0018_1800_0000);

/// The a1–h8 and a8–h1 diagonals: the only squares from which a bishop can
/// see two centre squares (d4 and e5, or e4 and d5), so the only ones where
/// the long-diagonal test needs an attack lookup.
const LONG_DIAGONALS: Bitboard = Bitboard(0x8040_2010_0804_0201 | 0x0102_0408_1020_4080);

/// A bishop on one of these squares (from White's side) is shut in when
/// the enemy pawn on the paired square, its only way back, is defended by
/// another enemy pawn: the bishop that took on a7 and was cut off by ...b6.
const TRAPPED_BISHOP: [(Square, Square); 4] = [
    (Square::A7, Square::B6),
    (Square::H7, Square::G6),
    (Square::A6, Square::B5),
    (Square::H6, Square::G5),
];

/// The squares of [`TRAPPED_BISHOP`] a bishop of either side may be
/// trapped on.
const TRAPPED_BISHOP_SQUARES: Bitboard = Bitboard(
    (1 << 48) | (1 << 55) | (1 << 40) | (1 << 47) | (1 << 8) | (1 << 15) | (1 << 16) | (1 << 23),
);

/// Whether `color`'s bishop on `sq` is trapped (see [`TRAPPED_BISHOP`]).
fn trapped_bishop(
    color: Color,
    sq: Square,
    theirs: Bitboard,
    their_pawn_attacks: Bitboard,
) -> bool {
    TRAPPED_BISHOP.into_iter().any(|(bishop, pawn)| {
        let (bishop, pawn) = match color {
            Color::White => (bishop, pawn),
            Color::Black => (bishop.flip_vertical(), pawn.flip_vertical()),
        };
        sq == bishop && theirs.contains(pawn) && their_pawn_attacks.contains(pawn)
    })
}

/// Scores the bishop terms of both sides.
pub fn bishops<A: Accumulator>(board: &Board, maps: &AttackMaps, acc: &mut A) {
    let occupied = board.occupied();
    for color in Color::ALL {
        let us = board.by_color(color);
        let bishops = board.bishops() & us;
        if bishops.is_empty() {
            continue;
        }
        // Bishop pair: bishops on both square colours.
        if bishop_pair(board, color) {
            acc.add(color, w::BISHOP_PAIR, 1);
        }
        let ours = board.pawns() & us;
        let theirs = board.pawns() & board.by_color(!color);
        let posts = outposts(color, ours, theirs);
        let behind_pawn = forward(!color, board.pawns());
        let king = board.king_of(color);
        let blocked = ours & forward(!color, occupied);
        let their_pawn_attacks = maps.by(!color, Role::Pawn);
        for sq in bishops {
            if TRAPPED_BISHOP_SQUARES.contains(sq)
                && trapped_bishop(color, sq, theirs, their_pawn_attacks)
            {
                acc.add(color, w::BISHOP_TRAPPED, 1);
            }
            if posts.contains(sq) {
                acc.add(color, w::BISHOP_OUTPOST, 1);
            }
            if behind_pawn.contains(sq) {
                acc.add(color, w::BISHOP_BEHIND_PAWN, 1);
            }
            if let Some(k) = king {
                acc.add(color, w::BISHOP_KING_DISTANCE, k.distance(sq) as i32);
            }
            // Own pawns on the bishop's colour, and those of them blocked.
            let colour = if Bitboard::LIGHT_SQUARES.contains(sq) {
                Bitboard::LIGHT_SQUARES
            } else {
                Bitboard::DARK_SQUARES
            };
            acc.add(color, w::BISHOP_PAWNS.at(0), (ours & colour).count() as i32);
            acc.add(
                color,
                w::BISHOP_PAWNS.at(1),
                (blocked & colour).count() as i32,
            );
            if LONG_DIAGONALS.contains(sq)
                && (bishop_attacks(sq, board.pawns()) & CENTRE).count() >= 2
            {
                acc.add(color, w::BISHOP_LONG_DIAGONAL, 1);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trapped_bishop_squares_are_those_of_the_pairs_for_both_sides() {
        let squares = TRAPPED_BISHOP
            .into_iter()
            .fold(Bitboard::EMPTY, |b, (sq, _)| {
                b | Bitboard::from(sq) | Bitboard::from(sq.flip_vertical())
            });
        assert_eq!(squares, TRAPPED_BISHOP_SQUARES);
    }

    #[test]
    fn only_long_diagonal_squares_see_two_centre_squares() {
        // On an empty board a bishop sees the most it ever can.
        for sq in Square::ALL {
            let seen = (bishop_attacks(sq, Bitboard::EMPTY) & CENTRE).count();
            if !LONG_DIAGONALS.contains(sq) {
                assert!(seen < 2, "{sq} sees {seen} centre squares");
            }
        }
    }
}
