//! What the search tells its caller: progress reports while it runs
//! ([`SearchReport`]) and the result when it is over ([`SearchOutcome`],
//! with every line of the last completed iteration as [`PvLine`]s). The
//! search never prints and never decides what the GUI sees last: the
//! engine chooses and announces the move, the UCI layer formats.

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

/// One report of progress: a line as the search found it, which line it
/// is, and where the search stood.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchInfo {
    /// Which principal variation (1-based).
    pub multipv: u32,
    /// The line.
    pub line: PvLine,
    /// Nodes, hash use, tablebase hits and time when it was found.
    pub counters: Counters,
}

/// What the searcher tells its caller while it runs: progress only. The
/// result comes back as the [`SearchOutcome`] of the search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SearchReport {
    /// A principal variation at some depth (a completed iteration's line,
    /// or after the first second an aspiration window's bound).
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
}

/// One principal variation as the search found it: what a caller needs to
/// choose a move and to show the line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PvLine {
    /// The iteration's depth.
    pub depth: u32,
    /// The deepest ply the iteration reached.
    pub seldepth: u32,
    /// The score to show, in internal units (centipawns, mates as `±(MATE -
    /// plies)`): the search's, or the tables' verdict on the first move
    /// when they ranked the root.
    pub score: i32,
    /// The score is the tables' verdict on the line's first move (the root
    /// is in the tables, see `RootMove::shown_score`), or a mate the search
    /// found there: a proven win, draw or loss, not an estimate.
    pub tb_proven: bool,
    /// `Some` for a line of an iteration cut short, or of an aspiration
    /// window that failed.
    pub bound: Option<ScoreBound>,
    /// The line, its first move the move to play.
    pub pv: Vec<Move>,
}

/// Where a search stands: the numbers an `info` line shows beside a line.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counters {
    /// Nodes searched so far (all threads).
    pub nodes: u64,
    /// Permille of the hash table in use.
    pub hashfull: u32,
    /// Tablebase probes that answered, all threads (`None`: the search has
    /// no tables).
    pub tbhits: Option<u64>,
    /// Time since the search started.
    pub time: Duration,
}

impl SearchInfo {
    /// The report of `line` as MultiPV line `multipv` (1-based), with the
    /// search's `counters`.
    pub fn new(line: &PvLine, multipv: u32, counters: &Counters) -> SearchInfo {
        SearchInfo {
            multipv,
            line: line.clone(),
            counters: *counters,
        }
    }

    /// The line's score as a report shows it.
    pub fn score(&self) -> Score {
        Score::from_internal(self.line.score)
    }
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

/// The result of a search: the only channel of its result (the reports
/// are progress). What to play and show is the caller's to decide.
#[derive(Debug, Clone, Default)]
pub struct SearchOutcome {
    /// The line the move comes from: the best line of the last completed
    /// iteration, or a better one (a move proven better in an iteration
    /// cut short, a helper thread's deeper line); a teaching search stopped
    /// before its first depth gives a `depth 0` line of one legal move.
    /// `None` when the root has no legal move.
    pub line: Option<PvLine>,
    /// Every MultiPV line of the last completed iteration of the main
    /// thread, best first.
    pub lines: Vec<PvLine>,
    /// Where the search stood when [`SearchOutcome::lines`] were found (the
    /// numbers their `info` lines showed).
    pub lines_counters: Counters,
    /// Where the search stood at its end (nodes of all threads).
    pub counters: Counters,
    /// `(depth, nodes so far)` after each completed iteration of the main
    /// thread: the effective branching factor is the ratio of successive
    /// node counts.
    pub iterations: Vec<(u32, u64)>,
    /// Ordering and TT counters, all threads.
    pub stats: Stats,
    /// Problems met on the way that the GUI should hear of (a tablebase
    /// file found broken, now treated as missing), each once.
    pub problems: Vec<String>,
}

impl SearchOutcome {
    /// The move to play (the first of [`SearchOutcome::line`]); `None`
    /// when there is no legal move.
    pub fn best(&self) -> Option<Move> {
        self.line.as_ref().and_then(|l| l.pv.first().copied())
    }

    /// The score of the line the move comes from (internal units:
    /// centipawns, or `±(MATE - plies)`); `None` without a line.
    pub fn score(&self) -> Option<i32> {
        self.line.as_ref().map(|l| l.score)
    }

    /// The depth of the line the move comes from (0 without one).
    pub fn depth(&self) -> u32 {
        self.line.as_ref().map_or(0, |l| l.depth)
    }
}
