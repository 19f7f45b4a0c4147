//! The main search: negamax alpha-beta with principal variation search,
//! one function for every node kind (see `node.rs`), the re-search ladder
//! of a move ([`Worker::search_move`]) and the one best-score update that
//! the main search, the quiescence search and the root share ([`Best`]).
//!
//! The selective techniques it calls by name (reverse futility, null-move
//! pruning, futility, late move and SEE pruning, late move reductions) are
//! in `pruning.rs`; the quiescence search at the horizon in `qsearch.rs`.

use arrayvec::ArrayVec;
use shakmaty::{Move, Position as _};

use super::node::{NodeKind, NonPv, Pv, Window};
use super::ordering::movepicker::MovePicker;
use super::params::IIR_MIN_DEPTH;
use super::pruning::{MoveFacts, NodeFacts};
use super::score::{INFINITE, MATE_BOUND, MAX_PLY, mated_in};
use super::tt::{Bound, TtEntry, TtMove};
use super::worker::Worker;
use crate::chess::checks::CheckInfo;

/// The root's static evaluation: the root prunes and reduces nothing, so it
/// computes none, and its frame keeps this value (the `improving` test two
/// plies down compares with it).
const ROOT_STATIC_EVAL: i32 = 0;

/// What a move's score did to the node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Update {
    /// Not better than the best so far.
    Worse,
    /// A new best score, still at or below alpha.
    Best,
    /// A new best score above alpha: a new principal variation.
    RaisedAlpha,
    /// A score at or above beta: the node fails high.
    Cutoff,
}

/// The best score and move of a node so far.
#[derive(Debug, Clone, Copy)]
pub(super) struct Best {
    /// The best score (the stand-pat score, or `-INFINITE`, to begin with).
    pub score: i32,
    /// The move that raised alpha last, if any.
    pub mv: Option<Move>,
}

impl Best {
    /// Nothing found yet: `score` to beat.
    pub fn new(score: i32) -> Best {
        Best { score, mv: None }
    }

    /// Takes in `score` for move `m`, raising alpha when it beats it.
    #[inline]
    pub fn update(&mut self, m: Move, score: i32, window: &mut Window) -> Update {
        if score <= self.score {
            return Update::Worse;
        }
        self.score = score;
        if score <= window.alpha {
            return Update::Best;
        }
        self.mv = Some(m);
        window.alpha = score;
        if score >= window.beta {
            Update::Cutoff
        } else {
            Update::RaisedAlpha
        }
    }
}

