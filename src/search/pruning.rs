//! The selective techniques of the main search, each named for what it is:
//! reverse futility pruning and null-move pruning (whole nodes), futility,
//! late move and SEE pruning (single moves), and late move reductions.
//! Every number is a named tunable in `params/values.rs`.

use shakmaty::{Chess, Move, Position as _};

use super::node::{NodeFlags, NodeKind, NonPv, Window};
use super::ordering::movepicker::{MoveKind, MovePicker};
use super::params::lmr::lmr_reduction;
use super::params::{
    FP_BASE_MARGIN, FP_MARGIN, FP_MAX_DEPTH, HP_MARGIN, HP_MAX_DEPTH, LMP_BASE, LMP_MAX_DEPTH,
    LMR_HISTORY_DIVISOR, LMR_HISTORY_MAX, LMR_MIN_DEPTH, LMR_MIN_MOVES, NMP_BASE_REDUCTION,
    NMP_DEPTH_DIVISOR, NMP_EVAL_DIVISOR, NMP_EVAL_MAX_REDUCTION, NMP_MIN_DEPTH,
    NMP_VERIFY_MIN_DEPTH, PROBCUT_IMPROVING, PROBCUT_MARGIN, PROBCUT_MIN_DEPTH, PROBCUT_REDUCTION,
    RFP_MARGIN, RFP_MAX_DEPTH, SE_DOUBLE_MARGIN, SE_DOUBLE_MAX, SE_MARGIN, SE_MIN_DEPTH,
    SE_TT_DEPTH_MARGIN, SEE_CAPTURE_MARGIN, SEE_PRUNE_MAX_DEPTH, SEE_QUIET_MARGIN,
};
use super::prologue::StaticEval;
use super::score::{TB_WIN_BOUND, is_decisive, mate_in, mated_in};
use super::tt::{Bound, TtEntry};
use super::worker::Worker;
use crate::chess::checks::CheckInfo;
use crate::chess::see::see_ge;

/// What pruning, reductions and the cutoff bookkeeping need to know about
/// a node: built once, after its static evaluation (see
/// [`Worker::node_facts`]).
#[derive(Debug, Clone, Copy)]
pub(super) struct NodeFacts {
    /// Distance from the root.
    pub ply: usize,
    /// Remaining depth (one less for the moves after an internal iterative
    /// reduction, see [`NodeFacts::reduce`]).
    pub depth: i32,
    /// Static evaluation (`-INFINITE` in check).
    pub eval: i32,
    /// The static evaluation is better than two plies ago.
    pub improving: bool,
    /// Late move pruning: quiet moves tried before the rest are skipped
    /// (halved when not improving; a shift, not a division, in the loop).
    pub lmp_limit: i32,
    /// A PV node now or when the table stored it (TT-PV).
    pub tt_pv: bool,
    /// How the node was entered.
    pub flags: NodeFlags,
    /// The move that led to it (`None`: a null move, or the root).
    pub previous: Option<Move>,
}

impl NodeFacts {
    /// The late move pruning limit at `depth`.
    fn lmp_limit(depth: i32, improving: bool) -> i32 {
        (LMP_BASE.get() + depth * depth) >> u32::from(!improving)
    }

    /// Internal iterative reduction: the node searches its moves a ply
    /// shallower (after the whole-node prunings, which keep the full depth).
    pub fn reduce(&mut self) {
        self.depth -= 1;
        self.lmp_limit = NodeFacts::lmp_limit(self.depth, self.improving);
    }
}

/// What pruning, reductions and the cutoff bookkeeping need to know about
/// one move of a node, and where the node's move loop stands when it comes.
#[derive(Debug, Clone, Copy)]
pub(super) struct MoveFacts<'a> {
    /// The move.
    pub m: Move,
    /// What the move picker made of it.
    pub kind: MoveKind,
    /// Neither a capture nor a promotion. A quiet move that gives check is
    /// late-move and history pruned like any other, but never futility or
    /// SEE pruned and never reduced (see [`Worker::prunes`],
    /// [`Worker::late_move_reduction`] and issue 38 in docs/strength.md);
    /// the check extension happens at the child, which is in check.
    pub quiet: bool,
    /// Its history (quiet moves, with ordering on; else 0).
    pub history: i32,
    /// Its number among the moves the node searches (1: the first).
    pub number: usize,
    /// Quiet moves the node searched before it.
    pub quiets_before: usize,
    /// The node's alpha when it comes.
    pub alpha: i32,
    /// Which moves give check in the node's position.
    pub checks: &'a CheckInfo,
}

