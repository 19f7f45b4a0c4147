//! Mobility, and the attack maps the later terms read.
//!
//! One pass over the knights, bishops, rooks and queens computes each
//! piece's attacks once: it scores mobility (safe squares: not occupied by
//! the piece's own side, not attacked by enemy pawns), records the attacks
//! per side and piece type in [`AttackMaps`], and counts the attack units on
//! each king's zone for `king.rs`.

use shakmaty::attacks::{
    bishop_attacks, king_attacks, knight_attacks, queen_attacks, rook_attacks,
};
use shakmaty::{Bitboard, Board, Color, Role, Square};

use super::accumulator::Accumulator;
use super::king::ATTACK_UNIT;
use super::layout as w;
use super::masks::{KING_ZONE, pawn_attacks};

/// What each side attacks, and how hard each king's zone is attacked.
#[derive(Debug, Clone, Copy, Default)]
pub struct AttackMaps {
    /// `by_role[color][role - 1]`: squares attacked by that side's pieces
    /// of that type (pawn to king).
    pub by_role: [[Bitboard; 6]; 2],
    /// `all[color]`: squares that side attacks.
    pub all: [Bitboard; 2],
    /// `king_units[color]`: attack units on that side's king zone.
    pub king_units: [i32; 2],
    /// `king_attackers[color]`: enemy pieces attacking that side's king zone.
    pub king_attackers: [i32; 2],
}

impl AttackMaps {
    /// Squares attacked by `color`'s pieces of type `role`.
    #[inline(always)]
    pub fn by(&self, color: Color, role: Role) -> Bitboard {
        self.by_role[color as usize][role as usize - 1]
    }
}

/// The mobility table of each piece type, knight to queen.
const TABLES: [usize; 4] = [
    w::MOBILITY_KNIGHT,
    w::MOBILITY_BISHOP,
    w::MOBILITY_ROOK,
    w::MOBILITY_QUEEN,
];

#[inline(always)]
fn piece_attacks(role: Role, sq: Square, occupied: Bitboard) -> Bitboard {
    match role {
        Role::Knight => knight_attacks(sq),
        Role::Bishop => bishop_attacks(sq, occupied),
        Role::Rook => rook_attacks(sq, occupied),
        _ => queen_attacks(sq, occupied),
    }
}

/// Scores mobility for both sides and returns the attack maps.
pub fn mobility<A: Accumulator>(board: &Board, acc: &mut A) -> AttackMaps {
    let occupied = board.occupied();
    let mut maps = AttackMaps::default();
    let mut zones = [Bitboard::EMPTY; 2];
    for color in Color::ALL {
        let c = color as usize;
        let us = board.by_color(color);
        maps.by_role[c][0] = pawn_attacks(color, board.pawns() & us);
        if let Some(k) = board.king_of(color) {
            maps.by_role[c][5] = king_attacks(k);
            zones[c] = Bitboard(KING_ZONE[k as usize]);
        }
    }
    for color in Color::ALL {
        let c = color as usize;
        let e = (!color) as usize;
        let us = board.by_color(color);
        let safe = !us & !maps.by_role[e][0];
        let zone = zones[e];
        for (i, role) in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
            .into_iter()
            .enumerate()
        {
            for sq in board.by_role(role) & us {
                let attacks = piece_attacks(role, sq, occupied);
                maps.by_role[c][i + 1] |= attacks;
                acc.add(color, TABLES[i] + (attacks & safe).count(), 1);
                let hits = attacks & zone;
                if hits.any() {
                    maps.king_units[e] += ATTACK_UNIT[i] + hits.count() as i32;
                    maps.king_attackers[e] += 1;
                }
            }
        }
        maps.all[c] = maps.by_role[c]
            .iter()
            .fold(Bitboard::EMPTY, |all, &a| all | a);
    }
    maps
}
