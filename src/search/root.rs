//! The root moves: each with the score and line its last search found, and
//! the bookkeeping the root node does after searching one (the search of
//! the root itself is `negamax::<Root>`).

use shakmaty::Move;

use super::report::SearchReport;
use super::score::INFINITE;
use super::worker::Worker;

/// A root move with what the last search of it found.
#[derive(Debug, Clone)]
pub(super) struct RootMove {
    /// The move.
    pub mv: Move,
    /// Score from the current iteration (`-INFINITE` before it is searched,
    /// or when it did not raise alpha).
    pub score: i32,
    /// Score from the previous iteration.
    pub previous_score: i32,
    /// Principal variation starting with `mv`.
    pub pv: Vec<Move>,
}

impl RootMove {
    /// A root move not searched yet.
    pub fn new(mv: Move) -> RootMove {
        RootMove {
            mv,
            score: -INFINITE,
            previous_score: -INFINITE,
            pv: vec![mv],
        }
    }
}

impl Worker<'_> {
    /// The root moves the current MultiPV line searches, in order: the
    /// lines already fixed at this depth are left out.
    pub(super) fn root_moves_to_search(&self) -> impl Iterator<Item = Move> + '_ {
        self.root_moves[self.pv_index..].iter().map(|rm| rm.mv)
    }

    /// Reports the root move about to be searched (after the first second).
    pub(super) fn report_root_move(&self, depth: i32, m: Move, number: usize) {
        if self.report.is_some() && self.start.elapsed().as_millis() >= 1000 {
            self.send(SearchReport::CurrMove {
                depth: depth as u32,
                mv: m,
                number: number as u32,
            });
        }
    }

    /// Records what the search of root move `m` found: `score` against the
    /// window's `alpha`, with the child's line at ply 1. The first move
    /// searched, and a move that raises alpha, get the score and line; a
    /// move that does not gets `-INFINITE`.
    pub(super) fn update_root_move(&mut self, m: Move, score: i32, first: bool, alpha: i32) {
        let i = self
            .root_moves
            .iter()
            .position(|rm| rm.mv == m)
            .expect("the root searches its own root moves");
        let line = &self.stack.at(1).pv;
        let root_move = &mut self.root_moves[i];
        if first || score > alpha {
            root_move.score = score;
            root_move.pv.clear();
            root_move.pv.push(m);
            root_move.pv.extend_from_slice(line);
            // Beating the first move's score (or its fail-low bound) proves
            // this move better at this depth; a re-search of it (now first)
            // refreshes its score.
            let refresh = first && self.unfinished_best.as_ref().is_some_and(|b| b.mv == m);
            if self.pv_index == 0 && (!first || refresh) {
                self.unfinished_best = Some(root_move.clone());
            }
        } else {
            root_move.score = -INFINITE;
        }
    }
}
