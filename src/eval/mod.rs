//! Static evaluation, from the side to move's point of view: one interface
//! (the names below), and behind it the evaluation the engine plays with.
//!
//! ```text
//! eval/
//!   mod.rs          the interface: what the search, the engine and the tools call
//!   evaluation.rs   which evaluation plays (Evaluation): hand-crafted or a net (LoadedNet,
//!                   the built-in one or an EvalFile)
//!   evaluator.rs    the search's hooks (Evaluator), per search thread (EvalState)
//!   eval_cache.rs   whole static evaluations by key, per search thread (any evaluation)
//!   piece_values.rs the net's value of each piece on the board (`eval` shows it)
//!   score_model.rs  how an evaluation's centipawns read as win/draw/loss chances and as
//!                   `score cp` (ScoreModel: the hand-crafted one's, or a net's own)
//!   hce/            the hand-crafted evaluation: its machinery (the sum, the trace,
//!                   the weights and their layout, the attack maps, the pawn cache)
//!     terms/        its terms, one topic per file, and the lists that run them
//!   nnue/           the learned evaluation: the net, its file, its accumulators
//! ```
//!
//! Each evaluation has a folder of its own, with its own machinery (the
//! hand-crafted terms and their pawn cache; the net, its file and its
//! accumulators) and no names shared: each evaluation is a room, the
//! caches of whole evaluations and this interface are the hall.
//!
//! - **The search** gets an [`Evaluation`] with each request and calls an
//!   [`Evaluator`] (per thread, on its [`EvalState`]): at the root, after
//!   each move and null move, and for an evaluation (whole, or a lazy
//!   evaluation's cheap part and rest). It never learns which evaluation
//!   answers; `evaluator.rs` has the table of what each does.
//! - **The engine** chooses the evaluation (`Use NNUE`, `EvalFile`:
//!   [`LoadedNet`]), shows it ([`Evaluation::evaluate`], the hand-crafted
//!   [`trace`], the net's [`piece_values`]) and tells the reports which
//!   played ([`EvalKind`]).
//! - **The hand-crafted evaluation's own users** (the strength levels'
//!   handicap, the teaching searches, the tuner) call it by name:
//!   [`evaluate`], [`evaluate_cached`], the weight [`layout`], the
//!   [`coefficients`] of a position.

pub mod endgame;
mod eval_cache;
mod evaluation;
mod evaluator;
mod hce;
pub mod nnue;
mod piece_values;
pub mod score_model;

pub use endgame::known_win::KNOWN_WIN;
pub use eval_cache::EvalCache;
pub use evaluation::{
    BUILT_IN_NAME, EvalKind, Evaluation, HAND_CRAFTED, LoadedNet, NET_EVAL_LIMIT, is_built_in,
};
#[cfg_attr(not(test), allow(unused_imports))]
pub(crate) use evaluator::verify;
pub use evaluator::{ACCUMULATOR_PLIES, EvalState, Evaluator};
pub use hce::{
    COMPLEXITY_FEATURES, Coefficients, DANGER_EG_DIVISOR, DANGER_FEATURES, DANGER_MG_DIVISOR,
    MAX_PHASE, Partial, PawnCache, S, SCALE_NORMAL, Term, coefficients, complete, evaluate,
    evaluate_cached, evaluate_white, evaluate_white_cached, layout, material_balance,
    partial_cached, pawn_key, phase, taper, trace,
};
pub use piece_values::{PieceValues, piece_values};
pub use score_model::{ScoreModel, ScoreModelError};
