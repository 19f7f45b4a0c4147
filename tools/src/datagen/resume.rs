//! What a game file already holds, read before a run appends to it: the
//! number of its complete games and the length of its complete part (an
//! unfinished game at the end, from a run stopped mid-write, is cut off).
//!
//! **Only its own output.** A run appends to (and may cut the unfinished
//! end of) only a file it can read as its own: a game file whose header
//! holds this run's settings, or the start of that very header (a run
//! stopped while it wrote it). Anything else is refused before a byte is
//! written: a file of another name than `.games` (`datagen` writes game
//! files only; packed and text files are made by `shears data convert`),
//! a file that is not a game file, and a game file of other settings.
//!
//! **Read through the one reader.** The file is opened and measured by
//! `data::reader` (its header, then [`crate::data::DataFile::extent`]: the
//! complete games, counted without replaying a move); this module only
//! decides what a run may do with what the reader found.

use std::io;
use std::path::Path;

use thiserror::Error;

use crate::data::format::Format;
use crate::data::format::header::{Header, HeaderError};
use crate::data::reader::{DataError, open};

/// What a game file already holds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Existing {
    /// Complete games (games `0..games`).
    pub games: u64,
    /// Bytes up to the end of the last complete game (0 when the header is
    /// not whole: it is written again).
    pub complete_len: u64,
    /// Moves in the complete games.
    pub positions: u64,
    /// The file's header, when it is whole.
    pub header: Option<Header>,
}

/// Why a run cannot write to its file.
#[derive(Debug, Error)]
pub enum ResumeError {
    /// The file's name does not end in `.games`.
    #[error(
        "{path}: datagen writes game files only: give it a name ending in .games (as \
         {games}), then `shears data convert {games} {path}` writes the games' positions as a \
         {kind} file"
    )]
    NotGames {
        /// The file asked for.
        path: String,
        /// The same name ending in `.games`.
        games: String,
        /// "packed" or "text".
        kind: &'static str,
    },
    /// The file exists and is not a game file of `datagen`.
    #[error(
        "{path} is not a game file datagen can append to ({reason}); nothing was written: give \
         datagen a new file name, or move this file away"
    )]
    NotOurs {
        /// The file.
        path: String,
        /// Why it cannot be read as one.
        reason: String,
    },
    /// A game file made with other settings (or another build).
    #[error(
        "{path} was made with other settings: {}; resume it with its own settings and build, \
         or write to another file",
        .differences.join("; ")
    )]
    OtherSettings {
        /// The file.
        path: String,
        /// Each setting that differs.
        differences: Vec<String>,
    },
    /// The file cannot be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// What went wrong.
        source: io::Error,
    },
}

/// Reads what `path` holds for a run whose header is `ours` (nothing if the
/// file does not exist or is empty).
///
/// # Errors
///
/// [`ResumeError`] when `path` is not named `.games`, exists and is not a
/// game file of `ours` (another kind of file, a damaged header, a header
/// of other settings), or cannot be read.
pub fn resume(path: &Path, ours: &Header) -> Result<Existing, ResumeError> {
    let name = path.display().to_string();
    match Format::of(path) {
        Format::Games => {}
        other => {
            return Err(ResumeError::NotGames {
                games: path.with_extension("games").display().to_string(),
                path: name,
                kind: if other == Format::Packed {
                    "packed"
                } else {
                    "text"
                },
            });
        }
    }
    let io_error = |source| ResumeError::Io {
        path: name.clone(),
        source,
    };
    let not_ours = |reason: String| ResumeError::NotOurs {
        path: name.clone(),
        reason,
    };
    let file = match open(path) {
        Ok(file) => file,
        Err(DataError::Io { source, .. }) if source.kind() == io::ErrorKind::NotFound => {
            return Ok(Existing::default());
        }
        Err(DataError::Io { source, .. }) => return Err(io_error(source)),
        // Empty, or stopped while the header was written: written again,
        // if it is the start of this run's own header.
        Err(DataError::Header {
            source: HeaderError::Truncated { bytes, .. },
            ..
        }) => {
            return if ours.to_bytes().starts_with(&bytes) {
                Ok(Existing::default())
            } else {
                Err(not_ours(format!(
                    "{} bytes that are not the start of this run's header",
                    bytes.len()
                )))
            };
        }
        Err(DataError::Header { source, .. }) => return Err(not_ours(source.to_string())),
        // Opening reads no game: it fails on the file or its header only.
        Err(other) => return Err(not_ours(other.to_string())),
    };
    // A game file opens only with its header read.
    let header = file
        .header()
        .cloned()
        .expect("an open game file has a header");
    let differences = header.differences(ours);
    if !differences.is_empty() {
        return Err(ResumeError::OtherSettings {
            path: name,
            differences,
        });
    }
    let extent = file.extent().map_err(io_error)?;
    Ok(Existing {
        games: extent.games,
        complete_len: extent.complete_len,
        positions: extent.positions,
        header: Some(header),
    })
}
