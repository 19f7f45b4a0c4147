//! The transposition table: one lock-free hash table shared by all Lazy SMP
//! search threads through `&TranspositionTable`.
//!
//! # Layout
//!
//! The table is a vector of 64-byte buckets (one cache line each) of four
//! 16-byte entries. A key picks its bucket by multiply-shift:
//! `(key as u128 * buckets as u128) >> 64`. Each entry is two `AtomicU64`s,
//! `check = key ^ data` and `data`, packed as follows (bit 0 is the lowest):
//!
//! | bits    | width | field                                                      |
//! |---------|-------|------------------------------------------------------------|
//! | 0–5     | 6     | move: from square (`a1 = 0 … h8 = 63`)                     |
//! | 6–11    | 6     | move: to square (the rook's square for castling)           |
//! | 12–14   | 3     | move: promotion role (`0` none, else `Role as u8`)         |
//! | 15      | 1     | spare (zero)                                               |
//! | 16–31   | 16    | score as `i16`, mate scores relative to the node           |
//! | 32–47   | 16    | static evaluation as `i16`                                 |
//! | 48–55   | 8     | depth + 8 as `u8` (depths `-8..=247`, clamped)             |
//! | 56–57   | 2     | bound: 0 none, 1 upper, 2 lower, 3 exact                   |
//! | 58–63   | 6     | generation (age) of the search that wrote it, modulo 64    |
//!
//! Bits 0–15 all zero mean "no move" (no real move goes from a1 to a1). An
//! entry whose `data` is zero is empty: this is what [`TranspositionTable::clear`]
//! leaves behind. The only real store that would also produce zero (no move,
//! score 0, eval 0, depth -8, no bound, generation 0) carries nothing worth
//! keeping, so reading it as a miss is harmless.
//!
//! # Races
//!
//! All accesses are `Relaxed` and nothing is locked. A writer stores `data`
//! and then `check`; two racing writers, or a reader racing a writer, can
//! observe the halves of two different entries. Such a torn pair fails the
//! test `check ^ data == key` (except with probability about 2⁻⁶⁴) and is a
//! plain miss. What *can* be returned is a consistent but stale entry, or an
//! entry of another position whose key collides in all 64 bits. The caller
//! must therefore treat every TT move as a suggestion and verify it is legal
//! in the current position (see [`TtMove::find_in`]) before playing it.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;
use shakmaty::{Move, MoveList, Role, Square};

/// Score of a mate at the root. Must equal `crate::search::MATE`.
pub const MATE: i32 = 32_000;
/// Scores at least this large (in absolute value) are mate scores. Must
/// equal `crate::search::MATE_BOUND`.
pub const MATE_BOUND: i32 = MATE - 128;

/// A same-key store from the same search may replace the entry only if it is
/// no more than this much shallower (or exact).
const SAME_KEY_DEPTH_MARGIN: i32 = 3;

const ENTRIES_PER_BUCKET: usize = 4;
const BUCKET_BYTES: usize = 64;
const DEPTH_OFFSET: i32 = 8;
const GEN_MASK: u8 = 63;
const BOUNDS: [Bound; 4] = [Bound::None, Bound::Upper, Bound::Lower, Bound::Exact];

/// Converts a search score at distance `ply` from the root to the score kept
/// in the table: mate scores become relative to the node instead of the root.
///
/// Example: at ply 5 the search finds that the side to move mates in 3 plies
/// from there, i.e. at ply 8 from the root, so the score is `MATE - 8`. It
/// is stored as `MATE - 8 + 5 = MATE - 3` ("mate in 3 plies from here").
/// If the same position is later met at ply 7, [`score_from_tt`] gives
/// `MATE - 3 - 7 = MATE - 10`: mate at ply 10 from that root. Being mated
/// is symmetric (`-MATE + 8` is stored as `-MATE + 3`). Other scores are
/// kept unchanged; everything is clamped into `i16`.
pub fn score_to_tt(score: i32, ply: usize) -> i16 {
    clamp16(score + mate_sign(score) * ply as i32)
}

/// Converts a score read from the table back into a score at distance `ply`
/// from the root; the inverse of [`score_to_tt`].
pub fn score_from_tt(score: i16, ply: usize) -> i32 {
    let score = i32::from(score);
    score - mate_sign(score) * ply as i32
}

