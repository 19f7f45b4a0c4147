//! The main search: negamax alpha-beta with principal variation search,
//! one function for every node kind (see `node.rs`), the re-search ladder
//! of a move ([`Worker::search_move`]) and the one best-score update that
//! the main search, the quiescence search and the root share ([`Best`]).
//!
//! What a node does before its moves (the check extension, the horizon, the
//! table and tablebase probes, the corrected static evaluation) is in
//! `prologue.rs`, shared with the quiescence search. The selective
//! techniques it calls by name (reverse futility, null-move pruning,
//! futility, late move and SEE pruning, late move reductions) are in
//! `pruning.rs`; the quiescence search at the horizon in `qsearch.rs`.

use arrayvec::ArrayVec;
use shakmaty::{Move, Position as _};

use super::node::{NodeFlags, NodeKind, NonPv, Pv, Window};
use super::ordering::history::{Continuations, Tried};
use super::ordering::movepicker::{MoveKind, MovePicker};
use super::params::IIR_MIN_DEPTH;
use super::prologue::StaticEval;
use super::pruning::{MoveFacts, NodeFacts, Singular};
use super::score::{TB_WIN_BOUND, is_decisive, mated_in};
use super::tt::{Bound, TtEntry, TtMove};
use super::worker::Worker;
use crate::chess::checks::CheckInfo;

