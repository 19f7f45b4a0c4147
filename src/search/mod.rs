//! The searcher: iterative deepening with aspiration windows over
//! [`alphabeta`], MultiPV, and Lazy SMP (helper threads search the same root
//! and share the transposition table). Search never prints: it reports
//! through a callback and the UCI layer formats.

pub mod alphabeta;
mod lmr;
pub mod ordering;
pub mod params;
mod qsearch;
mod root;
mod thread;
pub mod time;
pub mod tt;

pub use thread::ThreadState;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use shakmaty::{Move, Position as _};

use crate::chess::position::Position;
use crate::search::time::{Clock, TimeLimits};
use crate::search::tt::{Bound, TranspositionTable};
use alphabeta::{INFINITE, Stats, Worker};
use params::{ASPIRATION_DELTA, ASPIRATION_MIN_DEPTH, SearchConfig};

/// Deepest iteration the searcher will start; `go depth` beyond it is
/// clamped.
pub const MAX_DEPTH: u32 = 100;
/// Longest path from the root the searcher keeps state for.
pub const MAX_PLY: usize = 128;
/// Score of a mate at the root; a mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = crate::search::tt::MATE;
/// Scores beyond this (in absolute value) are mate scores.
pub const MATE_BOUND: i32 = crate::search::tt::MATE_BOUND;
/// Stack size of a search thread: deep recursion with per-ply move lists
/// needs more than the default 2 MiB.
pub const SEARCH_STACK_BYTES: usize = 64 << 20;
/// Bound lines (`lowerbound`/`upperbound`) are reported only after this long.
const BOUND_REPORT_AFTER: Duration = Duration::from_secs(1);

/// What `go` asked for, in our own types.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SearchLimits {
    /// `go depth`: iterations to complete.
    pub depth: Option<u32>,
    /// `go nodes`: stop after about this many nodes.
    pub nodes: Option<u64>,
    /// `go mate`: look for a mate in this many moves.
    pub mate: Option<u32>,
    /// `go infinite`: search until `stop`.
    pub infinite: bool,
    /// `go ponder`: search on the opponent's time until `ponderhit`/`stop`.
    pub ponder: bool,
    /// Clock parameters (`wtime btime winc binc movestogo movetime`).
    pub clock: Clock,
    /// `go searchmoves`: only these root moves (empty: all).
    pub searchmoves: Vec<Move>,
    /// When `go` arrived: the clock runs from here, not from when the search
    /// thread got going (`None`: from the start of [`search`]).
    pub received: Option<Instant>,
}

/// Settings of one search that come from options, not from `go`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchSettings {
    /// Search threads (Lazy SMP).
    pub threads: usize,
    /// Principal variations to report.
    pub multipv: usize,
    /// `Move Overhead`, ms.
    pub move_overhead_ms: u64,
    /// Which techniques are on.
    pub config: SearchConfig,
}

impl Default for SearchSettings {
    fn default() -> Self {
        SearchSettings {
            threads: 1,
            multipv: 1,
            move_overhead_ms: 0,
            config: SearchConfig::default(),
        }
    }
}

/// A score as UCI shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the side to move's view.
    Cp(i32),
    /// Mate in this many moves (negative: we are mated).
    Mate(i32),
}

impl Score {
    /// Converts an internal score.
    pub fn from_internal(score: i32) -> Score {
        if score >= MATE_BOUND {
            Score::Mate((MATE - score + 1) / 2)
        } else if score <= -MATE_BOUND {
            Score::Mate(-(MATE + score) / 2)
        } else {
            Score::Cp(score)
        }
    }
}

/// One report of progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchInfo {
    /// Completed depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Which principal variation (1-based).
    pub multipv: u32,
    /// Score of the line.
    pub score: Score,
    /// `Some(Lower)`/`Some(Upper)` for an aspiration fail-high/low.
    pub bound: Option<Bound>,
    /// Nodes searched so far (all threads).
    pub nodes: u64,
    /// Permille of the hash table in use.
    pub hashfull: u32,
    /// Time since the search started.
    pub time: Duration,
    /// The line.
    pub pv: Vec<Move>,
}

