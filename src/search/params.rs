//! Every tunable number of the search, named for its role, and the switches
//! that turn each technique off (the proof tests search with everything off
//! and compare with plain minimax).
//!
//! Glossary: `ply` = distance from the root; `depth` = remaining draft;
//! `rfp` reverse futility pruning; `nmp` null-move pruning; `lmr` late move
//! reductions; `lmp` late move pruning; `see` static exchange evaluation;
//! `iir` internal iterative reduction; `qsearch` quiescence search.
//! Suffixes: BASE (constant part), MARGIN (score margin), FACTOR/DIVISOR
//! (scaling), MAX_DEPTH/MIN_DEPTH (where a technique applies).

use super::ordering::OrderingStep;

/// First aspiration half-window, centipawns.
pub const ASPIRATION_DELTA: i32 = 20;
/// Depth from which iterations use an aspiration window.
pub const ASPIRATION_MIN_DEPTH: u32 = 4;

/// Reverse futility pruning: only at depth ≤ this.
pub const RFP_MAX_DEPTH: i32 = 7;
/// Reverse futility pruning: margin per ply of depth.
pub const RFP_MARGIN: i32 = 75;

/// Null-move pruning: smallest depth.
pub const NMP_MIN_DEPTH: i32 = 3;
/// Null-move pruning: base reduction.
pub const NMP_BASE_REDUCTION: i32 = 3;
/// Null-move pruning: one more ply of reduction per this much depth.
pub const NMP_DEPTH_DIVISOR: i32 = 4;
/// Null-move pruning: one more ply per this much eval above beta…
pub const NMP_EVAL_DIVISOR: i32 = 200;
/// …up to this many plies.
pub const NMP_EVAL_MAX_REDUCTION: i32 = 3;
/// Null-move pruning: depth from which a null-move cutoff is verified by a
/// reduced search without null moves (zugzwang insurance).
pub const NMP_VERIFY_MIN_DEPTH: i32 = 12;

/// Futility pruning of quiet moves: only at depth ≤ this.
pub const FP_MAX_DEPTH: i32 = 6;
/// Futility pruning: base margin.
pub const FP_BASE_MARGIN: i32 = 100;
/// Futility pruning: margin per ply.
pub const FP_MARGIN: i32 = 90;

/// Late move pruning: only at depth ≤ this.
pub const LMP_MAX_DEPTH: i32 = 8;
/// Late move pruning: quiet moves tried before pruning = BASE + depth².
pub const LMP_BASE: i32 = 3;

/// SEE pruning: only at depth ≤ this.
pub const SEE_PRUNE_MAX_DEPTH: i32 = 8;
/// SEE pruning of quiet moves: allowed loss per ply.
pub const SEE_QUIET_MARGIN: i32 = 60;
/// SEE pruning of captures: allowed loss per ply².
pub const SEE_CAPTURE_MARGIN: i32 = 20;

/// Late move reductions: smallest depth.
pub const LMR_MIN_DEPTH: i32 = 3;
/// Late move reductions: moves searched in full before reducing (+1 at PV nodes).
pub const LMR_MIN_MOVES: usize = 2;
/// Late move reductions: the constant part, in plies, of
/// `BASE + ln(depth)·ln(moves)/DIVISOR`.
pub const LMR_BASE: f64 = 0.75;
/// Late move reductions: divisor of ln(depth)·ln(moves).
pub const LMR_DIVISOR: f64 = 2.25;
/// Late move reductions: history score (butterfly and continuations) worth
/// one ply less/more…
pub const LMR_HISTORY_DIVISOR: i32 = 8192;
/// …up to this many plies either way.
pub const LMR_HISTORY_MAX: i32 = 2;

/// History pruning of quiet moves: only at depth ≤ this…
pub const HP_MAX_DEPTH: i32 = 3;
/// …when their history is below minus this per ply.
pub const HP_MARGIN: i32 = 2000;

/// ProbCut: smallest depth.
pub const PROBCUT_MIN_DEPTH: i32 = 5;
/// ProbCut: the margin over beta a capture must reach…
pub const PROBCUT_MARGIN: i32 = 200;
/// …less this when the node is improving.
pub const PROBCUT_IMPROVING: i32 = 50;
/// ProbCut: the quick search is this much shallower than a normal child.
pub const PROBCUT_REDUCTION: i32 = 3;

/// Singular extensions: smallest depth.
pub const SE_MIN_DEPTH: i32 = 8;
/// Singular extensions: the TT entry may be this much shallower.
pub const SE_TT_DEPTH_MARGIN: i32 = 3;
/// Singular extensions: the other moves must stay this much per ply below
/// the TT score.
pub const SE_MARGIN: i32 = 2;
/// Singular extensions: a move this far singular is extended twice…
pub const SE_DOUBLE_MARGIN: i32 = 20;
/// …at most this many times on a path.
pub const SE_DOUBLE_MAX: u8 = 6;

/// Internal iterative reduction: smallest depth.
pub const IIR_MIN_DEPTH: i32 = 4;

/// Delta pruning in qsearch: margin over the captured piece.
pub const DELTA_MARGIN: i32 = 200;

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
    /// Reverse futility, futility, late move and SEE pruning, delta pruning.
    pub pruning: bool,
    /// Late move reductions and internal iterative reduction.
    pub reductions: bool,
    /// Check extension.
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
            reductions: true,
            extensions: true,
            qsearch: true,
            mate_distance: true,
            correction: true,
        }
    }
}

impl SearchConfig {
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
            reductions: false,
            extensions: false,
            qsearch: false,
            mate_distance: false,
            correction: false,
        }
    }
}
