//! What every teaching search shares: the position and the line played,
//! the counters, the recorder of the tree, the move order, the stop
//! conditions, the principal variation, and the rules that decide a node
//! without search (draws, checkmate, stalemate).
//!
//! Each algorithm (one per file) is a recursion over a [`Ctx`]: it calls
//! [`Ctx::enter`] at the top of a node and [`Ctx::leave`] with what the
//! node returned, and [`Ctx::start`] to learn whether the node is decided
//! by the rules, at the horizon, or to be searched through its moves.

use shakmaty::{Chess, Move, Position as _};

use super::config::TheoryConfig;
use super::limits::TheoryLimits;
use super::ordering::Orderer;
use super::outcome::TheoryStats;
use super::tree::{Cut, Leaving, NodeKind, SearchTree};
use super::window::{Window, cut_side};
use crate::chess::Position;
use crate::eval::PawnCache;
use crate::search::score::mated_in;

/// How a node starts.
pub enum Start {
    /// Decided by the rules: its value and why.
    Terminal(i32, NodeKind),
    /// At the horizon, with legal moves: a leaf.
    Horizon,
    /// To be searched: its moves, in search order.
    Moves(Vec<Move>),
}

/// The state of one teaching search.
pub struct Ctx<'a> {
    /// The position searched, with the line from the root played on it.
    pub pos: Position,
    /// Algorithm, ordering and leaf value.
    pub config: TheoryConfig,
    /// The counters.
    pub stats: TheoryStats,
    /// The recorder, when a picture was asked for.
    pub tree: Option<&'a mut SearchTree>,
    /// A limit was reached: every node returns at once, and the result is
    /// void.
    pub aborted: bool,
    /// Pawn-structure cache of the evaluation.
    pub pawns: PawnCache,
    /// The limits.
    pub limits: TheoryLimits<'a>,
    orderer: Orderer,
    /// The moves from the root to the current node.
    line: Vec<Move>,
    /// `pv[ply]`: the best line found from the node at `ply`.
    pv: Vec<Vec<Move>>,
    /// Deepest ply reached, quiescence included.
    deepest: u32,
}

impl<'a> Ctx<'a> {
    /// A search of `pos` (its history is kept: repetitions count).
    pub fn new(
        pos: &Position,
        config: TheoryConfig,
        limits: TheoryLimits<'a>,
        tree: Option<&'a mut SearchTree>,
    ) -> Ctx<'a> {
        Ctx {
            pos: pos.clone(),
            config,
            stats: TheoryStats::default(),
            tree,
            aborted: false,
            pawns: PawnCache::new(),
            limits,
            orderer: Orderer::new(config.ordering),
            line: Vec::new(),
            pv: Vec::new(),
            deepest: 0,
        }
    }

    /// Counts the node the search enters at `ply` with `window`, records
    /// it, and checks the limits.
    pub fn enter(&mut self, ply: u32, window: &Window) {
        self.stats.nodes += 1;
        self.reach(ply);
        if let Some(tree) = self.tree.as_deref_mut() {
            tree.enter(self.line.last().copied(), window.alpha, window.beta);
            self.aborted |= tree.is_full();
        }
        self.check_limits();
    }

    /// Counts a quiescence node at `ply` and checks the limits.
    pub fn enter_qnode(&mut self, ply: u32) {
        self.stats.qnodes += 1;
        self.reach(ply);
        self.check_limits();
    }

    fn reach(&mut self, ply: u32) {
        if ply > self.deepest {
            self.deepest = ply;
        }
    }

    fn check_limits(&mut self) {
        if self
            .limits
            .reached(self.stats.nodes + self.stats.qnodes + self.stats.pv_nodes)
        {
            self.aborted = true;
        }
    }

    /// The search leaves the current node; returns its value.
    pub fn leave(&mut self, how: Leaving) -> i32 {
        if let Some(tree) = self.tree.as_deref_mut() {
            tree.leave(how);
        }
        how.value
    }

    /// Plays `m` (legal here) on the way down.
    pub fn play(&mut self, m: Move) {
        self.pos.play(m);
        self.line.push(m);
    }

    /// Takes the last move back.
    pub fn undo(&mut self) {
        self.pos.undo();
        self.line.pop();
    }

    /// Whether the node at `ply`, `depth` plies from the horizon, is decided
    /// by the rules, is a leaf, or has moves to search (in search order;
    /// `first` goes first with full ordering).
    pub fn start(&mut self, ply: u32, depth: u32, first: Option<Move>) -> Start {
        // At the root the game goes on whatever the history says: the
        // engine must still choose a move.
        if ply > 0 && self.pos.is_draw() {
            return Start::Terminal(0, NodeKind::Draw);
        }
        let board = self.pos.board();
        if depth == 0 {
            if board.legal_moves().is_empty() {
                return self.no_moves(ply);
            }
            return Start::Horizon;
        }
        let mut moves = self.orderer.order(board, ply, first);
        let only = self.limits.searchmoves;
        if ply == 0 && moves.iter().any(|m| only.contains(m)) {
            moves.retain(|m| only.contains(m));
        }
        if moves.is_empty() {
            return self.no_moves(ply);
        }
        Start::Moves(moves)
    }

    fn no_moves(&self, ply: u32) -> Start {
        if self.pos.board().is_check() {
            Start::Terminal(mated_in(ply as usize), NodeKind::Checkmate)
        } else {
            Start::Terminal(0, NodeKind::Stalemate)
        }
    }

    /// The move `tried.last()`, the `index`-th of `count`, reached β at the
    /// node at `ply` (`depth` from the horizon) searched with `window`:
    /// counts it, records the cut-off when moves are left, and lets the
    /// move ordering learn from it.
    pub fn fail_high(
        &mut self,
        ply: u32,
        depth: u32,
        (index, count): (usize, usize),
        window: &Window,
        tried: &[Move],
    ) {
        self.stats.fail_highs += 1;
        if index == 0 {
            self.stats.first_move_fail_highs += 1;
        }
        let pruned = count.saturating_sub(index + 1) as u32;
        if pruned > 0 {
            self.stats.cutoffs += 1;
            if let Some(tree) = self.tree.as_deref_mut() {
                tree.cut(Cut {
                    side: cut_side(ply),
                    depth: window.cut_depth(ply),
                    pruned,
                });
            }
        }
        self.orderer.learn(self.pos.board(), ply, depth, tried);
    }

    /// Forgets the line of the node at `ply` (it is being searched anew).
    pub fn pv_clear(&mut self, ply: u32) {
        let ply = ply as usize;
        if self.pv.len() < ply + 2 {
            self.pv.resize(ply + 2, Vec::new());
        }
        self.pv[ply].clear();
        self.pv[ply + 1].clear();
    }

    /// `m` is the best move so far at `ply`: its line is `m` and the
    /// child's line.
    pub fn pv_update(&mut self, ply: u32, m: Move) {
        let ply = ply as usize;
        let (here, below) = self.pv.split_at_mut(ply + 1);
        let line = &mut here[ply];
        line.clear();
        line.push(m);
        line.extend_from_slice(&below[0]);
    }

    /// The root's line.
    pub fn root_pv(&self) -> Vec<Move> {
        self.pv.first().cloned().unwrap_or_default()
    }

    /// Fills in the bytes the search path used at its deepest.
    pub fn finish_stats(&mut self) {
        let per_ply = size_of::<Chess>() + size_of::<u64>() + size_of::<Move>();
        self.stats.path_bytes = (self.deepest as u64 + 1) * per_ply as u64;
    }
}
