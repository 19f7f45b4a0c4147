//! Space: the safe squares a side controls behind and among its pawns in
//! the centre, worth more the more pieces it has to use them.
//!
//! The area is the c to f files on the side's 2nd to 4th ranks; a square
//! counts when no own pawn stands on it and no enemy pawn attacks it, and
//! counts twice when it is also behind an own pawn (up to three squares
//! back) and no enemy piece attacks it. The count is weighted by the
//! `SPACE` entry of the side's number of pieces and pawns, so the tuner
//! fits how space grows with material (Stockfish 11 uses the square of the
//! count).

use shakmaty::{Bitboard, Board, Color};

use crate::eval::hce::accumulator::Accumulator;
use crate::eval::hce::attacks::AttackMaps;
use crate::eval::hce::layout as w;

/// Files c to f on ranks 2 to 4, from White's side.
const WHITE_AREA: u64 = 0x0000_0000_3C3C_3C00;
/// Files c to f on ranks 5 to 7, from White's side (Black's area).
const BLACK_AREA: u64 = 0x003C_3C3C_0000_0000;

/// The squares up to three ranks behind `pawns`, from `color`'s side.
fn behind(color: Color, pawns: Bitboard) -> Bitboard {
    let p = pawns.0;
    Bitboard(match color {
        Color::White => p | p >> 8 | p >> 16 | p >> 24,
        Color::Black => p | p << 8 | p << 16 | p << 24,
    })
}

/// Scores the space of both sides.
pub fn space<A: Accumulator>(board: &Board, maps: &AttackMaps, acc: &mut A) {
    for color in Color::ALL {
        let us = board.by_color(color);
        let ours = board.pawns() & us;
        let e = (!color) as usize;
        let area = Bitboard(match color {
            Color::White => WHITE_AREA,
            Color::Black => BLACK_AREA,
        });
        let safe = area & !ours & !maps.by_role[e][0];
        let bonus = safe.count() + (behind(color, ours) & safe & !maps.all[e]).count();
        if bonus > 0 {
            let pieces = us.count().clamp(1, 16);
            acc.add(color, w::SPACE.at(pieces - 1), bonus as i32);
        }
    }
}
