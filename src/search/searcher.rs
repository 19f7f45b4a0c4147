//! The [`Searcher`]: the one entry point of the search. It owns what lasts
//! between searches (the transposition table, each thread's history and
//! pawn cache) and runs one search per [`SearchRequest`]: the main thread
//! here, helper threads (Lazy SMP) beside it. The search returns its
//! result as a [`SearchOutcome`]; while it runs it only reports progress.
//!
//! ```
//! use shears::chess::Position;
//! use shears::search::{SearchLimits, SearchRequest, SearchSettings, Searcher};
//! let mut searcher = Searcher::new(1).unwrap();
//! let (pos, limits) = (Position::startpos(), SearchLimits::depth(3));
//! let outcome = searcher.think(&SearchRequest::new(&pos, &limits, SearchSettings::default()));
//! assert!(outcome.best().is_some() && outcome.depth() == 3);
//! ```

use std::time::Instant;

use shakmaty::{Move, Position as _};

use super::correction::Correction;
use super::iterative::{Completed, Deepening, choose_line, helper_thread, main_thread};
use super::limits::SearchRequest;
use super::ordering::history::History;
use super::report::{Counters, Reporter, SearchOutcome, Stats};
use super::score::MAX_DEPTH;
use super::signals::Signals;
use super::tablebase::setup as tb_setup;
use super::threads::{SEARCH_STACK_BYTES, SharedState, ThreadState};
use super::time::TimeLimits;
use super::tt::{TranspositionTable, TtError};
use super::worker::Worker;
use crate::eval::HAND_CRAFTED;
use crate::tb::Tablebases;

/// The search engine proper: the table and the thread states, and the
/// searches run on them.
pub struct Searcher {
    tt: TranspositionTable,
    threads: Vec<ThreadState>,
    /// The identity of the evaluation the last search played with
    /// ([`Evaluation::id`](crate::eval::Evaluation::id)).
    evaluation: u64,
}

impl Searcher {
    /// A searcher with a `hash_mb` megabyte table and one thread's state.
    ///
    /// # Errors
    ///
    /// When the table cannot be allocated.
    pub fn new(hash_mb: usize) -> Result<Searcher, TtError> {
        Ok(Searcher {
            tt: TranspositionTable::new(hash_mb)?,
            threads: vec![ThreadState::default()],
            evaluation: HAND_CRAFTED.id(),
        })
    }

