//! The teaching searches as a player (the UCI option `SearchAlgorithm`):
//! iterative deepening up to a fixed depth, with an `info` line per depth
//! and the usual `bestmove`, so a GUI can play against plain minimax,
//! alpha-beta, NegaScout, SSS* or MTD(f).
//!
//! The depth is `go depth N`, else [`default_depth`]. The clock is only a
//! safety net: a search still running at the hard time limit (or `stop`, or
//! `go nodes`) is abandoned and the deepest completed one plays. `go
//! infinite` and `go ponder` answer only after `stop` (or `ponderhit`), as
//! the engine's own search does.

use std::time::{Duration, Instant};

use shakmaty::{Move, Position as _};

use super::config::{Algorithm, TheoryConfig};
use super::limits::TheoryLimits;
use super::run::search;
use crate::chess::Position;
use crate::search::limits::SearchLimits;
use crate::search::report::{Reporter, SearchInfo, SearchOutcome, SearchReport};
use crate::search::score::Score;
use crate::search::signals::Signals;
use crate::search::time::TimeLimits;

/// Depth of a teaching search in a game when `go` gives none.
pub const PLAY_DEPTH: u32 = 4;
/// The same for minimax, which has no pruning at all.
pub const MINIMAX_PLAY_DEPTH: u32 = 3;
/// Deepest `go depth` a teaching search accepts (deeper is clamped).
pub const MAX_PLAY_DEPTH: u32 = 8;

/// The depth `algorithm` plays at when `go` gives none.
pub fn default_depth(algorithm: Algorithm) -> u32 {
    if algorithm == Algorithm::Minimax {
        MINIMAX_PLAY_DEPTH
    } else {
        PLAY_DEPTH
    }
}

/// Plays a move in `pos` with the teaching search `config`, reporting as
/// the engine's search does; the last report is
/// [`SearchReport::Finished`].
pub fn think(
    pos: &Position,
    limits: &SearchLimits,
    config: TheoryConfig,
    move_overhead_ms: u64,
    signals: &Signals,
    report: Reporter<'_>,
) -> SearchOutcome {
    let start = limits.received.unwrap_or_else(Instant::now);
    let max_depth = limits
        .depth
        .unwrap_or_else(|| default_depth(config.algorithm))
        .clamp(1, MAX_PLAY_DEPTH);
    let time = TimeLimits::new(&limits.clock, pos.turn(), move_overhead_ms);
    let timed = !limits.infinite && !limits.ponder;
    let deadline = time.hard.filter(|_| timed).map(|h| start + h);
    let mut outcome = SearchOutcome::default();
    let mut last: Option<SearchInfo> = None;
    for depth in 1..=max_depth {
        let theory_limits = TheoryLimits {
            stop: Some(signals.stop_flag()),
            max_nodes: limits.nodes.map(|n| n.saturating_sub(outcome.nodes)),
            deadline,
            searchmoves: &limits.searchmoves,
            ..TheoryLimits::default()
        };
        let result = search(pos, depth, config, theory_limits, None);
        let s = &result.stats;
        outcome.nodes += s.nodes + s.qnodes + s.pv_nodes;
        let Some(value) = result.value else {
            break;
        };
        if result.best.is_none() {
            // No legal move: the final report says so.
            break;
        }
        let info = SearchInfo {
            depth,
            seldepth: depth,
            multipv: 1,
            score: Score::from_internal(value),
            bound: None,
            nodes: outcome.nodes,
            hashfull: 0,
            tbhits: None,
            tb_proven: false,
            time: start.elapsed(),
            pv: result.pv.clone(),
        };
        report(SearchReport::Iteration(info.clone()));
        outcome.iterations.push((depth, outcome.nodes));
        outcome.score = Some(value);
        outcome.pv = result.pv;
        outcome.depth = depth;
        last = Some(info);
        let past_soft = time.soft.is_some_and(|soft| start.elapsed() >= soft);
        if timed && past_soft {
            break;
        }
    }
    // go infinite and go ponder never answer before stop (or ponderhit).
    while !signals.stopped() && (limits.infinite || signals.pondering()) {
        std::thread::sleep(Duration::from_millis(1));
    }
    let fallback = first_legal(pos, &limits.searchmoves);
    outcome.best = outcome.pv.first().copied().or(fallback);
    // The last completed iteration's line was sent already: the final report
    // repeats no line, unless no iteration completed.
    let info = match last {
        Some(_) => None,
        None => Some(no_line(
            pos,
            outcome.nodes,
            start.elapsed(),
            fallback.is_some(),
        )),
    };
    report(SearchReport::Finished {
        info,
        best: outcome.best,
        ponder: outcome.pv.get(1).copied(),
    });
    outcome
}

/// A legal move to play when no search completed (one of `searchmoves`
/// when they are given and legal).
fn first_legal(pos: &Position, searchmoves: &[Move]) -> Option<Move> {
    let legal = pos.board().legal_moves();
    legal
        .iter()
        .copied()
        .find(|m| searchmoves.contains(m))
        .or_else(|| legal.first().copied())
}

/// The final info without a completed search: mate or stalemate at the
/// root (no move), or a search stopped before depth 1 ended.
fn no_line(pos: &Position, nodes: u64, time: Duration, has_move: bool) -> SearchInfo {
    let score = if !has_move && pos.board().is_check() {
        Score::Mate(0)
    } else {
        Score::Cp(0)
    };
    SearchInfo {
        depth: 0,
        seldepth: 0,
        multipv: 1,
        score,
        bound: None,
        nodes,
        hashfull: 0,
        tbhits: None,
        tb_proven: false,
        time,
        pv: Vec::new(),
    }
}
