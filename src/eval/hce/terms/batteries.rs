//! Batteries: pieces lined up so that the front one is backed by the one
//! behind it.
//!
//! - On a file: a rook with another rook (0), or a rook and the queen (1),
//!   of its own side straight ahead of it or straight behind it with
//!   nothing between, when no pawn of its own side stands on the file in
//!   front of them (an open or half-open file, the way doubled rooks
//!   are worth something). Counted once per pair: by the rear piece.
//! - On a diagonal: the queen and a bishop that see each other, when the
//!   line they share runs on, past the front piece, into the enemy king's
//!   zone (2): a Qc2 + Bd3 aimed at h7.

use shakmaty::attacks::{bishop_attacks, ray};
use shakmaty::{Bitboard, Board, Color};

use crate::eval::hce::accumulator::Accumulator;
use crate::eval::hce::layout as w;
use crate::eval::hce::masks::{FORWARD_FILE, KING_ZONE, mask};

/// The file batteries of `color`: each rook or queen counts the own heavy
/// piece (at least one of the two a rook) right ahead of it on its file.
fn file_batteries<A: Accumulator>(board: &Board, color: Color, acc: &mut A) {
    let us = board.by_color(color);
    let rooks = board.rooks() & us;
    let heavy = rooks | (board.queens() & us);
    if rooks.is_empty() || heavy.count() < 2 {
        return;
    }
    let own_pawns = board.pawns() & us;
    let occupied = board.occupied();
    for sq in heavy {
        let forward = mask(&FORWARD_FILE, color, sq);
        if (own_pawns & forward).any() {
            continue;
        }
        // The first piece ahead on the file, if it is one of ours.
        let ahead = forward & occupied;
        let first = match color {
            Color::White => ahead.first(),
            Color::Black => ahead.last(),
        };
        let Some(front) = first.filter(|&f| heavy.contains(f)) else {
            continue;
        };
        let both_rooks = rooks.contains(sq) && rooks.contains(front);
        let with_queen = rooks.contains(sq) != rooks.contains(front);
        if both_rooks {
            acc.add(color, w::BATTERY.at(0), 1);
        } else if with_queen {
            acc.add(color, w::BATTERY.at(1), 1);
        }
    }
}

/// The queen and bishop batteries of `color` aimed at the enemy king zone.
fn diagonal_batteries<A: Accumulator>(board: &Board, color: Color, acc: &mut A) {
    let us = board.by_color(color);
    let bishops = board.bishops() & us;
    let queens = board.queens() & us;
    let Some(king) = board.king_of(!color) else {
        return;
    };
    if bishops.is_empty() || queens.is_empty() {
        return;
    }
    let zone = Bitboard(KING_ZONE[king as usize]);
    let occupied = board.occupied();
    for q in queens {
        let from_queen = bishop_attacks(q, occupied);
        for b in from_queen & bishops {
            let line = ray(q, b);
            let pair = Bitboard::from(q) | Bitboard::from(b);
            let beyond = (from_queen | bishop_attacks(b, occupied)) & line & !pair;
            if (beyond & zone).any() {
                acc.add(color, w::BATTERY.at(2), 1);
            }
        }
    }
}

/// Scores the batteries of both sides.
pub fn batteries<A: Accumulator>(board: &Board, acc: &mut A) {
    for color in Color::ALL {
        file_batteries(board, color, acc);
        diagonal_batteries(board, color, acc);
    }
}
