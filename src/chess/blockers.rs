//! Pieces that alone stand on a line between a king and a slider: the
//! pins of move generation, the discovered checks of the gives-check test
//! and the evaluation's king danger all start from this one set.

use shakmaty::attacks::{between, bishop_attacks, rook_attacks};
use shakmaty::{Bitboard, Board, Color, Square};

/// The pieces of either colour that are the only piece between `king` and
/// a bishop, rook or queen of `sliders` on one of its lines (an empty
/// board's lines from the king).
#[inline]
pub fn slider_blockers(board: &Board, king: Square, sliders: Color) -> Bitboard {
    let snipers = ((rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens())
        | (bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens()))
        & board.by_color(sliders);
    let occupied = board.occupied();
    let mut blockers = Bitboard::EMPTY;
    for sniper in snipers {
        let between = between(king, sniper) & occupied;
        if !between.more_than_one() {
            blockers |= between;
        }
    }
    blockers
}
