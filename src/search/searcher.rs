//! The [`Searcher`]: the one entry point of the search. It owns what lasts
//! between searches (the transposition table, each thread's history and
//! pawn cache, the settings) and runs one search per
//! [`Searcher::think`]: the main thread here, helper threads (Lazy SMP)
//! beside it.
//!
//! ```
//! use shears::chess::Position;
//! use shears::search::{SearchLimits, SearchSettings, Searcher};
//! let mut searcher = Searcher::new(SearchSettings::default(), 1).unwrap();
//! let outcome = searcher.think(&Position::startpos(), &SearchLimits::depth(3));
//! assert!(outcome.best.is_some() && outcome.depth == 3);
//! ```

use std::sync::Arc;
use std::time::{Duration, Instant};

use shakmaty::{Move, Position as _};

use super::correction::Correction;
use super::iterative::{Completed, Deepening, choose_line, helper_thread, main_thread};
use super::limits::{SearchLimits, SearchSettings};
use super::ordering::history::History;
use super::report::{Reporter, SearchInfo, SearchOutcome, SearchReport, Stats};
use super::score::{MAX_DEPTH, Score};
use super::signals::Signals;
use super::tablebase;
use super::threads::{SEARCH_STACK_BYTES, SharedState, ThreadState};
use super::time::TimeLimits;
use super::tt::{TranspositionTable, TtError};
use super::worker::Worker;
use crate::chess::Position;
use crate::tb::Tablebases;

/// The search engine proper: table, thread states and settings, the
/// endgame tables if any, and the searches run on them.
pub struct Searcher {
    tt: TranspositionTable,
    threads: Vec<ThreadState>,
    settings: SearchSettings,
    tables: Option<Arc<Tablebases>>,
}

impl Searcher {
    /// A searcher with `settings` and a `hash_mb` megabyte table.
    ///
    /// # Errors
    ///
    /// When the table cannot be allocated.
    pub fn new(settings: SearchSettings, hash_mb: usize) -> Result<Searcher, TtError> {
        let mut searcher = Searcher {
            tt: TranspositionTable::new(hash_mb)?,
            threads: Vec::new(),
            settings,
            tables: None,
        };
        searcher.set_settings(settings);
        Ok(searcher)
    }

    /// The current settings.
    pub fn settings(&self) -> &SearchSettings {
        &self.settings
    }

    /// Changes the settings; a new thread count takes effect at once (new
    /// threads start with empty histories).
    pub fn set_settings(&mut self, settings: SearchSettings) {
        self.settings = settings;
        self.threads
            .resize_with(settings.threads.max(1), ThreadState::default);
    }

    /// The Syzygy tables the searches use (`None`: none), with
    /// `SearchSettings::tb` saying how.
    pub fn set_tablebases(&mut self, tables: Option<Arc<Tablebases>>) {
        self.tables = tables;
    }

