//! Where a position of a data file is ([`Location`]) and why a data file,
//! or a part of it, cannot be read ([`DataError`]): the reader's words for
//! its places and its failures.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use thiserror::Error;

use super::format::games::ReadError;
use super::format::header::HeaderError;

/// Where in its file a position (or an error) is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Location {
    /// A text file's line, from 1.
    Line(u64),
    /// A packed file's record, from 1.
    Record(u64),
    /// A game file's byte offset (of the move played from the position).
    Byte(u64),
}

impl Location {
    /// The line, record or byte number.
    pub fn number(self) -> u64 {
        match self {
            Location::Line(n) | Location::Record(n) | Location::Byte(n) => n,
        }
    }

    /// `path:12` for a line, `path: record 12` or `path: byte 12`
    /// otherwise: how messages name the place.
    pub fn in_file(self, path: &Path) -> String {
        match self {
            Location::Line(n) => format!("{}:{n}", path.display()),
            other => format!("{}: {other}", path.display()),
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Line(n) => write!(f, "line {n}"),
            Location::Record(n) => write!(f, "record {n}"),
            Location::Byte(n) => write!(f, "byte {n}"),
        }
    }
}

/// Why a data file, or a part of it, cannot be read.
#[derive(Debug, Error)]
pub enum DataError {
    /// The file cannot be opened or read.
    #[error("{path}: {source}", path = .path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
    /// A game file's header is not one this build reads.
    #[error("{path}: {source}", path = .path.display())]
    Header {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        source: HeaderError,
    },
    /// A line or record that cannot be read; the rest of the file can.
    #[error("{}: {reason}", .at.in_file(.path))]
    BadEntry {
        /// The file.
        path: PathBuf,
        /// Its line (text) or record (packed).
        at: Location,
        /// Why.
        reason: String,
    },
    /// A game file damaged at a game: it ends there.
    #[error("{path}: game {game} (byte {offset}): {reason}", path = .path.display())]
    Damaged {
        /// The file.
        path: PathBuf,
        /// The game's index.
        game: u64,
        /// The byte offset of its start.
        offset: u64,
        /// What is wrong.
        reason: String,
    },
}

impl DataError {
    /// Whether the positions after this error still come (a bad line or
    /// record), rather than the file being unreadable from here.
    pub fn is_skippable(&self) -> bool {
        matches!(self, DataError::BadEntry { .. })
    }

    /// A game reader's error on `path`.
    pub fn of_game(path: &Path, e: ReadError) -> DataError {
        match e {
            ReadError::Io(source) => DataError::Io {
                path: path.to_owned(),
                source,
            },
            ReadError::Damaged(d) => DataError::Damaged {
                path: path.to_owned(),
                game: d.game,
                offset: d.offset,
                reason: d.reason,
            },
        }
    }
}