/// What the singular extension test decided about the TT move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Singular {
    /// Search it this many plies deeper (negative: shallower).
    Extend(i32),
    /// Even without it the node fails high: return this score.
    MultiCut(i32),
}

/// Whether the side to move has a piece other than king and pawns (null
/// move is unsafe without: zugzwang).
fn has_non_pawn_material(board: &Chess) -> bool {
    let b = board.board();
    let ours = b.by_color(board.turn());
    (ours & !(b.pawns() | b.kings())).any()
}

impl Worker<'_> {
    /// Mate-distance pruning: no line from `ply` beats a mate already found
    /// closer to the root, so the window shrinks to what is still possible;
    /// true when nothing is (the node returns alpha).
    pub(super) fn mate_distance_pruning(&self, ply: usize, window: &mut Window) -> bool {
        if !self.shared.config.mate_distance {
            return false;
        }
        window.alpha = window.alpha.max(mated_in(ply));
        window.beta = window.beta.min(mate_in(ply + 1));
        window.alpha >= window.beta
    }

    /// What pruning and reductions need to know about the node at `ply`,
    /// to `depth`, with static evaluation `se`, entered as `flags` say.
    pub(super) fn node_facts(
        &self,
        ply: usize,
        depth: i32,
        se: &StaticEval,
        tt_pv: bool,
        flags: NodeFlags,
    ) -> NodeFacts {
        NodeFacts {
            ply,
            depth,
            eval: se.eval,
            improving: se.improving,
            lmp_limit: NodeFacts::lmp_limit(depth, se.improving),
            tt_pv,
            flags,
            previous: self.stack.back(ply, 1).and_then(|f| f.played),
        }
    }

    /// The whole-node prunings of a non-PV node not in check, in order of
    /// cost: reverse futility, null move, ProbCut, against `beta` and with
    /// the table's `entry`. Returns the score to leave the node with when
    /// one of them prunes it.
    pub(super) fn prune_node(
        &mut self,
        node: &NodeFacts,
        beta: i32,
        entry: Option<TtEntry>,
    ) -> Option<i32> {
        if self.reverse_futility(node, beta) {
            return Some(node.eval);
        }
        if self.stack.at(node.ply).excluded.is_some() {
            return None;
        }
        if node.flags.null_ok
            && let Some(score) = self.null_move_pruning(node, beta)
        {
            return Some(score);
        }
        self.probcut(node, beta, entry)
    }

    /// Reverse futility pruning: far above beta at low depth, a quiet move
    /// will not bring the score back down. The caller returns the static
    /// evaluation when this holds (non-PV nodes, not in check).
    fn reverse_futility(&self, node: &NodeFacts, beta: i32) -> bool {
        self.shared.config.pruning
            && self.shared.config.node_pruning
            && node.depth <= RFP_MAX_DEPTH.get()
            && !is_decisive(beta)
            && node.eval - RFP_MARGIN.get() * (node.depth - i32::from(node.improving)) >= beta
    }

    /// Null-move pruning: if passing still beats beta, a real move will.
    /// Returns the score to fail high with, if the node is pruned (non-PV
    /// nodes, not in check, not right after a null move).
    fn null_move_pruning(&mut self, node: &NodeFacts, beta: i32) -> Option<i32> {
        let (depth, ply) = (node.depth, node.ply);
        if !self.shared.config.null_move
            || depth < NMP_MIN_DEPTH.get()
            || node.eval < beta
            || is_decisive(beta)
            || !has_non_pawn_material(self.pos.board())
            || !self.play_null(ply)
        {
            return None;
        }
        let reduction = NMP_BASE_REDUCTION.get()
            + depth / NMP_DEPTH_DIVISOR.get()
            + ((node.eval - beta) / NMP_EVAL_DIVISOR.get()).min(NMP_EVAL_MAX_REDUCTION.get());
        let window = Window::new(beta - 1, beta);
        let child = NodeFlags::no_null(!node.flags.cut);
        let score = -self.negamax::<NonPv>(depth - 1 - reduction, ply + 1, window.child(), child);
        self.undo();
        if self.aborted {
            return Some(0);
        }
        if score < beta {
            return None;
        }
        // Never trust an unproven mate (or tablebase win) from a null move.
        let score = if score >= TB_WIN_BOUND { beta } else { score };
        if depth < NMP_VERIFY_MIN_DEPTH.get() {
            return Some(score);
        }
        // Verification search without null moves (zugzwang insurance).
        let verified = self.negamax::<NonPv>(
            depth - 1 - reduction,
            ply,
            window,
            NodeFlags::no_null(false),
        );
        (verified >= beta).then_some(score)
    }

    /// ProbCut: at a non-PV node of some depth, a capture that beats beta
    /// by a margin in a quick search (quiescence, then a search 4 plies
    /// shallower) would almost surely beat beta at full depth: the node is
    /// cut with that score. Only captures whose exchange alone could reach
    /// the margin are tried, and none when the table already says the
    /// shallower search fails.
    fn probcut(&mut self, node: &NodeFacts, beta: i32, entry: Option<TtEntry>) -> Option<i32> {
        let (depth, ply) = (node.depth, node.ply);
        let config = self.shared.config;
        if !(config.pruning && config.node_pruning)
            || depth < PROBCUT_MIN_DEPTH.get()
            || is_decisive(beta)
        {
            return None;
        }
        let cut_beta =
            beta + PROBCUT_MARGIN.get() - PROBCUT_IMPROVING.get() * i32::from(node.improving);
        let probe_depth = depth - 1 - PROBCUT_REDUCTION.get();
        if let Some(e) = entry
            && e.depth >= probe_depth
            && e.score < cut_beta
            && matches!(e.bound, Bound::Upper | Bound::Exact)
        {
            return None;
        }
        // ProbCut runs only out of check (`prune_node`).
        let tt_move = entry.and_then(|e| e.mv?.to_move(self.pos.board(), false));
        let mut picker = MovePicker::qsearch(tt_move);
        let window = Window::new(cut_beta - 1, cut_beta);
        while let Some((m, _)) = picker.next(self.pos.board(), self.history, &CheckInfo::UNUSED) {
            if !see_ge(self.pos.board(), m, cut_beta - node.eval) {
                continue;
            }
            self.play(m, ply);
            let mut score = -self.qsearch::<NonPv>(ply + 1, window.child(), false);
            if score >= cut_beta && !self.aborted {
                let child = NodeFlags::child(!node.flags.cut);
                score = -self.negamax::<NonPv>(probe_depth, ply + 1, window.child(), child);
            }
            self.undo();
            if self.aborted {
                return Some(0);
            }
            if score >= cut_beta {
                return Some(score);
            }
        }
        None
    }

    /// Singular extensions: is the TT move of `node`, searched with `beta`,
    /// far better than every other move? The other
    /// moves are searched to half the depth against a bound below the TT
    /// score: if all fail low, the TT move is singular and is extended (twice
    /// when clearly so, a limited number of times on a path); if even that
    /// bound fails high, several moves beat beta and the node is cut
    /// (multi-cut); if the TT score beats beta but another move does as
    /// well, the TT move is searched a ply shallower.
    pub(super) fn singular_extension<N: NodeKind>(
        &mut self,
        node: &NodeFacts,
        beta: i32,
        tt_move: Move,
        entry: &TtEntry,
    ) -> Singular {
        let (ply, depth) = (node.ply, node.depth);
        let singular_beta = entry.score - SE_MARGIN.get() * depth;
        let window = Window::new(singular_beta - 1, singular_beta);
        self.stack.at_mut(ply).excluded = Some(tt_move);
        let same_node = NodeFlags::no_null(node.flags.cut);
        let score = self.negamax::<NonPv>((depth - 1) / 2, ply, window, same_node);
        self.stack.at_mut(ply).excluded = None;
        if score < singular_beta {
            let doubles = self.stack.at(ply).double_extensions;
            if !N::PV
                && score < singular_beta - SE_DOUBLE_MARGIN.get()
                && i32::from(doubles) < SE_DOUBLE_MAX.get()
            {
                Singular::Extend(2)
            } else {
                Singular::Extend(1)
            }
        } else if singular_beta >= beta {
            Singular::MultiCut(singular_beta)
        } else if entry.score >= beta {
            Singular::Extend(-1)
        } else {
            Singular::Extend(0)
        }
    }

    /// Whether the TT move of `node`, with its table `entry`, may be
    /// tested for a singular extension.
    pub(super) fn singular_candidate(&self, node: &NodeFacts, entry: &TtEntry) -> bool {
        self.shared.config.extensions
            && node.depth >= SE_MIN_DEPTH.get()
            && self.stack.at(node.ply).excluded.is_none()
            && entry.depth >= node.depth - SE_TT_DEPTH_MARGIN.get()
            && matches!(entry.bound, Bound::Lower | Bound::Exact)
            && !is_decisive(entry.score)
    }

    /// Futility, late move and SEE pruning of one move (not in check, once
    /// a move has kept the node from being mated): whether to skip it. Late
    /// move pruning also tells the `picker` to hand out no more quiet moves.
    #[inline]
    pub(super) fn prunes(
        &self,
        node: &NodeFacts,
        mv: &MoveFacts<'_>,
        picker: &mut MovePicker,
    ) -> bool {
        let board = self.pos.board();
        let depth = node.depth;
        if mv.quiet {
            // Late move pruning.
            if depth <= LMP_MAX_DEPTH.get() && mv.quiets_before as i32 >= node.lmp_limit {
                picker.skip_quiets();
                return true;
            }
            // History pruning: at low depth, a quiet move with a bad record.
            if depth <= HP_MAX_DEPTH.get() && mv.history < -HP_MARGIN.get() * depth {
                return true;
            }
            // Futility pruning, and SEE pruning of quiet moves that hang
            // the piece; neither prunes a check (a check can mate however bad
            // the static evaluation looks, and a sacrifice with check is
            // where the mates are), asked only of a move they would prune.
            let futile = depth <= FP_MAX_DEPTH.get()
                && node.eval + FP_BASE_MARGIN.get() + FP_MARGIN.get() * depth <= mv.alpha;
            let hangs = || {
                depth <= SEE_PRUNE_MAX_DEPTH.get()
                    && !see_ge(board, mv.m, -SEE_QUIET_MARGIN.get() * depth)
            };
            if (futile || hangs()) && !mv.checks.gives_check(board, mv.m) {
                return true;
            }
        } else if mv.kind == MoveKind::BadCapture
            && depth <= SEE_PRUNE_MAX_DEPTH.get()
            && !see_ge(board, mv.m, -SEE_CAPTURE_MARGIN.get() * depth * depth)
        {
            // SEE pruning of losing captures.
            return true;
        }
        false
    }

    /// Late move reductions of a move of a node (not its first): quiet
    /// moves and losing captures that do not give check.
    /// (Pruning and ordering quiet checks like other quiets won about 40 Elo
    /// at 2+0.02, but reducing them too cost ECM 26 positions at 500 ms;
    /// searching every check to full depth won them back with no loss in
    /// games: issue 38 in docs/strength.md.)
    #[inline]
    pub(super) fn late_move_reduction<N: NodeKind>(
        &self,
        node: &NodeFacts,
        mv: &MoveFacts<'_>,
    ) -> i32 {
        let depth = node.depth;
        if !self.shared.config.reductions
            || depth < LMR_MIN_DEPTH.get()
            || mv.number <= LMR_MIN_MOVES.get() as usize + usize::from(N::PV)
            || !(mv.quiet || mv.kind == MoveKind::BadCapture)
            // A move that gives check is searched to full depth: checking
            // sacrifices and quiet checks are where the tactics suites (ECM,
            // WAC) lose most when they are reduced. Quiet checks still keep
            // their history order and late-move/history pruning.
            || mv.checks.gives_check(self.pos.board(), mv.m)
        {
            return 0;
        }
        let mut reduction = lmr_reduction(depth, mv.number);
        reduction += i32::from(!N::PV) + i32::from(!node.improving) + i32::from(node.flags.cut);
        reduction -= i32::from(mv.kind == MoveKind::Killer);
        // TT-PV: below a node that is or was on a principal variation.
        reduction -= i32::from(node.tt_pv);
        if mv.quiet {
            reduction -= (mv.history / LMR_HISTORY_DIVISOR.get())
                .clamp(-LMR_HISTORY_MAX.get(), LMR_HISTORY_MAX.get());
        }
        reduction.clamp(0, depth - 2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Position;

    #[test]
    fn null_move_needs_a_piece_besides_pawns() {
        let pawns = Position::from_fen("4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1", false).unwrap();
        assert!(!has_non_pawn_material(pawns.board()));
        let knight = Position::from_fen("4k3/4p3/8/8/8/8/4P3/4KN2 w - - 0 1", false).unwrap();
        assert!(has_non_pawn_material(knight.board()));
    }
}
