//! Mobility: for each knight, bishop, rook and queen, a bonus by the number
//! of safe squares it attacks (not occupied by its own side, not attacked
//! by enemy pawns). Counted while the attack maps are built, so each
//! piece's attacks are computed once.

use shakmaty::Board;

use crate::eval::hce::accumulator::Accumulator;
use crate::eval::hce::attacks::AttackMaps;
use crate::eval::hce::layout as w;

/// The mobility table of each piece type, knight to queen.
const TABLES: [w::Array; 4] = [
    w::MOBILITY_KNIGHT,
    w::MOBILITY_BISHOP,
    w::MOBILITY_ROOK,
    w::MOBILITY_QUEEN,
];

/// Scores mobility for both sides and returns the attack maps.
#[inline(always)]
pub fn mobility<A: Accumulator>(board: &Board, acc: &mut A) -> AttackMaps {
    AttackMaps::new(board, |color, piece, attacks, area| {
        acc.add(color, TABLES[piece].at((attacks & area).count()), 1);
    })
}