/// What the searcher tells its caller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SearchReport {
    /// A principal variation at some depth.
    Iteration(SearchInfo),
    /// The root move being searched (sent after the first second).
    CurrMove {
        /// Current depth.
        depth: u32,
        /// The move.
        mv: Move,
        /// Its 1-based number in the root move list.
        number: u32,
    },
    /// The search is over: the last info, then the move to play.
    Finished {
        /// Final info (depth 0 when the root has no legal move).
        info: SearchInfo,
        /// The move to play; `None` when there is no legal move.
        best: Option<Move>,
        /// The expected reply, when the PV has one.
        ponder: Option<Move>,
    },
    /// The search thread failed (a bug in the engine, caught so that the
    /// GUI is never left waiting): the UCI layer reports the reason and
    /// plays `best`, a legal move (`None` when there is none).
    Failed {
        /// What went wrong (the panic message).
        reason: String,
        /// A legal move to play anyway.
        best: Option<Move>,
    },
}

/// Flags shared between the UCI thread and a running search.
#[derive(Debug, Default)]
pub struct Signals {
    stop: AtomicBool,
    pondering: AtomicBool,
}

impl Signals {
    /// Fresh signals for a search; `ponder` marks a `go ponder`.
    pub fn new(ponder: bool) -> Signals {
        Signals {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(ponder),
        }
    }

    /// Asks the search to stop as soon as it can.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Whether a stop was asked for.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// `ponderhit`: the search goes on, now under its time limits.
    pub fn ponderhit(&self) {
        self.pondering.store(false, Ordering::SeqCst);
    }

    /// Whether the search is still pondering.
    pub fn pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }
}

/// Per-thread node counter on its own cache line.
#[derive(Debug, Default)]
#[repr(align(64))]
pub struct NodeCounter(AtomicU64);

/// What all threads of one search share.
pub struct SharedState<'a> {
    /// The transposition table.
    pub tt: &'a TranspositionTable,
    /// Stop and ponder flags.
    pub signals: &'a Signals,
    /// Which techniques are on.
    pub config: SearchConfig,
    /// Soft and hard time limits.
    pub time: TimeLimits,
    /// `go nodes`.
    pub node_limit: Option<u64>,
    /// When `go` arrived.
    pub start: Instant,
    counters: Vec<NodeCounter>,
}

impl SharedState<'_> {
    /// Stores thread `id`'s node count.
    pub fn publish_nodes(&self, id: usize, nodes: u64) {
        self.counters[id].0.store(nodes, Ordering::Relaxed);
    }

    /// All threads' nodes, with thread `id`'s exact count `own`.
    pub fn total_nodes(&self, id: usize, own: u64) -> u64 {
        self.counters
            .iter()
            .enumerate()
            .map(|(i, c)| {
                if i == id {
                    own
                } else {
                    c.0.load(Ordering::Relaxed)
                }
            })
            .sum()
    }
}

/// The result of a search, beside what was reported.
#[derive(Debug, Clone, Default)]
pub struct SearchOutcome {
    /// The move to play.
    pub best: Option<Move>,
    /// Its score from the last completed iteration (internal units:
    /// centipawns, or `±(MATE - plies)`); `None` without a legal move.
    pub score: Option<i32>,
    /// The principal variation of the last completed iteration.
    pub pv: Vec<Move>,
    /// The last completed depth.
    pub depth: u32,
    /// Nodes of all threads.
    pub nodes: u64,
    /// `(depth, nodes so far)` after each completed iteration of the main
    /// thread: the effective branching factor is the ratio of successive
    /// node counts.
    pub iterations: Vec<(u32, u64)>,
    /// Ordering and TT counters, all threads.
    pub stats: Stats,
}

/// The best line of the last completed iteration of the main thread.
#[derive(Debug, Clone)]
struct Completed {
    depth: u32,
    seldepth: u32,
    score: i32,
    /// `Some(Lower)` when the line comes from an iteration cut short.
    bound: Option<Bound>,
    pv: Vec<Move>,
}