/// `1` for "we mate" scores, `-1` for "we are mated", else `0`.
fn mate_sign(score: i32) -> i32 {
    i32::from(score >= MATE_BOUND) - i32::from(score <= -MATE_BOUND)
}

fn clamp16(x: i32) -> i16 {
    x.clamp(i16::MIN.into(), i16::MAX.into()) as i16
}

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

    /// Finds this move among `moves` (normally the legal moves of the
    /// current position); `None` if it is not there.
    pub fn find_in(&self, moves: &MoveList) -> Option<Move> {
        moves.iter().copied().find(|&m| self.matches(m))
    }

    fn encode(self) -> u64 {
        let promo = self.promotion.map_or(0, |r| r as u64);
        u64::from(self.from) | u64::from(self.to) << 6 | promo << 12
    }

    fn decode(bits: u64) -> Option<TtMove> {
        let bits = bits & 0x7fff;
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
    /// Score, already converted with [`score_from_tt`] for the probing ply.
    pub score: i32,
    /// Static evaluation of the position.
    pub eval: i32,
    /// Depth the score was searched to (`-8..=247`).
    pub depth: i32,
    /// What kind of bound `score` is.
    pub bound: Bound,
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

/// Packs the `data` word (see the module docs).
fn pack(mv: u64, score: i16, eval: i16, depth: i32, bound: Bound, generation: u8) -> u64 {
    let depth8 = (depth + DEPTH_OFFSET).clamp(0, 255) as u64;
    mv | u64::from(score as u16) << 16
        | u64::from(eval as u16) << 32
        | depth8 << 48
        | (bound as u64) << 56
        | u64::from(generation & GEN_MASK) << 58
}

fn depth8(data: u64) -> i32 {
    ((data >> 48) & 0xff) as i32
}

fn generation_of(data: u64) -> u8 {
    (data >> 58) as u8
}

/// Age distance from `entry_gen` to `current`, modulo 64.
fn age_distance(current: u8, entry_gen: u8) -> i32 {
    i32::from(current.wrapping_sub(entry_gen) & GEN_MASK)
}

#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

#[derive(Default)]
#[repr(align(64))]
struct Bucket {
    entries: [Entry; ENTRIES_PER_BUCKET],
}

/// Errors building or resizing the table.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TtError {
    /// The memory could not be allocated.
    #[error("cannot allocate a {mb} MB hash table")]
    Alloc {
        /// The size that was asked for.
        mb: usize,
    },
}

/// The shared transposition table. Share it as `&TranspositionTable`; all
/// methods used during search take `&self`.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: AtomicU8,
}

const _: () = {
    const fn assert_sync<T: Sync>() {}
    assert_sync::<TranspositionTable>();
    assert!(std::mem::size_of::<Bucket>() == BUCKET_BYTES);
    assert!(std::mem::align_of::<Bucket>() == BUCKET_BYTES);
};

impl TranspositionTable {
    /// Allocates about `mb` megabytes (rounded down to whole buckets, at
    /// least one bucket), all entries empty. An allocation failure is
    /// returned as an error rather than aborting.
    pub fn new(mb: usize) -> Result<TranspositionTable, TtError> {
        Ok(TranspositionTable {
            buckets: Self::alloc(mb)?,
            generation: AtomicU8::new(0),
        })
    }

    fn alloc(mb: usize) -> Result<Vec<Bucket>, TtError> {
        let err = || TtError::Alloc { mb };
        let bytes = mb.checked_mul(1 << 20).ok_or_else(err)?;
        let n = (bytes / BUCKET_BYTES).max(1);
        let mut buckets = Vec::new();
        buckets.try_reserve_exact(n).map_err(|_| err())?;
        // The capacity is already there, so this does not allocate again; in
        // parallel, so that the pages are touched by several threads.
        buckets.par_extend((0..n).into_par_iter().map(|_| Bucket::default()));
        Ok(buckets)
    }

    /// Reallocates to about `mb` megabytes, emptying the table. On error
    /// the old table is kept untouched.
    pub fn resize(&mut self, mb: usize) -> Result<(), TtError> {
        // The new table is allocated while the old one still exists, so the
        // old one survives a failure; peak memory is briefly old + new.
        self.buckets = Self::alloc(mb)?;
        *self.generation.get_mut() = 0;
        Ok(())
    }

