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
//! | 15      | 1     | the node was on a principal variation (TT-PV)              |
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
//! in the current position ([`TtMove::to_move`]) before playing it.
//!
//! Scores are stored relative to the node, not the root (see
//! `search::score::to_tt`); `entry.rs` packs and unpacks the data word.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

mod entry;
mod pages;

pub use entry::{Bound, TtEntry, TtMove};
use entry::{GEN_MASK, age_distance, depth_of, generation_of, move_bits, pack, unpack};

/// A same-key store from the same search may replace the entry only if it is
/// no more than this much shallower (or exact).
const SAME_KEY_DEPTH_MARGIN: i32 = 3;

const ENTRIES_PER_BUCKET: usize = 4;
const BUCKET_BYTES: usize = 64;

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
        let mut buckets: Vec<Bucket> = Vec::new();
        buckets.try_reserve_exact(n).map_err(|_| err())?;
        pages::advise_huge_pages(buckets.as_ptr().cast(), n * BUCKET_BYTES);
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
        // Whole buckets at a time: the compiler turns this into wide stores.
        self.buckets
            .par_chunks_mut(4096)
            .for_each(|chunk| chunk.fill_with(Bucket::default));
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
            (data != 0 && check ^ data == key).then(|| unpack(data, ply))
        })
    }

    /// Stores `entry`, the result for `key` searched at distance `ply` from
    /// the root (its score as the search sees it: mate scores from the
    /// root).
    ///
    /// An entry already holding `key` is overwritten (keeping its move if
    /// `entry.mv` is `None`); otherwise the bucket's entry with the lowest
    /// `depth - 8 * age_distance` is replaced, empty entries first.
    pub fn store(&self, key: u64, ply: usize, entry: TtEntry) {
        let TtEntry {
            mv, depth, bound, ..
        } = entry;
        let generation = self.generation();
        let entries = &self.bucket(key).entries;
        let mut mv_bits = mv.map_or(0, TtMove::encode);
        let mut target = 0;
        let mut worst = i32::MAX;
        for (i, e) in entries.iter().enumerate() {
            let data = e.data.load(Relaxed);
            let check = e.check.load(Relaxed);
            if data != 0 && check ^ data == key {
                if mv_bits == 0 {
                    mv_bits = move_bits(data);
                }
                // Keep a much deeper result of this search for the same
                // position, unless the new one is exact.
                let old_depth = depth_of(data);
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
                depth_of(data) - 8 * age_distance(generation, generation_of(data))
            };
            if value < worst {
                worst = value;
                target = i;
            }
        }
        let data = pack(mv_bits, &entry, ply, generation);
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
        crate::prefetch::prefetch(self.bucket(key));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::{
        MATE, NO_EVAL, TB_WIN, TB_WIN_BOUND, from_tt as score_from_tt, to_tt as score_to_tt,
    };
    use shakmaty::{CastlingMode, Chess, Move, Position as _, Role, Square, Square::*, fen::Fen};

    /// Stores a result given field by field.
    fn store(
        tt: &TranspositionTable,
        key: u64,
        mv: Option<Move>,
        fields: (i32, i32, i32, Bound),
        ply: usize,
    ) {
        let (score, eval, depth, bound) = fields;
        let mv = mv.map(TtMove::from_move);
        tt.store(
            key,
            ply,
            TtEntry {
                mv,
                score,
                eval,
                depth,
                bound,
                pv: false,
            },
        );
    }

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
        store(tt, key, None, (0, 0, depth, Bound::Exact), 0);
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
            store(&tt, key, mv, (score, eval, depth, bound), 0);
            let e = tt.probe(key, 0).unwrap();
            let got = (e.mv, e.score, e.eval, e.depth, e.bound);
            assert_eq!(got, (mv.map(TtMove::from_move), score, eval, depth, bound));
        }
        assert_eq!(tt.probe(5, 0), None);
        // Out-of-range depths and evals are clamped.
        store(&tt, 9, None, (0, 100_000, 1000, Bound::Lower), 0);
        let e = tt.probe(9, 0).unwrap();
        assert_eq!((e.eval, e.depth), (i16::MAX.into(), 247));
        // NO_EVAL (a lazily evaluated node) comes back as itself; no real
        // evaluation, however low, becomes it.
        store(&tt, 10, None, (0, NO_EVAL, 0, Bound::Upper), 0);
        assert_eq!(tt.probe(10, 0).unwrap().eval, NO_EVAL);
        store(&tt, 11, None, (0, -100_000, 0, Bound::Upper), 0);
        assert_eq!(tt.probe(11, 0).unwrap().eval, -i32::from(i16::MAX));
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
            assert_eq!(tm.to_move(&pos, pos.is_check()), Some(m));
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
            (TB_WIN - 6, 4, 9, TB_WIN - 11),
            (TB_WIN_BOUND - 1, 4, 9, TB_WIN_BOUND - 1),
        ] {
            for sign in [1, -1] {
                store(&tt, 77, None, (sign * score, 0, 3, Bound::Exact), store_ply);
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
        store(&tt, 42, Some(m), (10, 0, 5, Bound::Lower), 0);
        store(&tt, 42, None, (-30, 2, 2, Bound::Upper), 0);
        let e = tt.probe(42, 0).unwrap();
        let got = (e.score, e.eval, e.depth, e.bound);
        assert_eq!(got, (-30, 2, 2, Bound::Upper));
        assert!(e.mv.unwrap().matches(m));
        store(&tt, 42, Some(m2), (0, 0, 1, Bound::Exact), 0);
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
        store(&tt, 99, None, (17, 0, 4, Bound::Exact), 0);
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
            bound: [Bound::Upper, Bound::Lower, Bound::Exact][(key >> 42) as usize % 3],
            pv: key >> 50 & 1 == 1,
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
                            tt.store(key, 0, expected(key));
                        }
                        assert!(hits > 0);
                    });
                }
            });
        }
    }
}
