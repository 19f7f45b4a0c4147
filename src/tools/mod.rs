//! The tools around the engine: the command line, EPD and perft suites,
//! self-play training data and the tuner.

pub mod cli;
pub mod datagen;
pub mod epd;
pub mod perft_suite;
pub(crate) mod progress;
pub mod tune;
