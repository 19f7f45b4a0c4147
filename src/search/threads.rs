//! What search threads keep and share: each thread's state between the
//! searches of a game ([`ThreadState`]), the state all threads of one
//! search share (`SharedState`: the table, the signals, the limits, the
//! node counters), and thread pools sized for the search's recursion.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use super::correction::Correction;
use super::limits::EvalHandicap;
use super::ordering::history::History;
use super::params::SearchConfig;
use super::signals::Signals;
use super::tablebase::setup::TbSearch;
use super::time::TimeLimits;
use super::tt::TranspositionTable;
use crate::eval::{EvalState, Evaluation, HAND_CRAFTED};

/// Stack size of a search thread: deep recursion with per-ply move lists
/// needs more than the default 2 MiB.
pub const SEARCH_STACK_BYTES: usize = 64 << 20;

/// One search thread's state between the searches of a game.
#[derive(Clone, Default)]
pub struct ThreadState {
    /// Countermoves and butterfly history: what the thread has learned
    /// about the game (reset by `ucinewgame`).
    pub history: History,
    /// The evaluation's caches (pawn-and-king terms, whole evaluations)
    /// and the net's accumulators. A cache hit returns exactly what a
    /// fresh computation would, so keeping them never changes a search;
    /// it saves allocating and zeroing them per search and starts warm.
    pub eval: EvalState,
    /// The correction history of the static evaluation (reset by
    /// `ucinewgame`).
    pub correction: Correction,
}

/// Per-thread node and tablebase-hit counters on their own cache line.
#[derive(Debug, Default)]
#[repr(align(64))]
struct NodeCounter {
    nodes: AtomicU64,
    tb_hits: AtomicU64,
}

/// What all threads of one search share.
pub(super) struct SharedState<'a> {
    /// The transposition table.
    pub tt: &'a TranspositionTable,
    /// Stop and ponder flags from outside.
    pub signals: &'a Signals,
    /// Which techniques are on.
    pub config: SearchConfig,
    /// The evaluation handicap of a limited strength, if any.
    pub handicap: Option<&'a dyn EvalHandicap>,
    /// The evaluation the search plays with.
    pub evaluation: &'a Evaluation,
    /// Soft and hard time limits.
    pub time: TimeLimits,
    /// `go nodes`.
    pub node_limit: Option<u64>,
    /// When `go` arrived.
    pub start: Instant,
    /// The tables' part in the search, when the searcher has tables.
    pub tb: Option<TbSearch<'a>>,
    counters: Vec<NodeCounter>,
    /// The search's own stop: a limit was reached or the main thread is
    /// done (the caller's signals are left alone, so a caller can run
    /// several searches under one stop request).
    stop: AtomicBool,
}

impl<'a> SharedState<'a> {
    /// The shared state of a search on `threads` threads.
    pub fn new(
        tt: &'a TranspositionTable,
        signals: &'a Signals,
        config: SearchConfig,
        time: TimeLimits,
        node_limit: Option<u64>,
        start: Instant,
        threads: usize,
    ) -> SharedState<'a> {
        SharedState {
            tt,
            signals,
            config,
            handicap: None,
            evaluation: &HAND_CRAFTED,
            time,
            node_limit,
            start,
            tb: None,
            counters: (0..threads).map(|_| NodeCounter::default()).collect(),
            stop: AtomicBool::new(false),
        }
    }

    /// Stops every thread of this search.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Whether the search must stop: asked from outside, or by itself.
    #[inline]
    pub fn stopped(&self) -> bool {
        self.signals.stopped() || self.stop.load(Ordering::Relaxed)
    }

    /// Stores thread `id`'s node count and tablebase hits.
    pub fn publish_nodes(&self, id: usize, nodes: u64, tb_hits: u64) {
        let counter = &self.counters[id];
        counter.nodes.store(nodes, Ordering::Relaxed);
        counter.tb_hits.store(tb_hits, Ordering::Relaxed);
    }

    /// All threads' nodes, with thread `id`'s exact count `own`.
    pub fn total_nodes(&self, id: usize, own: u64) -> u64 {
        self.sum(id, own, |c| &c.nodes)
    }

    /// The tablebase hits of all threads and of the root, with thread
    /// `id`'s exact count `own`; `None` when the search has no tables.
    pub fn total_tb_hits(&self, id: usize, own: u64) -> Option<u64> {
        let tb = self.tb.as_ref()?;
        Some(tb.root_hits + self.sum(id, own, |c| &c.tb_hits))
    }

    fn sum(&self, id: usize, own: u64, field: impl Fn(&NodeCounter) -> &AtomicU64) -> u64 {
        self.counters
            .iter()
            .enumerate()
            .map(|(i, c)| {
                if i == id {
                    own
                } else {
                    field(c).load(Ordering::Relaxed)
                }
            })
            .sum()
    }
}

/// A rayon pool of `threads` threads named `name-<i>`, each with the stack
/// a search needs: for tools that run many one-thread searches at once.
///
/// # Errors
///
/// When the threads cannot be started.
pub fn thread_pool(
    threads: usize,
    name: &'static str,
) -> Result<rayon::ThreadPool, rayon::ThreadPoolBuildError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .stack_size(SEARCH_STACK_BYTES)
        .thread_name(move |i| format!("{name}-{i}"))
        .build()
}
