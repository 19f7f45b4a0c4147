//! What a data file already holds, read before a run appends to it: the
//! indices of its complete games and the length of its complete part (an
//! unfinished game at the end, from a run stopped mid-write, is cut off).
//! The file is read by the one reader (`data::reader`, its
//! [`DataFile::extent`](crate::data::DataFile::extent)).

use std::collections::HashSet;
use std::io;
use std::path::Path;

use super::header::{Header, HeaderError};
use crate::data::{DataError, open};

/// What a data file already holds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Existing {
    /// Indices of the complete games (in a game file, `0..n`).
    pub games: HashSet<u64>,
    /// Bytes up to the end of the last complete game (0 when a game file's
    /// header is not whole: it is written again).
    pub complete_len: u64,
    /// Positions in the complete part: kept positions in a text or packed
    /// file, moves in a game file.
    pub positions: u64,
    /// A game file's header, when it is whole.
    pub header: Option<Header>,
}

/// Reads what `path` holds (nothing if it does not exist).
///
/// # Errors
///
/// When the file exists but cannot be read, or is a game file with a
/// header that is neither whole nor the start of one.
pub fn resume(path: &Path) -> io::Result<Existing> {
    let file = match open(path) {
        Ok(file) => file,
        Err(DataError::Io { source, .. }) if source.kind() == io::ErrorKind::NotFound => {
            return Ok(Existing::default());
        }
        // Empty, or stopped while the header was written: written again.
        Err(DataError::Header {
            source: HeaderError::Truncated { .. },
            ..
        }) => return Ok(Existing::default()),
        Err(DataError::Io { source, .. }) => return Err(source),
        Err(e) => return Err(io::Error::new(io::ErrorKind::InvalidData, e.to_string())),
    };
    let header = file.header().cloned();
    let extent = file.extent()?;
    Ok(Existing {
        games: extent.games,
        complete_len: extent.complete_len,
        positions: extent.positions,
        header,
    })
}
