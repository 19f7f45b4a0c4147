//! The one reader of every data file: [`open`] a file of any format (text,
//! packed `.bin`, game `.games`), then iterate its training positions,
//! each with its board, Shears' score, the game's result, the game's
//! index and the ply; or its [`Item`]s (the positions with each game's
//! end); or measure its complete part ([`DataFile::extent`], for resuming a
//! run). Several files read as one, the first N positions of them, are
//! [`super::files`]. `tune`, `train`, `data`, `datagen`'s resume and the
//! scripts (through those commands) read data through here and nowhere
//! else.
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
//! so a game file yields the same positions, scores, results and game ends
//! as the packed file of the same run.
//!
//! **Speed.** Text and packed files are read a chunk of 65,536 entries at a
//! time and each chunk is decoded on all threads (`units.rs`); game files
//! a game at a time (the replay checks every move).
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
use std::fs::File;
use std::io::{self, BufReader};
use std::path::{Path, PathBuf};

use shakmaty::fen::Fen;
use shakmaty::{Chess, Color, EnPassantMode, Position as _};

pub use super::error::{DataError, Location};
pub use super::filter::Filter;
use super::filter::{MIN_PLY, game_ply};
use super::format::games::{self, GameReader};
use super::format::header::{Header, HeaderError};
use super::format::{Format, packed, white_view};
use super::units::{self, Decoded, Line, Unit, Units, classify};

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
        self.score.map(|s| white_view(self.board.turn(), s))
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

/// One item of a data file, in file order: a position, or the end of the
/// game of the positions before it.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// A training position.
    Position(TrainingPosition),
    /// The end of a game (a text file's `# game` line, a packed file's
    /// end-of-game record, a game file's end marker), also of a game none
    /// of whose positions was kept.
    GameEnd {
        /// The game's index.
        game: u64,
    },
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
    let header_error = |source| DataError::Header {
        path: path.to_owned(),
        source,
    };
    let header = if format == Format::Games {
        match Header::read(&mut input) {
            Ok(Some(header)) => Some(header),
            Ok(None) => {
                return Err(header_error(HeaderError::Truncated {
                    needed: 14,
                    found: 0,
                    bytes: Vec::new(),
                }));
            }
            Err(HeaderError::Io(e)) => return Err(io_error(e)),
            Err(source) => return Err(header_error(source)),
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

/// A file's complete part: what a run that appends to it keeps.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Extent {
    /// Complete games: in a game file the games `0..games`, in a text or
    /// packed file the distinct indices of its end-of-game lines or records.
    pub games: u64,
    /// Bytes up to the end of the last complete game (header included).
    pub complete_len: u64,
    /// Positions in the complete part: kept positions (the lines or
    /// records, read or not) in a text or packed file, moves in a game
    /// file.
    pub positions: u64,
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

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
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
        Positions {
            items: self.items_with(filter),
        }
    }

    /// The training positions and the games' ends: a game file's through
    /// the quiet filter with its own `min_ply`.
    pub fn items(self) -> Items {
        let filter = Filter::Quiet {
            min_ply: self.min_ply(),
        };
        self.items_with(filter)
    }

    /// The positions and the games' ends, a game file's through `filter`.
    pub fn items_with(self, filter: Filter) -> Items {
        let offset = self.header.as_ref().map_or(0, Header::len);
        let source = match self.format {
            Format::Text => Source::Units(Units::new(self.input, false)),
            Format::Packed => Source::Units(Units::new(self.input, true)),
            Format::Games => Source::Games(GameReader::new(self.input, offset)),
        };
        Items {
            path: self.path,
            source,
            filter,
            pending: Vec::new(),
            closed: 0,
            queue: VecDeque::new(),
            done: false,
        }
    }

    /// A game file's games, one by one (`None` for the other formats, which
    /// do not hold games).
    pub fn games(self) -> Option<GameReader<BufReader<File>>> {
        let offset = self.header.as_ref().map_or(0, Header::len);
        (self.format == Format::Games).then(|| GameReader::new(self.input, offset))
    }

    /// The file's complete part, read without decoding a position: a text
    /// file's up to its last `# game` line, a packed file's up to its last
    /// end-of-game record, a game file's up to its last whole game. What
    /// follows (a game a stopped run left unfinished, a line or record cut
    /// off) is not part of it.
    ///
    /// # Errors
    ///
    /// When the file cannot be read.
    pub fn extent(self) -> io::Result<Extent> {
        let mut units = match self.format {
            Format::Games => {
                let header_len = self.header.as_ref().map_or(0, Header::len);
                let mut input = self.input;
                let scan = games::scan(&mut input)?;
                return Ok(Extent {
                    games: scan.games,
                    complete_len: header_len + scan.complete_len,
                    positions: scan.moves,
                });
            }
            Format::Text => Units::new(self.input, false),
            Format::Packed => Units::new(self.input, true),
        };
        let mut extent = Extent::default();
        let mut games = HashSet::new();
        let mut pending = 0;
        'chunks: loop {
            let chunk = units.next_chunk()?;
            if chunk.is_empty() {
                break;
            }
            for unit in chunk {
                let (end, index) = match unit {
                    Unit::Line {
                        complete: false, ..
                    }
                    | Unit::Cut { .. } => break 'chunks,
                    Unit::Line { end, text, .. } => {
                        match classify(&String::from_utf8_lossy(&text)) {
                            Line::GameEnd(index) => (end, Some(index)),
                            Line::Position(_) => (end, None),
                            Line::Blank => continue,
                        }
                    }
                    Unit::Record { number, bytes } => (
                        number * packed::RECORD as u64,
                        packed::game_end_index(&bytes),
                    ),
                };
                match index {
                    Some(index) => {
                        games.insert(index);
                        extent.complete_len = end;
                        extent.positions += pending;
                        pending = 0;
                    }
                    None => pending += 1,
                }
            }
        }
        extent.games = games.len() as u64;
        Ok(extent)
    }
}

