//! The pawn cache: a per-thread table of everything the evaluation computes
//! from the pawns and kings alone (pawn material and tables, king tables,
//! pawn structure, passed-pawn rank and king distances, shelter and storm),
//! keyed by the pawns of each side and the two king squares; and beside
//! it a table of what depends on the piece counts alone (the material
//! imbalance), keyed by the counts and whether each side has the bishop
//! pair.
//!
//! Each entry keeps the full 64-bit key and is overwritten on a miss, so a
//! hit returns exactly what a fresh computation would (barring a 64-bit key
//! collision). Owned by one search thread; nothing is shared.

use shakmaty::{Bitboard, Board, Color, Role};

use super::accumulator::Sum;
use super::masks::bishop_pair;
use super::tapered::S;
use super::terms::{count_terms, pawn_terms};

#[derive(Debug, Clone, Copy, Default)]
struct Entry {
    key: u64,
    score: S,
    passed: Bitboard,
}

#[derive(Debug, Clone, Copy, Default)]
struct CountEntry {
    key: u64,
    score: S,
}

/// A cache of the pawn-and-king terms and of the piece-count terms (see
/// the module documentation).
#[derive(Debug, Clone)]
pub struct PawnCache {
    entries: Box<[Entry]>,
    counts: Box<[CountEntry]>,
}

/// Entries of the piece-count table (a search meets few material
/// balances).
const COUNT_ENTRIES: usize = 1 << 10;

/// The key of the piece counts of each side (4 bits a kind, pawn to queen)
/// and their bishop pairs: everything `count_terms` reads. Never 0 (the
/// empty entry), since a kings-only board sets the marker bit.
fn count_key(board: &Board) -> u64 {
    let mut key = 1u64;
    for color in Color::ALL {
        let us = board.by_color(color);
        for role in [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
        ] {
            key = key << 4 | u64::from((board.by_role(role) & us).count().min(15) as u8);
        }
        key = key << 1 | u64::from(bishop_pair(board, color));
    }
    key
}

/// SplitMix64's finaliser: every input bit moves every output bit.
#[inline(always)]
fn mix(mut x: u64) -> u64 {
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The key of the pawns of each side and the two king squares.
pub fn pawn_key(board: &Board) -> u64 {
    let king = |c: Color| board.king_of(c).map_or(64, |k| k as u64);
    let kings = king(Color::White) | (king(Color::Black) << 8);
    let white = (board.pawns() & board.white()).0;
    let black = (board.pawns() & board.black()).0;
    mix(mix(mix(kings ^ 0x5eed_5eed_5eed_5eed) ^ white) ^ black)
}

impl PawnCache {
    /// Entries in a cache made by [`PawnCache::new`] (about 400 KB).
    pub const DEFAULT_ENTRIES: usize = 1 << 14;

    /// An empty cache of [`PawnCache::DEFAULT_ENTRIES`] entries.
    pub fn new() -> PawnCache {
        PawnCache::with_entries(PawnCache::DEFAULT_ENTRIES)
    }

    /// An empty cache of `entries` entries (rounded up to a power of two).
    pub fn with_entries(entries: usize) -> PawnCache {
        PawnCache {
            entries: vec![Entry::default(); entries.max(1).next_power_of_two()].into_boxed_slice(),
            counts: vec![CountEntry::default(); COUNT_ENTRIES].into_boxed_slice(),
        }
    }

    /// Hints the CPU to load the entry of `board` into cache: the search
    /// calls this as it enters a node, so that the load overlaps the
    /// transposition table's before the evaluation needs it.
    #[inline]
    pub fn prefetch(&self, board: &Board) {
        let index = pawn_key(board) as usize & (self.entries.len() - 1);
        crate::prefetch::prefetch(&self.entries[index]);
    }

    /// The pawn-and-king score (White minus Black) and the passed pawns of
    /// `board`, computed and stored on a miss.
    #[inline]
    pub(super) fn probe(&mut self, board: &Board) -> (S, Bitboard) {
        let key = pawn_key(board);
        let index = key as usize & (self.entries.len() - 1);
        let entry = &mut self.entries[index];
        if entry.key != key {
            let mut acc = Sum::default();
            let passed = pawn_terms(board, &mut acc);
            *entry = Entry {
                key,
                score: acc.total(),
                passed,
            };
        }
        (entry.score, entry.passed)
    }

    /// The piece-count score (White minus Black) of `board`, computed and
    /// stored on a miss.
    #[inline]
    pub(super) fn probe_counts(&mut self, board: &Board) -> S {
        let key = count_key(board);
        let index = mix(key) as usize & (COUNT_ENTRIES - 1);
        let entry = &mut self.counts[index];
        if entry.key != key {
            let mut acc = Sum::default();
            count_terms(board, &mut acc);
            *entry = CountEntry {
                key,
                score: acc.total(),
            };
        }
        entry.score
    }
}

impl Default for PawnCache {
    fn default() -> PawnCache {
        PawnCache::new()
    }
}