/// Runs a whole search and reports through `report`; the last report is
/// always [`SearchReport::Finished`]. With `infinite` or while pondering, it
/// does not finish before `stop` (or `ponderhit`, for ponder).
///
/// `threads` holds one [`ThreadState`] per thread (its length is the
/// thread count); they persist between the searches of a game.
pub fn search(
    pos: &Position,
    limits: &SearchLimits,
    settings: &SearchSettings,
    tt: &TranspositionTable,
    threads: &mut [ThreadState],
    signals: &Signals,
    report: &(dyn Fn(SearchReport) + Sync),
) -> SearchOutcome {
    let start = limits.received.unwrap_or_else(Instant::now);
    tt.new_search();
    let thread_count = threads.len().max(1);
    let shared = SharedState {
        tt,
        signals,
        config: settings.config,
        time: TimeLimits::new(&limits.clock, pos.turn(), settings.move_overhead_ms),
        node_limit: limits.nodes,
        start,
        counters: (0..thread_count).map(|_| NodeCounter::default()).collect(),
    };
    let mut root_moves: Vec<Move> = pos.board().legal_moves().into_iter().collect();
    if !limits.searchmoves.is_empty() {
        root_moves.retain(|m| limits.searchmoves.contains(m));
    }
    let max_depth = match (limits.depth, limits.mate) {
        (Some(d), _) => d.clamp(1, MAX_DEPTH),
        (None, Some(m)) => m.clamp(1, MAX_DEPTH).saturating_mul(2).min(MAX_DEPTH),
        (None, None) => MAX_DEPTH,
    };

    let mut outcome = SearchOutcome::default();
    let mut completed: Option<Completed> = None;
    let (main_state, helper_states) = threads.split_first_mut().expect("at least one thread");
    let mut main = Worker::new(0, &shared, main_state, pos, &root_moves);
    main.clear_killers();
    let helper_results = std::thread::scope(|scope| {
        let mut handles = Vec::new();
        if !root_moves.is_empty() {
            for (i, state) in helper_states.iter_mut().enumerate() {
                let (shared, root_moves) = (&shared, &root_moves);
                let builder = std::thread::Builder::new()
                    .name(format!("helper-{}", i + 1))
                    .stack_size(SEARCH_STACK_BYTES);
                let spawned = builder.spawn_scoped(scope, move || {
                    let mut worker = Worker::new(i + 1, shared, state, pos, root_moves);
                    worker.clear_killers();
                    // Odd helpers start one ply deeper, to spread the threads.
                    let first = 1 + (i as u32 + 1) % 2;
                    for depth in first..=MAX_DEPTH {
                        if !iterate(&mut worker, depth, 1, None) || shared.signals.stopped() {
                            break;
                        }
                    }
                    worker.publish_nodes();
                    (worker.stats, worker.nodes)
                });
                // A helper that cannot start is simply not there.
                if let Ok(h) = spawned {
                    handles.push(h);
                }
            }
            main_loop(
                &mut main,
                limits,
                settings.multipv,
                max_depth,
                &mut outcome,
                &mut completed,
                report,
            );
        }
        // go infinite and go ponder never answer before stop (or
        // ponderhit); the helpers keep searching meanwhile.
        while !signals.stopped() && (limits.infinite || signals.pondering()) {
            std::thread::sleep(Duration::from_millis(1));
        }
        signals.stop();
        handles
            .into_iter()
            .filter_map(|h| h.join().ok())
            .collect::<Vec<_>>()
    });
    outcome.stats.add(&main.stats);
    outcome.nodes = main.nodes;
    for (stats, nodes) in &helper_results {
        outcome.stats.add(stats);
        outcome.nodes += nodes;
    }

    let hashfull = tt.hashfull();
    let time = main.start.elapsed();
    if let Some(c) = &completed {
        outcome.score = Some(c.score);
        outcome.pv = c.pv.clone();
        outcome.depth = c.depth;
    }
    let (info, best, ponder) = match completed {
        Some(c) => {
            let info = SearchInfo {
                depth: c.depth,
                seldepth: c.seldepth,
                multipv: 1,
                score: Score::from_internal(c.score),
                bound: c.bound,
                nodes: outcome.nodes,
                hashfull,
                time,
                pv: c.pv.clone(),
            };
            (info, c.pv.first().copied(), c.pv.get(1).copied())
        }
        None => {
            // No legal move at the root: mate or stalemate.
            let score = if pos.board().is_check() {
                Score::Mate(0)
            } else {
                Score::Cp(0)
            };
            let info = SearchInfo {
                depth: 0,
                seldepth: 0,
                multipv: 1,
                score,
                bound: None,
                nodes: outcome.nodes,
                hashfull,
                time,
                pv: Vec::new(),
            };
            (info, None, None)
        }
    };
    outcome.best = best;
    report(SearchReport::Finished { info, best, ponder });
    outcome
}

