//! The root moves: each with the score and line its last search found, and
//! the bookkeeping of the root node around them (which moves the current
//! MultiPV line searches, what a finished move leaves, the move proven best
//! in an unfinished iteration). The search of the root itself is
//! `negamax::<Root>`.
//!
//! When the tables rank the root moves (see `tablebase/setup.rs`), each move
//! carries its rank, the moves stay in rank order, and MultiPV line `k`
//! searches only the moves of the rank of the `k`-th move: line 1 the moves
//! that keep the best outcome, and further lines the rest in rank order.
//! Without tables every rank is 0, one group.
//!
//! A move the tables call a win also carries a floor under its score, the
//! tablebase score of a win that zeroes (captures, moves a pawn or mates)
//! as many plies from the root as the tables say (`TB_WIN - d`): among
//! the wins of one rank the tables' quickest progress is played unless
//! the search proves a mate, which scores above every floor. The search's
//! evaluation of such a move counts for nothing: it cannot tell progress
//! from shuffling, and shuffling drew won endings by repetition (issue 35).

use shakmaty::Move;

use super::score::{INFINITE, MAX_PLY, is_mate, tb_win_in};
use crate::tb::{RootRanking, Verdict};

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
    /// Nodes spent on the move so far in this search (time management
    /// weighs how settled the search is by the best move's share).
    pub nodes: u64,
    /// The tables' rank of the move (higher is better; 0 without tables).
    pub tb_rank: i32,
    /// The score the tables give the move, shown instead of the search's
    /// unless that is a mate (`None`: not ranked by the tables).
    pub tb_score: Option<i32>,
    /// A win by the tables: the least score of the move, `TB_WIN - d` for
    /// a win that zeroes `d` plies from the root (see the module
    /// documentation).
    pub tb_floor: Option<i32>,
}

impl RootMove {
    /// A root move not searched yet.
    fn new(mv: Move) -> RootMove {
        RootMove {
            mv,
            score: -INFINITE,
            previous_score: -INFINITE,
            pv: vec![mv],
            nodes: 0,
            tb_rank: 0,
            tb_score: None,
            tb_floor: None,
        }
    }

    /// The score a report shows for the search's `score` of this move: the
    /// tables' verdict when they ranked it, unless the search found a mate.
    pub fn shown_score(&self, score: i32) -> i32 {
        match self.tb_score {
            Some(tb) if !is_mate(score) => tb,
            _ => score,
        }
    }
}

/// The root moves of one search and where the search stands with them.
#[derive(Debug, Clone)]
pub(super) struct RootMoves {
    /// The moves, best first after each iteration.
    pub moves: Vec<RootMove>,
    /// Which MultiPV line is being searched (moves before it are done).
    pub pv_index: usize,
    /// Depth of the current iteration.
    pub depth: i32,
    /// A root move that beat the first move searched in the current
    /// iteration (MultiPV line 1): proven better at this depth even if the
    /// iteration is cut short. Cleared when an iteration starts.
    pub unfinished_best: Option<RootMove>,
}

impl RootMoves {
    /// The root moves `moves`, none searched yet.
    pub fn new(moves: &[Move]) -> RootMoves {
        RootMoves {
            moves: moves.iter().map(|&mv| RootMove::new(mv)).collect(),
            pv_index: 0,
            depth: 0,
            unfinished_best: None,
        }
    }

    /// The root moves as the tables rank them, best first, none searched
    /// yet; `rule50`: the 50-move rule counts for the scores shown.
    pub fn ranked(ranking: &RootRanking, rule50: bool) -> RootMoves {
        let mut moves: Vec<RootMove> = ranking
            .moves
            .iter()
            .map(|ranked| {
                let verdict = ranked.wdl.verdict(rule50);
                // Beyond MAX_PLY (a cursed win without the 50-move rule) the
                // floor stays at the bottom of the tablebase band.
                let floor = |d: i32| tb_win_in(d.clamp(0, MAX_PLY as i32) as usize);
                RootMove {
                    tb_rank: ranked.rank,
                    tb_score: Some(match verdict {
                        // The root itself is in the tables: a win there is a
                        // win at ply 0 (Stockfish shows it as 20000 too).
                        Verdict::Win => tb_win_in(0),
                        Verdict::Draw => 0,
                        Verdict::Loss => -tb_win_in(0),
                    }),
                    tb_floor: ranked.dtz.filter(|_| verdict == Verdict::Win).map(floor),
                    ..RootMove::new(ranked.mv)
                }
            })
            .collect();
        // The quickest progress first among equal ranks: it is what the
        // search will most likely play.
        moves.sort_by_key(|rm| std::cmp::Reverse((rm.tb_rank, rm.tb_floor)));
        RootMoves {
            moves,
            ..RootMoves::new(&[])
        }
    }

    /// The tables' floor under the score of root move `m`, if it has one
    /// (see [`RootMove::tb_floor`]).
    pub fn tb_floor(&self, m: Move) -> Option<i32> {
        self.moves.iter().find(|rm| rm.mv == m)?.tb_floor
    }

    /// Starts the iteration at `depth`: this iteration's scores become the
    /// previous ones.
    pub fn start_iteration(&mut self, depth: i32) {
        self.depth = depth;
        self.unfinished_best = None;
        for rm in &mut self.moves {
            rm.previous_score = rm.score;
        }
    }

    /// The moves the current MultiPV line searches, in order: the lines
    /// already fixed at this depth are left out, and so are the moves of a
    /// lower tablebase rank than the line's first.
    pub fn to_search(&self) -> impl Iterator<Item = Move> + '_ {
        self.moves[self.pv_index..self.group_end()]
            .iter()
            .map(|rm| rm.mv)
    }

    /// The end of the current line's group: the moves from `pv_index` with
    /// its tablebase rank.
    pub fn group_end(&self) -> usize {
        let rank = self.moves.get(self.pv_index).map(|rm| rm.tb_rank);
        self.moves[self.pv_index..]
            .iter()
            .position(|rm| Some(rm.tb_rank) != rank)
            .map_or(self.moves.len(), |n| self.pv_index + n)
    }

    /// Sorts `moves[from..to]` best first: by tablebase rank, then score
    /// (stable: equal moves keep their order).
    pub fn sort(&mut self, from: usize, to: usize) {
        self.moves[from..to].sort_by_key(|rm| std::cmp::Reverse((rm.tb_rank, rm.score)));
    }

    /// Records what the search of root move `m` found: `score` against the
    /// window's `alpha`, with the child's `line`, after `nodes` nodes. The
    /// first move searched, and a move that raises alpha, get the score and
    /// line; a move that does not gets `-INFINITE`.
    pub fn update(
        &mut self,
        m: Move,
        score: i32,
        first: bool,
        alpha: i32,
        line: &[Move],
        nodes: u64,
    ) {
        let i = self
            .moves
            .iter()
            .position(|rm| rm.mv == m)
            .expect("the root searches its own root moves");
        let root_move = &mut self.moves[i];
        root_move.nodes += nodes;
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
