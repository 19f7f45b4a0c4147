//! The value of a horizon node: the static evaluation, or a plain
//! quiescence search (captures and queen promotions until the position is
//! quiet, every evasion when in check, stand-pat otherwise; no pruning, so
//! that its value does not depend on the window it is searched with).

use shakmaty::{Move, Position as _};

use super::config::Leaf;
use super::context::Ctx;
use super::ordering::mvv_lva_order;
use super::tree::Bound;
use super::window::Window;
use crate::chess::movegen::tactical_moves;
use crate::chess::values::mvv_lva;
use crate::eval::evaluate_cached;
use crate::search::score::{MAX_PLY, mated_in};

impl Ctx<'_> {
    /// The static evaluation of the current position, from the side to move.
    pub fn evaluate(&mut self) -> i32 {
        evaluate_cached(self.pos.board(), &mut self.pawns)
    }

    /// The value of the horizon node at `ply` (already known to have legal
    /// moves and not to be drawn) searched with `window`, and what that
    /// value is: the evaluation is exact, a quiescence search fail-soft.
    pub fn horizon(&mut self, ply: u32, window: &Window) -> (i32, Bound) {
        self.stats.leaves += 1;
        match self.config.leaf {
            Leaf::Eval => (self.evaluate(), Bound::Exact),
            Leaf::Qsearch => {
                let v = self.quiesce(ply, window.alpha, window.beta);
                (v, Bound::of(v, window.alpha, window.beta))
            }
        }
    }

    /// Fail-soft quiescence search of the current node at `ply`.
    fn quiesce(&mut self, ply: u32, mut alpha: i32, beta: i32) -> i32 {
        let board = self.pos.board();
        let in_check = board.is_check();
        if ply as usize >= MAX_PLY - 1 {
            return self.evaluate();
        }
        let mut best = -crate::search::score::INFINITE;
        let moves: Vec<Move> = if in_check {
            mvv_lva_order(board)
        } else {
            // Stand pat: the side to move may decline every capture.
            let stand_pat = self.evaluate();
            if stand_pat >= beta {
                return stand_pat;
            }
            best = stand_pat;
            alpha = alpha.max(stand_pat);
            let mut captures: Vec<Move> = tactical_moves(self.pos.board()).into_iter().collect();
            captures.sort_by_key(|&m| -mvv_lva(m));
            captures
        };
        if in_check && moves.is_empty() {
            return mated_in(ply as usize);
        }
        for m in moves {
            self.pos.play(m);
            let score = self.qchild(ply + 1, -beta, -alpha);
            self.pos.undo();
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                alpha = alpha.max(score);
            }
            if score >= beta {
                break;
            }
        }
        best
    }

    /// A quiescence node below the horizon: counted, drawn by the rules, or
    /// searched; the value for the parent (negated).
    fn qchild(&mut self, ply: u32, alpha: i32, beta: i32) -> i32 {
        self.enter_qnode(ply);
        if self.aborted {
            return 0;
        }
        if self.pos.is_draw() {
            return 0;
        }
        -self.quiesce(ply, alpha, beta)
    }
}
