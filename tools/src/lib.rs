//! The tools around the engine: the command line (`cli`), EPD and perft
//! suites (`suites`), self-play training data (written by `datagen`, read
//! and checked by `data`), the tuner (`tune`), the net's trainer (`train`),
//! the nets kept and their manifest (`net`), the theory tools (`theory`:
//! tree pictures, algorithm comparisons),
//! endgames played out and generated with the Syzygy tables (`tablebase`),
//! and the helpers they share (`util`).
//!
//! No `unsafe` here: the engine library keeps the only `unsafe` code (its
//! SIMD kernels, prefetch and huge pages), each block with its SAFETY note.

#![forbid(unsafe_code)]

pub mod cli;
pub mod data;
pub mod datagen;
pub mod net;
pub mod suites;
pub mod tablebase;
pub mod theory;
pub mod train;
pub mod tune;
pub(crate) mod util;
