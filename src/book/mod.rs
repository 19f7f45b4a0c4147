//! The opening book layer: Polyglot `.bin` books read ([`Book`]), probed
//! and chosen from, and made from PGN games ([`make`]). The file format,
//! its keys and move codes are in [`format`](mod@format).
//!
//! The engine asks the book before it searches (`engine::Engine::go`); the
//! command line makes and shows books (`shears book make|show`).

pub mod format;
pub mod make;
mod reader;

pub use reader::{Book, BookMove, BookMoves, Selection};
