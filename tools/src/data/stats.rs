//! The facts of a data file, for `shears data stats` and the manifest:
//! its size and sha256, a game file's settings, and how many games,
//! positions and kept (training) positions it holds. Reading them reads
//! the whole file, so a damaged file is found here (with the game named).

use std::fs::File;
use std::io::{self, Seek, SeekFrom};
use std::path::Path;

use sha2::{Digest, Sha256};

use super::filter::Filter;
use super::format::Format;
use super::format::games::read_exact_or_end;
use super::format::header::Header;
use super::reader::{DataError, open};

/// What a data file holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stats {
    /// Its format.
    pub format: Format,
    /// Its size.
    pub bytes: u64,
    /// The sha256 of its bytes, lowercase hex.
    pub sha256: String,
    /// A game file's header.
    pub header: Option<Header>,
    /// Complete games (a text or packed file's closing lines or records).
    pub games: u64,
    /// Positions: every move of a game file's games; the positions of a
    /// text or packed file.
    pub positions: u64,
    /// Training positions: a game file's through the quiet filter; all of
    /// a text or packed file's.
    pub kept: u64,
    /// The quiet filter's first ply (game files).
    pub min_ply: Option<u32>,
    /// Lines or records that could not be read (text and packed files).
    pub bad: u64,
    /// Games by result for White: losses, draws, wins (game files).
    pub results: Option<[u64; 3]>,
}

/// The sha256 of the file `path`, lowercase hex.
///
/// # Errors
///
/// When the file cannot be read.
pub fn sha256_file(path: &Path) -> io::Result<String> {
    sha256_spliced(&[], path, 0)
}

/// The sha256 of `prefix` followed by the file `path` from byte `skip`
/// on (a file with another header in place of its first `skip` bytes).
///
/// # Errors
///
/// When the file cannot be read.
pub fn sha256_spliced(prefix: &[u8], path: &Path, skip: u64) -> io::Result<String> {
    let mut file = File::open(path)?;
    file.seek(SeekFrom::Start(skip))?;
    let mut hasher = Sha256::new();
    hasher.update(prefix);
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = read_exact_or_end(&mut file, &mut buf)?;
        hasher.update(&buf[..n]);
        if n < buf.len() {
            break;
        }
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

/// Reads the whole of `path`.
///
/// # Errors
///
/// When the file cannot be read, or is a game file with a bad header or a
/// damaged game (named by index and offset).
pub fn stats(path: &Path) -> Result<Stats, DataError> {
    let io_error = |source| DataError::Io {
        path: path.to_owned(),
        source,
    };
    let bytes = std::fs::metadata(path).map_err(io_error)?.len();
    let sha256 = sha256_file(path).map_err(io_error)?;
    let file = open(path)?;
    let mut stats = Stats {
        format: file.format(),
        bytes,
        sha256,
        header: file.header().cloned(),
        games: 0,
        positions: 0,
        kept: 0,
        min_ply: None,
        bad: 0,
        results: None,
    };
    if file.format() == Format::Games {
        let min_ply = file.min_ply();
        stats.min_ply = Some(min_ply);
        let quiet = Filter::Quiet { min_ply };
        let mut results = [0u64; 3];
        let mut games = file.games().expect("a game file has games");
        loop {
            match games.next_game() {
                Ok(Some((_, _, game))) => {
                    stats.games += 1;
                    stats.positions += game.moves.len() as u64;
                    results[(game.result * 2.0) as usize] += 1;
                    stats.kept += game
                        .positions()
                        .filter(|(board, m, score)| quiet.keeps(board, *m, *score))
                        .count() as u64;
                }
                Ok(None) => break,
                Err(e) => return Err(DataError::of_game(path, e)),
            }
        }
        stats.results = Some(results);
        return Ok(stats);
    }
    let mut positions = file.positions();
    for position in positions.by_ref() {
        match position {
            Ok(_) => stats.positions += 1,
            Err(e) if e.is_skippable() => stats.bad += 1,
            Err(e) => return Err(e),
        }
    }
    stats.kept = stats.positions;
    stats.games = open(path)?.extent().map_err(io_error)?.games;
    Ok(stats)
}

impl Stats {
    /// The report of `shears data stats`, one line each.
    pub fn report(&self, path: &Path) -> Vec<String> {
        let format = match self.format {
            Format::Text => "text lines",
            Format::Packed => "packed 32-byte records",
            Format::Games => "games",
        };
        let mut out = vec![
            format!("file: {}", path.display()),
            format!("format: {format}"),
            format!("bytes: {}", self.bytes),
            format!("sha256: {}", self.sha256),
        ];
        if let Some(header) = &self.header {
            out.push("settings:".to_owned());
            out.extend(header.settings().lines().map(|l| format!("  {l}")));
        }
        match self.results {
            Some([loss, draw, win]) => out.push(format!(
                "games: {} (White wins {win}, draws {draw}, Black wins {loss})",
                self.games
            )),
            None => out.push(format!("games: {}", self.games)),
        }
        match self.min_ply {
            Some(min_ply) => {
                out.push(format!("positions: {} (every move)", self.positions));
                out.push(format!(
                    "kept: {} (the quiet filter from ply {min_ply})",
                    self.kept
                ));
            }
            None => {
                out.push(format!("positions: {}", self.positions));
                out.push(format!("kept: {} (all: kept when written)", self.kept));
            }
        }
        if self.bad > 0 {
            out.push(format!("bad lines or records: {} (skipped)", self.bad));
        }
        out
    }
}
