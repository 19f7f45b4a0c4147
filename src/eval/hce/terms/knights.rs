//! Knight terms: outposts held or one knight move away, a knight behind a
//! pawn, its distance to its own king, how closed the pawns are, and a
//! knight far from both kings.

use shakmaty::attacks::knight_attacks;
use shakmaty::{Board, Color};

use crate::eval::hce::accumulator::Accumulator;
use crate::eval::hce::layout as w;
use crate::eval::hce::masks::{closedness, forward, outposts};

/// A knight at least this far from both kings takes part in nothing.
const FAR_FROM_KINGS: usize = 4;

/// Scores the knight terms of both sides.
pub fn knights<A: Accumulator>(board: &Board, acc: &mut A) {
    if board.knights().is_empty() {
        return;
    }
    let closed = closedness(board);
    for color in Color::ALL {
        let us = board.by_color(color);
        let knights = board.knights() & us;
        if knights.is_empty() {
            continue;
        }
        let ours = board.pawns() & us;
        let theirs = board.pawns() & board.by_color(!color);
        let posts = outposts(color, ours, theirs);
        let behind_pawn = forward(!color, board.pawns());
        let king = board.king_of(color);
        for sq in knights {
            // Outposts held, or reachable.
            if posts.contains(sq) {
                acc.add(color, w::KNIGHT_OUTPOST, 1);
            } else if (knight_attacks(sq) & posts & !us).any() {
                acc.add(color, w::KNIGHT_REACHABLE_OUTPOST, 1);
            }
            if behind_pawn.contains(sq) {
                acc.add(color, w::KNIGHT_BEHIND_PAWN, 1);
            }
            if let Some(k) = king {
                acc.add(color, w::KNIGHT_KING_DISTANCE, k.distance(sq) as i32);
            }
            acc.add(color, w::KNIGHT_CLOSEDNESS.at(closed), 1);
            let nearest = board
                .kings()
                .into_iter()
                .map(|k| k.distance(sq))
                .min()
                .unwrap_or(0) as usize;
            if nearest >= FAR_FROM_KINGS {
                acc.add(
                    color,
                    w::KNIGHT_FAR_FROM_KINGS.at(nearest - FAR_FROM_KINGS),
                    1,
                );
            }
        }
    }
}
