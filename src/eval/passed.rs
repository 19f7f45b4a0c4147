//! Passed pawns: a bonus by rank, the distance of both kings to the square
//! in front of the pawn, a free path to promotion and a blockade.
//!
//! The rank and king terms depend on pawns and kings only and are cached
//! with the pawn structure ([`rank_and_kings`]); the path terms look at the
//! pieces and are computed every time ([`path`]).

use shakmaty::{Bitboard, Board, Color};

use super::accumulator::Accumulator;
use super::layout as w;
use super::masks::{FORWARD_FILE, mask, relative_rank, square_ahead};

/// The rank bonus and king proximity of every passed pawn in `passed`.
pub fn rank_and_kings<A: Accumulator>(board: &Board, passed: Bitboard, acc: &mut A) {
    for color in Color::ALL {
        let own_king = board.king_of(color);
        let enemy_king = board.king_of(!color);
        for sq in passed & board.by_color(color) {
            let rank = relative_rank(color, sq);
            acc.add(color, w::PASSED_PAWN + rank, 1);
            let stop = square_ahead(color, sq);
            if let Some(k) = own_king {
                let d = k.distance(stop) as i32;
                acc.add(color, w::PASSED_OWN_KING_DISTANCE + rank, d);
            }
            if let Some(k) = enemy_king {
                let d = k.distance(stop) as i32;
                acc.add(color, w::PASSED_ENEMY_KING_DISTANCE + rank, d);
            }
        }
    }
}

/// Free path and blockade of every passed pawn in `passed`.
pub fn path<A: Accumulator>(board: &Board, passed: Bitboard, acc: &mut A) {
    let occupied = board.occupied();
    for color in Color::ALL {
        let them = board.by_color(!color);
        for sq in passed & board.by_color(color) {
            let rank = relative_rank(color, sq);
            if (mask(&FORWARD_FILE, color, sq) & occupied).is_empty() {
                acc.add(color, w::PASSED_FREE_PATH + rank, 1);
            }
            if them.contains(square_ahead(color, sq)) {
                acc.add(color, w::PASSED_BLOCKED + rank, 1);
            }
        }
    }
}
