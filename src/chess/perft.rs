//! Perft: counts the leaf nodes of the legal move tree, through our
//! position wrapper's make-move and incremental zobrist key.
//!
//! Used by `go perft N`, `shears perft`, `shears perft-suite` and the tests.
//! Leaves are bulk-counted (depth 1 returns the number of legal moves), as in
//! Stockfish. [`divide`] splits the work over a rayon pool at the first two
//! plies; an optional [`PerftTable`] caches subtree counts by zobrist key for
//! deep runs; [`divide_until`] can be stopped midway.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;
use shakmaty::{Chess, Move, Position as _};

use super::position::Position;
use super::zobrist::key_after;

/// Smallest depth at which a subtree count is worth caching.
const TABLE_MIN_DEPTH: u32 = 3;

/// A shared, lock-free cache of subtree counts.
///
/// Each slot is two `AtomicU64`s: `check = key ^ data` and
/// `data = nodes << 8 | depth`. A reader accepts a slot only when
/// `check ^ data` gives back its key and the depth matches, so a slot torn by
/// two writers racing is simply a miss (the xor trick). Counts stay below
/// 2^56, far beyond any perft we run.
pub struct PerftTable {
    slots: Vec<[AtomicU64; 2]>,
}

/// A perft table the machine cannot give.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot allocate a {mb} MB perft table")]
pub struct PerftTableError {
    /// The size that was asked for.
    pub mb: usize,
}

impl PerftTable {
    /// A table of about `mb` megabytes (at least one slot).
    ///
    /// # Errors
    ///
    /// [`PerftTableError`] when the memory cannot be allocated (an
    /// allocation failure is returned rather than aborting the process).
    pub fn new(mb: usize) -> Result<PerftTable, PerftTableError> {
        let err = || PerftTableError { mb };
        let bytes = mb.checked_mul(1 << 20).ok_or_else(err)?;
        let count = (bytes / std::mem::size_of::<[AtomicU64; 2]>()).max(1);
        let mut slots = Vec::new();
        slots.try_reserve_exact(count).map_err(|_| err())?;
        slots.extend((0..count).map(|_| [AtomicU64::new(0), AtomicU64::new(0)]));
        Ok(PerftTable { slots })
    }

    fn slot(&self, key: u64, depth: u32) -> &[AtomicU64; 2] {
        let mixed = key ^ (u64::from(depth).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        // Multiply-shift maps the 64-bit key evenly onto the slot range.
        let index = ((u128::from(mixed) * self.slots.len() as u128) >> 64) as usize;
        &self.slots[index]
    }

    fn probe(&self, key: u64, depth: u32) -> Option<u64> {
        let slot = self.slot(key, depth);
        let check = slot[0].load(Ordering::Relaxed);
        let data = slot[1].load(Ordering::Relaxed);
        (check ^ data == key && data & 0xFF == u64::from(depth) && data != 0).then_some(data >> 8)
    }

    fn store(&self, key: u64, depth: u32, nodes: u64) {
        debug_assert!(nodes < 1 << 56);
        let data = (nodes << 8) | u64::from(depth);
        let slot = self.slot(key, depth);
        slot[0].store(key ^ data, Ordering::Relaxed);
        slot[1].store(data, Ordering::Relaxed);
    }
}

/// A stop flag that is never raised.
static NEVER: AtomicBool = AtomicBool::new(false);

/// Leaf count of `board` (with zobrist `key`) at `depth`, on this thread.
pub fn perft_from(board: &Chess, key: u64, depth: u32, table: Option<&PerftTable>) -> u64 {
    count(board, key, depth, table, &NEVER)
}

/// [`perft_from`], giving up (with a partial count) once `stop` is raised.
fn count(
    board: &Chess,
    key: u64,
    depth: u32,
    table: Option<&PerftTable>,
    stop: &AtomicBool,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = board.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    let table = table.filter(|_| depth >= TABLE_MIN_DEPTH);
    if let Some(hit) = table.and_then(|t| t.probe(key, depth)) {
        return hit;
    }
    if stop.load(Ordering::Relaxed) {
        return 0;
    }
    let mut nodes = 0;
    for &m in &moves {
        let mut child = board.clone();
        child.play_unchecked(m);
        nodes += if depth == 2 {
            // The child is bulk-counted and never probed: its key is unused.
            child.legal_moves().len() as u64
        } else {
            let child_key = key_after(board, key, m, &child);
            count(&child, child_key, depth - 1, table, stop)
        };
    }
    // A count cut short by a stop is partial: never cache it.
    if let Some(t) = table.filter(|_| !stop.load(Ordering::Relaxed)) {
        t.store(key, depth, nodes);
    }
    nodes
}

/// Leaf count of `pos` at `depth`, single-threaded, no table.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    perft_from(pos.board(), pos.key(), depth, None)
}

