//! Passed pawns: a bonus by rank, the distance of both kings to the square
//! in front of the pawn (the stop square), a free path to promotion, a
//! blockade, a stop square or path the enemy does not attack, a stop square
//! its own side defends, a rook behind it, and a pawn that the enemy king
//! can no longer catch.
//!
//! The rank and king terms depend on pawns and kings only and are cached
//! with the pawn structure ([`rank_and_kings`]); the path terms look at the
//! pieces and are computed every time ([`path`]).

use shakmaty::attacks::rook_attacks;
use shakmaty::{Bitboard, Board, Color, Square};

use crate::eval::hce::accumulator::Accumulator;
use crate::eval::hce::attacks::AttackMaps;
use crate::eval::hce::layout as w;
use crate::eval::hce::masks::{FORWARD_FILE, mask, relative_rank, square_ahead};

/// The rank bonus and king proximity of every passed pawn in `passed`.
pub fn rank_and_kings<A: Accumulator>(board: &Board, passed: Bitboard, acc: &mut A) {
    for color in Color::ALL {
        let own_king = board.king_of(color);
        let enemy_king = board.king_of(!color);
        for sq in passed & board.by_color(color) {
            let rank = relative_rank(color, sq);
            acc.add(color, w::PASSED_PAWN.at(rank), 1);
            let stop = square_ahead(color, sq);
            if let Some(k) = own_king {
                let d = k.distance(stop) as i32;
                acc.add(color, w::PASSED_OWN_KING_DISTANCE.at(rank), d);
            }
            if let Some(k) = enemy_king {
                let d = k.distance(stop) as i32;
                acc.add(color, w::PASSED_ENEMY_KING_DISTANCE.at(rank), d);
            }
        }
    }
}

/// The path terms of every passed pawn in `passed`: free path, blockade,
/// safe stop square and path, defended stop square, rooks behind it, and
/// (when the enemy has pawns only) a pawn the enemy king cannot catch;
/// `turn` is the side to move.
pub fn path<A: Accumulator>(
    board: &Board,
    passed: Bitboard,
    maps: &AttackMaps,
    turn: Color,
    acc: &mut A,
) {
    let occupied = board.occupied();
    for color in Color::ALL {
        let us = board.by_color(color);
        let them = board.by_color(!color);
        let theirs_attack = maps.all[(!color) as usize];
        let ours_attack = maps.all[color as usize];
        let their_pieces_left = (them & !board.pawns() & !board.kings()).any();
        let mut unstoppable = false;
        for sq in passed & us {
            let rank = relative_rank(color, sq);
            let ahead = mask(&FORWARD_FILE, color, sq);
            let stop = square_ahead(color, sq);

            // Free path and blockade.
            if (ahead & occupied).is_empty() {
                acc.add(color, w::PASSED_FREE_PATH.at(rank), 1);
            }
            if them.contains(stop) {
                acc.add(color, w::PASSED_BLOCKED.at(rank), 1);
            }

            // Safe advance: the stop square, or the whole path, out of the
            // enemy's reach; the stop square in ours.
            if !theirs_attack.contains(stop) {
                acc.add(color, w::PASSED_SAFE_STOP.at(rank), 1);
            }
            if (ahead & (them | theirs_attack)).is_empty() {
                acc.add(color, w::PASSED_SAFE_PATH.at(rank), 1);
            }
            if ours_attack.contains(stop) {
                acc.add(color, w::PASSED_DEFENDED_STOP.at(rank), 1);
            }

            // A rook behind the pawn on its file (the first piece there).
            let behind =
                rook_attacks(sq, occupied) & mask(&FORWARD_FILE, !color, sq) & board.rooks();
            if (behind & us).any() {
                acc.add(color, w::ROOK_BEHIND_PASSER.at(0), 1);
            } else if behind.any() {
                acc.add(color, w::ROOK_BEHIND_PASSER.at(1), 1);
            }

            // Rule of the square, against pawns only.
            if !their_pieces_left && !unstoppable && (ahead & occupied).is_empty() {
                unstoppable = outruns_the_king(board, color, sq, turn);
            }
        }
        if unstoppable {
            acc.add(color, w::PASSED_UNSTOPPABLE, 1);
        }
    }
}

/// Whether the pawn of `color` on `sq`, its path free, promotes before the
/// enemy king can reach its promotion square (`turn` to move).
fn outruns_the_king(board: &Board, color: Color, sq: Square, turn: Color) -> bool {
    let Some(king) = board.king_of(!color) else {
        return false;
    };
    let rank = relative_rank(color, sq);
    let promotion = Square::from_coords(
        sq.file(),
        if color == Color::White {
            shakmaty::Rank::Eighth
        } else {
            shakmaty::Rank::First
        },
    );
    let moves = (7 - rank).min(5) as i32 + i32::from(turn != color);
    (king.distance(promotion) as i32) > moves
}
