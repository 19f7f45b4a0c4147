//! The training data: the formats of its files, the quiet filter and the
//! adjudication rule, one reader for every format, the vocabulary of the
//! two fitters that read it (target, K, held-out games), the facts of a
//! file (counts, sha256, settings), the manifest of the data sets, and
//! match PGNs converted into game files. Playing the games is `datagen`'s
//! (`crate::datagen`), which writes through the formats here; nothing here
//! uses `datagen` (a test in `tests/architecture.rs` keeps it so).
//!
//! | file | what it owns |
//! |---|---|
//! | `format/` | the formats, byte by byte: games (`.games`) with their header, packed (`.bin`), text ([`format::Format`]) |
//! | `filter.rs` | the quiet filter: which positions of a game train ([`filter::keep`], [`Filter`]) |
//! | `adjudication.rs` | how a game ends early by the search's scores ([`adjudication::Adjudication`]) |
//! | `reader.rs` | [`reader::open`]: the one reader of a text, packed or game file (positions, games' ends, the complete part) |
//! | `error.rs` | the reader's places ([`Location`]) and errors ([`DataError`]) |
//! | `units.rs` | the reader's lowest layer: text lines and packed records a chunk at a time, decoded in parallel |
//! | `files.rs` | [`files::read_files`]: several files read as one, the first N positions of them |
//! | `target.rs` | the fitters' target: K, λ, the one K fitter ([`target::fit_k`]) |
//! | `split.rs` | the fitters' held-out games ([`split::Split`]) |
//! | `stats.rs` | a file's games, positions, kept positions, results and sha256 |
//! | `manifest.rs` | the manifest of the data sets (`docs/data/manifest.toml`) |
//! | `verify.rs` | a file checked against its set, and where the manifest is |
//! | `from_pgn.rs` | a match runner's PGN games (with score comments) as a game file |
//! | `convert.rs` | a game file's kept positions as a packed or text file |

pub mod adjudication;
pub mod convert;
pub mod error;
pub mod files;
pub mod filter;
pub mod format;
pub mod from_pgn;
pub mod manifest;
pub mod reader;
pub mod split;
pub mod stats;
pub mod target;
mod units;
pub mod verify;

pub use files::{Files, read_files};
pub use reader::{
    DataError, DataFile, Extent, Filter, Item, Items, Location, Positions, TrainingPosition, open,
};
pub use split::{DEFAULT_SPLIT, Parts, Split, SplitError, split_games};
pub use target::{Target, fit_k, sigmoid};

#[cfg(test)]
mod tests;
