//! One reader for every data file: [`open`] a file of any format (text,
//! packed `.bin`, game `.games`), then iterate its training positions,
//! each with its board, Shears' score, the game's result, the game's
//! index and the ply.
//!
//! ```no_run
//! use shears_tools::data::reader::open;
//! # fn main() -> Result<(), shears_tools::data::reader::DataError> {
//! for position in open("data/c64.games".as_ref())?.positions() {
//!     let p = position?;
//!     println!("{} {:?} {}", p.fen(), p.score, p.result);
//! }
//! # Ok(())
//! # }
//! ```
//!
//! **What comes out.** A text or packed file holds only the positions
//! `datagen` kept; they come out as they are. A game file holds every move:
//! its positions are replayed and filtered on reading ([`Filter`]; by
//! default the quiet filter of `datagen` with the file's own `min_ply`),
//! so a game file yields the same positions, scores and results as the
//! packed file of the same run.
//!
//! **Views.** Scores and results are White's, as the text and packed
//! formats hold them; [`TrainingPosition::stm_score`] and
//! [`TrainingPosition::stm_result`] give the side to move's.
//!
//! **Damage.** A line or record that cannot be read is an error of its
//! own ([`DataError::BadEntry`]); the positions after it still come
//! ([`DataError::is_skippable`]). A game file that is damaged (cut off,
//! a bad start position, an illegal move, a bad header) ends with an error
//! naming the game's index and byte offset: nothing after it can be
//! trusted.

use std::collections::{HashSet, VecDeque};
use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use shakmaty::fen::Fen;
use shakmaty::{Chess, Color, EnPassantMode, Position as _};
use thiserror::Error;

use crate::datagen::format::parse_line;
use crate::datagen::games::{self, GameReader, ReadError};
use crate::datagen::header::{Header, HeaderError};
use crate::datagen::{Format, MIN_PLY, game_ply, keep, packed};
use shears::chess::Position;

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

/// One training position.
#[derive(Debug, Clone, PartialEq)]
pub struct TrainingPosition {
    /// The board.
    pub board: Chess,
    /// Shears' search score of the move played from it, centipawns from
    /// White's view (`None` in text files from before the scores, and for
    /// a game file's book moves under [`Filter::All`]).
    pub score: Option<i32>,
    /// The game's result for White: 1.0, 0.5 or 0.0.
    pub result: f32,
    /// The game's index: in a game file its place in the file, in a text or
    /// packed file the index its end-of-game line or record gives (for
    /// positions after the last one, the number of games closed before).
    pub game: u64,
    /// The game ply, from the position's move counter (0 at the start
    /// position).
    pub ply: u32,
    /// Where it is in its file.
    pub at: Location,
}

impl TrainingPosition {
    /// The score from the side to move's view.
    pub fn stm_score(&self) -> Option<i32> {
        self.score.map(|s| match self.board.turn() {
            Color::White => s,
            Color::Black => -s,
        })
    }

    /// The result from the side to move's view: 1.0, 0.5 or 0.0.
    pub fn stm_result(&self) -> f32 {
        match self.board.turn() {
            Color::White => self.result,
            Color::Black => 1.0 - self.result,
        }
    }

    /// The position's FEN.
    pub fn fen(&self) -> String {
        Fen::from_position(&self.board, EnPassantMode::Legal).to_string()
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
    #[error("{path}:{line}: {reason}", path = .path.display())]
    BadEntry {
        /// The file.
        path: PathBuf,
        /// Its line (text) or record (packed) number, from 1.
        line: u64,
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
}

/// Which positions of a game file come out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Filter {
    /// The quiet filter of `datagen` (`datagen::keep`) from this game ply:
    /// a scored, not mate, position, not in check, where the move played
    /// is no capture, promotion or check.
    Quiet {
        /// The first game ply kept.
        min_ply: u32,
    },
    /// Every position of every game, with its score when it has one.
    All,
}

/// A data file opened for reading.
pub struct DataFile {
    path: PathBuf,
    format: Format,
    header: Option<Header>,
    input: BufReader<File>,
}

/// Opens `path`: a game file's header is read and checked here.
///
/// # Errors
///
/// When the file cannot be opened, or is a game file whose header is not
/// one this build reads.
pub fn open(path: &Path) -> Result<DataFile, DataError> {
    let io_error = |source| DataError::Io {
        path: path.to_owned(),
        source,
    };
    let file = File::open(path).map_err(io_error)?;
    let mut input = BufReader::with_capacity(1 << 16, file);
    let format = Format::of(path);
    let header = if format == Format::Games {
        match Header::read(&mut input) {
            Ok(Some(header)) => Some(header),
            Ok(None) => {
                return Err(DataError::Header {
                    path: path.to_owned(),
                    source: HeaderError::Truncated {
                        needed: 14,
                        found: 0,
                    },
                });
            }
            Err(HeaderError::Io(e)) => return Err(io_error(e)),
            Err(source) => {
                return Err(DataError::Header {
                    path: path.to_owned(),
                    source,
                });
            }
        }
    } else {
        None
    };
    Ok(DataFile {
        path: path.to_owned(),
        format,
        header,
        input,
    })
}

impl DataFile {
    /// The file's format.
    pub fn format(&self) -> Format {
        self.format
    }

