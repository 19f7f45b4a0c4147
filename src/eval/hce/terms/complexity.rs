//! Complexity: how much of the endgame score the side ahead can hope to
//! turn into a win. A position with many pawns, pawns on both wings,
//! passed pawns, or kings far apart on the files offers the side ahead
//! more ways to make progress; a symmetrical, simplified one fewer.
//! Stockfish 11 calls it initiative, Ethereal complexity.
//!
//! The features are of the position, not of a side: a weighted sum `c` of
//! them (the endgame values of `COMPLEXITY`) moves the endgame score
//! toward or away from zero, never past it:
//!
//! ```text
//! eg' = eg + sign(eg) * max(c, -|eg|)
//! ```
//!
//! So the term is not linear in its weights: the tuner follows it through
//! the chain rule (`tools::tune`).

use shakmaty::{Bitboard, Board, Color};

use crate::eval::hce::layout::{self as w, ALL};
use crate::eval::hce::masks::QUEEN_SIDE;
use crate::eval::hce::tapered::S;

/// Number of complexity features.
pub const FEATURES: usize = 7;

/// The complexity features of `board`, whose passed pawns are `passed`.
pub fn features(board: &Board, passed: Bitboard) -> [i32; FEATURES] {
    let pawns = board.pawns();
    let both_wings = (pawns & QUEEN_SIDE).any() && (pawns & !QUEEN_SIDE).any();
    let pieces = board.occupied() & !pawns & !board.kings();
    let (outflanking, infiltration) =
        match (board.king_of(Color::White), board.king_of(Color::Black)) {
            (Some(wk), Some(bk)) => {
                let files = (wk.file() as i32 - bk.file() as i32).abs();
                let ranks = (wk.rank() as i32 - bk.rank() as i32).abs();
                (
                    files - ranks,
                    wk.rank() as i32 > 3 || (bk.rank() as i32) < 4,
                )
            }
            _ => (0, false),
        };
    [
        pawns.count() as i32,
        i32::from(both_wings),
        i32::from(pieces.is_empty()),
        passed.count() as i32,
        outflanking,
        i32::from(infiltration),
        1,
    ]
}

/// The weighted sum of `features` with the endgame values of `weights`
/// (`layout` order).
pub fn sum(features: &[i32; FEATURES], weights: &[S]) -> i32 {
    features
        .iter()
        .enumerate()
        .map(|(i, &f)| f * weights[w::COMPLEXITY.at(i)].1)
        .sum()
}

/// The endgame score `eg` adjusted by the complexity `c`.
#[inline(always)]
pub fn adjust(eg: i32, c: i32) -> i32 {
    eg + eg.signum() * c.max(-eg.abs())
}

/// `total` with its endgame part adjusted by the complexity of `board`
/// (the evaluation's weights).
#[inline(always)]
pub fn apply(total: S, board: &Board, passed: Bitboard) -> S {
    let c = sum(&features(board, passed), &ALL);
    S(total.0, adjust(total.1, c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_adjustment_never_crosses_zero() {
        assert_eq!(adjust(100, 30), 130);
        assert_eq!(adjust(-100, 30), -130);
        assert_eq!(adjust(100, -40), 60);
        assert_eq!(adjust(-100, -40), -60);
        assert_eq!(adjust(100, -400), 0);
        assert_eq!(adjust(-100, -400), 0);
        assert_eq!(adjust(0, 50), 0);
    }
}
