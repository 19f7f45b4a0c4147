//! The board layer: our [`Position`] over shakmaty, zobrist keys, staged
//! move generation, the gives-check test, static exchange evaluation and
//! perft. Nothing here evaluates or searches.

pub mod checks;
pub mod movegen;
pub mod perft;
pub mod position;
pub mod see;

pub use position::Position;
