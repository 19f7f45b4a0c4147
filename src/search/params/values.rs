//! Every tunable of the search: its value, the range an SPSA tuner may
//! explore and its step, declared once by the `tunables!` macro (a `const`
//! in the normal build, a `static` in the `spsa` build); [`TUNABLES`]
//! lists them all. The glossary and the conventions are in the module
//! above (`params/mod.rs`).

use super::tunable::{Tunable, TunableSpec};

/// Declares each tunable (`const` in the normal build, `static` in the
/// `spsa` build) and the list of them all, [`TUNABLES`].
macro_rules! tunables {
    ($(
        $(#[doc = $doc:literal])*
        $name:ident = $default:literal, $min:literal..=$max:literal, step $step:literal;
    )*) => {
        $(
            $(#[doc = $doc])*
            #[cfg(not(feature = "spsa"))]
            pub const $name: Tunable = Tunable::new(TunableSpec {
                name: stringify!($name),
                default: $default,
                min: $min,
                max: $max,
                step: $step,
            });
            $(#[doc = $doc])*
            #[cfg(feature = "spsa")]
            pub static $name: Tunable = Tunable::new(TunableSpec {
                name: stringify!($name),
                default: $default,
                min: $min,
                max: $max,
                step: $step,
            });
        )*
        /// Every tunable, in the order of this file.
        pub static TUNABLES: &[&Tunable] = &[$(&$name),*];
    };
}

tunables! {
    // Aspiration windows.
    /// First aspiration half-window, centipawns.
    ASPIRATION_DELTA = 20, 5..=60, step 4;
    /// Depth from which iterations use an aspiration window.
    ASPIRATION_MIN_DEPTH = 4, 1..=8, step 1;

    // Reverse futility pruning.
    /// Reverse futility pruning: only at depth ≤ this.
    RFP_MAX_DEPTH = 7, 3..=12, step 1;
    /// Reverse futility pruning: margin per ply of depth.
    RFP_MARGIN = 75, 30..=150, step 6;

    // Null-move pruning.
    /// Null-move pruning: smallest depth.
    NMP_MIN_DEPTH = 3, 1..=6, step 1;
    /// Null-move pruning: base reduction.
    NMP_BASE_REDUCTION = 3, 1..=6, step 1;
    /// Null-move pruning: one more ply of reduction per this much depth.
    NMP_DEPTH_DIVISOR = 4, 2..=8, step 1;
    /// Null-move pruning: one more ply per this much eval above beta…
    NMP_EVAL_DIVISOR = 200, 80..=400, step 16;
    /// …up to this many plies.
    NMP_EVAL_MAX_REDUCTION = 3, 0..=6, step 1;
    /// Null-move pruning: depth from which a null-move cutoff is verified by
    /// a reduced search without null moves (zugzwang insurance).
    NMP_VERIFY_MIN_DEPTH = 12, 6..=20, step 1;

    // Futility pruning.
    /// Futility pruning of quiet moves: only at depth ≤ this.
    FP_MAX_DEPTH = 6, 2..=10, step 1;
    /// Futility pruning: base margin.
    FP_BASE_MARGIN = 100, 20..=250, step 10;
    /// Futility pruning: margin per ply.
    FP_MARGIN = 90, 30..=200, step 8;

    // Late move pruning.
    /// Late move pruning: only at depth ≤ this.
    LMP_MAX_DEPTH = 8, 3..=12, step 1;
    /// Late move pruning: quiet moves tried before pruning = BASE + depth².
    LMP_BASE = 3, 0..=10, step 1;

    // SEE pruning.
    /// SEE pruning: only at depth ≤ this.
    SEE_PRUNE_MAX_DEPTH = 8, 3..=12, step 1;
    /// SEE pruning of quiet moves: allowed loss per ply.
    SEE_QUIET_MARGIN = 60, 20..=150, step 6;
    /// SEE pruning of captures: allowed loss per ply².
    SEE_CAPTURE_MARGIN = 20, 5..=60, step 3;

    // Late move reductions.
    /// Late move reductions: smallest depth.
    LMR_MIN_DEPTH = 3, 1..=6, step 1;
    /// Late move reductions: moves searched in full before reducing (+1 at
    /// PV nodes).
    LMR_MIN_MOVES = 2, 1..=6, step 1;
    /// Late move reductions: the constant part of
    /// `BASE + ln(depth)·ln(moves)/DIVISOR`, in hundredths of a ply.
    LMR_BASE = 75, 0..=200, step 8;
    /// Late move reductions: divisor of ln(depth)·ln(moves), in hundredths.
    LMR_DIVISOR = 225, 120..=400, step 12;
    /// Late move reductions: history score (butterfly and continuations)
    /// worth one ply less/more…
    LMR_HISTORY_DIVISOR = 8192, 2048..=16384, step 512;
    /// …up to this many plies either way.
    LMR_HISTORY_MAX = 2, 0..=4, step 1;

    // History pruning.
    /// History pruning of quiet moves: only at depth ≤ this…
    HP_MAX_DEPTH = 3, 1..=6, step 1;
    /// …when their history is below minus this per ply.
    HP_MARGIN = 2000, 500..=5000, step 200;

    // ProbCut.
    /// ProbCut: smallest depth.
    PROBCUT_MIN_DEPTH = 5, 3..=8, step 1;
    /// ProbCut: the margin over beta a capture must reach…
    PROBCUT_MARGIN = 200, 80..=400, step 16;
    /// …less this when the node is improving.
    PROBCUT_IMPROVING = 50, 0..=150, step 8;
    /// ProbCut: the quick search is this much shallower than a normal child.
    PROBCUT_REDUCTION = 3, 2..=5, step 1;

    // Singular extensions.
    /// Singular extensions: smallest depth.
    SE_MIN_DEPTH = 8, 4..=12, step 1;
    /// Singular extensions: the TT entry may be this much shallower.
    SE_TT_DEPTH_MARGIN = 3, 1..=6, step 1;
    /// Singular extensions: the other moves must stay this much per ply
    /// below the TT score.
    SE_MARGIN = 2, 1..=6, step 1;
    /// Singular extensions: a move this far singular is extended twice…
    SE_DOUBLE_MARGIN = 20, 0..=60, step 4;
    /// …at most this many times on a path.
    SE_DOUBLE_MAX = 6, 0..=12, step 1;

    // Internal iterative reduction.
    /// Internal iterative reduction: smallest depth.
    IIR_MIN_DEPTH = 4, 2..=8, step 1;

    // Quiescence search.
    /// Delta pruning in qsearch: margin over the captured piece.
    DELTA_MARGIN = 200, 50..=400, step 16;
    /// Lazy evaluation in qsearch: how far the evaluation's cheap part
    /// (material, tables, the pawn cache) must be beyond the window for the
    /// rest not to be computed.
    LAZY_MARGIN = 300, 100..=800, step 25;

    // Time management (`time.rs`; no effect on a search to a fixed depth).
    /// Moves assumed left in a sudden-death game when `movestogo` is absent.
    DEFAULT_MOVES_TO_GO = 22, 10..=50, step 2;
    /// Share of the increment added to each move's budget, in percent.
    INCREMENT_SHARE_PERCENT = 75, 30..=100, step 5;
    /// The soft limit as a percentage of the move's budget.
    SOFT_LIMIT_PERCENT = 76, 30..=100, step 4;
    /// The soft limit's scale is `(TM_NODES_BASE - share) * TM_NODES_FACTOR`
    /// (both in hundredths), where `share` is the best move's part of the
    /// root's nodes: a best move that took nearly all the effort is clear,
    /// one among many close rivals is not.
    TM_NODES_BASE = 150, 110..=250, step 8;
    /// See [`TM_NODES_BASE`].
    TM_NODES_FACTOR = 120, 60..=200, step 8;
    /// Each centipawn the score fell since the last iteration scales the
    /// soft limit up by this many ten-thousandths…
    TM_SCORE_DROP_SCALE = 50, 0..=150, step 6;
    /// …for at most this many centipawns.
    TM_SCORE_DROP_MAX = 100, 20..=300, step 12;
}