impl Worker<'_> {
    /// The main search of the current position at `ply` from the root, to
    /// `depth` plies, in `window`. `null_allowed`: a null move may be tried
    /// (not right after one, nor in its verification).
    pub(super) fn negamax<N: NodeKind>(
        &mut self,
        mut depth: i32,
        ply: usize,
        mut window: Window,
        null_allowed: bool,
    ) -> i32 {
        debug_assert!(N::PV || window.is_zero(), "non-PV nodes have a zero window");
        self.stack.at_mut(ply).pv.clear();
        let config = self.shared.config;
        let in_check = self.pos.board().is_check();
        if !N::ROOT {
            // Check extension: never stand still in check.
            if in_check && config.extensions && ply < MAX_PLY / 2 {
                depth += 1;
            }
            if depth <= 0 {
                return if config.qsearch {
                    self.qsearch::<N>(ply, window)
                } else {
                    self.count_leaf(ply)
                };
            }
        }
        self.nodes += 1;
        if !N::ROOT {
            self.seldepth = self.seldepth.max(ply);
            if self.check_abort() || self.pos.is_draw() {
                return 0;
            }
            if ply >= MAX_PLY - 1 {
                return self.evaluate();
            }
            if self.mate_distance_pruning(ply, &mut window) {
                return window.alpha;
            }
        }

        // Transposition table cutoff.
        let key = self.pos.key();
        let entry = self.probe_tt::<N>(key, ply);
        if !N::PV
            && let Some(e) = entry
            && e.depth >= depth
            && e.cuts(window.alpha, window.beta)
        {
            return e.score;
        }

        let (eval, improving) = self.static_eval::<N>(ply, in_check, entry);
        let node = NodeFacts::new(depth, eval, improving);

        if !N::PV && !in_check {
            if self.reverse_futility(&node, window.beta) {
                return eval;
            }
            if null_allowed && let Some(score) = self.null_move_pruning(&node, ply, window.beta) {
                return score;
            }
        }

        // The TT move, checked for legality only now: the cutoffs and
        // prunings above often make it unnecessary.
        let tt_move = entry
            .and_then(|e| e.mv)
            .and_then(|m| m.to_move(self.pos.board()));

        // Internal iterative reduction: without a TT move this node is
        // probably not worth the full depth.
        if !N::ROOT && config.reductions && tt_move.is_none() && depth >= IIR_MIN_DEPTH {
            depth -= 1;
        }
        let node = NodeFacts::new(depth, eval, improving);

        let previous = self.stack.back(ply, 1).and_then(|f| f.played);
        let mut picker = self.move_picker::<N>(ply, tt_move, previous);
        let checks = CheckInfo::new(self.pos.board());
        let original_alpha = window.alpha;
        let mut best = Best::new(-INFINITE);
        let mut searched = 0usize;
        let mut quiets_tried: ArrayVec<Move, 64> = ArrayVec::new();

        while let Some((m, kind)) = picker.next(self.pos.board(), self.history, &checks) {
            let mv = MoveFacts::new(self.pos.board(), &checks, m, kind);
            if !N::ROOT
                && config.pruning
                && best.score > -MATE_BOUND
                && !in_check
                && self.prunes(&node, &mv, window.alpha, quiets_tried.len(), &mut picker)
            {
                continue;
            }
            if N::ROOT {
                self.report_root_move(depth, m, self.root.pv_index + searched + 1);
            }
            let reduction = if N::ROOT || searched == 0 {
                0
            } else {
                self.late_move_reduction::<N>(&node, &mv, searched + 1)
            };
            self.play(m, ply);
            searched += 1;
            let score = self.search_move::<N>(ply, depth - 1, reduction, window, searched == 1);
            self.undo();
            if self.aborted {
                return 0;
            }
            if N::ROOT {
                let line = &self.stack.at(1).pv;
                self.root
                    .update(m, score, searched == 1, window.alpha, line);
            }
            match best.update(m, score, &mut window) {
                Update::RaisedAlpha if N::PV && !N::ROOT => self.stack.extend_pv(ply, m),
                Update::Cutoff => {
                    if N::PV && !N::ROOT {
                        self.stack.extend_pv(ply, m);
                    }
                    if !N::ROOT {
                        self.record_cutoff(ply, depth, &mv, searched == 1, &quiets_tried, previous);
                    }
                    break;
                }
                _ => {}
            }
            if mv.quiet {
                quiets_tried.try_push(m).ok();
            }
        }

        if searched == 0 {
            // No legal move (pruning never removes the first one).
            return if in_check { mated_in(ply) } else { 0 };
        }
        if config.tt && !N::ROOT {
            let entry = TtEntry {
                mv: best.mv.map(TtMove::from_move),
                score: best.score,
                eval,
                depth,
                bound: Bound::of(best.score, original_alpha, window.beta),
            };
            self.shared.tt.store(key, ply, entry);
        }
        best.score
    }

    /// Probes the table for `key` at `ply`, counting probes and hits (the
    /// root does not probe: it must search its moves).
    fn probe_tt<N: NodeKind>(&mut self, key: u64, ply: usize) -> Option<TtEntry> {
        if N::ROOT || !self.shared.config.tt {
            return None;
        }
        self.stats.tt_probes += 1;
        let entry = self.shared.tt.probe(key, ply);
        self.stats.tt_hits += u64::from(entry.is_some());
        entry
    }

    /// The static evaluation of the node at `ply` (from the table's entry
    /// when it has one), stored in its frame, and whether it improved on two
    /// plies ago.
    fn static_eval<N: NodeKind>(
        &mut self,
        ply: usize,
        in_check: bool,
        entry: Option<TtEntry>,
    ) -> (i32, bool) {
        let eval = if N::ROOT {
            ROOT_STATIC_EVAL
        } else if in_check {
            -INFINITE
        } else {
            match entry.filter(|e| e.bound != Bound::None) {
                Some(e) => e.eval,
                None => self.evaluate(),
            }
        };
        self.stack.at_mut(ply).static_eval = eval;
        let improving = !in_check
            && self
                .stack
                .back(ply, 2)
                .is_some_and(|f| eval > f.static_eval);
        (eval, improving)
    }

    /// The move picker of the node at `ply`: the root's moves in their
    /// order, or the staged picker with the TT move, the killers and the
    /// countermove to `previous`.
    fn move_picker<N: NodeKind>(
        &self,
        ply: usize,
        tt_move: Option<Move>,
        previous: Option<Move>,
    ) -> MovePicker {
        if N::ROOT {
            return MovePicker::listed(self.root.to_search());
        }
        let config = self.shared.config;
        let killers = self.stack.at(ply).killers;
        let countermove = self.history.countermove(previous);
        let mut picker = MovePicker::new(tt_move, killers, countermove, config.ordering);
        picker.limit_to(config.ordering_step);
        picker
    }

    /// A beta cutoff by `mv` at `ply`: count it, and teach the history
    /// tables and the killers a quiet move (the quiet moves `tried` before
    /// it are punished).
    fn record_cutoff(
        &mut self,
        ply: usize,
        depth: i32,
        mv: &MoveFacts,
        first: bool,
        tried: &[Move],
        previous: Option<Move>,
    ) {
        self.stats.cutoffs += 1;
        self.stats.first_move_cutoffs += u64::from(first);
        if mv.quiet && self.shared.config.ordering {
            let side = self.pos.turn();
            self.history
                .update_quiet_cutoff(side, depth, mv.m, tried, previous);
            self.stack.at_mut(ply).add_killer(mv.m);
        }
    }

    /// Searches the move just played (the child at `ply + 1`) to
    /// `new_depth` less `reduction`, in the node's `window`; `first`: it is
    /// the node's first move. The re-search ladder:
    ///
    /// 1. the first move: the full window, full depth;
    /// 2. principal variation search: a zero window at alpha, reduced; if
    ///    it beats alpha, again unreduced; at a PV node, if it still lands
    ///    inside the window, again with the full window;
    /// 3. without PVS: the full window, reduced, then unreduced if it beats
    ///    alpha.
    fn search_move<N: NodeKind>(
        &mut self,
        ply: usize,
        new_depth: i32,
        reduction: i32,
        window: Window,
        first: bool,
    ) -> i32 {
        let child = ply + 1;
        if first {
            return -self.negamax::<N::Next>(new_depth, child, window.child(), true);
        }
        if !self.shared.config.pvs {
            let mut score =
                -self.negamax::<N::Next>(new_depth - reduction, child, window.child(), true);
            if score > window.alpha && reduction > 0 && !self.aborted {
                score = -self.negamax::<N::Next>(new_depth, child, window.child(), true);
            }
            return score;
        }
        let zero = window.zero_child();
        let mut score = -self.negamax::<NonPv>(new_depth - reduction, child, zero, true);
        if score > window.alpha && reduction > 0 && !self.aborted {
            score = -self.negamax::<NonPv>(new_depth, child, zero, true);
        }
        if N::PV && score > window.alpha && score < window.beta && !self.aborted {
            score = -self.negamax::<Pv>(new_depth, child, window.child(), true);
        }
        score
    }
}