enum Source {
    Units(Units<BufReader<File>>),
    Games(GameReader<BufReader<File>>),
}

/// A position read from a text line or packed record, before its game's
/// index is known.
type Pending = (Location, Result<(Chess, f32, Option<i32>), String>);

/// The items of a data file (see the module docs).
pub struct Items {
    path: PathBuf,
    source: Source,
    filter: Filter,
    /// A text or packed file's positions of the game not yet closed.
    pending: Vec<Pending>,
    /// Games closed so far (the index of positions after the last end).
    closed: u64,
    /// Items read, not yet handed out.
    queue: VecDeque<Result<Item, DataError>>,
    done: bool,
}

impl Items {
    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Reads the next chunk or game into the queue; sets `done` at the end
    /// of the file or on an error that ends it.
    fn fill(&mut self) {
        match &mut self.source {
            Source::Units(units) => {
                let located = if units.is_packed() {
                    Location::Record
                } else {
                    Location::Line
                };
                let chunk = match units.next_chunk() {
                    Ok(chunk) => chunk,
                    Err(source) => {
                        let path = self.path.clone();
                        return self.fail(DataError::Io { path, source });
                    }
                };
                if chunk.is_empty() {
                    // Positions after the last game end: an unfinished
                    // game, handed out without an end.
                    let game = self.closed;
                    self.close(game, false);
                    self.done = true;
                    return;
                }
                for decoded in units::decode(&chunk) {
                    match decoded {
                        Decoded::Position(n, parsed) => self.pending.push((located(n), parsed)),
                        Decoded::GameEnd(index) => {
                            self.close(index, true);
                            self.closed += 1;
                        }
                        Decoded::Nothing => {}
                    }
                }
            }
            Source::Games(reader) => match reader.next_game() {
                Ok(Some((index, offset, game))) => {
                    let filter = self.filter;
                    let positions =
                        game.positions()
                            .enumerate()
                            .filter_map(|(k, (board, m, score))| {
                                filter.keeps(&board, m, score).then(|| {
                                    Ok(Item::Position(TrainingPosition {
                                        score: score.map(|s| white_view(board.turn(), s)),
                                        result: game.result,
                                        game: index,
                                        ply: game_ply(&board),
                                        at: Location::Byte(
                                            offset + (games::START + k * games::PLY) as u64,
                                        ),
                                        board,
                                    }))
                                })
                            });
                    self.queue.extend(positions);
                    self.queue.push_back(Ok(Item::GameEnd { game: index }));
                }
                Ok(None) => self.done = true,
                Err(e) => {
                    let e = DataError::of_game(&self.path, e);
                    self.fail(e);
                }
            },
        }
    }

    /// Hands out the pending positions as game `game`'s, then (when
    /// `ended`) the game's end.
    fn close(&mut self, game: u64, ended: bool) {
        for (at, parsed) in self.pending.drain(..) {
            self.queue.push_back(match parsed {
                Ok((board, result, score)) => Ok(Item::Position(TrainingPosition {
                    ply: game_ply(&board),
                    board,
                    score,
                    result,
                    game,
                    at,
                })),
                Err(reason) => Err(DataError::BadEntry {
                    path: self.path.clone(),
                    at,
                    reason,
                }),
            });
        }
        if ended {
            self.queue.push_back(Ok(Item::GameEnd { game }));
        }
    }

    fn fail(&mut self, e: DataError) {
        self.queue.push_back(Err(e));
        self.done = true;
    }
}

impl Iterator for Items {
    type Item = Result<Item, DataError>;

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

/// The positions of a data file: its [`Items`] without the games' ends.
pub struct Positions {
    items: Items,
}

impl Iterator for Positions {
    type Item = Result<TrainingPosition, DataError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            match self.items.next()? {
                Ok(Item::Position(p)) => return Some(Ok(p)),
                Ok(Item::GameEnd { .. }) => {}
                Err(e) => return Some(Err(e)),
            }
        }
    }
}
