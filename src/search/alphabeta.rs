//! Negamax alpha-beta with captures searched first, draws by repetition and
//! the 50-move rule, and a node/time/stop check.

use std::time::Instant;

use arrayvec::ArrayVec;
use shakmaty::{Chess, Move, Position as _};

use super::{MATE, MAX_PLY, SearchLimits, Signals, TIME_CHECK_INTERVAL};
use crate::eval::{evaluate, piece_value};
use crate::position::{Position, key_after};

/// A principal variation.
type Line = ArrayVec<Move, MAX_PLY>;

/// State of one search thread.
pub struct Searcher<'a> {
    root: &'a Position,
    signals: &'a Signals,
    node_limit: Option<u64>,
    /// Stop once this instant has passed (`None`: no time limit).
    pub deadline: Option<Instant>,
    /// Nodes visited.
    pub nodes: u64,
    /// Deepest ply reached in the last iteration.
    pub seldepth: u32,
    /// Keys from the game start to the current node.
    keys: Vec<u64>,
    aborted: bool,
}

impl<'a> Searcher<'a> {
    /// A searcher for `root`.
    pub fn new(root: &'a Position, limits: &SearchLimits, signals: &'a Signals) -> Searcher<'a> {
        let mut keys = root.history().to_vec();
        keys.push(root.key());
        Searcher {
            root,
            signals,
            node_limit: limits.nodes,
            deadline: None,
            nodes: 0,
            seldepth: 0,
            keys,
            aborted: false,
        }
    }

    /// Searches `moves` at the root to `depth`. `None` when the search was
    /// stopped before the iteration finished.
    pub fn search_root(&mut self, moves: &[Move], depth: u32) -> Option<(i32, Vec<Move>)> {
        self.seldepth = 0;
        let board = self.root.board().clone();
        let key = self.root.key();
        let mut alpha = -MATE;
        let mut best_line = Line::new();
        for &m in moves {
            let mut child = board.clone();
            child.play_unchecked(m);
            let child_key = key_after(&board, key, m, &child);
            let mut line = Line::new();
            self.keys.push(child_key);
            let score = -self.negamax(&child, depth as i32 - 1, 1, -MATE, -alpha, &mut line);
            self.keys.pop();
            if self.aborted {
                return None;
            }
            if score > alpha || best_line.is_empty() {
                alpha = score.max(alpha);
                best_line.clear();
                best_line.push(m);
                best_line.try_extend_from_slice(&line).ok();
            }
        }
        Some((alpha, best_line.to_vec()))
    }

    fn should_stop(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        let out_of_nodes = self.node_limit.is_some_and(|n| self.nodes >= n);
        let out_of_time = self.nodes.is_multiple_of(TIME_CHECK_INTERVAL)
            && self.deadline.is_some_and(|d| Instant::now() >= d);
        self.aborted = self.signals.stopped() || out_of_nodes || out_of_time;
        self.aborted
    }

    fn is_draw(&self, board: &Chess) -> bool {
        if board.halfmoves() >= 100 || board.is_insufficient_material() {
            return true;
        }
        // Repetition: the same key with the same side to move, within the
        // reversible stretch of moves.
        let current = self.keys.len() - 1;
        let key = self.keys[current];
        let reach = (board.halfmoves() as usize).min(current);
        (2..=reach)
            .step_by(2)
            .any(|back| self.keys[current - back] == key)
    }

    fn negamax(
        &mut self,
        board: &Chess,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        pv: &mut Line,
    ) -> i32 {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply as u32);
        if self.should_stop() {
            return 0;
        }
        if self.is_draw(board) {
            return 0;
        }
        let mut moves = board.legal_moves();
        if moves.is_empty() {
            return if board.is_check() {
                -(MATE - ply as i32)
            } else {
                0
            };
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return evaluate(board);
        }
        // Captures first, most valuable victim first.
        moves.sort_by_key(|m| -m.capture().map_or(0, piece_value));
        let key = *self
            .keys
            .last()
            .expect("the root key is always on the stack");
        let mut best = -MATE;
        for &m in &moves {
            let mut child = board.clone();
            child.play_unchecked(m);
            self.keys.push(key_after(board, key, m, &child));
            let mut line = Line::new();
            let score = -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha, &mut line);
            self.keys.pop();
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    pv.clear();
                    pv.push(m);
                    pv.try_extend_from_slice(&line).ok();
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
