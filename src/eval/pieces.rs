//! Piece terms: the bishop pair, knight and bishop outposts, rooks on open
//! and half-open files and on the seventh rank.

use shakmaty::attacks::pawn_attacks;
use shakmaty::{Bitboard, Board, Color, Role};

use super::accumulator::Accumulator;
use super::layout as w;
use super::masks::{ATTACK_SPAN, FILES, RANKS, mask, relative_rank};

/// Scores the piece terms of both sides.
pub fn pieces<A: Accumulator>(board: &Board, acc: &mut A) {
    for color in Color::ALL {
        let us = board.by_color(color);
        let ours = board.pawns() & us;
        let theirs = board.pawns() & board.by_color(!color);

        // Bishop pair: bishops on both square colours.
        let bishops = board.bishops() & us;
        if (bishops & Bitboard::LIGHT_SQUARES).any() && (bishops & Bitboard::DARK_SQUARES).any() {
            acc.add(color, w::BISHOP_PAIR, 1);
        }

        // Outposts: 4th to 6th rank, defended by a pawn, and no enemy pawn
        // left that could ever attack the square.
        for (role, index) in [
            (Role::Knight, w::KNIGHT_OUTPOST),
            (Role::Bishop, w::BISHOP_OUTPOST),
        ] {
            for sq in board.by_role(role) & us {
                if (3..=5).contains(&relative_rank(color, sq))
                    && (pawn_attacks(!color, sq) & ours).any()
                    && (mask(&ATTACK_SPAN, color, sq) & theirs).is_empty()
                {
                    acc.add(color, index, 1);
                }
            }
        }

        // Rooks: open and half-open files, and the seventh rank when it
        // holds enemy pawns or the enemy king is cut off on the eighth.
        let seventh = Bitboard(RANKS[if color == Color::White { 6 } else { 1 }]);
        let king_on_eighth = board
            .king_of(!color)
            .is_some_and(|k| relative_rank(color, k) == 7);
        for sq in board.rooks() & us {
            let file = Bitboard(FILES[sq.file() as usize]);
            if (board.pawns() & file).is_empty() {
                acc.add(color, w::ROOK_OPEN_FILE, 1);
            } else if (ours & file).is_empty() {
                acc.add(color, w::ROOK_HALF_OPEN_FILE, 1);
            }
            if seventh.contains(sq) && (king_on_eighth || (theirs & seventh).any()) {
                acc.add(color, w::ROOK_ON_SEVENTH, 1);
            }
        }
    }
}
