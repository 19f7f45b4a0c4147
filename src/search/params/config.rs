//! The switches that turn each technique of the search off
//! ([`SearchConfig`]): the real engine has them all on; the proof tests
//! search with everything off and compare with plain minimax.

use crate::search::ordering::OrderingStep;

/// Which techniques are on. `SearchConfig::default()` is the real engine;
/// `SearchConfig::plain()` is bare alpha-beta for the proof tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchConfig {
    /// Probe and store the transposition table.
    pub tt: bool,
    /// Order moves (TT move, captures, killers, history); off = generation order.
    pub ordering: bool,
    /// With `ordering` on: how much of it.
    pub ordering_step: OrderingStep,
    /// Principal variation search (zero windows after the first move).
    pub pvs: bool,
    /// Aspiration windows at the root.
    pub aspiration: bool,
    /// Null-move pruning (the `NullMove` option).
    pub null_move: bool,
    /// Reverse futility, futility, late move and SEE pruning, delta pruning,
    /// ProbCut.
    pub pruning: bool,
    /// With `pruning` on: the whole-node cutoffs that rest on the static
    /// evaluation (reverse futility pruning, ProbCut). Off in `go mate`
    /// searches, see [`SearchConfig::for_mate_search`].
    pub node_pruning: bool,
    /// Late move reductions and internal iterative reduction.
    pub reductions: bool,
    /// Check extension, and quiet checks at the first quiescence ply.
    pub extensions: bool,
    /// Quiescence search at the horizon (off: static evaluation).
    pub qsearch: bool,
    /// Mate-distance pruning.
    pub mate_distance: bool,
    /// Static evaluations corrected by the correction history.
    pub correction: bool,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            tt: true,
            ordering: true,
            ordering_step: OrderingStep::Full,
            pvs: true,
            aspiration: true,
            null_move: true,
            pruning: true,
            node_pruning: true,
            reductions: true,
            extensions: true,
            qsearch: true,
            mate_distance: true,
            correction: true,
        }
    }
}

impl SearchConfig {
    /// This configuration for `go mate`: a mate is proved by the moves
    /// searched, so no node is cut because its static evaluation (reverse
    /// futility, ProbCut) or a pass (null move) says the side to move is
    /// doing well. Composed mates are full of sacrifices, quiet keys and
    /// zugzwang that those cutoffs hide: on 300 mates in 5 to 7 of
    /// matetrack's mates2000.epd at 1M nodes a position, `go mate` found
    /// 210 with them and 264 without (Stockfish 15.1: 255).
    pub fn for_mate_search(self) -> SearchConfig {
        SearchConfig {
            null_move: false,
            node_pruning: false,
            ..self
        }
    }

    /// Plain fixed-depth alpha-beta: no TT, ordering, PVS, aspiration,
    /// pruning, reductions, extensions, qsearch, mate-distance pruning or
    /// evaluation correction.
    pub fn plain() -> SearchConfig {
        SearchConfig {
            tt: false,
            ordering: false,
            ordering_step: OrderingStep::Full,
            pvs: false,
            aspiration: false,
            null_move: false,
            pruning: false,
            node_pruning: false,
            reductions: false,
            extensions: false,
            qsearch: false,
            mate_distance: false,
            correction: false,
        }
    }
}