    /// Empties every entry and resets the generation.
    pub fn clear(&mut self) {
        self.buckets.par_chunks_mut(4096).for_each(|chunk| {
            for e in chunk.iter_mut().flat_map(|b| b.entries.iter_mut()) {
                *e.check.get_mut() = 0;
                *e.data.get_mut() = 0;
            }
        });
        *self.generation.get_mut() = 0;
    }

    /// Starts a new search: bumps the generation (modulo 64), so that the
    /// entries of earlier searches are replaced first.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Relaxed);
    }

    fn generation(&self) -> u8 {
        self.generation.load(Relaxed) & GEN_MASK
    }

    fn bucket(&self, key: u64) -> &Bucket {
        let index = ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// Looks `key` up; `ply` is the distance from the root, to convert mate
    /// scores. The entry may be stale; its move must be checked for legality.
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtEntry> {
        self.bucket(key).entries.iter().find_map(|e| {
            let data = e.data.load(Relaxed);
            let check = e.check.load(Relaxed);
            (data != 0 && check ^ data == key).then(|| TtEntry {
                mv: TtMove::decode(data),
                score: score_from_tt((data >> 16) as u16 as i16, ply),
                eval: i32::from((data >> 32) as u16 as i16),
                depth: depth8(data) - DEPTH_OFFSET,
                bound: BOUNDS[(data >> 56) as usize & 3],
            })
        })
    }

    /// Stores a result for `key`, searched at distance `ply` from the root.
    ///
    /// An entry already holding `key` is overwritten (keeping its move if
    /// `mv` is `None`); otherwise the bucket's entry with the lowest
    /// `depth - 8 * age_distance` is replaced, empty entries first.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        mv: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
        ply: usize,
    ) {
        let generation = self.generation();
        let entries = &self.bucket(key).entries;
        let mut mv_bits = mv.map_or(0, |m| TtMove::from_move(m).encode());
        let mut target = 0;
        let mut worst = i32::MAX;
        for (i, e) in entries.iter().enumerate() {
            let data = e.data.load(Relaxed);
            let check = e.check.load(Relaxed);
            if data != 0 && check ^ data == key {
                if mv_bits == 0 {
                    mv_bits = data & 0x7fff;
                }
                // Keep a much deeper result of this search for the same
                // position, unless the new one is exact.
                let old_depth = depth8(data) - DEPTH_OFFSET;
                let same_search = generation_of(data) == generation;
                if same_search && bound != Bound::Exact && depth + SAME_KEY_DEPTH_MARGIN < old_depth
                {
                    return;
                }
                target = i;
                break;
            }
            let value = if data == 0 {
                i32::MIN
            } else {
                depth8(data) - 8 * age_distance(generation, generation_of(data))
            };
            if value < worst {
                worst = value;
                target = i;
            }
        }
        let (score, eval) = (score_to_tt(score, ply), clamp16(eval));
        let data = pack(mv_bits, score, eval, depth, bound, generation);
        let e = &entries[target];
        e.data.store(data, Relaxed);
        e.check.store(key ^ data, Relaxed);
    }

    /// Permille of the first 1000 entries (all entries, if fewer) that were
    /// written during the current search, as UCI `hashfull` wants.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation();
        let current = |data: u64| data != 0 && generation_of(data) == generation;
        let entries = self.buckets.iter().flat_map(|b| &b.entries).take(1000);
        let used = entries.filter(|e| current(e.data.load(Relaxed))).count();
        let total = (self.buckets.len() * ENTRIES_PER_BUCKET).min(1000);
        (used * 1000 / total) as u32
    }

    /// Size of the table in megabytes (rounded down).
    pub fn size_mb(&self) -> usize {
        (self.buckets.len() * BUCKET_BYTES) >> 20
    }

    /// Hints the CPU to load the bucket of `key` into cache.
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `_mm_prefetch` only needs SSE, which every x86_64 CPU has;
        // a prefetch never faults and the pointer is a valid bucket anyway.
        unsafe {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(self.bucket(key)).cast());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, Chess, Position as _, Square::*, fen::Fen};

    fn splitmix(state: &mut u64) -> u64 {
        *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let z = (*state ^ (*state >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        let z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn mv(from: Square, to: Square, promotion: Option<Role>) -> Move {
        Move::Normal {
            role: Role::Pawn,
            from,
            capture: None,
            to,
            promotion,
        }
    }

    /// Stores `key` with no move, score and eval 0, an exact bound.
    fn put(tt: &TranspositionTable, key: u64, depth: i32) {
        tt.store(key, None, 0, 0, depth, Bound::Exact, 0);
    }

    /// Which of the keys 1..=5 are in the table.
    fn present(tt: &TranspositionTable) -> [bool; 5] {
        [1, 2, 3, 4, 5].map(|k| tt.probe(k, 0).is_some())
    }

    #[test]
    fn round_trip_every_field() {
        let tt = TranspositionTable::new(1).unwrap();
        assert_eq!(tt.size_mb(), 1);
        let promo = mv(G7, H8, Some(Role::Knight));
        let castle = Move::Castle { king: E1, rook: H1 };
        for (key, mv, score, eval, depth, bound) in [
            (1, Some(promo), 123, -45, 7, Bound::Exact),
            (2, Some(castle), -20_000, 20_000, -8, Bound::Upper),
            (3, None, 0, 1, 247, Bound::Lower),
            (4, Some(mv(H8, A1, None)), 5, 6, 0, Bound::None),
        ] {
            tt.store(key, mv, score, eval, depth, bound, 0);
            let e = tt.probe(key, 0).unwrap();
            let got = (e.mv, e.score, e.eval, e.depth, e.bound);
            assert_eq!(got, (mv.map(TtMove::from_move), score, eval, depth, bound));
        }
        assert_eq!(tt.probe(5, 0), None);
        // Out-of-range depths and evals are clamped.
        tt.store(9, None, 0, 100_000, 1000, Bound::Lower, 0);
        let e = tt.probe(9, 0).unwrap();
        assert_eq!((e.eval, e.depth), (i16::MAX.into(), 247));
        put(&tt, 9, -50);
        assert_eq!(tt.probe(9, 0).unwrap().depth, -8);
    }

    #[test]
    fn tt_move_is_found_among_legal_moves() {
        let fen: Fen = "r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1".parse().unwrap();
        let pos: Chess = fen.into_position(CastlingMode::Standard).unwrap();
        let moves = pos.legal_moves();
        for &m in &moves {
            let tm = TtMove::from_move(m);
            assert_eq!(TtMove::decode(tm.encode()), Some(tm));
            assert_eq!(tm.find_in(&moves), Some(m));
        }
        let long_castle = TtMove::from_move(mv(E1, A1, None)).find_in(&moves);
        assert!(matches!(long_castle, Some(Move::Castle { .. })));
        assert_eq!(TtMove::from_move(mv(E4, E5, None)).find_in(&moves), None);
    }

    #[test]
    fn mate_scores_are_relative_to_the_node() {
        assert_eq!(score_to_tt(MATE - 7, 3), (MATE - 4) as i16);
        assert_eq!(score_to_tt(-(MATE - 7), 3), -(MATE - 4) as i16);
        assert_eq!((score_to_tt(150, 9), score_from_tt(-150, 9)), (150, -150));
        let tt = TranspositionTable::new(1).unwrap();
        for (score, store_ply, probe_ply, want) in [
            (MATE - 7, 3, 5, MATE - 9),
            (MATE - 20, 10, 2, MATE - 12),
            (MATE - 5, 5, 5, MATE - 5),
            (MATE_BOUND - 1, 4, 9, MATE_BOUND - 1),
        ] {
            for sign in [1, -1] {
                tt.store(77, None, sign * score, 0, 3, Bound::Exact, store_ply);
                assert_eq!(tt.probe(77, probe_ply).unwrap().score, sign * want);
            }
        }
    }

    #[test]
    fn replacement_prefers_shallow_and_old_entries() {
        // A 0 MB table has a single bucket: every key lands in it.
        let mut tt = TranspositionTable::new(0).unwrap();
        for (key, depth) in [(1, 10), (2, 3), (3, 10), (4, 10), (5, 20)] {
            put(&tt, key, depth);
        }
        assert_eq!(present(&tt), [true, false, true, true, true]);

        // Deeper but older: 12 - 8 * 1 < 6.
        tt.clear();
        put(&tt, 1, 12);
        tt.new_search();
        (2..=5).for_each(|key| put(&tt, key, 6));
        assert_eq!(present(&tt), [false, true, true, true, true]);

        // Age is measured modulo 64: after 64 bumps an entry looks current.
        assert_eq!((age_distance(0, 63), age_distance(5, 5)), (1, 0));
        tt.clear();
        put(&tt, 1, 20);
        (0..64).for_each(|_| tt.new_search());
        (2..=5).for_each(|key| put(&tt, key, 10));
        assert_eq!(present(&tt), [true, false, true, true, true]);
    }

    #[test]
    fn same_key_store_keeps_the_move() {
        let tt = TranspositionTable::new(0).unwrap();
        let (m, m2) = (mv(B1, C3, None), mv(G1, F3, None));
        tt.store(42, Some(m), 10, 0, 5, Bound::Lower, 0);
        tt.store(42, None, -30, 2, 2, Bound::Upper, 0);
        let e = tt.probe(42, 0).unwrap();
        let got = (e.score, e.eval, e.depth, e.bound);
        assert_eq!(got, (-30, 2, 2, Bound::Upper));
        assert!(e.mv.unwrap().matches(m));
        tt.store(42, Some(m2), 0, 0, 1, Bound::Exact, 0);
        assert!(tt.probe(42, 0).unwrap().mv.unwrap().matches(m2));
        // Updated in place, not duplicated: three more keys fill the bucket.
        (1..=3).for_each(|key| put(&tt, key, 50));
        assert!(tt.probe(42, 0).is_some());
    }

    #[test]
    fn hashfull_counts_the_current_generation() {
        let mut tt = TranspositionTable::new(1).unwrap();
        assert_eq!(tt.hashfull(), 0);
        let mut rng = 1;
        (0..200_000).for_each(|_| put(&tt, splitmix(&mut rng), 1));
        let full = tt.hashfull();
        assert!(full > 900, "{full}");
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
        (0..20_000).for_each(|_| put(&tt, splitmix(&mut rng), 1));
        let part = tt.hashfull();
        assert!(part > 0 && part < full, "{part}");
        tt.clear();
        assert_eq!(tt.hashfull(), 0);
        let tiny = TranspositionTable::new(0).unwrap();
        put(&tiny, 1, 1);
        assert_eq!(tiny.hashfull(), 250, "1 of 4 entries");
    }

    #[test]
    fn failed_resize_keeps_the_old_table() {
        let mut tt = TranspositionTable::new(1).unwrap();
        tt.store(99, None, 17, 0, 4, Bound::Exact, 0);
        let err = tt.resize(usize::MAX / 2);
        assert!(matches!(err, Err(TtError::Alloc { .. })));
        assert!(tt.resize(1 << 40).is_err());
        assert!(TranspositionTable::new(1 << 40).is_err());
        assert_eq!((tt.size_mb(), tt.probe(99, 0).unwrap().score), (1, 17));
        tt.resize(2).unwrap();
        assert_eq!((tt.size_mb(), tt.probe(99, 0)), (2, None));
    }

    /// What every thread stores for `key`: each field a function of the key.
    fn expected(key: u64) -> TtEntry {
        let from = (key & 63) as u32;
        let to = (from + 1 + ((key >> 6) % 63) as u32) % 64;
        let (from, to) = (Square::new(from), Square::new(to));
        TtEntry {
            mv: Some(TtMove::from_move(mv(from, to, None))),
            score: (key >> 12 & 0xfff) as i32 - 2048,
            eval: (key >> 24 & 0xfff) as i32 - 2048,
            depth: (key >> 36 & 0x3f) as i32 - 8,
            bound: BOUNDS[1 + (key >> 42) as usize % 3],
        }
    }

    #[test]
    fn concurrent_use_never_yields_inconsistent_entries() {
        let mut rng = 7;
        let keys: Vec<u64> = (0..4096).map(|_| splitmix(&mut rng)).collect();
        // One bucket hammered with 8 keys, then 16384 buckets with 4096 keys.
        for (mb, n) in [(0, 8), (1, 4096)] {
            let (tt, keys) = (TranspositionTable::new(mb).unwrap(), &keys[..n]);
            std::thread::scope(|s| {
                for mut rng in 0..4u64 {
                    let tt = &tt;
                    s.spawn(move || {
                        let mut hits = 0;
                        for _ in 0..500_000 {
                            let key = keys[splitmix(&mut rng) as usize % keys.len()];
                            if let Some(e) = tt.probe(key, 0) {
                                assert_eq!(e, expected(key));
                                hits += 1;
                            }
                            let x = expected(key);
                            let m = x.mv.map(|m| mv(m.from, m.to, None));
                            tt.store(key, m, x.score, x.eval, x.depth, x.bound, 0);
                        }
                        assert!(hits > 0);
                    });
                }
            });
        }
    }
}