/// The main thread's iterative deepening: reports each iteration and
/// decides when to stop.
fn main_loop(
    main: &mut Worker<'_>,
    limits: &SearchLimits,
    multipv: usize,
    max_depth: u32,
    outcome: &mut SearchOutcome,
    completed: &mut Option<Completed>,
    report: &(dyn Fn(SearchReport) + Sync),
) {
    let shared_signals = main.signals();
    for depth in 1..=max_depth {
        if !iterate(main, depth, multipv, Some(report)) {
            // A move that beat the previous best before time ran out is
            // better at this depth than anything the last full iteration saw.
            if let Some(rm) = main.unfinished_best.take() {
                *completed = Some(Completed {
                    depth,
                    seldepth: main.seldepth as u32,
                    score: rm.score,
                    bound: Some(Bound::Lower),
                    pv: rm.pv,
                });
            }
            break;
        }
        let nodes = main.total_nodes();
        outcome.iterations.push((depth, nodes));
        let best = &main.root_moves[0];
        *completed = Some(Completed {
            depth,
            seldepth: main.seldepth as u32,
            score: best.score,
            bound: None,
            pv: best.pv.clone(),
        });

        if shared_signals.stopped() || limits.nodes.is_some_and(|n| nodes >= n) {
            break;
        }
        if let (Some(m), Score::Mate(n)) = (limits.mate, Score::from_internal(best.score))
            && n > 0
            && n as u32 <= m
        {
            break;
        }
        // Soft limit: an iteration started now would likely not finish.
        if !main.pondering()
            && main
                .soft_limit()
                .is_some_and(|soft| main.start.elapsed() >= soft)
        {
            break;
        }
    }
}

/// One iteration at `depth`: every MultiPV line with its aspiration loop.
/// Returns false when the iteration was cut short. Reports go to `report`
/// (the main thread only).
fn iterate(
    worker: &mut Worker<'_>,
    depth: u32,
    multipv: usize,
    report: Option<&(dyn Fn(SearchReport) + Sync)>,
) -> bool {
    worker.root_depth = depth as i32;
    worker.seldepth = 0;
    worker.unfinished_best = None;
    for rm in &mut worker.root_moves {
        rm.previous_score = rm.score;
    }
    let lines = multipv.clamp(1, worker.root_moves.len().max(1));
    let config = worker.config();
    for pv_index in 0..lines {
        worker.pv_index = pv_index;
        let previous = worker.root_moves[pv_index].previous_score;
        let mut delta = ASPIRATION_DELTA;
        let aspirate =
            config.aspiration && depth >= ASPIRATION_MIN_DEPTH && previous.abs() < MATE_BOUND;
        let (mut alpha, mut beta) = if aspirate {
            (previous - delta, previous + delta)
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            let score = worker.search_root(depth as i32, alpha, beta, report);
            if worker.aborted() {
                return false;
            }
            // Best first among the lines not yet fixed (stable: unsearched
            // moves keep last iteration's order).
            worker.root_moves[pv_index..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            let bound = if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITE);
                Some(Bound::Upper)
            } else if score >= beta {
                beta = (score + delta).min(INFINITE);
                Some(Bound::Lower)
            } else {
                None
            };
            let Some(bound) = bound else { break };
            if let Some(report) = report
                && worker.start.elapsed() >= BOUND_REPORT_AFTER
            {
                report(SearchReport::Iteration(worker.info(pv_index, Some(bound))));
            }
            delta += delta / 2;
        }
        worker.root_moves[..=pv_index].sort_by_key(|rm| std::cmp::Reverse(rm.score));
    }
    if let Some(report) = report {
        for k in 0..lines {
            report(SearchReport::Iteration(worker.info(k, None)));
        }
    }
    true
}
