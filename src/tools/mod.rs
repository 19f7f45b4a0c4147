//! The tools around the engine: the command line, EPD and perft suites,
//! self-play training data, the tuner, and the theory tools (tree
//! pictures, algorithm comparisons).

pub mod cli;
pub mod datagen;
pub mod epd;
pub mod perft_suite;
pub(crate) mod progress;
pub mod theory;
pub mod tune;