    /// A game file's header.
    pub fn header(&self) -> Option<&Header> {
        self.header.as_ref()
    }

    /// The first game ply the quiet filter keeps: the header's `min_ply`,
    /// else `datagen`'s default.
    pub fn min_ply(&self) -> u32 {
        self.header
            .as_ref()
            .and_then(|h| h.get("min_ply"))
            .and_then(|v| v.as_integer())
            .and_then(|n| u32::try_from(n).ok())
            .unwrap_or(MIN_PLY)
    }

    /// The training positions: a game file's through the quiet filter with
    /// its own `min_ply`.
    pub fn positions(self) -> Positions {
        let filter = Filter::Quiet {
            min_ply: self.min_ply(),
        };
        self.positions_with(filter)
    }

    /// The positions, a game file's through `filter` (the other formats
    /// hold filtered positions already).
    pub fn positions_with(self, filter: Filter) -> Positions {
        let offset = self.header.as_ref().map_or(0, Header::len);
        let source = match self.format {
            Format::Text => Source::Text {
                input: self.input,
                line: 0,
                closed: 0,
            },
            Format::Packed => Source::Packed {
                input: self.input,
                record: 0,
                closed: 0,
            },
            Format::Games => Source::Games(GameReader::new(self.input, offset)),
        };
        Positions {
            path: self.path,
            source,
            filter,
            queue: VecDeque::new(),
            done: false,
            closed: HashSet::new(),
        }
    }

    /// A game file's games, one by one (`None` for the other formats, which
    /// do not hold games).
    pub fn games(self) -> Option<GameReader<BufReader<File>>> {
        let offset = self.header.as_ref().map_or(0, Header::len);
        (self.format == Format::Games).then(|| GameReader::new(self.input, offset))
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

enum Source {
    Text {
        input: BufReader<File>,
        line: u64,
        closed: u64,
    },
    Packed {
        input: BufReader<File>,
        record: u64,
        closed: u64,
    },
    Games(GameReader<BufReader<File>>),
}

/// The positions of a data file, a game at a time (see the module docs).
pub struct Positions {
    path: PathBuf,
    source: Source,
    filter: Filter,
    /// The positions of the game read last, not yet handed out.
    queue: VecDeque<Result<TrainingPosition, DataError>>,
    done: bool,
    /// The indices of the end-of-game lines or records read so far (a
    /// text or packed file).
    closed: HashSet<u64>,
}

/// A position read from a text line or packed record, before its game's
/// index is known.
type Pending = (Location, Result<(Chess, f32, Option<i32>), String>);

impl Positions {
    /// The games a text or packed file closed so far: the distinct indices
    /// of its end-of-game lines or records (0 for a game file).
    pub fn games_closed(&self) -> u64 {
        self.closed.len() as u64
    }

    /// Reads the next game (or block of positions) into the queue; sets
    /// `done` at the end of the file or on an error that ends it.
    fn fill(&mut self) {
        let path = self.path.clone();
        let io_error = |source| DataError::Io {
            path: path.clone(),
            source,
        };
        match &mut self.source {
            Source::Text {
                input,
                line,
                closed,
            } => match read_text_game(input, line) {
                Ok((pending, index, end)) => {
                    self.closed.extend(index);
                    let game = index.unwrap_or(*closed);
                    *closed += u64::from(index.is_some());
                    self.queue.extend(label(&path, pending, game));
                    self.done = end;
                }
                Err(e) => self.fail(io_error(e)),
            },
            Source::Packed {
                input,
                record,
                closed,
            } => match read_packed_game(input, record) {
                Ok((pending, index, end)) => {
                    self.closed.extend(index);
                    let game = index.unwrap_or(*closed);
                    *closed += u64::from(index.is_some());
                    self.queue.extend(label(&path, pending, game));
                    self.done = end;
                }
                Err(e) => self.fail(io_error(e)),
            },
            Source::Games(reader) => match reader.next_game() {
                Ok(Some((index, offset, game))) => {
                    let filter = self.filter;
                    let positions =
                        game.positions()
                            .enumerate()
                            .filter_map(|(k, (board, m, score))| {
                                let kept = match filter {
                                    Filter::Quiet { min_ply } => {
                                        score.is_some_and(|s| keep(&board, m, s, min_ply))
                                    }
                                    Filter::All => true,
                                };
                                kept.then(|| {
                                    let white =
                                        |s: i32| if board.turn() == Color::White { s } else { -s };
                                    Ok(TrainingPosition {
                                        score: score.map(white),
                                        result: game.result,
                                        game: index,
                                        ply: game_ply(&board),
                                        at: Location::Byte(
                                            offset + (games::START + k * games::PLY) as u64,
                                        ),
                                        board,
                                    })
                                })
                            });
                    self.queue.extend(positions);
                }
                Ok(None) => self.done = true,
                Err(ReadError::Io(e)) => self.fail(io_error(e)),
                Err(ReadError::Damaged(d)) => self.fail(DataError::Damaged {
                    path: path.clone(),
                    game: d.game,
                    offset: d.offset,
                    reason: d.reason,
                }),
            },
        }
    }

    fn fail(&mut self, e: DataError) {
        self.queue.push_back(Err(e));
        self.done = true;
    }
}

impl Iterator for Positions {
    type Item = Result<TrainingPosition, DataError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(item) = self.queue.pop_front() {
                return Some(item);
            }
            if self.done {
                return None;
            }
            self.fill();
        }
    }
}

/// The positions of one game with its index.
fn label(
    path: &Path,
    pending: Vec<Pending>,
    game: u64,
) -> impl Iterator<Item = Result<TrainingPosition, DataError>> + '_ {
    pending.into_iter().map(move |(at, parsed)| match parsed {
        Ok((board, result, score)) => Ok(TrainingPosition {
            ply: game_ply(&board),
            board,
            score,
            result,
            game,
            at,
        }),
        Err(reason) => Err(DataError::BadEntry {
            path: path.to_owned(),
            line: at.number(),
            reason,
        }),
    })
}

