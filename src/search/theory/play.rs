//! The teaching searches as a player (the UCI option `SearchAlgorithm`):
//! iterative deepening up to a fixed depth, with a report per depth and a
//! [`SearchOutcome`] as the engine's search returns one, so a GUI can play
//! against plain minimax, alpha-beta, NegaScout, SSS* or MTD(f) (the engine
//! layer answers the GUI, as for its own search).
//!
//! The depth is `go depth N`, else [`default_depth`]. The clock is only a
//! safety net: a search still running at the hard time limit (or `stop`, or
//! `go nodes`) is abandoned and the deepest completed one plays.

use std::time::Instant;

use shakmaty::{Move, Position as _};

use super::config::{Algorithm, TheoryConfig};
use super::limits::TheoryLimits;
use super::run::search;
use crate::chess::Position;
use crate::search::limits::SearchLimits;
use crate::search::report::{Counters, PvLine, Reporter, SearchInfo, SearchOutcome, SearchReport};
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

/// Plays a move in `pos` with the teaching search `config`, reporting each
/// depth through `report` as the engine's search does. Without a completed
/// depth (stopped early) the move is a legal one, on a `depth 0` line.
pub fn think(
    pos: &Position,
    limits: &SearchLimits,
    config: TheoryConfig,
    signals: &Signals,
    report: Reporter<'_>,
) -> SearchOutcome {
    let start = limits.received.unwrap_or_else(Instant::now);
    let max_depth = limits
        .depth
        .unwrap_or_else(|| default_depth(config.algorithm))
        .clamp(1, MAX_PLAY_DEPTH);
    let time = TimeLimits::new(&limits.clock, pos.turn());
    let timed = !limits.infinite && !limits.ponder;
    let deadline = time.hard.filter(|_| timed).map(|h| start + h);
    let mut outcome = SearchOutcome::default();
    let mut nodes = 0;
    for depth in 1..=max_depth {
        let theory_limits = TheoryLimits {
            stop: Some(signals.stop_flag()),
            max_nodes: limits.nodes.map(|n| n.saturating_sub(nodes)),
            deadline,
            searchmoves: &limits.searchmoves,
            ..TheoryLimits::default()
        };
        let result = search(pos, depth, config, theory_limits, None);
        let s = &result.stats;
        nodes += s.nodes + s.qnodes + s.pv_nodes;
        let Some(value) = result.value else {
            break;
        };
        if result.best.is_none() {
            // No legal move: the outcome has no line.
            break;
        }
        let line = PvLine {
            depth,
            seldepth: depth,
            score: value,
            tb_proven: false,
            bound: None,
            pv: result.pv,
        };
        let counters = counters(nodes, start);
        report(SearchReport::Iteration(SearchInfo::new(
            &line, 1, &counters,
        )));
        outcome.iterations.push((depth, nodes));
        outcome.lines = vec![line.clone()];
        outcome.lines_counters = counters;
        outcome.line = Some(line);
        let past_soft = time.soft.is_some_and(|soft| start.elapsed() >= soft);
        if timed && past_soft {
            break;
        }
    }
    if outcome.line.is_none() {
        outcome.line = first_legal(pos, &limits.searchmoves).map(unsearched);
    }
    outcome.counters = counters(nodes, start);
    outcome
}

/// The line of legal move `m` played without a completed depth: `depth 0`,
/// score 0 (shown as `info depth 0 score cp 0`).
fn unsearched(m: Move) -> PvLine {
    PvLine {
        depth: 0,
        seldepth: 0,
        score: 0,
        tb_proven: false,
        bound: None,
        pv: vec![m],
    }
}

/// The counters of a teaching search (no table, no tables) after `nodes`.
fn counters(nodes: u64, start: Instant) -> Counters {
    Counters {
        nodes,
        hashfull: 0,
        tbhits: None,
        time: start.elapsed(),
    }
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