    /// The Syzygy tables the searches use, if any.
    pub fn tablebases(&self) -> Option<&Arc<Tablebases>> {
        self.tables.as_ref()
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
    /// histories. The pawn caches stay: they only hold exact evaluation
    /// terms, so keeping them never changes a search.
    pub fn new_game(&mut self) {
        self.tt.clear();
        for thread in &mut self.threads {
            thread.history = History::default();
            thread.correction = Correction::default();
        }
    }

    /// Searches `pos` under `limits` with no reports and no outside stop:
    /// what tools and tests use.
    pub fn think(&mut self, pos: &Position, limits: &SearchLimits) -> SearchOutcome {
        self.think_with(pos, limits, &Signals::new(limits.ponder), &|_| {})
    }

    /// Searches `pos` under `limits`, reporting through `report`; `signals`
    /// stop the search (and end pondering) from outside. The last report is
    /// always [`SearchReport::Finished`]. With `infinite` or while
    /// pondering, it does not finish before `stop` (or `ponderhit`).
    pub fn think_with(
        &mut self,
        pos: &Position,
        limits: &SearchLimits,
        signals: &Signals,
        report: Reporter<'_>,
    ) -> SearchOutcome {
        let start = limits.received.unwrap_or_else(Instant::now);
        self.tt.new_search();
        let mut settings = self.settings;
        if limits.mate.is_some() {
            settings.config = settings.config.for_mate_search();
        }
        let time = TimeLimits::new(&limits.clock, pos.turn(), settings.move_overhead_ms);
        let mut shared = SharedState::new(
            &self.tt,
            signals,
            settings.config,
            time,
            limits.nodes,
            start,
            self.threads.len(),
        );
        let mut moves: Vec<Move> = pos.board().legal_moves().into_iter().collect();
        if !limits.searchmoves.is_empty() {
            moves.retain(|m| limits.searchmoves.contains(m));
        }
        let tables = self.tables.as_deref();
        let (tb, root_moves) = tablebase::prepare(tables, settings.tb, pos, &moves);
        shared.tb = tb;
        shared.handicap = settings.handicap;
        let shared = shared;
        // go mate N deepens until it has a mate in at most N moves (or
        // another limit ends it): a mate in N needs more than 2N plies of
        // nominal depth once reductions and pruning have cut the tree.
        let max_depth = limits.depth.map_or(MAX_DEPTH, |d| d.clamp(1, MAX_DEPTH));

        let (main_state, helper_states) = self
            .threads
            .split_first_mut()
            .expect("a searcher has at least one thread");
        let mut main = Worker::new(0, &shared, main_state, pos, &root_moves, Some(report));
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
                        let line = helper_thread(&mut worker, i + 1);
                        (worker.stats, worker.nodes, line)
                    });
                    // A helper that cannot start is simply not there.
                    if let Ok(h) = spawned {
                        handles.push(h);
                    }
                }
                deepening = main_thread(&mut main, limits, settings.multipv, max_depth);
            }
            // go infinite and go ponder never answer before stop (or
            // ponderhit); the helpers keep searching meanwhile.
            while !signals.stopped() && (limits.infinite || signals.pondering()) {
                std::thread::sleep(Duration::from_millis(1));
            }
            shared.stop();
            handles.into_iter().filter_map(|h| h.join().ok()).collect()
        });

        let mut outcome = SearchOutcome {
            nodes: main.nodes,
            stats: main.stats,
            iterations: deepening.iterations,
            ..SearchOutcome::default()
        };
        for (stats, nodes, _) in &helpers {
            outcome.stats.add(stats);
            outcome.nodes += nodes;
        }
        let line = choose_line(
            deepening.completed,
            helpers.into_iter().filter_map(|(_, _, line)| line),
        );
        let time = main.start.elapsed();
        let tbhits = shared.tb.map(|tb| tb.root_hits + outcome.stats.tb_hits);
        let finished = finish(pos, line, outcome.nodes, self.tt.hashfull(), tbhits, time);
        if let Some(c) = finished.completed {
            outcome.score = Some(c.score);
            outcome.pv = c.pv;
            outcome.depth = c.depth;
        }
        outcome.best = finished.best;
        for problem in tables.map(Tablebases::take_problems).unwrap_or_default() {
            report(SearchReport::Problem(problem));
        }
        report(SearchReport::Finished {
            info: finished.info,
            best: finished.best,
            ponder: finished.ponder,
        });
        outcome
    }
}

/// The final report of a search.
struct Finished {
    info: Option<SearchInfo>,
    best: Option<Move>,
    ponder: Option<Move>,
    completed: Option<Completed>,
}

/// The final report from the last completed line (none: the root had no
/// legal move, a mate or a stalemate). Its `info` is the line's, unless the
/// line was the last one reported (the main thread's last iteration): the
/// GUI sees the last `info` line once, as Stockfish sends it. A helper's
/// line, a line of an iteration cut short, the `depth 0` line of a root
/// without moves, and a line that bound lines of a later, unfinished
/// iteration followed, are sent.
fn finish(
    pos: &Position,
    completed: Option<Completed>,
    nodes: u64,
    hashfull: u32,
    tbhits: Option<u64>,
    time: Duration,
) -> Finished {
    let Some(c) = completed else {
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
            nodes,
            hashfull,
            tbhits,
            tb_proven: false,
            time,
            pv: Vec::new(),
        };
        return Finished {
            info: Some(info),
            best: None,
            ponder: None,
            completed: None,
        };
    };
    let info = (!c.reported).then(|| SearchInfo {
        depth: c.depth,
        seldepth: c.seldepth,
        multipv: 1,
        score: Score::from_internal(c.shown),
        bound: c.bound,
        nodes,
        hashfull,
        tbhits,
        tb_proven: c.tb_proven,
        time,
        pv: c.pv.clone(),
    });
    Finished {
        info,
        best: c.pv.first().copied(),
        ponder: c.pv.get(1).copied(),
        completed: Some(c),
    }
}
