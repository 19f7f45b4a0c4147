//! When a teaching search must give up: a stop flag, a node budget, a
//! deadline, a memory budget. A search that gives up has no value. Also
//! the root moves it may search (`go searchmoves`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use shakmaty::Move;

/// Nodes between two looks at the stop flag and the clock.
const CHECK_INTERVAL: u64 = 1024;

/// Largest memory of the tree SSS* and MTD(f) may build by default, in
/// entries (about 400 MB).
pub const DEFAULT_MEMORY_ENTRIES: usize = 16 << 20;

/// The limits of one teaching search.
#[derive(Debug, Clone, Copy)]
pub struct TheoryLimits<'a> {
    /// Stop when this becomes true.
    pub stop: Option<&'a AtomicBool>,
    /// Stop after this many nodes (fixed-depth tree and quiescence).
    pub max_nodes: Option<u64>,
    /// Stop at this moment.
    pub deadline: Option<Instant>,
    /// Stop when the memory of the tree would hold more entries.
    pub max_memory_entries: usize,
    /// Search only these root moves (`go searchmoves`); empty: all.
    pub searchmoves: &'a [Move],
}

impl Default for TheoryLimits<'_> {
    fn default() -> Self {
        TheoryLimits {
            stop: None,
            max_nodes: None,
            deadline: None,
            max_memory_entries: DEFAULT_MEMORY_ENTRIES,
            searchmoves: &[],
        }
    }
}

impl TheoryLimits<'_> {
    /// Whether a search that has visited `nodes` nodes must stop now. The
    /// flag and the clock are read every 1024 nodes.
    pub fn reached(&self, nodes: u64) -> bool {
        if self.max_nodes.is_some_and(|max| nodes > max) {
            return true;
        }
        if !nodes.is_multiple_of(CHECK_INTERVAL) {
            return false;
        }
        self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}
