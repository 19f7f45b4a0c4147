//! Shears: a UCI chess engine built on shakmaty.
//!
//! The crate is layered; each layer uses only the layers below it:
//!
//! ```text
//! uci     the protocol loop: lines in, reports out
//! engine  the façade: position, options, config, running jobs, bench
//! book    Polyglot opening books: read, probe, choose, make from PGN
//! search  iterative deepening, alpha-beta, ordering, TT, time
//! eval    the static evaluation
//! tb      Syzygy tablebases: probing, root move ranking
//! chess   position, keys, move generation, checks, SEE, perft, PGN
//! error   typed errors shared by every layer
//! prefetch  the cache hint the tables of eval and search share
//! ```
//!
//! The tools around the engine (the command line and the `shears` binary,
//! EPD and perft suites, training data, tuning) are a crate of their own,
//! `shears-tools` in `tools/`, which uses this library and which this
//! library knows nothing of.

pub mod book;
pub mod chess;
pub mod engine;
pub mod error;
pub mod eval;
pub(crate) mod prefetch;
pub mod search;
pub mod tb;
pub mod uci;
