//! What the search tells its caller: progress reports while it runs
//! ([`SearchReport`]) and the result when it is over ([`SearchOutcome`]).
//! The search never prints; the UCI layer formats these.

use std::time::Duration;

use shakmaty::Move;

use super::score::Score;

/// Receives reports on a search thread.
pub type Reporter<'a> = &'a (dyn Fn(SearchReport) + Sync);

/// Which side of the true score a reported score is on, when the line comes
/// from an aspiration window that failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScoreBound {
    /// The true score is at least this (fail high).
    Lower,
    /// The true score is at most this (fail low).
    Upper,
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
    /// `Some` for an aspiration fail-high or fail-low.
    pub bound: Option<ScoreBound>,
    /// Nodes searched so far (all threads).
    pub nodes: u64,
    /// Permille of the hash table in use.
    pub hashfull: u32,
    /// Tablebase probes that answered, all threads (`None`: the search
    /// has no tables).
    pub tbhits: Option<u64>,
    /// The score is the tables' verdict on the line's first move (the root
    /// is in the tables, see `RootMove::shown_score`), or a mate the search
    /// found there: a proven win, draw or loss, not an estimate.
    pub tb_proven: bool,
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
        /// The line the move comes from, when it was not reported already
        /// (`None` when it is the last [`SearchReport::Iteration`] sent); depth
        /// 0 when the root has no legal move.
        info: Option<SearchInfo>,
        /// The move to play; `None` when there is no legal move.
        best: Option<Move>,
        /// The expected reply, when the PV has one.
        ponder: Option<Move>,
    },
    /// A problem met on the way that the GUI should hear of (a tablebase
    /// file found broken, now treated as missing); the search goes on.
    Problem(String),
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

/// Counters for `bench` and the closing notes: how good the ordering is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Transposition-table probes.
    pub tt_probes: u64,
    /// Probes that found the position.
    pub tt_hits: u64,
    /// Beta cutoffs in the main search.
    pub cutoffs: u64,
    /// Of those, cutoffs by the first move searched.
    pub first_move_cutoffs: u64,
    /// Tablebase probes in the search that answered.
    pub tb_hits: u64,
}

impl Stats {
    /// Adds another thread's or search's counters.
    pub fn add(&mut self, other: &Stats) {
        self.tt_probes += other.tt_probes;
        self.tt_hits += other.tt_hits;
        self.cutoffs += other.cutoffs;
        self.first_move_cutoffs += other.first_move_cutoffs;
        self.tb_hits += other.tb_hits;
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
