//! Negamax alpha-beta with principal variation search, and the quiescence
//! search at its horizon. One [`Worker`] per search thread.
//!
//! Node kinds are a const generic: `PV = true` for nodes on the principal
//! variation (full window), `false` for zero-window nodes. The root is
//! searched by [`Worker::search_root`]; the quiescence search at the
//! horizon lives in `alphabeta/qsearch.rs`.

pub use super::root::RootMove;

use std::time::Instant;

use arrayvec::ArrayVec;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{Chess, EnPassantMode, Move, Position as _};

use super::lmr::lmr_reduction;
use super::params::*;
use super::{MATE, MATE_BOUND, MAX_PLY, Score, SearchInfo, SharedState, Signals, ThreadState};
use crate::chess::checks::CheckInfo;
use crate::chess::position::{Position, key_after};
use crate::chess::see::see_ge;
use crate::eval::{PawnCache, evaluate_cached};
use crate::search::ordering::history::History;
use crate::search::ordering::movepicker::{MoveKind, MovePicker};
use crate::search::tt::{Bound, TtMove};

/// A principal variation.
pub type Line = ArrayVec<Move, MAX_PLY>;

/// A score below every real score.
pub const INFINITE: i32 = MATE + 1;

/// Nodes between two looks at the clock and the node counters.
const CHECK_INTERVAL: u64 = 1024;

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
}

impl Stats {
    /// Adds another thread's or search's counters.
    pub fn add(&mut self, other: &Stats) {
        self.tt_probes += other.tt_probes;
        self.tt_hits += other.tt_hits;
        self.cutoffs += other.cutoffs;
        self.first_move_cutoffs += other.first_move_cutoffs;
    }
}

/// One search thread.
pub struct Worker<'a> {
    /// Thread index; 0 is the main thread, which keeps time and reports.
    pub id: usize,
    pub(super) shared: &'a SharedState<'a>,
    pub(super) history: &'a mut History,
    pub(super) root: &'a Position,
    pub(super) keys: Vec<u64>,
    pub(super) evals: [i32; MAX_PLY + 2],
    pub(super) pawns: &'a mut PawnCache,
    pub(super) played: [Option<Move>; MAX_PLY + 2],
    /// Nodes searched by this thread.
    pub nodes: u64,
    /// Deepest ply reached in the current iteration.
    pub seldepth: usize,
    /// Ordering and TT counters.
    pub stats: Stats,
    /// The root moves, best first after each iteration.
    pub root_moves: Vec<RootMove>,
    /// Which MultiPV line is being searched (root moves before it are done).
    pub pv_index: usize,
    /// Depth of the current iteration.
    pub root_depth: i32,
    /// A root move that beat the first move searched in the current
    /// iteration (MultiPV line 1): proven better at this depth even if the
    /// iteration is cut short. Cleared when an iteration starts.
    pub unfinished_best: Option<RootMove>,
    pub(super) aborted: bool,
    /// When the search started (reset at `ponderhit`).
    pub start: Instant,
    pub(super) pondering: bool,
}

