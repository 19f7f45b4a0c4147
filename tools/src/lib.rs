//! The tools around the engine: the command line, EPD and perft suites,
//! self-play training data (written by `datagen`, read and checked by
//! `data`), the tuner, the net's trainer, the theory tools (tree pictures,
//! algorithm comparisons), and endgames played out and generated with the
//! Syzygy tables.

pub mod cli;
pub mod data;
pub mod datagen;
pub mod epd;
pub mod epd_points;
pub mod perft_suite;
pub(crate) mod progress;
pub mod tbgen;
pub mod tbplay;
pub mod theory;
pub mod train;
pub mod tune;
