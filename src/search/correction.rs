//! Correction history: the static evaluation corrected by how far searches
//! of similar positions came out from it.
//!
//! After a node's search, the difference between its result and its static
//! evaluation is blended into tables keyed by what the position shares with
//! others: its pawn structure (with the kings), each side's other pieces,
//! and the two moves that led to it (each as its piece and its square: the
//! continuation correction). Later nodes with the same keys add the stored corrections to
//! their static evaluation, so an evaluation that is systematically wrong
//! for a structure is pulled toward what the search finds there. Only
//! results that say something about the evaluation are learned: not in
//! check, not after a capture or promotion (the static evaluation does not
//! see those), not mate scores, and not a bound on the wrong side of the
//! evaluation.
//!
//! Entries hold centipawns × [`GRAIN`], each between ±[`CORRECTION_MAX`]
//! centipawns. Per search thread, kept between the searches of a game.

use shakmaty::{Bitboard, Board, Color};

use super::ordering::history::{CONTINUATION_KEYS, Continuations};

/// Entries are centipawns times this.
pub const GRAIN: i32 = 256;
/// Largest correction of one table, centipawns.
pub const CORRECTION_MAX: i32 = 64;
/// Entries per table and side to move (a power of two).
const ENTRIES: usize = 1 << 14;
/// A search result at `depth` weighs `min(depth + 1, WEIGHT_MAX)` out of
/// 256 against the entry.
const WEIGHT_MAX: i32 = 16;

/// The correction tables of one search thread.
#[derive(Clone)]
pub struct Correction {
    /// `[side to move][pawn key]`.
    pawns: Box<[[i16; ENTRIES]; 2]>,
    /// `[side to move][piece colour][that colour's pieces key]`.
    pieces: Box<[[[i16; ENTRIES]; 2]; 2]>,
    /// `[side to move][the move two plies back · CONTINUATION_KEYS + the
    /// last move]`.
    moves: Box<[[i16; MOVE_ENTRIES]; 2]>,
}

/// Entries of the continuation table per side to move: one for each pair
/// of moves.
const MOVE_ENTRIES: usize = CONTINUATION_KEYS * CONTINUATION_KEYS;

impl Default for Correction {
    fn default() -> Self {
        let moves: Box<[[i16; MOVE_ENTRIES]; 2]> = vec![[0i16; MOVE_ENTRIES]; 2]
            .into_boxed_slice()
            .try_into()
            .unwrap_or_else(|_| unreachable!("two rows"));
        Correction {
            pawns: Box::new([[0; ENTRIES]; 2]),
            pieces: Box::new([[[0; ENTRIES]; 2]; 2]),
            moves,
        }
    }
}

/// Where a position's corrections are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CorrectionKeys {
    side: usize,
    pawns: usize,
    pieces: [usize; 2],
    /// The two moves before (`None`: a null move among them, or the root).
    moves: Option<usize>,
}

/// Odd 64-bit multipliers, one per bitboard a key mixes.
const MULTIPLIERS: [u64; 6] = [
    0x9E37_79B9_7F4A_7C15,
    0xBF58_476D_1CE4_E5B9,
    0x94D0_49BB_1331_11EB,
    0xD6E8_FEB8_6659_FD93,
    0xA076_1D64_78BD_642F,
    0xE703_7ED1_A0B4_28DB,
];

/// A table index from bitboards: multiply-xor, then the top bits (a hash,
/// not a zobrist key: cheap enough to compute at every node).
fn index(bitboards: &[Bitboard]) -> usize {
    let h = bitboards
        .iter()
        .zip(MULTIPLIERS)
        .fold(0u64, |h, (b, m)| h ^ b.0.wrapping_mul(m));
    (h >> (64 - ENTRIES.trailing_zeros())) as usize
}

impl CorrectionKeys {
    /// The keys of `board` with `side` to move, reached by `moves`.
    #[inline]
    pub fn new(board: &Board, side: Color, moves: Continuations) -> CorrectionKeys {
        let pawns = board.pawns();
        let pieces = |c: Color| {
            let ours = board.by_color(c);
            index(&[
                board.knights() & ours,
                board.bishops() & ours,
                board.rooks() & ours,
                board.queens() & ours,
                board.kings() & ours,
            ])
        };
        CorrectionKeys {
            side: side as usize,
            pawns: index(&[pawns & board.white(), pawns & board.black(), board.kings()]),
            pieces: [pieces(Color::White), pieces(Color::Black)],
            moves: match moves.0 {
                [Some(last), Some(before)] => {
                    Some(before.index() * CONTINUATION_KEYS + last.index())
                }
                _ => None,
            },
        }
    }
}

impl Correction {
    /// The correction of a position's static evaluation, centipawns: the
    /// pawn table's, and half of each side's piece table's and of the
    /// continuation table's.
    pub fn correction(&self, keys: &CorrectionKeys) -> i32 {
        let s = keys.side;
        let pawns = i32::from(self.pawns[s][keys.pawns]);
        let pieces: i32 = (0..2)
            .map(|c| i32::from(self.pieces[s][c][keys.pieces[c]]))
            .sum();
        let moves = keys.moves.map_or(0, |m| i32::from(self.moves[s][m]));
        (2 * pawns + pieces + moves) / (2 * GRAIN)
    }

    /// Learns that a search at `depth` found `score` where the (corrected)
    /// static evaluation said `eval`.
    pub fn update(&mut self, keys: &CorrectionKeys, depth: i32, score: i32, eval: i32) {
        let diff = ((score - eval) * GRAIN).clamp(-CORRECTION_MAX * GRAIN, CORRECTION_MAX * GRAIN);
        let weight = (depth + 1).min(WEIGHT_MAX);
        let blend = |entry: &mut i16| {
            let v = i32::from(*entry);
            let updated = (v * (256 - weight) + (v + diff) * weight) / 256;
            *entry = updated.clamp(-CORRECTION_MAX * GRAIN, CORRECTION_MAX * GRAIN) as i16;
        };
        let s = keys.side;
        blend(&mut self.pawns[s][keys.pawns]);
        for c in 0..2 {
            blend(&mut self.pieces[s][c][keys.pieces[c]]);
        }
        if let Some(m) = keys.moves {
            blend(&mut self.moves[s][m]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Position;
    use shakmaty::Position as _;

    #[test]
    fn corrections_follow_the_searches_and_stay_bounded() {
        let pos = Position::startpos();
        let keys = CorrectionKeys::new(pos.board().board(), Color::White, Continuations::default());
        let mut c = Correction::default();
        assert_eq!(c.correction(&keys), 0);
        for _ in 0..200 {
            let eval = c.correction(&keys);
            c.update(&keys, 10, 40, eval);
        }
        let learned = c.correction(&keys);
        assert!((30..=40).contains(&learned), "{learned}");
        for _ in 0..500 {
            c.update(&keys, 10, 10_000, 0);
        }
        assert!(c.correction(&keys) <= 2 * CORRECTION_MAX);
        let black =
            CorrectionKeys::new(pos.board().board(), Color::Black, Continuations::default());
        assert_eq!(c.correction(&black), 0, "the other side to move is apart");
    }
}