impl<'a> Worker<'a> {
    /// A worker for the root position, searching `root_moves`.
    pub fn new(
        id: usize,
        shared: &'a SharedState<'a>,
        state: &'a mut ThreadState,
        root: &'a Position,
        root_moves: &[Move],
    ) -> Worker<'a> {
        let mut keys = root.history().to_vec();
        keys.push(root.key());
        Worker {
            id,
            shared,
            history: &mut state.history,
            root,
            keys,
            evals: [0; MAX_PLY + 2],
            pawns: &mut state.pawns,
            played: [None; MAX_PLY + 2],
            nodes: 0,
            seldepth: 0,
            stats: Stats::default(),
            root_moves: root_moves
                .iter()
                .map(|&mv| RootMove {
                    mv,
                    score: -INFINITE,
                    previous_score: -INFINITE,
                    pv: vec![mv],
                })
                .collect(),
            pv_index: 0,
            root_depth: 0,
            unfinished_best: None,
            aborted: false,
            start: shared.start,
            pondering: shared.signals.pondering(),
        }
    }

    /// Whether the current iteration was cut short.
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    /// Clears the per-search killers before a new search.
    pub fn clear_killers(&mut self) {
        self.history.clear_killers();
    }

    /// The search's stop and ponder flags.
    pub fn signals(&self) -> &'a Signals {
        self.shared.signals
    }

    /// Nodes of all threads (this one exact, the others as last published).
    pub fn total_nodes(&self) -> u64 {
        self.shared.total_nodes(self.id, self.nodes)
    }

    /// Whether the search is still pondering (no clock yet).
    pub fn pondering(&self) -> bool {
        self.pondering && self.shared.signals.pondering()
    }

    /// The soft time limit, if any.
    pub fn soft_limit(&self) -> Option<std::time::Duration> {
        self.shared.time.soft
    }

    /// Which techniques are on.
    pub fn config(&self) -> SearchConfig {
        self.shared.config
    }

    /// The report for MultiPV line `k` (0-based) as it stands.
    pub fn info(&self, k: usize, bound: Option<Bound>) -> SearchInfo {
        let rm = &self.root_moves[k];
        let score = if rm.score == -INFINITE {
            rm.previous_score
        } else {
            rm.score
        };
        SearchInfo {
            depth: self.root_depth.max(1) as u32,
            seldepth: self.seldepth as u32,
            multipv: k as u32 + 1,
            score: Score::from_internal(score),
            bound,
            nodes: self.total_nodes(),
            hashfull: self.shared.tt.hashfull(),
            time: self.start.elapsed(),
            pv: rm.pv.clone(),
        }
    }

    pub(super) fn is_main(&self) -> bool {
        self.id == 0
    }

    /// Stop conditions, looked at every [`CHECK_INTERVAL`] nodes (the node
    /// limit at every node, so `go nodes` is exact with one thread).
    pub(super) fn check_abort(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        // Depth 1 always completes: a move must be known.
        if self.root_depth <= 1 {
            return false;
        }
        if self.shared.signals.stopped() {
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
            self.shared.publish_nodes(self.id, self.nodes);
            if self.pondering && !self.shared.signals.pondering() {
                // ponderhit: our clock starts now.
                self.pondering = false;
                self.start = Instant::now();
            }
            if !self.pondering
                && let Some(hard) = self.shared.time.hard
                && self.start.elapsed() >= hard
            {
                self.aborted = true;
            }
        }
        if self.aborted {
            self.shared.signals.stop();
        }
        self.aborted
    }

    /// Publishes this thread's node count for the others to read.
    pub fn publish_nodes(&self) {
        self.shared.publish_nodes(self.id, self.nodes);
    }

    pub(super) fn key(&self) -> u64 {
        *self
            .keys
            .last()
            .expect("the root key is always on the stack")
    }

    /// Draw by the 50-move rule, insufficient material or repetition (of
    /// the game history or the search path).
    pub(super) fn is_draw(&self, board: &Chess, in_check: bool) -> bool {
        if board.halfmoves() >= 100 && !(in_check && board.legal_moves().is_empty()) {
            return true;
        }
        if board.is_insufficient_material() {
            return true;
        }
        let current = self.keys.len() - 1;
        let key = self.keys[current];
        let reach = (board.halfmoves() as usize).min(current);
        (4..=reach)
            .step_by(2)
            .any(|back| self.keys[current - back] == key)
    }

    /// The static evaluation at a leaf when quiescence search is off: mate
    /// and stalemate are still recognised.
    pub(super) fn leaf_eval(&mut self, board: &Chess, ply: usize) -> i32 {
        if board.legal_moves().is_empty() {
            return if board.is_check() {
                -(MATE - ply as i32)
            } else {
                0
            };
        }
        evaluate_cached(board, self.pawns)
    }

    pub(super) fn tt_move(&self, board: &Chess, mv: Option<TtMove>) -> Option<Move> {
        let mv = mv?;
        UciMove::Normal {
            from: mv.from,
            to: mv.to,
            promotion: mv.promotion,
        }
        .to_move(board)
        .ok()
    }

    pub(super) fn play(&mut self, board: &Chess, m: Move, ply: usize) -> Chess {
        let mut child = board.clone();
        child.play_unchecked(m);
        let key = key_after(board, self.key(), m, &child);
        if self.shared.config.tt {
            // The child probes this bucket first thing: start loading it.
            self.shared.tt.prefetch(key);
        }
        self.keys.push(key);
        self.played[ply] = Some(m);
        child
    }

    pub(super) fn unplay(&mut self) {
        self.keys.pop();
    }

    /// The main search.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn negamax<const PV: bool>(
        &mut self,
        board: &Chess,
        mut depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        pv: &mut Line,
        null_allowed: bool,
    ) -> i32 {
        debug_assert!(alpha < beta);
        debug_assert!(PV || beta - alpha == 1, "non-PV nodes have a zero window");
        pv.clear();
        let config = self.shared.config;
        let in_check = board.is_check();

        // Check extension: never stand still in check.
        if in_check && config.extensions && ply < MAX_PLY / 2 {
            depth += 1;
        }
        if depth <= 0 {
            return if config.qsearch {
                self.qsearch::<PV>(board, ply, alpha, beta, pv)
            } else {
                self.count_leaf(board, ply)
            };
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.check_abort() {
            return 0;
        }
        if self.is_draw(board, in_check) {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return evaluate_cached(board, self.pawns);
        }

        // Mate-distance pruning: no line from here beats a mate already
        // found closer to the root.
        if config.mate_distance {
            alpha = alpha.max(-(MATE - ply as i32));
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        // Transposition table cutoff.
        let key = self.key();
        let entry = if config.tt {
            self.stats.tt_probes += 1;
            self.shared.tt.probe(key, ply)
        } else {
            None
        };
        self.stats.tt_hits += u64::from(entry.is_some());
        if !PV
            && let Some(e) = entry
            && e.depth >= depth
            && e.cuts(alpha, beta)
        {
            return e.score;
        }

        // Static evaluation, and whether it improved on two plies ago.
        let eval = if in_check {
            -INFINITE
        } else {
            entry
                .filter(|e| e.bound != Bound::None)
                .map_or_else(|| evaluate_cached(board, self.pawns), |e| e.eval)
        };
        self.evals[ply] = eval;
        let improving = !in_check && ply >= 2 && eval > self.evals[ply - 2];

        // Reverse futility pruning: far above beta at low depth, a quiet
        // move will not bring the score back down.
        if !PV
            && !in_check
            && config.pruning
            && depth <= RFP_MAX_DEPTH
            && beta.abs() < MATE_BOUND
            && eval - RFP_MARGIN * (depth - i32::from(improving)) >= beta
        {
            return eval;
        }

        // Null-move pruning: if passing still beats beta, a real move will.
        if !PV
            && !in_check
            && config.null_move
            && null_allowed
            && depth >= NMP_MIN_DEPTH
            && eval >= beta
            && beta.abs() < MATE_BOUND
            && has_non_pawn_material(board)
            && let Some(null_board) = null_move(board)
        {
            let reduction = NMP_BASE_REDUCTION
                + depth / NMP_DEPTH_DIVISOR
                + ((eval - beta) / NMP_EVAL_DIVISOR).min(NMP_EVAL_MAX_REDUCTION);
            self.keys.push(null_key(board, key));
            self.played[ply] = None;
            let mut line = Line::new();
            let score = -self.negamax::<false>(
                &null_board,
                depth - 1 - reduction,
                ply + 1,
                -beta,
                -beta + 1,
                &mut line,
                false,
            );
            self.unplay();
            if self.aborted {
                return 0;
            }
            if score >= beta {
                // Never trust an unproven mate from a null move.
                let score = if score >= MATE_BOUND { beta } else { score };
                if depth < NMP_VERIFY_MIN_DEPTH {
                    return score;
                }
                // Verification search without null moves (zugzwang).
                let verified = self.negamax::<false>(
                    board,
                    depth - 1 - reduction,
                    ply,
                    beta - 1,
                    beta,
                    &mut line,
                    false,
                );
                if verified >= beta {
                    return score;
                }
            }
        }

        // The TT move, checked for legality only now: the cutoffs and
        // prunings above often make it unnecessary.
        let tt_move = entry.and_then(|e| self.tt_move(board, e.mv));

        // Internal iterative reduction: without a TT move this node is
        // probably not worth the full depth.
        if config.reductions && tt_move.is_none() && depth >= IIR_MIN_DEPTH {
            depth -= 1;
        }

        let previous = ply.checked_sub(1).and_then(|p| self.played[p]);
        let mut picker = MovePicker::new(
            tt_move,
            self.history.killers(ply),
            self.history.countermove(previous),
            config.ordering,
        );
        picker.limit_to(config.ordering_step);
        let checks = CheckInfo::new(board);
        let original_alpha = alpha;
        let mut best = -INFINITE;
        let mut best_move = None;
        let mut searched = 0usize;
        let mut quiets_tried: ArrayVec<Move, 64> = ArrayVec::new();
        // Late move pruning: quiet moves tried before the rest are skipped
        // (halved when not improving; a shift, not a division, in the loop).
        let lmp_limit = (LMP_BASE + depth * depth) >> u32::from(!improving);
        let mut line = Line::new();

        while let Some((m, kind)) = picker.next(board, self.history, &checks) {
            let quiet = !m.is_capture() && m.promotion().is_none();
            let gives_check = checks.gives_check(board, m);

            if config.pruning && best > -MATE_BOUND && !in_check {
                if quiet && !gives_check {
                    // Late move pruning.
                    if depth <= LMP_MAX_DEPTH && quiets_tried.len() as i32 >= lmp_limit {
                        picker.skip_quiets();
                        continue;
                    }
                    // Futility pruning.
                    if depth <= FP_MAX_DEPTH && eval + FP_BASE_MARGIN + FP_MARGIN * depth <= alpha {
                        continue;
                    }
                    // SEE pruning of quiet moves that hang the piece.
                    if depth <= SEE_PRUNE_MAX_DEPTH && !see_ge(board, m, -SEE_QUIET_MARGIN * depth)
                    {
                        continue;
                    }
                } else if kind == MoveKind::BadCapture
                    && depth <= SEE_PRUNE_MAX_DEPTH
                    && !see_ge(board, m, -SEE_CAPTURE_MARGIN * depth * depth)
                {
                    // SEE pruning of losing captures.
                    continue;
                }
            }

            let child = self.play(board, m, ply);
            searched += 1;
            let new_depth = depth - 1;
            let mut score;
            if searched == 1 {
                score =
                    -self.negamax::<PV>(&child, new_depth, ply + 1, -beta, -alpha, &mut line, true);
            } else {
                // Late move reductions. Moves that give check are searched
                // to full depth: sacrifices with check and quiet checks are
                // where the tactics are (WAC at a fixed node budget solves
                // 3 to 6 more positions this way).
                let mut reduction = 0;
                if config.reductions
                    && depth >= LMR_MIN_DEPTH
                    && searched > LMR_MIN_MOVES + usize::from(PV)
                    && (quiet || kind == MoveKind::BadCapture)
                    && !gives_check
                {
                    reduction = lmr_reduction(depth, searched);
                    reduction += i32::from(!PV) + i32::from(!improving);
                    reduction -= i32::from(kind == MoveKind::Killer);
                    if quiet {
                        reduction -= self.history.score(board.turn(), m) / LMR_HISTORY_DIVISOR;
                    }
                    reduction = reduction.clamp(0, new_depth - 1);
                }
                if config.pvs {
                    // Principal variation search: prove the move is no
                    // better with a zero window, re-search if it is.
                    score = -self.negamax::<false>(
                        &child,
                        new_depth - reduction,
                        ply + 1,
                        -alpha - 1,
                        -alpha,
                        &mut line,
                        true,
                    );
                    if score > alpha && reduction > 0 {
                        score = -self.negamax::<false>(
                            &child,
                            new_depth,
                            ply + 1,
                            -alpha - 1,
                            -alpha,
                            &mut line,
                            true,
                        );
                    }
                    if PV && score > alpha && score < beta {
                        score = -self.negamax::<true>(
                            &child,
                            new_depth,
                            ply + 1,
                            -beta,
                            -alpha,
                            &mut line,
                            true,
                        );
                    }
                } else {
                    score = -self.negamax::<PV>(
                        &child,
                        new_depth - reduction,
                        ply + 1,
                        -beta,
                        -alpha,
                        &mut line,
                        true,
                    );
                    if score > alpha && reduction > 0 {
                        score = -self.negamax::<PV>(
                            &child,
                            new_depth,
                            ply + 1,
                            -beta,
                            -alpha,
                            &mut line,
                            true,
                        );
                    }
                }
            }
            self.unplay();
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    alpha = score;
                    if PV {
                        extend_pv(pv, m, &line);
                    }
                    if alpha >= beta {
                        self.stats.cutoffs += 1;
                        self.stats.first_move_cutoffs += u64::from(searched == 1);
                        if quiet && config.ordering {
                            self.history.update_quiet_cutoff(
                                board.turn(),
                                ply,
                                depth,
                                m,
                                &quiets_tried,
                                previous,
                            );
                        }
                        break;
                    }
                }
            }
            if quiet {
                quiets_tried.try_push(m).ok();
            }
        }

        if searched == 0 {
            // No legal move (pruning never removes the first one).
            return if in_check { -(MATE - ply as i32) } else { 0 };
        }

        if config.tt {
            let bound = Bound::of(best, original_alpha, beta);
            self.shared
                .tt
                .store(key, best_move, best, eval, depth, bound, ply);
        }
        best
    }

    /// A leaf of the plain search (quiescence off).
    pub(super) fn count_leaf(&mut self, board: &Chess, ply: usize) -> i32 {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.is_draw(board, board.is_check()) {
            return 0;
        }
        self.leaf_eval(board, ply)
    }
}

/// Whether the side to move has a piece other than king and pawns (null
/// move is unsafe without: zugzwang).
fn has_non_pawn_material(board: &Chess) -> bool {
    let b = board.board();
    let ours = b.by_color(board.turn());
    (ours & !(b.pawns() | b.kings())).any()
}

/// The position with the other side to move (no en passant square).
fn null_move(board: &Chess) -> Option<Chess> {
    board.clone().swap_turn().ok()
}

/// Makes `pv` the move `m` followed by the child's line (left off if
/// it cannot fit, which a line below the root never reaches).
pub(super) fn extend_pv(pv: &mut Line, m: Move, child: &Line) {
    pv.clear();
    pv.push(m);
    pv.try_extend_from_slice(child).ok();
}

/// The key after a null move.
fn null_key(board: &Chess, key: u64) -> u64 {
    let mut k = Zobrist64(key);
    k ^= Zobrist64::zobrist_for_white_turn();
    if let Some(sq) = board.ep_square(EnPassantMode::Legal) {
        k ^= Zobrist64::zobrist_for_en_passant_file(sq.file());
    }
    k.0
}
