//! Static evaluation: a tapered hand-crafted evaluation, from the side to
//! move's point of view, written to be tuned.
//!
//! Every term has a midgame and an endgame value ([`S`]), blended by the game
//! phase (24 = all minor and major pieces on the board, 0 = none), and every
//! value is a named weight in `weights.rs` (a file the tuner regenerates;
//! `layout.rs` lists the weights). The terms, one topic per file:
//!
//! | file | terms |
//! |---|---|
//! | `material.rs` | material, piece-square tables |
//! | `imbalance.rs` | quadratic material imbalance |
//! | `pawns.rs` | doubled, isolated, backward, supported, phalanx, candidate pawns |
//! | `passed.rs` | passed pawns: rank, king distances, free and safe path, blockade, rook behind, unstoppable |
//! | `mobility.rs` | safe squares per piece type |
//! | `king.rs` | shelter, storm, open files, king distance to the pawn files; one danger count per king (attackers, area hits, weak squares, safe checks, guards), squared in the midgame |
//! | `pieces.rs` | bishop pair, outposts, minors behind pawns, bishop pawns, long diagonals, rooks on files, the 7th, trapped rooks and bishops, knight and rook closedness, knights far from both kings |
//! | `batteries.rs` | rooks doubled or with the queen on a file, queen and bishop aimed at the king |
//! | `threats.rs` | pieces attacked by pawns or lesser pieces, hanging pieces, pawn-push threats, restricted squares, weak pawns, minor by minor, weak minor by a major, queen attacked, overloaded pieces |
//! | `space.rs` | space behind the pawns |
//! | `complexity.rs` | how far the endgame score may move (not linear: adjusts the endgame sum) |
//! | `endgame.rs` | scale factors: opposite bishops, material that cannot mate, wrong bishop, few pawns, a lone queen against pieces, a large pawn majority |
//! | `known_win.rs` | mating a bare king: replaces all the terms (not tuned) |
//!
//! plus the tempo bonus for the side to move. `attacks.rs` builds the attack
//! maps that mobility, king safety and threats read (by piece type, attacked
//! twice, sliders through their own sliders, the king areas); `handles.rs`
//! gives each weight group a typed handle; `danger.rs` names the king-danger
//! features and the curve of the count; `terms.rs` lists the
//! terms; `evaluate.rs` adds them up, tapered by the game phase
//! (`tapered.rs`) and scaled.
//!
//! **Linear in the weights.** Each term reports "weight *i*, *n* times, for
//! colour *c*" to an `Accumulator` (`accumulator.rs`): the search's
//! accumulator (`Sum`) adds the values, the trace's records the counts. So the
//! score before the endgame scale factor is `sum(coefficient * weight)` in
//! midgame and endgame, and [`coefficients`] gives the tuner that feature
//! vector (see `trace.rs` for the exact formula).
//!
//! **Pawn cache.** What depends only on pawns and kings is computed apart
//! (`terms::pawn_terms`) and cached per search thread ([`PawnCache`]), and
//! so is what depends only on the piece counts (`terms::count_terms`: the
//! imbalance); [`evaluate_cached`] is what the search calls.
//!
//! **Symmetry.** Terms are computed per colour from that colour's side, so a
//! position and its colour-mirrored twin evaluate the same from the side to
//! move (tested on every position of the public suites).

mod accumulator;
mod attacks;
mod batteries;
mod complexity;
mod danger;
mod endgame;
mod eval_cache;
mod evaluate;
mod handles;
mod imbalance;
mod king;
mod known_win;
pub mod layout;
mod masks;
mod material;
mod mobility;
pub mod nnue;
mod passed;
mod pawn_cache;
mod pawns;
mod pieces;
mod space;
mod tapered;
mod terms;
mod threats;
mod trace;
#[rustfmt::skip]
pub(crate) mod weights;

#[cfg(test)]
mod tests;

pub use complexity::FEATURES as COMPLEXITY_FEATURES;
pub use danger::{DANGER_EG_DIVISOR, DANGER_FEATURES, DANGER_MG_DIVISOR};
pub use endgame::SCALE_NORMAL;
pub use eval_cache::EvalCache;
pub use evaluate::{
    Partial, complete, evaluate, evaluate_cached, evaluate_white, evaluate_white_cached,
    partial_cached,
};
pub use known_win::KNOWN_WIN;
pub use layout::Term;
pub use material::material_balance;
pub use pawn_cache::{PawnCache, pawn_key};
pub use tapered::{MAX_PHASE, S, phase, taper};
pub use trace::{Coefficients, coefficients, trace};
