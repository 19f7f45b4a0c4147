//! The attack maps: what each side attacks, by piece type, and how hard
//! each king's zone is attacked (attack units). Built in one pass over the
//! knights, bishops, rooks and queens, which also hands each piece's
//! attacks to a caller (mobility counts them), so every piece's attacks
//! are computed once. Read by king safety and threats.

use shakmaty::attacks::{
    bishop_attacks, king_attacks, knight_attacks, queen_attacks, rook_attacks,
};
use shakmaty::{Bitboard, Board, Color, Role, Square};

use super::masks::{KING_ZONE, pawn_attacks};

/// Attack units each attacker of the king zone brings, knight to queen
/// (structural constants, not tuned: the tuner fits `KING_DANGER`).
pub const ATTACK_UNIT: [i32; 4] = [2, 2, 3, 5];

/// The pieces whose attacks are mapped one by one, in index order.
pub const PIECES: [Role; 4] = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen];

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

#[inline(always)]
fn piece_attacks(role: Role, sq: Square, occupied: Bitboard) -> Bitboard {
    match role {
        Role::Knight => knight_attacks(sq),
        Role::Bishop => bishop_attacks(sq, occupied),
        Role::Rook => rook_attacks(sq, occupied),
        _ => queen_attacks(sq, occupied),
    }
}

impl AttackMaps {
    /// The maps of `board`. `each_piece(color, i, attacks, area)` is called
    /// for every knight, bishop, rook and queen (`i` indexes [`PIECES`])
    /// with its attacks and its side's mobility area: the squares not
    /// occupied by its own side and not attacked by enemy pawns.
    #[inline(always)]
    pub fn new(
        board: &Board,
        mut each_piece: impl FnMut(Color, usize, Bitboard, Bitboard),
    ) -> Self {
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
            let area = !us & !maps.by_role[e][0];
            let zone = zones[e];
            for (i, role) in PIECES.into_iter().enumerate() {
                for sq in board.by_role(role) & us {
                    let attacks = piece_attacks(role, sq, occupied);
                    maps.by_role[c][i + 1] |= attacks;
                    each_piece(color, i, attacks, area);
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

    /// Squares attacked by `color`'s pieces of type `role`.
    #[inline(always)]
    pub fn by(&self, color: Color, role: Role) -> Bitboard {
        self.by_role[color as usize][role as usize - 1]
    }
}
