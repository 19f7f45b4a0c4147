//! The evaluation cache: a small per-thread table of whole static
//! evaluations keyed by the position's zobrist key, looked at before the
//! evaluation is computed. The transposition table keeps an evaluation in
//! its entries too, but it is shared, large (its entries are usually far
//! from the core) and a quiescence node that stands pat stores nothing in
//! it; this table is small enough to stay in the core's own cache and
//! catches the positions a search evaluates again a few hundred nodes
//! later (transpositions within a subtree, re-searches).
//!
//! An entry is one word: the key's upper [`CHECK_BITS`] bits beside the
//! evaluation, so that the lower bits that chose the slot and the upper
//! bits stored in it together check 56 bits of the key. A hit returns what a
//! fresh evaluation would (barring such a collision: one wrong evaluation
//! in about 2^40 probes of a full table), so the cache never changes a
//! search. The evaluation is a function of what the key covers (pieces,
//! side to move, castling rights, en passant square), not of the move
//! counters. Owned by one search thread; nothing is shared.

/// Bits of an entry that hold the evaluation (two's complement).
const EVAL_BITS: u32 = 24;
/// Bits of an entry that hold the key's upper bits.
const CHECK_BITS: u32 = 64 - EVAL_BITS;
/// The evaluation part of an entry.
const EVAL_MASK: u64 = (1 << EVAL_BITS) - 1;
/// The empty entry. A key whose upper bits are all zero, stored with the
/// evaluation 0, looks the same and is simply never found (a miss).
const EMPTY: u64 = 0;

/// A cache of static evaluations (see the module documentation).
#[derive(Debug, Clone)]
pub struct EvalCache {
    entries: Box<[u64]>,
}

impl EvalCache {
    /// Entries in a cache made by [`EvalCache::new`] (128 KB).
    pub const DEFAULT_ENTRIES: usize = 1 << 14;

    /// An empty cache of [`EvalCache::DEFAULT_ENTRIES`] entries.
    pub fn new() -> EvalCache {
        EvalCache::with_entries(EvalCache::DEFAULT_ENTRIES)
    }

    /// An empty cache of `entries` entries (rounded up to a power of two).
    pub fn with_entries(entries: usize) -> EvalCache {
        EvalCache {
            entries: vec![EMPTY; entries.max(1).next_power_of_two()].into_boxed_slice(),
        }
    }

    #[inline(always)]
    fn index(&self, key: u64) -> usize {
        key as usize & (self.entries.len() - 1)
    }

    /// Hints the CPU to load the entry of `key` into cache (the search
    /// calls this as it probes the transposition table).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        crate::prefetch::prefetch(&self.entries[self.index(key)]);
    }

    /// The evaluation stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<i32> {
        let word = self.entries[self.index(key)];
        // The evaluation: the low EVAL_BITS bits, sign-extended.
        let eval = ((word << CHECK_BITS) as i64 >> CHECK_BITS) as i32;
        (word != EMPTY && word >> EVAL_BITS == key >> EVAL_BITS).then_some(eval)
    }

    /// Stores `eval` for `key`, replacing whatever the slot held.
    /// Evaluations outside ±2^23 (none the evaluation gives) are not stored.
    #[inline]
    pub fn store(&mut self, key: u64, eval: i32) {
        let limit = 1 << (EVAL_BITS - 1);
        debug_assert!(
            (-limit..limit).contains(&eval),
            "evaluation {eval} out of range"
        );
        if (-limit..limit).contains(&eval) {
            let index = self.index(key);
            self.entries[index] = (key >> EVAL_BITS << EVAL_BITS) | (eval as u64 & EVAL_MASK);
        }
    }

    /// Empties the cache.
    pub fn clear(&mut self) {
        self.entries.fill(EMPTY);
    }
}

impl Default for EvalCache {
    fn default() -> EvalCache {
        EvalCache::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stored_evaluation_comes_back_and_only_for_its_key() {
        let mut cache = EvalCache::with_entries(16);
        let key = 0x1234_5678_9abc_def3;
        assert_eq!(cache.probe(key), None);
        for eval in [0, 1, -1, 37, -2_345, 8_388_607, -8_388_608] {
            cache.store(key, eval);
            assert_eq!(cache.probe(key), Some(eval));
        }
        // Same slot, other upper bits: a miss, and storing it replaces.
        let other = key ^ (1 << 60);
        assert_eq!(cache.probe(other), None);
        cache.store(other, -5);
        assert_eq!(cache.probe(other), Some(-5));
        assert_eq!(cache.probe(key), None);
        cache.clear();
        assert_eq!(cache.probe(other), None);
    }
}
