//! What a data file already holds, read before a run appends to it: the
//! indices of its complete games and the length of its complete part (an
//! unfinished game at the end, from a run stopped mid-write, is cut off).

use std::collections::HashSet;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

use super::header::{Header, HeaderError};
use super::{Format, games, packed};

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
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Existing::default()),
        Err(e) => return Err(e),
    };
    let mut reader = BufReader::new(file);
    match Format::of(path) {
        Format::Text => resume_text(&mut reader),
        Format::Packed => resume_packed(&mut reader),
        Format::Games => resume_games(&mut reader),
    }
}

fn resume_text(reader: &mut impl BufRead) -> io::Result<Existing> {
    let mut existing = Existing::default();
    let (mut offset, mut pending) = (0u64, 0u64);
    let mut line = Vec::new();
    loop {
        line.clear();
        let n = reader.read_until(b'\n', &mut line)?;
        if n == 0 {
            break;
        }
        offset += n as u64;
        if !line.ends_with(b"\n") {
            break; // cut off mid-line: not complete
        }
        let text = String::from_utf8_lossy(&line);
        if let Some(rest) = text.strip_prefix("# game ") {
            if let Some(Ok(i)) = rest.split_whitespace().next().map(str::parse) {
                existing.games.insert(i);
            }
            existing.complete_len = offset;
            existing.positions += pending;
            pending = 0;
        } else if !text.starts_with('#') {
            pending += 1;
        }
    }
    Ok(existing)
}

fn resume_packed(reader: &mut impl Read) -> io::Result<Existing> {
    let mut existing = Existing::default();
    let (mut offset, mut pending) = (0u64, 0u64);
    let mut record = [0u8; packed::RECORD];
    loop {
        match reader.read_exact(&mut record) {
            Ok(()) => {}
            // The end, or a record cut off: not complete.
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => break,
            Err(e) => return Err(e),
        }
        offset += packed::RECORD as u64;
        if let Some(index) = packed::game_end_index(&record) {
            existing.games.insert(index);
            existing.complete_len = offset;
            existing.positions += pending;
            pending = 0;
        } else {
            pending += 1;
        }
    }
    Ok(existing)
}

fn resume_games(reader: &mut impl Read) -> io::Result<Existing> {
    let header = match Header::read(reader) {
        Ok(Some(header)) => header,
        // Empty, or stopped while the header was written: written again.
        Ok(None) | Err(HeaderError::Truncated { .. }) => return Ok(Existing::default()),
        Err(HeaderError::Io(e)) => return Err(e),
        Err(e) => return Err(io::Error::new(io::ErrorKind::InvalidData, e.to_string())),
    };
    let scan = games::scan(reader)?;
    Ok(Existing {
        games: (0..scan.games).collect(),
        complete_len: header.len() + scan.complete_len,
        positions: scan.moves,
        header: Some(header),
    })
}
