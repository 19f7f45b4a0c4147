//! One search thread's working state ([`Worker`]): its position, stack,
//! tables and counters, and the plumbing the node searches share: playing
//! and taking back moves, the stop conditions, a line as it stands.
//!
//! The searches themselves are `impl Worker` blocks of their own files:
//! `alphabeta.rs` (the main search), `qsearch.rs`, `pruning.rs` and
//! `root.rs`.

use std::time::{Duration, Instant};

use shakmaty::{Move, Position as _};

use super::correction::Correction;
use super::ordering::history::History;
use super::params::SearchConfig;
use super::report::{Counters, PvLine, Reporter, ScoreBound, SearchReport, Stats};
use super::root::RootMoves;
use super::score::{INFINITE, MAX_PLY, mated_in};
use super::stack::Stack;
use super::threads::{SharedState, ThreadState};
use crate::chess::Position;
use crate::eval::{Evaluator, Partial};

/// Nodes between two looks at the clock and the node counters.
const CHECK_INTERVAL: u64 = 1024;

/// One search thread.
pub(super) struct Worker<'a> {
    /// Thread index; 0 is the main thread, which keeps time and reports.
    pub id: usize,
    /// What all threads share.
    pub shared: &'a SharedState<'a>,
    /// This thread's history tables.
    pub history: &'a mut History,
    /// This thread's evaluation (its caches, the net's accumulators),
    /// told of every move.
    pub eval: Evaluator<'a>,
    /// This thread's correction history.
    pub correction: &'a mut Correction,
    /// The position being searched: the root and the moves played since.
    pub pos: Position,
    /// One frame per ply.
    pub stack: Stack,
    /// Where reports go (the main thread only).
    pub report: Option<Reporter<'a>>,
    /// Nodes searched by this thread.
    pub nodes: u64,
    /// Deepest ply reached in the current iteration.
    pub seldepth: usize,
    /// Ordering and TT counters.
    pub stats: Stats,
    /// The root moves and where the iteration stands with them.
    pub root: RootMoves,
    /// The current iteration was cut short.
    pub aborted: bool,
    /// When `go` arrived: the clock counts from here, the time spent
    /// pondering included (as Stockfish counts it), so that a `ponderhit`
    /// after a long ponder answers at once.
    pub start: Instant,
    /// Still pondering, as far as this thread has seen.
    pondering: bool,
    /// The main thread's time ran out while it was pondering: it searches
    /// on, and stops at `ponderhit`.
    pub stop_on_ponderhit: bool,
    /// The plies the root position had played (its game's moves).
    root_plies: usize,
}