/// How to search one move (see `Worker::search_move`).
#[derive(Debug, Clone, Copy)]
struct Ladder {
    /// The depth of the child, extensions included.
    new_depth: i32,
    /// Late move reduction of the first, zero-window try.
    reduction: i32,
    /// The node's first move.
    first: bool,
    /// The node is an expected cut node.
    cut: bool,
}

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
    /// `depth` plies, in `window`, entered as `flags` say.
    pub(super) fn negamax<N: NodeKind>(
        &mut self,
        mut depth: i32,
        ply: usize,
        mut window: Window,
        flags: NodeFlags,
    ) -> i32 {
        debug_assert!(N::PV || window.is_zero(), "non-PV nodes have a zero window");
        self.stack.at_mut(ply).pv.clear();
        let config = self.shared.config;
        let in_check = self.pos.board().is_check();
        if let Some(score) = self.enter_node::<N>(&mut depth, ply, &mut window, in_check) {
            return score;
        }

        // Transposition table cutoff and tablebase probe.
        let excluded = self.stack.at(ply).excluded;
        let probe = match self.probe_node::<N>(ply, depth, &mut window, excluded, in_check) {
            Ok(probe) => probe,
            Err(score) => return score,
        };
        let entry = probe.entry;
        let se = self.static_eval(ply, in_check, entry);
        // TT-PV: a PV node, or one the table remembers as one.
        let tt_pv = N::PV || entry.is_some_and(|e| e.pv);
        let mut node = self.node_facts(ply, depth, &se, tt_pv, flags);
        if !N::PV
            && !in_check
            && let Some(score) = self.prune_node(&node, window.beta, entry)
        {
            return score;
        }

        // The TT move, checked for legality only now: the cutoffs and
        // prunings above often make it unnecessary.
        let tt_move = entry.and_then(|e| e.mv?.to_move(self.pos.board(), in_check));

        // Internal iterative reduction: without a TT move this node is
        // probably not worth the full depth.
        if !N::ROOT && config.reductions && tt_move.is_none() && depth >= IIR_MIN_DEPTH.get() {
            node.reduce();
        }
        let depth = node.depth;
        let conts = self.stack.continuations(ply);
        let mut picker = self.move_picker::<N>(ply, tt_move, node.previous, conts);
        let checks = CheckInfo::new(self.pos.board());
        let original_alpha = window.alpha;
        let mut best = Best::new(probe.tb_floor);
        let mut searched = 0usize;
        let mut quiets_tried: ArrayVec<Move, 64> = ArrayVec::new();
        let mut captures_tried: ArrayVec<Move, 32> = ArrayVec::new();

        while let Some((m, kind)) = picker.next(self.pos.board(), self.history, &checks) {
            if Some(m) == excluded {
                continue;
            }
            let mv = MoveFacts {
                number: searched + 1,
                quiets_before: quiets_tried.len(),
                alpha: window.alpha,
                ..self.move_facts(m, kind, &conts, &checks)
            };
            if !N::ROOT
                && config.pruning
                && best.score > -TB_WIN_BOUND
                && !in_check
                && self.prunes(&node, &mv, &mut picker)
            {
                continue;
            }
            if N::ROOT {
                self.report_root_move(depth, m, self.root.pv_index + mv.number);
            }
            let reduction = if N::ROOT || mv.number == 1 {
                0
            } else {
                self.late_move_reduction::<N>(&node, &mv)
            };
            let extension = match self.extension::<N>(&node, m, tt_move, window.beta, entry) {
                Ok(extension) => extension,
                Err(score) => return score,
            };
            let doubles = self.stack.at(ply).double_extensions + u8::from(extension >= 2);
            self.stack.at_mut(ply + 1).double_extensions = doubles;
            let nodes_before = self.nodes;
            self.play(m, ply);
            searched += 1;
            let ladder = Ladder {
                new_depth: depth - 1 + extension,
                reduction,
                first: mv.number == 1,
                cut: flags.cut,
            };
            let score = if N::ROOT {
                self.search_root_move::<N>(m, window, ladder)
            } else {
                self.search_move::<N>(ply, window, ladder)
            };
            self.undo();
            if self.aborted {
                return 0;
            }
            if N::ROOT {
                self.root_move_searched(m, score, mv.number == 1, window.alpha, nodes_before);
            }
            let update = best.update(m, score, &mut window);
            if N::PV && !N::ROOT && matches!(update, Update::RaisedAlpha | Update::Cutoff) {
                self.stack.extend_pv(ply, m);
            }
            if update == Update::Cutoff {
                if !N::ROOT {
                    let tried = Tried {
                        quiets: &quiets_tried,
                        captures: &captures_tried,
                        conts: &conts,
                    };
                    self.record_cutoff(&node, &mv, &tried);
                }
                break;
            }
            if mv.quiet {
                quiets_tried.try_push(m).ok();
            } else {
                captures_tried.try_push(m).ok();
            }
        }

        if searched == 0 {
            return no_move_searched(ply, excluded, in_check, window.alpha);
        }
        // A loss by the tables caps what the moves found; the line below
        // does not show that loss then, so the PV ends at this node.
        if best.score > probe.tb_ceiling {
            best.score = probe.tb_ceiling;
            self.stack.at_mut(ply).pv.clear();
        }
        if !N::ROOT && excluded.is_none() {
            let bound = Bound::of(best.score, original_alpha, window.beta);
            self.remember_node(probe.key, ply, depth, &se, &best, (bound, tt_pv));
        }
        best.score
    }

    /// Root move `m` was searched to `score` (the `first` one, against the
    /// root's `alpha`, from `nodes_before` nodes on): the root moves keep
    /// its score, line and nodes.
    fn root_move_searched(
        &mut self,
        m: Move,
        score: i32,
        first: bool,
        alpha: i32,
        nodes_before: u64,
    ) {
        let (line, nodes) = (&self.stack.at(1).pv, self.nodes - nodes_before);
        self.root.update(m, score, first, alpha, line, nodes);
        self.trim_root_line(m);
    }

    /// The extension of move `m` of `node`, searched with `beta`: for the
    /// node's `tt_move`, the singular extension test from its table `entry`
    /// (see pruning.rs); none for the other moves. `Err(score)`: the node
    /// ends with `score` (multi-cut, or the search was stopped).
    fn extension<N: NodeKind>(
        &mut self,
        node: &NodeFacts,
        m: Move,
        tt_move: Option<Move>,
        beta: i32,
        entry: Option<TtEntry>,
    ) -> Result<i32, i32> {
        if tt_move != Some(m) {
            return Ok(0);
        }
        let Some(e) = entry.filter(|e| !N::ROOT && self.singular_candidate(node, e)) else {
            return Ok(0);
        };
        match self.singular_extension::<N>(node, beta, m, &e) {
            _ if self.aborted => Err(0),
            Singular::Extend(extension) => Ok(extension),
            Singular::MultiCut(score) => Err(score),
        }
    }

    /// What a node leaves behind: its result in the table (with the raw
    /// static evaluation) and what it teaches the correction history.
    fn remember_node(
        &mut self,
        key: u64,
        ply: usize,
        depth: i32,
        se: &StaticEval,
        best: &Best,
        (bound, pv): (Bound, bool),
    ) {
        self.learn_correction(se, depth, best, bound);
        if self.shared.config.tt {
            let entry = TtEntry {
                mv: best.mv.map(TtMove::from_move),
                score: best.score,
                eval: se.raw,
                depth,
                bound,
                pv,
            };
            self.shared.tt.store(key, ply, entry);
        }
    }

    /// Correction history: learns from the node's result `best` (with
    /// `bound`) how far its static evaluation `se` was off, when that says
    /// something about the evaluation (see `correction.rs`).
    fn learn_correction(&mut self, se: &StaticEval, depth: i32, best: &Best, bound: Bound) {
        let Some(keys) = se.keys else {
            return;
        };
        let tactical = best.mv.is_some_and(|m| m.is_capture() || m.is_promotion());
        let wrong_side = match bound {
            Bound::Lower => best.score <= se.eval,
            Bound::Upper => best.score >= se.eval,
            _ => false,
        };
        if tactical || wrong_side || is_decisive(best.score) {
            return;
        }
        self.correction.update(&keys, depth, best.score, se.eval);
    }

    /// The move picker of the node at `ply`: the root's moves in their
    /// order, or the staged picker with the TT move, the killers and the
    /// countermove to `previous`.
    fn move_picker<N: NodeKind>(
        &self,
        ply: usize,
        tt_move: Option<Move>,
        previous: Option<Move>,
        conts: Continuations,
    ) -> MovePicker {
        if N::ROOT {
            return MovePicker::listed(self.root.to_search());
        }
        let config = self.shared.config;
        let killers = self.stack.at(ply).killers;
        let countermove = self.history.countermove(previous);
        let mut picker = MovePicker::new(tt_move, killers, countermove, config.ordering);
        picker.limit_to(config.ordering_step);
        picker.set_continuations(conts);
        picker
    }

    /// What pruning and reductions need to know about `m`, handed out by
    /// the picker as `kind` at a node after the moves `conts` whose checks
    /// are `checks`; the caller fills in where its loop stands.
    #[inline]
    fn move_facts<'a>(
        &self,
        m: Move,
        kind: MoveKind,
        conts: &Continuations,
        checks: &'a CheckInfo,
    ) -> MoveFacts<'a> {
        let board = self.pos.board();
        let quiet = !m.is_capture() && m.promotion().is_none();
        let history = if quiet && self.shared.config.ordering {
            self.history.quiet_score(board.turn(), m, conts)
        } else {
            0
        };
        MoveFacts {
            m,
            kind,
            quiet,
            history,
            number: 1,
            quiets_before: 0,
            alpha: 0,
            checks,
        }
    }

    /// A beta cutoff by `mv` at `node`: count it, and teach the history
    /// tables (and, for a quiet move, the killers) what cut off and what did
    /// not (the moves `tried` before it).
    fn record_cutoff(&mut self, node: &NodeFacts, mv: &MoveFacts<'_>, tried: &Tried<'_>) {
        self.stats.cutoffs += 1;
        self.stats.first_move_cutoffs += u64::from(mv.number == 1);
        if !self.shared.config.ordering {
            return;
        }
        let side = self.pos.turn();
        if mv.quiet {
            self.history
                .update_quiet_cutoff(side, node.depth, mv.m, tried, node.previous);
            self.stack.at_mut(node.ply).add_killer(mv.m);
        } else {
            self.history
                .update_capture_cutoff(side, node.depth, mv.m, tried);
        }
    }

    /// Searches root move `m`, just played, in the root's `window`. A move
    /// the tables call a win scores at least its floor (see `root.rs`):
    /// the larger of the floor and what the search finds, so the search
    /// looks only above the floor, for a mate, and its line is kept only
    /// when it found one (else the move's line is the move alone).
    fn search_root_move<N: NodeKind>(&mut self, m: Move, window: Window, ladder: Ladder) -> i32 {
        let Some(floor) = self.root.tb_floor(m) else {
            return self.search_move::<N>(0, window, ladder);
        };
        let score = if floor < window.beta {
            let above = Window::new(window.alpha.max(floor), window.beta);
            self.search_move::<N>(0, above, ladder).max(floor)
        } else {
            floor
        };
        if score == floor {
            self.stack.at_mut(1).pv.clear();
        }
        score
    }

    /// Searches the move just played (the child at `ply + 1`) in the
    /// node's `window`, as `ladder` says. The re-search ladder:
    ///
    /// 1. the first move: the full window, full depth;
    /// 2. principal variation search: a zero window at alpha, reduced; if
    ///    it beats alpha, again unreduced; at a PV node, if it still lands
    ///    inside the window, again with the full window;
    /// 3. without PVS: the full window, reduced, then unreduced if it beats
    ///    alpha.
    ///
    /// A reduced child is expected to fail high (a cut node); the other
    /// zero-window children of a cut node are expected all nodes, and the
    /// other way round.
    fn search_move<N: NodeKind>(&mut self, ply: usize, window: Window, ladder: Ladder) -> i32 {
        let Ladder {
            new_depth,
            reduction,
            first,
            cut,
        } = ladder;
        let child = ply + 1;
        let sibling = NodeFlags::child(!N::PV && !cut);
        if first {
            return -self.negamax::<N::Next>(new_depth, child, window.child(), sibling);
        }
        if !self.shared.config.pvs {
            let mut score =
                -self.negamax::<N::Next>(new_depth - reduction, child, window.child(), sibling);
            if score > window.alpha && reduction > 0 && !self.aborted {
                score = -self.negamax::<N::Next>(new_depth, child, window.child(), sibling);
            }
            return score;
        }
        let zero = window.zero_child();
        let mut score = if reduction > 0 {
            -self.negamax::<NonPv>(new_depth - reduction, child, zero, NodeFlags::child(true))
        } else {
            -self.negamax::<NonPv>(new_depth, child, zero, NodeFlags::child(!cut))
        };
        if score > window.alpha && reduction > 0 && !self.aborted {
            score = -self.negamax::<NonPv>(new_depth, child, zero, NodeFlags::child(!cut));
        }
        if N::PV && score > window.alpha && score < window.beta && !self.aborted {
            score = -self.negamax::<Pv>(new_depth, child, window.child(), NodeFlags::PV);
        }
        score
    }
}

/// The score of a node at `ply` that searched no move: no legal move
/// (pruning never removes the first one), mate `in_check` and stalemate
/// otherwise; or none but the `excluded` one of a singular search, which
/// fails low at `alpha`.
fn no_move_searched(ply: usize, excluded: Option<Move>, in_check: bool, alpha: i32) -> i32 {
    match excluded {
        Some(_) => alpha,
        None if in_check => mated_in(ply),
        None => 0,
    }
}