/// Per-root-move leaf counts at `depth` (at least 1), in legal-move order,
/// computed on the current rayon pool: the root's grandchildren are the
/// parallel tasks, so two threads stay busy even with few root moves.
pub fn divide(pos: &Position, depth: u32, table: Option<&PerftTable>) -> Vec<(Move, u64)> {
    divide_until(pos, depth, table, &NEVER)
}

/// [`divide`], stopped early once `stop` is raised: the counts are then
/// partial (the caller can tell from `stop`).
pub fn divide_until(
    pos: &Position,
    depth: u32,
    table: Option<&PerftTable>,
    stop: &AtomicBool,
) -> Vec<(Move, u64)> {
    let board = pos.board();
    let root_moves = board.legal_moves();
    if depth <= 2 {
        return root_moves
            .iter()
            .map(|&m| {
                let mut child = board.clone();
                child.play_unchecked(m);
                (
                    m,
                    if depth == 1 {
                        1
                    } else {
                        child.legal_moves().len() as u64
                    },
                )
            })
            .collect();
    }
    // One task per grandchild, tagged with its root move's index.
    let mut tasks: Vec<(usize, Chess, u64)> = Vec::new();
    for (i, &m) in root_moves.iter().enumerate() {
        let mut child = board.clone();
        child.play_unchecked(m);
        let child_key = key_after(board, pos.key(), m, &child);
        for &reply in &child.legal_moves() {
            let mut grandchild = child.clone();
            grandchild.play_unchecked(reply);
            let key = key_after(&child, child_key, reply, &grandchild);
            tasks.push((i, grandchild, key));
        }
    }
    let counts: Vec<(usize, u64)> = tasks
        .par_iter()
        .map(|(i, b, k)| (*i, count(b, *k, depth - 2, table, stop)))
        .collect();
    let mut per_root = vec![0u64; root_moves.len()];
    for (i, n) in counts {
        per_root[i] += n;
    }
    root_moves.iter().copied().zip(per_root).collect()
}

/// Runs `f` on a rayon pool of `threads` threads (or the caller's thread
/// when the pool cannot be built).
pub fn with_threads<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    match rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
    {
        Ok(pool) => pool.install(f),
        Err(_) => f(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::zobrist::full_key;

    #[test]
    fn start_position_counts() {
        let pos = Position::startpos();
        assert_eq!(perft(&pos, 1), 20);
        assert_eq!(perft(&pos, 3), 8902);
        let split: u64 = divide(&pos, 4, None).iter().map(|(_, n)| n).sum();
        assert_eq!(split, 197_281);
    }

    #[test]
    fn table_does_not_change_counts() {
        let pos = Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            false,
        )
        .unwrap();
        let table = PerftTable::new(1).expect("a 1 MB table");
        assert_eq!(
            perft_from(pos.board(), pos.key(), 4, Some(&table)),
            4_085_603
        );
        // Second run is served largely from the table.
        assert_eq!(
            perft_from(pos.board(), pos.key(), 4, Some(&table)),
            4_085_603
        );
        assert_eq!(full_key(pos.board()), pos.key());
    }
}
