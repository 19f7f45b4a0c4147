//! The node prologue: what a node does before it searches its moves,
//! written once for the main search and the quiescence search alike.
//!
//! - [`Worker::visit`]: count the node, look at the stop conditions,
//!   recognise draws, stop at the ply limit;
//! - [`Worker::probe_tt`]: the transposition table probe, counted in the
//!   statistics (`bench` shows the hit rate);
//! - [`Worker::node_eval`]: the static evaluation (from the table's entry
//!   when it has one), corrected by the correction history.
//!
//! The main search's own steps around them are here too, in the order it
//! takes them: [`Worker::enter_node`] (check extension, horizon, mate
//! distance pruning), [`Worker::probe_node`] (table cutoff, tablebase probe)
//! and [`Worker::static_eval`] (the frame's evaluation, improving).

use shakmaty::{Move, Position as _};

use super::correction::CorrectionKeys;
use super::node::{NodeKind, Window};
use super::params::LAZY_MARGIN;
use super::score::{INFINITE, MAX_PLY, NO_EVAL, TB_WIN_BOUND};
use super::tablebase::probe::TbProbe;
use super::tt::{Bound, TtEntry};
use super::worker::Worker;

/// A node's static evaluation.
#[derive(Debug, Clone, Copy)]
pub(super) struct StaticEval {
    /// As the evaluation (or the table) gives it.
    pub raw: i32,
    /// Corrected by the correction history: what the node prunes with (and
    /// the quiescence search stands pat with).
    pub eval: i32,
    /// Better than two plies ago (the main search only).
    pub improving: bool,
    /// Where its corrections are kept (`None`: not corrected).
    pub keys: Option<CorrectionKeys>,
}

/// The static evaluation the table's `entry` keeps, if it has one (an
/// entry with a score whose node computed it).
fn table_eval(entry: Option<TtEntry>) -> Option<i32> {
    entry
        .filter(|e| e.bound != Bound::None && e.eval != NO_EVAL)
        .map(|e| e.eval)
}

/// `raw` corrected by `correction` (keys and centipawns, if any).
fn corrected_by(raw: i32, correction: Option<(CorrectionKeys, i32)>) -> StaticEval {
    StaticEval {
        raw,
        eval: correction.map_or(raw, |(_, c)| {
            (raw + c).clamp(-TB_WIN_BOUND + 1, TB_WIN_BOUND - 1)
        }),
        improving: false,
        keys: correction.map(|(keys, _)| keys),
    }
}

/// How a quiescence node stands pat ([`Worker::stand_pat`]).
#[derive(Debug, Clone, Copy)]
pub(super) enum StandPat {
    /// With its static evaluation.
    Eval(StaticEval),
    /// The lazy evaluation's cheap part is far above beta: the node fails
    /// high with this score (at most its static evaluation, as far as the
    /// margin holds).
    FailsHigh(i32),
    /// The cheap part is far below alpha: `eval` is a score the static
    /// evaluation stays under (as far as the margin holds), `raw` is
    /// [`NO_EVAL`] (no evaluation to store).
    BelowAlpha(StaticEval),
}

/// What the tables say about a node of the main search before its moves.
#[derive(Debug, Clone, Copy)]
pub(super) struct Probe {
    /// The position's key.
    pub key: u64,
    /// The transposition table's entry, if any.
    pub entry: Option<TtEntry>,
    /// A tablebase win: the node scores at least this (else `-INFINITE`).
    pub tb_floor: i32,
    /// A tablebase loss: the node scores at most this (else `INFINITE`).
    pub tb_ceiling: i32,
}

