//! The training data once written: one reader for every format, the facts
//! of a file (counts, sha256, settings), the manifest of the data sets,
//! and match PGNs converted into game files. Writing the data is
//! `datagen`'s (`crate::datagen`, which owns the formats).
//!
//! | file | what it owns |
//! |---|---|
//! | `reader.rs` | [`reader::open`]: the training positions of a text, packed or game file |
//! | `stats.rs` | a file's games, positions, kept positions, results and sha256 |
//! | `manifest.rs` | the manifest of the data sets (`docs/data/manifest.toml`) |
//! | `verify.rs` | a file checked against its set, and where the manifest is |
//! | `from_pgn.rs` | a match runner's PGN games (with score comments) as a game file |
//! | `convert.rs` | a game file's kept positions as a packed or text file |

pub mod convert;
pub mod from_pgn;
pub mod manifest;
pub mod reader;
pub mod stats;
pub mod verify;

pub use reader::{DataError, DataFile, Filter, Location, Positions, TrainingPosition, open};

#[cfg(test)]
mod tests;