    /// Keeps the states of `threads` threads (at least one): new threads
    /// start with empty histories, dropped ones are forgotten. A search
    /// that asks for more threads adds their states itself; one that asks
    /// for fewer uses the first ones and leaves the others as they are.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads
            .resize_with(threads.max(1), ThreadState::default);
    }

    /// Reallocates the table to about `mb` megabytes, emptying it.
    ///
    /// # Errors
    ///
    /// When the table cannot be allocated; the old one is kept then.
    pub fn resize_hash(&mut self, mb: usize) -> Result<(), TtError> {
        self.tt.resize(mb)
    }

    /// Empties the table.
    pub fn clear_hash(&mut self) {
        self.tt.clear();
    }

    /// Forgets everything learned about the game: the table and the
    /// histories. The pawn and evaluation caches stay: they only hold exact
    /// evaluations, so keeping them never changes a search.
    pub fn new_game(&mut self) {
        self.tt.clear();
        for thread in &mut self.threads {
            thread.history = History::default();
            thread.correction = Correction::default();
        }
    }

    /// Runs `request` with no progress reports and no outside stop: what
    /// tools and tests use.
    pub fn think(&mut self, request: &SearchRequest<'_>) -> SearchOutcome {
        let signals = Signals::new(request.limits.ponder);
        self.search(request, &signals, &|_| {})
    }

    /// Runs `request`, reporting progress through `progress`; `signals`
    /// stop the search (and end pondering) from outside. Returns when the
    /// search is over by its limits or by `stop`: waiting for `stop` or
    /// `ponderhit` before answering a GUI is the caller's business.
    pub fn search(
        &mut self,
        request: &SearchRequest<'_>,
        signals: &Signals,
        progress: Reporter<'_>,
    ) -> SearchOutcome {
        let SearchRequest {
            position: pos,
            limits,
            mut settings,
            tables,
            handicap,
            evaluation,
        } = *request;
        let start = limits.received.unwrap_or_else(Instant::now);
        // Another evaluation: the table's static evaluations and the
        // correction history were another evaluation's, and its scores are
        // on another scale. Forget the game.
        if evaluation.id() != self.evaluation {
            self.new_game();
            self.evaluation = evaluation.id();
        }
        self.tt.new_search();
        if self.threads.len() < settings.threads {
            self.set_threads(settings.threads);
        }
        if limits.mate.is_some() {
            settings.config = settings.config.for_mate_search();
        }
        let time = TimeLimits::new(&limits.clock, pos.turn());
        let threads = settings.threads.max(1);
        let mut shared = SharedState::new(
            &self.tt,
            signals,
            settings.config,
            time,
            limits.nodes,
            start,
            threads,
        );
        let mut moves: Vec<Move> = pos.board().legal_moves().into_iter().collect();
        if !limits.searchmoves.is_empty() {
            moves.retain(|m| limits.searchmoves.contains(m));
        }
        let (tb, root_moves) = tb_setup::prepare(tables, settings.tb, pos, &moves);
        shared.tb = tb;
        shared.handicap = handicap;
        shared.evaluation = evaluation;
        let shared = shared;
        // go mate N deepens until it has a mate in at most N moves (or
        // another limit ends it): a mate in N needs more than 2N plies of
        // nominal depth once reductions and pruning have cut the tree.
        let max_depth = limits.depth.map_or(MAX_DEPTH, |d| d.clamp(1, MAX_DEPTH));

        let (main_state, helper_states) = self.threads[..threads]
            .split_first_mut()
            .expect("a searcher has at least one thread");
        let mut main = Worker::new(0, &shared, main_state, pos, &root_moves, Some(progress));
        let mut deepening = Deepening::default();
        let helpers: Vec<(Stats, u64, Option<Completed>)> = std::thread::scope(|scope| {
            let mut handles = Vec::new();
            if !root_moves.moves.is_empty() {
                for (i, state) in helper_states.iter_mut().enumerate() {
                    let (shared, root_moves) = (&shared, &root_moves);
                    let builder = std::thread::Builder::new()
                        .name(format!("helper-{}", i + 1))
                        .stack_size(SEARCH_STACK_BYTES);
                    let spawned = builder.spawn_scoped(scope, move || {
                        let mut worker = Worker::new(i + 1, shared, state, pos, root_moves, None);
                        let line = helper_thread(&mut worker, i + 1, max_depth);
                        (worker.stats, worker.nodes, line)
                    });
                    // A helper that cannot start is simply not there.
                    if let Ok(h) = spawned {
                        handles.push(h);
                    }
                }
                deepening = main_thread(&mut main, limits, settings.multipv, max_depth);
            }
            shared.stop();
            handles.into_iter().filter_map(|h| h.join().ok()).collect()
        });

        let mut stats = main.stats;
        let mut nodes = main.nodes;
        for (helper_stats, helper_nodes, _) in &helpers {
            stats.add(helper_stats);
            nodes += helper_nodes;
        }
        let line = choose_line(
            deepening.completed,
            helpers.into_iter().filter_map(|(_, _, line)| line),
        );
        let counters = Counters {
            nodes,
            hashfull: self.tt.hashfull(),
            tbhits: shared.tb.map(|tb| tb.root_hits + stats.tb_hits),
            time: main.start.elapsed(),
        };
        let mut outcome = SearchOutcome {
            line: line.map(|c| c.line),
            lines: deepening.lines,
            lines_counters: deepening.lines_counters,
            counters,
            iterations: deepening.iterations,
            stats,
            problems: Vec::new(),
        };
        outcome.problems = tables.map(Tablebases::take_problems).unwrap_or_default();
        outcome
    }
}
