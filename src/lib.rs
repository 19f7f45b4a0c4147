//! Shears: a UCI chess engine built on shakmaty.
//!
//! Dependencies point one way: `uci → engine → search → {eval, time} →
//! position → shakmaty`. The binary (`src/main.rs`) only parses the command
//! line and calls into this library.

pub mod bench;
pub mod checks;
pub mod cli;
pub mod config;
pub mod datagen;
pub mod engine;
pub mod epd;
pub mod error;
pub mod eval;
pub mod movegen;
pub mod options;
pub mod ordering;
pub mod perft;
pub mod perft_suite;
pub mod position;
pub mod search;
pub mod time;
pub mod tt;
pub mod tune;
pub mod uci;