impl Worker<'_> {
    /// What every node does on entering, after the main search's check
    /// extension and horizon: count the node and its ply, look at the stop
    /// conditions, recognise draws, and evaluate at the ply limit.
    /// `Some(score)` ends the node with that score.
    pub(super) fn visit(&mut self, ply: usize) -> Option<i32> {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.check_abort() || self.pos.is_draw() {
            return Some(0);
        }
        (ply >= MAX_PLY - 1).then(|| self.evaluate())
    }

    /// Probes the table for `key` at `ply`, counting probes and hits (the
    /// root does not probe: it must search its moves).
    pub(super) fn probe_tt<N: NodeKind>(&mut self, key: u64, ply: usize) -> Option<TtEntry> {
        if N::ROOT || !self.shared.config.tt {
            return None;
        }
        self.stats.tt_probes += 1;
        // The evaluation usually follows the probe: start loading its cache
        // entries now, so the loads overlap.
        self.eval.prefetch(&self.pos, key);
        let entry = self.shared.tt.probe(key, ply);
        self.stats.tt_hits += u64::from(entry.is_some());
        entry
    }

    /// The static evaluation of the node (from the table's `entry` when it
    /// has one with a score), corrected by the correction history;
    /// `-INFINITE` in check. Not `improving` (see [`Worker::static_eval`]).
    pub(super) fn node_eval(&mut self, in_check: bool, entry: Option<TtEntry>) -> StaticEval {
        if in_check {
            return StaticEval {
                raw: -INFINITE,
                eval: -INFINITE,
                improving: false,
                keys: None,
            };
        }
        let raw = table_eval(entry).unwrap_or_else(|| self.evaluate());
        self.corrected(raw)
    }

    /// `raw`, the static evaluation of the current position, corrected by
    /// the correction history.
    fn corrected(&mut self, raw: i32) -> StaticEval {
        let correction = self.correction_here();
        corrected_by(raw, correction)
    }

    /// The correction history's keys and correction for the current
    /// position (`None`: evaluations are not corrected).
    fn correction_here(&self) -> Option<(CorrectionKeys, i32)> {
        self.shared.config.correction.then(|| {
            let moves = self.stack.continuations(self.ply());
            let keys = CorrectionKeys::new(self.pos.board().board(), self.pos.turn(), moves);
            (keys, self.correction.correction(&keys))
        })
    }

    /// The stand-pat evaluation of a quiescence node not in check, with a
    /// lazy evaluation: at a non-PV node whose evaluation is not at hand,
    /// the cheap part of the evaluation (material, tables, the pawn cache)
    /// is computed first, and when it is more than [`LAZY_MARGIN`] beyond
    /// the window the rest (everything that needs attack maps, about three
    /// quarters of the evaluation's time in a profile) is not computed: the
    /// node stands pat on the margin's side of the cheap part.
    pub(super) fn stand_pat<N: NodeKind>(
        &mut self,
        entry: Option<TtEntry>,
        window: Window,
    ) -> StandPat {
        let config = self.shared.config;
        if N::PV || table_eval(entry).is_some() || !(config.pruning && config.node_pruning) {
            return StandPat::Eval(self.node_eval(false, entry));
        }
        let partial = match self.evaluate_partial() {
            Ok(raw) => return StandPat::Eval(self.corrected(raw)),
            Err(partial) => partial,
        };
        // Lazy evaluation: the correction applies to the cheap part as it
        // would to the whole.
        let correction = self.correction_here();
        let cheap = corrected_by(partial.estimate(), correction);
        let margin = LAZY_MARGIN.get();
        if cheap.eval - margin >= window.beta {
            return StandPat::FailsHigh(cheap.eval - margin);
        }
        if cheap.eval + margin <= window.alpha {
            return StandPat::BelowAlpha(StaticEval {
                raw: NO_EVAL,
                eval: cheap.eval + margin,
                ..cheap
            });
        }
        let raw = self.evaluate_rest(partial);
        StandPat::Eval(corrected_by(raw, correction))
    }

    /// What every node of the main search but the root does first: the
    /// check extension, the horizon (quiescence search), the prologue of
    /// every node ([`Worker::visit`]) and mate-distance pruning.
    /// `Some(score)` ends the node with that score.
    pub(super) fn enter_node<N: NodeKind>(
        &mut self,
        depth: &mut i32,
        ply: usize,
        window: &mut Window,
        in_check: bool,
    ) -> Option<i32> {
        let config = self.shared.config;
        if N::ROOT {
            self.nodes += 1;
            return None;
        }
        // Check extension: never stand still in check.
        if in_check && config.extensions && ply < MAX_PLY / 2 {
            *depth += 1;
        }
        if *depth <= 0 {
            return Some(if config.qsearch {
                self.qsearch::<N>(ply, *window, true)
            } else {
                self.count_leaf(ply)
            });
        }
        if let Some(score) = self.visit(ply) {
            return Some(score);
        }
        self.mate_distance_pruning(ply, window)
            .then_some(window.alpha)
    }

    /// The tables' say on a node of the main search at `ply` and `depth`,
    /// with `excluded` the move a singular search leaves out: the
    /// transposition table cutoff (not while a move is excluded: the entry
    /// is about the whole node), then the tablebase probe (after a capture
    /// or pawn move, few enough pieces): a cutoff, or at a PV node a bound
    /// on the node's score, a floor raising `window`'s alpha. `Err(score)`
    /// ends the node with `score`.
    pub(super) fn probe_node<N: NodeKind>(
        &mut self,
        ply: usize,
        depth: i32,
        window: &mut Window,
        excluded: Option<Move>,
        in_check: bool,
    ) -> Result<Probe, i32> {
        let key = self.pos.key();
        let entry = self.probe_tt::<N>(key, ply);
        if !N::PV
            && excluded.is_none()
            && let Some(e) = entry
            && e.depth >= depth
            && e.cuts(window.alpha, window.beta)
        {
            return Err(e.score);
        }
        let mut probe = Probe {
            key,
            entry,
            tb_floor: -INFINITE,
            tb_ceiling: INFINITE,
        };
        if !N::ROOT && excluded.is_none() && self.shared.tb.is_some() {
            match self.probe_tablebase::<N>(ply, depth, window, in_check) {
                TbProbe::Cut(score) => return Err(score),
                TbProbe::AtLeast(score) => {
                    probe.tb_floor = score;
                    window.alpha = window.alpha.max(score);
                }
                TbProbe::AtMost(score) => probe.tb_ceiling = score,
                TbProbe::Nothing => {}
            }
        }
        Ok(probe)
    }

    /// The static evaluation of the main search's node at `ply` (see
    /// [`Worker::node_eval`]), stored in its frame, and whether it improved
    /// on two plies ago.
    pub(super) fn static_eval(
        &mut self,
        ply: usize,
        in_check: bool,
        entry: Option<TtEntry>,
    ) -> StaticEval {
        let mut se = self.node_eval(in_check, entry);
        self.stack.at_mut(ply).static_eval = se.eval;
        // Improving: better than the last evaluation of the same side, two
        // plies back (four when that node was in check); true when there is
        // none to compare with.
        let earlier = |n| {
            self.stack
                .back(ply, n)
                .map(|f| f.static_eval)
                .filter(|&e| e != -INFINITE)
        };
        se.improving = !in_check
            && earlier(2)
                .or_else(|| earlier(4))
                .is_none_or(|e| se.eval > e);
        se
    }
}