impl<'a> Worker<'a> {
    /// A worker for the root position `root`, searching `root_moves`.
    pub fn new(
        id: usize,
        shared: &'a SharedState<'a>,
        state: &'a mut ThreadState,
        root: &Position,
        root_moves: &RootMoves,
        report: Option<Reporter<'a>>,
    ) -> Worker<'a> {
        let mut pos = root.clone();
        pos.reserve(MAX_PLY + 1);
        Worker {
            id,
            shared,
            history: &mut state.history,
            eval: Evaluator::new(&mut state.eval, shared.evaluation, root),
            correction: &mut state.correction,
            pos,
            stack: Stack::new(),
            report,
            nodes: 0,
            seldepth: 0,
            stats: Stats::default(),
            root: root_moves.clone(),
            aborted: false,
            start: shared.start,
            pondering: shared.signals.pondering(),
            stop_on_ponderhit: false,
            root_plies: root.plies(),
        }
    }

    /// Whether the search must stop (see `SharedState::stopped`).
    pub fn stopped(&self) -> bool {
        self.shared.stopped()
    }

    /// Nodes of all threads (this one exact, the others as last published).
    pub fn total_nodes(&self) -> u64 {
        self.shared.total_nodes(self.id, self.nodes)
    }

    /// Publishes this thread's node count for the others to read.
    pub fn publish_nodes(&self) {
        self.shared
            .publish_nodes(self.id, self.nodes, self.stats.tb_hits);
    }

    /// Whether the search is still pondering (no clock yet).
    pub fn pondering(&self) -> bool {
        self.pondering && self.shared.signals.pondering()
    }

    /// The soft time limit, if any, scaled by `scale` when the limits
    /// allow it (see `time.rs`).
    pub fn soft_limit(&self, scale: f64) -> Option<Duration> {
        let time = &self.shared.time;
        let soft = time.soft?;
        Some(if time.scalable {
            time.hard.map_or(soft, |hard| soft.mul_f64(scale).min(hard))
        } else {
            soft
        })
    }

    /// Which techniques are on.
    pub fn config(&self) -> SearchConfig {
        self.shared.config
    }

    /// MultiPV line `k` (0-based) as it stands, with `bound` (`None` for
    /// a line of a completed iteration).
    pub fn line(&self, k: usize, bound: Option<ScoreBound>) -> PvLine {
        let rm = &self.root.moves[k];
        let score = if rm.score == -INFINITE {
            rm.previous_score
        } else {
            rm.score
        };
        PvLine {
            depth: self.root.depth.max(1) as u32,
            seldepth: self.seldepth as u32,
            score: rm.shown_score(score),
            tb_proven: rm.tb_score.is_some(),
            bound,
            pv: rm.pv.clone(),
        }
    }

    /// Where the search stands now: nodes, hash use, tablebase hits, time.
    pub fn counters(&self) -> Counters {
        Counters {
            nodes: self.total_nodes(),
            hashfull: self.shared.tt.hashfull(),
            tbhits: self.shared.total_tb_hits(self.id, self.stats.tb_hits),
            time: self.start.elapsed(),
        }
    }

    /// Sends `report` if this thread reports (the main thread).
    pub fn send(&self, report: SearchReport) {
        if let Some(send) = self.report {
            send(report);
        }
    }

    /// Reports the root move about to be searched (after the first second).
    pub fn report_root_move(&self, depth: i32, m: Move, number: usize) {
        if self.report.is_some() && self.start.elapsed().as_millis() >= 1000 {
            self.send(SearchReport::CurrMove {
                depth: depth as u32,
                mv: m,
                number: number as u32,
            });
        }
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    /// Stop conditions, looked at every [`CHECK_INTERVAL`] nodes (the node
    /// limit at every node, so `go nodes` is exact with one thread).
    pub fn check_abort(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        // Depth 1 always completes: a move must be known.
        if self.root.depth <= 1 {
            return false;
        }
        if self.shared.stopped() {
            self.aborted = true;
            return true;
        }
        if !self.is_main() {
            return false;
        }
        if let Some(limit) = self.shared.node_limit
            && self.shared.total_nodes(self.id, self.nodes) >= limit
        {
            self.aborted = true;
        }
        if self.nodes.is_multiple_of(CHECK_INTERVAL) {
            self.publish_nodes();
            if self.pondering && !self.shared.signals.pondering() {
                // ponderhit: the clock has run since go. A search whose time
                // ran out while it pondered stops now; else the hard limit
                // below may already have passed.
                self.pondering = false;
                self.aborted |= self.stop_on_ponderhit;
            }
            if !self.pondering
                && let Some(hard) = self.shared.time.hard
                && self.start.elapsed() >= hard
            {
                self.aborted = true;
            }
        }
        if self.aborted {
            self.shared.stop();
        }
        self.aborted
    }

    /// Plays `m` at `ply` and starts loading the child's table bucket.
    #[inline]
    pub fn play(&mut self, m: Move, ply: usize) {
        let mover = self.pos.turn();
        if self.shared.config.tt {
            // The child probes its bucket first thing: start loading it
            // before the board is updated.
            let tt = &self.shared.tt;
            self.pos.play_hinting(m, |key| tt.prefetch(key));
        } else {
            self.pos.play(m);
        }
        self.eval.played(&self.pos, mover, m);
        let frame = self.stack.at_mut(ply);
        frame.played = Some(m);
        frame.moved = Some(m.role().of(mover));
    }

    /// Plays the null move at `ply`; false when it cannot be played.
    pub fn play_null(&mut self, ply: usize) -> bool {
        let played = self.pos.play_null();
        if played {
            self.eval.played_null(&self.pos);
            let frame = self.stack.at_mut(ply);
            frame.played = None;
            frame.moved = None;
        }
        played
    }

    /// The ply from the root of the current position.
    #[inline]
    pub fn ply(&self) -> usize {
        self.pos.plies() - self.root_plies
    }

    /// Takes back the last move or null move.
    #[inline]
    pub fn undo(&mut self) {
        self.pos.undo();
    }

    /// The static evaluation of the current position (with a limited
    /// strength's handicap, if any).
    #[inline]
    pub fn evaluate(&mut self) -> i32 {
        let eval = self.eval.evaluate(&self.pos);
        match self.shared.handicap {
            None => eval,
            Some(h) => h.apply(eval, self.pos.board(), self.pos.key()),
        }
    }

    /// The cheap part of the static evaluation of the current position, or
    /// the whole evaluation when that is as cheap (a known win, a net, or a
    /// limited strength's handicap in force). The evaluation cache is not
    /// asked for the cheap part: what the search does with it must not
    /// depend on what the cache happens to hold (it is kept between games
    /// because a hit never changes a search), so it is asked in
    /// [`Worker::evaluate_rest`].
    #[inline]
    pub fn evaluate_partial(&mut self) -> Result<i32, Partial> {
        if self.shared.handicap.is_some() {
            return Ok(self.evaluate());
        }
        self.eval.partial(&self.pos)
    }

    /// The whole static evaluation of the current position, from the cheap
    /// part that [`Worker::evaluate_partial`] gave: equal to
    /// [`Worker::evaluate`].
    #[inline]
    pub fn evaluate_rest(&mut self, partial: Partial) -> i32 {
        self.eval.complete(&self.pos, partial)
    }

    /// A leaf of the plain search (quiescence off): the static evaluation,
    /// with mate, stalemate and draws still recognised.
    pub fn count_leaf(&mut self, ply: usize) -> i32 {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.pos.is_draw() {
            return 0;
        }
        let board = self.pos.board();
        if board.legal_moves().is_empty() {
            return if board.is_check() { mated_in(ply) } else { 0 };
        }
        self.evaluate()
    }
}
