//! Rook terms: how closed the pawns are, open and half-open files, the
//! seventh rank, the enemy queen's file, and a rook shut in by its own
//! king.

use shakmaty::attacks::rook_attacks;
use shakmaty::{Bitboard, Chess, Color, Position as _, Role};

use crate::eval::hce::accumulator::Accumulator;
use crate::eval::hce::attacks::AttackMaps;
use crate::eval::hce::layout as w;
use crate::eval::hce::masks::{FILES, RANKS, closedness, relative_rank};

/// A rook with at most this many safe squares may be trapped.
const TRAPPED_ROOK_MOBILITY: usize = 3;

/// Scores the rook terms of both sides.
pub fn rooks<A: Accumulator>(pos: &Chess, maps: &AttackMaps, acc: &mut A) {
    let board = pos.board();
    if board.rooks().is_empty() {
        return;
    }
    let occupied = board.occupied();
    let closed = closedness(board);
    for color in Color::ALL {
        let us = board.by_color(color);
        let rooks = board.rooks() & us;
        if rooks.is_empty() {
            continue;
        }
        let ours = board.pawns() & us;
        let theirs = board.pawns() & board.by_color(!color);
        let king = board.king_of(color);
        // The seventh rank counts when it holds enemy pawns or the enemy
        // king is cut off on the eighth.
        let seventh = Bitboard(RANKS[if color == Color::White { 6 } else { 1 }]);
        let king_on_eighth = board
            .king_of(!color)
            .is_some_and(|k| relative_rank(color, k) == 7);
        let queen_files = (board.queens() & board.by_color(!color))
            .into_iter()
            .fold(Bitboard::EMPTY, |b, q| {
                b | Bitboard(FILES[q.file() as usize])
            });
        let area = !us & !maps.by(!color, Role::Pawn);
        let cannot_castle = !pos.castles().has_color(color);
        for sq in rooks {
            acc.add(color, w::ROOK_CLOSEDNESS.at(closed), 1);
            let file = Bitboard(FILES[sq.file() as usize]);
            if (board.pawns() & file).is_empty() {
                acc.add(color, w::ROOK_OPEN_FILE, 1);
            } else if (ours & file).is_empty() {
                acc.add(color, w::ROOK_HALF_OPEN_FILE, 1);
            }
            if seventh.contains(sq) && (king_on_eighth || (theirs & seventh).any()) {
                acc.add(color, w::ROOK_ON_SEVENTH, 1);
            }
            if queen_files.contains(sq) {
                acc.add(color, w::ROOK_ON_QUEEN_FILE, 1);
            }
            // Shut in by its own king (worse when it cannot castle).
            if let Some(k) = king {
                let kf = k.file() as u32;
                let shut_in = (kf < 4) == ((sq.file() as u32) < kf);
                if shut_in && (rook_attacks(sq, occupied) & area).count() <= TRAPPED_ROOK_MOBILITY {
                    acc.add(color, w::ROOK_TRAPPED, 1 + i32::from(cannot_castle));
                }
            }
        }
    }
}
