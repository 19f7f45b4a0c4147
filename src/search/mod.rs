//! The searcher: iterative deepening over [`alphabeta`], with limits from
//! `go`, reporting through a callback. Search never prints; the UCI layer
//! formats what it reports.
//!
//! This is the foundation's simple searcher (material evaluation, plain
//! alpha-beta with captures first); the search issue grows it.

pub mod alphabeta;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use shakmaty::{Move, Position as _};

use crate::position::Position;
use crate::time::{Clock, TimeLimits};

/// Deepest iteration the searcher will start; `go depth` beyond it is
/// clamped.
pub const MAX_DEPTH: u32 = 100;
/// Longest path from the root the searcher keeps state for.
pub const MAX_PLY: usize = 128;
/// Score of a mate at the root; a mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 32_000;
/// Scores beyond this (in absolute value) are mate scores.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Nodes between two looks at the clock.
pub const TIME_CHECK_INTERVAL: u64 = 1024;

/// What `go` asked for, in our own types.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SearchLimits {
    /// `go depth`: iterations to complete.
    pub depth: Option<u32>,
    /// `go nodes`: stop after about this many nodes.
    pub nodes: Option<u64>,
    /// `go mate`: look for a mate in this many moves.
    pub mate: Option<u32>,
    /// `go infinite`: search until `stop`.
    pub infinite: bool,
    /// `go ponder`: search on the opponent's time until `ponderhit`/`stop`.
    pub ponder: bool,
    /// Clock parameters (`wtime btime winc binc movestogo movetime`).
    pub clock: Clock,
    /// `go searchmoves`: only these root moves (empty: all).
    pub searchmoves: Vec<Move>,
}

/// A score as UCI shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the side to move's view.
    Cp(i32),
    /// Mate in this many moves (negative: we are mated).
    Mate(i32),
}

impl Score {
    /// Converts an internal score.
    pub fn from_internal(score: i32) -> Score {
        if score >= MATE_BOUND {
            Score::Mate((MATE - score + 1) / 2)
        } else if score <= -MATE_BOUND {
            Score::Mate(-(MATE + score) / 2)
        } else {
            Score::Cp(score)
        }
    }
}

/// One report of progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchInfo {
    /// Completed depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score of the best line.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Principal variation.
    pub pv: Vec<Move>,
}

/// What the searcher tells its caller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SearchReport {
    /// An iteration finished.
    Iteration(SearchInfo),
    /// The search is over: the last info, then the move to play.
    Finished {
        /// Final info (depth 0 when the root has no legal move).
        info: SearchInfo,
        /// The move to play; `None` when there is no legal move.
        best: Option<Move>,
        /// The expected reply, when the PV has one.
        ponder: Option<Move>,
    },
}

/// Flags shared between the UCI thread and a running search.
#[derive(Debug, Default)]
pub struct Signals {
    stop: AtomicBool,
    pondering: AtomicBool,
}

impl Signals {
    /// Fresh signals for a search; `ponder` marks a `go ponder`.
    pub fn new(ponder: bool) -> Signals {
        Signals {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(ponder),
        }
    }

    /// Asks the search to stop as soon as it can.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Whether a stop was asked for.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// `ponderhit`: the search goes on, now under its time limits.
    pub fn ponderhit(&self) {
        self.pondering.store(false, Ordering::SeqCst);
    }

    /// Whether the search is still pondering.
    pub fn pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }
}

