//! The root of the search: the root moves with their scores and lines, and
//! the search of them at one depth (PVS over the root moves, MultiPV lines
//! from `pv_index` on).

use shakmaty::Move;

use super::alphabeta::{INFINITE, Line, Worker};
use crate::search::SearchReport;

/// A root move with what the last search of it found.
#[derive(Debug, Clone)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// Score from the current iteration (`-INFINITE` before it is searched).
    pub score: i32,
    /// Score from the previous iteration.
    pub previous_score: i32,
    /// Principal variation starting with `mv`.
    pub pv: Vec<Move>,
}

impl Worker<'_> {
    /// Searches the root moves from `pv_index` on with window
    /// `(alpha, beta)` at `depth`; updates their scores and PVs and returns
    /// the best score. Moves that do not raise alpha get `-INFINITE`.
    pub fn search_root(
        &mut self,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        report: Option<&(dyn Fn(SearchReport) + Sync)>,
    ) -> i32 {
        let board = self.root.board().clone();
        let config = self.shared.config;
        let mut best = -INFINITE;
        self.nodes += 1;
        for i in self.pv_index..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            if let Some(report) = report
                && self.start.elapsed().as_millis() >= 1000
            {
                report(SearchReport::CurrMove {
                    depth: depth as u32,
                    mv: m,
                    number: (i + 1) as u32,
                });
            }
            let child = self.play(&board, m, 0);
            let mut line = Line::new();
            let first = i == self.pv_index;
            let mut score;
            if first || !config.pvs {
                score = -self.negamax::<true>(&child, depth - 1, 1, -beta, -alpha, &mut line, true);
            } else {
                score = -self.negamax::<false>(
                    &child,
                    depth - 1,
                    1,
                    -alpha - 1,
                    -alpha,
                    &mut line,
                    true,
                );
                if score > alpha && score < beta && !self.aborted {
                    score =
                        -self.negamax::<true>(&child, depth - 1, 1, -beta, -alpha, &mut line, true);
                }
            }
            self.unplay();
            if self.aborted {
                return best;
            }
            let root_move = &mut self.root_moves[i];
            if first || score > alpha {
                root_move.score = score;
                root_move.pv.clear();
                root_move.pv.push(m);
                root_move.pv.extend_from_slice(&line);
                // Beating the first move's score (or its fail-low bound)
                // proves this move better at this depth; a re-search of it
                // (now first) refreshes its score.
                let refresh = first && self.unfinished_best.as_ref().is_some_and(|b| b.mv == m);
                if self.pv_index == 0 && (!first || refresh) {
                    self.unfinished_best = Some(root_move.clone());
                }
            } else {
                root_move.score = -INFINITE;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
