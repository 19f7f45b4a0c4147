//! Static evaluation, from the side to move's point of view: one interface
//! (the names below), and behind it the evaluation the engine plays with.
//!
//! ```text
//! eval/
//!   mod.rs          the interface: what the search, the engine and the tools call
//!   eval_cache.rs   whole static evaluations by key, per search thread (any evaluation)
//!   hce/            the hand-crafted evaluation: its machinery (the sum, the trace,
//!                   the weights and their layout, the attack maps, the pawn cache)
//!     terms/        its terms, one topic per file, and the lists that run them
//! ```
//!
//! The hand-crafted evaluation has a folder of its own so that a second
//! evaluation (a learned one, `nnue/`) can sit beside it with its own
//! machinery (its accumulators, its net file) without the two sharing
//! names: each evaluation is a room, the caches of whole evaluations and
//! this interface are the hall. Today the interface is the hand-crafted
//! evaluation's: [`evaluate`], the lazy evaluation's [`partial_cached`] and
//! [`complete`] that the search calls, the [`trace`] behind `eval`, and,
//! for the tuner, the weight [`layout`] and the [`coefficients`] of a
//! position.

mod eval_cache;
mod hce;
pub mod nnue;

pub use eval_cache::EvalCache;
pub use hce::{
    COMPLEXITY_FEATURES, Coefficients, DANGER_EG_DIVISOR, DANGER_FEATURES, DANGER_MG_DIVISOR,
    KNOWN_WIN, MAX_PHASE, Partial, PawnCache, S, SCALE_NORMAL, Term, coefficients, complete,
    evaluate, evaluate_cached, evaluate_white, evaluate_white_cached, layout, material_balance,
    partial_cached, pawn_key, phase, taper, trace,
};
