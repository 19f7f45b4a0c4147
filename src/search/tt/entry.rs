//! One transposition-table entry: what it holds ([`TtEntry`], [`TtMove`],
//! [`Bound`]) and how that is packed into the 64-bit `data` word (the bit
//! table is in the parent module's documentation).

use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move, Role, Square};

use crate::chess::quick_move::{Quick, quick_move};
use crate::search::score::{NO_EVAL, clamp16, from_tt, to_tt};

/// Depths are stored as `depth + DEPTH_OFFSET` in a byte.
const DEPTH_OFFSET: i32 = 8;
/// Generations are counted modulo 64.
pub(super) const GEN_MASK: u8 = 63;
const BOUNDS: [Bound; 4] = [Bound::None, Bound::Upper, Bound::Lower, Bound::Exact];
/// The move bits of a data word.
const MOVE_MASK: u64 = 0x7fff;
/// The bit of a data word that marks a principal-variation node.
const PV_BIT: u64 = 1 << 15;

/// The kind of score in an entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// No score information (only the eval and perhaps the move are useful).
    None,
    /// The score is an upper bound (fail low).
    Upper,
    /// The score is a lower bound (fail high).
    Lower,
    /// The score is exact.
    Exact,
}

/// A move as stored in the table: enough to find it among the legal moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TtMove {
    /// Origin square (the king's square for castling).
    pub from: Square,
    /// Target square (the rook's square for castling, as shakmaty does).
    pub to: Square,
    /// Promotion role, if any.
    pub promotion: Option<Role>,
}

impl TtMove {
    /// Extracts the squares and promotion of a move. Castling is stored as
    /// king square to rook square (`Move::Castle { king, rook }`). Drops do
    /// not exist in standard chess; one would be stored as `to -> to`.
    pub fn from_move(m: Move) -> TtMove {
        TtMove {
            from: m.from().unwrap_or(m.to()),
            to: m.to(),
            promotion: m.promotion(),
        }
    }

    /// Whether `m` is the move this was made from.
    pub fn matches(&self, m: Move) -> bool {
        m.from() == Some(self.from) && m.to() == self.to && m.promotion() == self.promotion
    }

    /// The legal move of `board` this stands for, if there is one: the
    /// legality check every TT move goes through before it is played (an
    /// entry may be stale, or belong to another position whose key
    /// collides). `in_check`: the side to move is in check.
    pub fn to_move(self, board: &Chess, in_check: bool) -> Option<Move> {
        match quick_move(board, in_check, self.from, self.to, self.promotion) {
            Quick::Legal(m) => Some(m),
            Quick::Illegal => None,
            Quick::Unsure => UciMove::Normal {
                from: self.from,
                to: self.to,
                promotion: self.promotion,
            }
            .to_move(board)
            .ok(),
        }
    }

    /// Finds this move among `moves` by comparing squares (a test helper
    /// that cross-checks [`TtMove::to_move`]).
    #[cfg(test)]
    pub fn find_in(&self, moves: &shakmaty::MoveList) -> Option<Move> {
        moves.iter().copied().find(|&m| self.matches(m))
    }

    pub(super) fn encode(self) -> u64 {
        let promo = self.promotion.map_or(0, |r| r as u64);
        u64::from(self.from) | u64::from(self.to) << 6 | promo << 12
    }

    pub(super) fn decode(bits: u64) -> Option<TtMove> {
        let bits = bits & MOVE_MASK;
        if bits == 0 {
            return None;
        }
        let promotion = match (bits >> 12) & 7 {
            0 => None,
            r => Some(Role::try_from(r as u8).ok()?),
        };
        let from = Square::new((bits & 63) as u32);
        let to = Square::new(((bits >> 6) & 63) as u32);
        Some(TtMove {
            from,
            to,
            promotion,
        })
    }
}

/// What a probe returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TtEntry {
    /// Best or refutation move, if any; verify legality before use.
    pub mv: Option<TtMove>,
    /// Score, already converted for the probing ply (mate scores from the
    /// root, see `search::score::from_tt`).
    pub score: i32,
    /// Static evaluation of the position.
    pub eval: i32,
    /// Depth the score was searched to (`-8..=247`).
    pub depth: i32,
    /// What kind of bound `score` is.
    pub bound: Bound,
    /// The node was on a principal variation when it was stored (or its
    /// entry said so before): the search reduces less below such nodes.
    pub pv: bool,
}

impl Bound {
    /// The bound a search result proves: at least `beta` is a lower bound,
    /// at most the original alpha an upper bound, in between exact.
    pub fn of(score: i32, original_alpha: i32, beta: i32) -> Bound {
        if score >= beta {
            Bound::Lower
        } else if score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

impl TtEntry {
    /// Whether this entry's score settles a node searched with window
    /// `(alpha, beta)` (its depth is the caller's business).
    pub fn cuts(&self, alpha: i32, beta: i32) -> bool {
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score >= beta,
            Bound::Upper => self.score <= alpha,
            Bound::None => false,
        }
    }
}

/// Packs the `data` word from the search result `entry` at distance `ply`
/// from the root (see the module docs); `mv_bits` is the encoded move to
/// keep (an encoded [`TtMove`] or 0), which the caller may have taken from
/// the entry it replaces rather than from `entry.mv`.
pub(super) fn pack(mv_bits: u64, entry: &TtEntry, ply: usize, generation: u8) -> u64 {
    // A real evaluation is clamped clear of NO_EVAL (i16::MIN).
    let eval = if entry.eval == NO_EVAL {
        i16::MIN
    } else {
        clamp16(entry.eval.max(-i32::from(i16::MAX)))
    };
    let score = to_tt(entry.score, ply);
    let depth8 = (entry.depth + DEPTH_OFFSET).clamp(0, 255) as u64;
    let (bound, pv) = (entry.bound, entry.pv);
    mv_bits
        | if pv { PV_BIT } else { 0 }
        | u64::from(score as u16) << 16
        | u64::from(eval as u16) << 32
        | depth8 << 48
        | (bound as u64) << 56
        | u64::from(generation & GEN_MASK) << 58
}

/// Unpacks a `data` word probed at distance `ply` from the root.
pub(super) fn unpack(data: u64, ply: usize) -> TtEntry {
    TtEntry {
        mv: TtMove::decode(data),
        score: from_tt((data >> 16) as u16 as i16, ply),
        eval: i32::from((data >> 32) as u16 as i16),
        depth: depth_of(data),
        bound: BOUNDS[(data >> 56) as usize & 3],
        pv: data & PV_BIT != 0,
    }
}

/// The encoded move of a data word (0: none).
pub(super) fn move_bits(data: u64) -> u64 {
    data & MOVE_MASK
}

/// The depth of a data word.
pub(super) fn depth_of(data: u64) -> i32 {
    ((data >> 48) & 0xff) as i32 - DEPTH_OFFSET
}

/// The generation of a data word.
pub(super) fn generation_of(data: u64) -> u8 {
    (data >> 58) as u8
}

/// Age distance from `entry_gen` to `current`, modulo 64.
pub(super) fn age_distance(current: u8, entry_gen: u8) -> i32 {
    i32::from(current.wrapping_sub(entry_gen) & GEN_MASK)
}
