//! Shears: a UCI chess engine built on shakmaty.
//!
//! The crate is layered; each layer uses only the layers below it:
//!
//! ```text
//! tools   command line, EPD and perft suites, training data, tuning
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
//! The binary (`src/main.rs`) only parses the command line and calls
//! [`tools::cli::run`].

pub mod book;
pub mod chess;
pub mod engine;
pub mod error;
pub mod eval;
pub(crate) mod prefetch;
pub mod search;
pub mod tb;
pub mod tools;
pub mod uci;
