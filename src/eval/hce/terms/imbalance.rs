//! Material imbalance: what a piece is worth depends on the other pieces,
//! its own side's and the enemy's (a knight gains with pawns on the board,
//! a rook pair loses some of its worth, a queen does better against
//! minor pieces). Quadratic in the piece counts, like Stockfish 11's, and
//! linear in the weights: each product of two counts is the coefficient
//! of one weight.
//!
//! The kinds, in order: bishop pair (0 or 1), pawns, knights, bishops,
//! rooks, queens. `IMBALANCE_OURS` has a weight per pair `i >= j` of the
//! side's own counts, `IMBALANCE_THEIRS` one per pair `i > j` of its count
//! of `i` and the enemy's count of `j` (the pairs `i == j` would cancel
//! between the sides, and `i < j` is the enemy's `i > j`).

use shakmaty::{Board, Color, Role};

use crate::eval::hce::accumulator::Accumulator;
use crate::eval::hce::layout as w;
use crate::eval::hce::masks::bishop_pair;

/// Kinds of material counted.
const KINDS: usize = 6;

/// The counts of each kind for `color`.
fn counts(board: &Board, color: Color) -> [i32; KINDS] {
    let us = board.by_color(color);
    let n = |role: Role| (board.by_role(role) & us).count() as i32;
    [
        i32::from(bishop_pair(board, color)),
        n(Role::Pawn),
        n(Role::Knight),
        n(Role::Bishop),
        n(Role::Rook),
        n(Role::Queen),
    ]
}

/// The index of pair `(i, j)`, `i >= j`, in a lower triangle with its
/// diagonal, row by row.
const fn with_diagonal(i: usize, j: usize) -> usize {
    i * (i + 1) / 2 + j
}

/// The index of pair `(i, j)`, `i > j`, in a lower triangle without its
/// diagonal, row by row.
const fn below_diagonal(i: usize, j: usize) -> usize {
    i * (i - 1) / 2 + j
}

/// Scores the imbalance of both sides.
pub fn imbalance<A: Accumulator>(board: &Board, acc: &mut A) {
    let white = counts(board, Color::White);
    let black = counts(board, Color::Black);
    for (color, ours, theirs) in [(Color::White, white, black), (Color::Black, black, white)] {
        for i in 0..KINDS {
            if ours[i] == 0 {
                continue;
            }
            for j in 0..=i {
                let own = ours[i] * ours[j];
                if own != 0 {
                    acc.add(color, w::IMBALANCE_OURS.at(with_diagonal(i, j)), own);
                }
                let their = ours[i] * theirs[j];
                if j < i && their != 0 {
                    acc.add(color, w::IMBALANCE_THEIRS.at(below_diagonal(i, j)), their);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn triangles_are_indexed_without_gaps() {
        let mut seen = Vec::new();
        for i in 0..KINDS {
            for j in 0..=i {
                seen.push(with_diagonal(i, j));
            }
        }
        assert_eq!(seen, (0..21).collect::<Vec<_>>());
        let mut seen = Vec::new();
        for i in 1..KINDS {
            for j in 0..i {
                seen.push(below_diagonal(i, j));
            }
        }
        assert_eq!(seen, (0..15).collect::<Vec<_>>());
    }
}