/// Runs a whole search and reports through `report`; the last report is
/// always [`SearchReport::Finished`]. With `infinite` or while pondering, it
/// does not finish before `stop` (or `ponderhit`, for ponder).
pub fn search(
    pos: &Position,
    limits: &SearchLimits,
    move_overhead_ms: u64,
    signals: &Signals,
    report: &mut dyn FnMut(SearchReport),
) {
    let mut start = Instant::now();
    let time = TimeLimits::new(&limits.clock, pos.turn(), move_overhead_ms);
    let mut searcher = alphabeta::Searcher::new(pos, limits, signals);

    let mut root_moves: Vec<Move> = pos.board().legal_moves().into_iter().collect();
    if !limits.searchmoves.is_empty() {
        root_moves.retain(|m| limits.searchmoves.contains(m));
    }

    let max_depth = match (limits.depth, limits.mate) {
        (Some(d), _) => d.clamp(1, MAX_DEPTH),
        (None, Some(m)) => (2 * m.max(1) - 1).min(MAX_DEPTH),
        (None, None) => MAX_DEPTH,
    };

    let mut last: Option<SearchInfo> = None;
    let mut was_pondering = signals.pondering();
    if !root_moves.is_empty() {
        for depth in 1..=max_depth {
            searcher.deadline = if signals.pondering() || depth == 1 {
                None
            } else {
                time.hard.map(|h| start + h)
            };
            let Some((score, pv)) = searcher.search_root(&root_moves, depth) else {
                break;
            };
            let info = SearchInfo {
                depth,
                seldepth: searcher.seldepth,
                score: Score::from_internal(score),
                nodes: searcher.nodes,
                time: start.elapsed(),
                pv,
            };
            // Search the best move first in the next iteration.
            if let Some(i) = info
                .pv
                .first()
                .and_then(|best| root_moves.iter().position(|m| m == best))
            {
                root_moves[..=i].rotate_right(1);
            }
            report(SearchReport::Iteration(info.clone()));
            last = Some(info);
            if was_pondering && !signals.pondering() {
                // ponderhit: our clock started now.
                was_pondering = false;
                start = Instant::now();
            }
            if signals.stopped() || limits.nodes.is_some_and(|n| searcher.nodes >= n) {
                break;
            }
            if let (Some(m), Score::Mate(n)) = (limits.mate, Score::from_internal(score))
                && n > 0
                && n as u32 <= m
            {
                break;
            }
            let pondering = signals.pondering();
            if !pondering && time.soft.is_some_and(|s| start.elapsed() >= s) {
                break;
            }
        }
    }

    // go infinite and go ponder never answer before stop (or ponderhit).
    while !signals.stopped() && (limits.infinite || signals.pondering()) {
        std::thread::sleep(Duration::from_millis(1));
    }

    let (info, best, ponder) = match last {
        Some(mut info) => {
            info.nodes = searcher.nodes;
            info.time = start.elapsed();
            let best = info.pv.first().copied();
            let ponder = info.pv.get(1).copied();
            (info, best, ponder)
        }
        None => {
            // No legal move at the root (mate or stalemate), or stopped
            // before depth 1 could finish.
            let in_check = pos.board().is_check();
            let score = if root_moves.is_empty() && in_check {
                Score::Mate(0)
            } else {
                Score::Cp(0)
            };
            let best = root_moves.first().copied();
            let info = SearchInfo {
                depth: 0,
                seldepth: 0,
                score,
                nodes: searcher.nodes,
                time: start.elapsed(),
                pv: best.into_iter().collect(),
            };
            (info, best, None)
        }
    };
    report(SearchReport::Finished { info, best, ponder });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(fen: &str, limits: SearchLimits) -> (Vec<SearchReport>, Option<Move>) {
        let pos = Position::from_fen(fen, false).unwrap();
        let signals = Signals::new(false);
        let mut reports = Vec::new();
        search(&pos, &limits, 0, &signals, &mut |r| reports.push(r));
        let best = match reports.last() {
            Some(SearchReport::Finished { best, .. }) => *best,
            _ => panic!("no Finished report"),
        };
        (reports, best)
    }

    #[test]
    fn finds_mate_in_one() {
        let limits = SearchLimits {
            depth: Some(2),
            ..SearchLimits::default()
        };
        let (reports, best) = run("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", limits);
        assert_eq!(best.map(|m| m.to().to_string()), Some("a8".to_owned()));
        let SearchReport::Finished { info, .. } = reports.last().unwrap() else {
            unreachable!()
        };
        assert_eq!(info.score, Score::Mate(1));
    }

    #[test]
    fn mated_root_reports_mate_zero_and_no_move() {
        let (reports, best) = run("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", SearchLimits::default());
        assert_eq!(best, None);
        let SearchReport::Finished { info, .. } = reports.last().unwrap() else {
            unreachable!()
        };
        assert_eq!((info.depth, info.score), (0, Score::Mate(0)));
    }

    #[test]
    fn score_conversion_counts_moves() {
        assert_eq!(Score::from_internal(MATE - 1), Score::Mate(1));
        assert_eq!(Score::from_internal(MATE - 3), Score::Mate(2));
        assert_eq!(Score::from_internal(-(MATE - 2)), Score::Mate(-1));
        assert_eq!(Score::from_internal(35), Score::Cp(35));
    }
}