/// Reads text lines up to and including the next `# game` line: the
/// positions, the index that line gives, and whether the file ended.
fn read_text_game(
    input: &mut impl BufRead,
    line: &mut u64,
) -> io::Result<(Vec<Pending>, Option<u64>, bool)> {
    let mut pending = Vec::new();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        if input.read_until(b'\n', &mut buf)? == 0 {
            return Ok((pending, None, true));
        }
        *line += 1;
        let text = String::from_utf8_lossy(&buf);
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        if let Some(rest) = text.strip_prefix("# game ") {
            let index = rest.split_whitespace().next().and_then(|i| i.parse().ok());
            if let Some(index) = index {
                return Ok((pending, Some(index), false));
            }
            continue;
        }
        if text.starts_with('#') {
            continue;
        }
        pending.push((Location::Line(*line), parse_text(text)));
    }
}

/// A text line's board and labels.
fn parse_text(line: &str) -> Result<(Chess, f32, Option<i32>), String> {
    let parsed = parse_line(line)?;
    let pos = Position::from_fen(parsed.fen, false).map_err(|e| e.to_string())?;
    Ok((pos.board().clone(), parsed.result, parsed.score))
}

/// Reads packed records up to and including the next end-of-game record
/// (see [`read_text_game`]).
fn read_packed_game(
    input: &mut impl Read,
    record: &mut u64,
) -> io::Result<(Vec<Pending>, Option<u64>, bool)> {
    let mut pending = Vec::new();
    loop {
        let mut bytes = [0u8; packed::RECORD];
        let mut got = 0;
        while got < packed::RECORD {
            match input.read(&mut bytes[got..]) {
                Ok(0) => break,
                Ok(n) => got += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        if got == 0 {
            return Ok((pending, None, true));
        }
        *record += 1;
        let at = Location::Record(*record);
        if got < packed::RECORD {
            let reason = format!(
                "{got} bytes at the end, too few for a {}-byte record",
                packed::RECORD
            );
            pending.push((at, Err(reason)));
            return Ok((pending, None, true));
        }
        if let Some(index) = packed::game_end_index(&bytes) {
            return Ok((pending, Some(index), false));
        }
        let parsed = match packed::unpack(&bytes) {
            Ok(packed::Record::Position {
                board,
                result,
                score,
            }) => Ok((board, result, score)),
            Ok(packed::Record::GameEnd { .. }) => Err("an end-of-game record".to_owned()),
            Err(reason) => Err(reason),
        };
        pending.push((at, parsed));
    }
}
