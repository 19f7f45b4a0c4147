//! The attack maps, built once per evaluation and read by every term that
//! needs them: what each side attacks, by piece type, what it attacks at
//! least twice, and how its pieces bear on each king's area. One pass over
//! the knights, bishops, rooks and queens computes each piece's attacks
//! once and hands them to a caller (mobility counts them).
//!
//! Sliders see through their own side's sliders of the same line (a bishop
//! through its own bishops and queens, a rook through its own rooks and
//! queens): a battery attacks what its rear piece backs up. The mobility
//! area of a side is every square but those its enemy's pawns attack, its
//! own king and its own pawns that cannot advance.

use shakmaty::attacks::{
    bishop_attacks, king_attacks, knight_attacks, queen_attacks, rook_attacks,
};
use shakmaty::{Bitboard, Board, Color, Role};

use super::masks::{FILES, KING_AREA, forward, pawn_attacks};

/// The pieces whose attacks are mapped one by one, in index order.
pub const PIECES: [Role; 4] = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen];

/// How one side's pieces bear on the enemy king's area (see `king.rs`).
#[derive(Debug, Clone, Copy, Default)]
pub struct KingAttack {
    /// Attackers of the area by type, knight to queen.
    pub attackers: [i32; 4],
    /// Squares of the area attacked, summed over the attackers.
    pub hits: i32,
}

impl KingAttack {
    /// The number of attacking pieces.
    #[inline(always)]
    pub fn count(&self) -> i32 {
        self.attackers.iter().sum()
    }
}

/// What each side attacks.
#[derive(Debug, Clone, Copy, Default)]
pub struct AttackMaps {
    /// `by_role[color][role - 1]`: squares attacked by that side's pieces
    /// of that type (pawn to king).
    pub by_role: [[Bitboard; 6]; 2],
    /// `all[color]`: squares that side attacks.
    pub all: [Bitboard; 2],
    /// `twice[color]`: squares that side attacks at least twice.
    pub twice: [Bitboard; 2],
    /// `area[color]`: the king area of that side's king (empty without
    /// one).
    pub area: [Bitboard; 2],
    /// `on_king[color]`: how that side's pieces attack the enemy king's
    /// area.
    pub on_king: [KingAttack; 2],
    /// `minor_guards[color]`: that side's knights and bishops that defend
    /// its own king's area.
    pub minor_guards: [i32; 2],
}

impl AttackMaps {
    /// The maps of `board`. `each_piece(color, i, attacks, area)` is called
    /// for every knight, bishop, rook and queen (`i` indexes [`PIECES`])
    /// with its attacks and its side's mobility area.
    #[inline(always)]
    pub fn new(
        board: &Board,
        mut each_piece: impl FnMut(Color, usize, Bitboard, Bitboard),
    ) -> Self {
        let occupied = board.occupied();
        let mut maps = AttackMaps::default();
        for color in Color::ALL {
            let c = color as usize;
            let pawns = board.pawns() & board.by_color(color);
            // Each pawn's two captures apart: a square both reach is
            // attacked twice.
            let (not_a, not_h) = (pawns.0 & !FILES[0], pawns.0 & !FILES[7]);
            let (west, east) = match color {
                Color::White => (Bitboard(not_a << 7), Bitboard(not_h << 9)),
                Color::Black => (Bitboard(not_a >> 9), Bitboard(not_h >> 7)),
            };
            debug_assert_eq!(west | east, pawn_attacks(color, pawns));
            maps.by_role[c][0] = west | east;
            maps.twice[c] = west & east;
            maps.all[c] = west | east;
            if let Some(k) = board.king_of(color) {
                let around = king_attacks(k);
                maps.by_role[c][5] = around;
                maps.twice[c] |= maps.all[c] & around;
                maps.all[c] |= around;
                maps.area[c] = Bitboard(KING_AREA[c][k as usize]);
            }
        }
        for color in Color::ALL {
            let c = color as usize;
            let e = (!color) as usize;
            let us = board.by_color(color);
            let own_pawns = board.pawns() & us;
            let blocked = own_pawns & forward(!color, occupied);
            let area = !maps.by_role[e][0] & !(board.kings() & us) & !blocked;
            let zone = maps.area[e];
            let own_zone = maps.area[c];
            // Occupancy seen by each slider: its own side's sliders of its
            // lines are transparent.
            let queens = board.queens() & us;
            let diagonal_view = occupied ^ ((board.bishops() & us) | queens);
            let straight_view = occupied ^ ((board.rooks() & us) | queens);
            // One loop per piece type, each with its own attack function
            // (no dispatch on the type inside the loop).
            macro_rules! scan {
                ($i:expr, $attacks_from:expr) => {
                    for sq in board.by_role(PIECES[$i]) & us {
                        let attacks = $attacks_from(sq);
                        maps.by_role[c][$i + 1] |= attacks;
                        maps.twice[c] |= maps.all[c] & attacks;
                        maps.all[c] |= attacks;
                        each_piece(color, $i, attacks, area);
                        let hits = attacks & zone;
                        if hits.any() {
                            maps.on_king[c].attackers[$i] += 1;
                            maps.on_king[c].hits += hits.count() as i32;
                        }
                        if $i < 2 && (attacks & own_zone).any() {
                            maps.minor_guards[c] += 1;
                        }
                    }
                };
            }
            scan!(0, knight_attacks);
            scan!(1, |sq| bishop_attacks(sq, diagonal_view));
            scan!(2, |sq| rook_attacks(sq, straight_view));
            scan!(3, |sq| queen_attacks(sq, occupied));
        }
        maps
    }

    /// Squares attacked by `color`'s pieces of type `role`.
    #[inline(always)]
    pub fn by(&self, color: Color, role: Role) -> Bitboard {
        self.by_role[color as usize][role as usize - 1]
    }
}
