//! The reader's lowest layer for text and packed files: their entries
//! (lines, 32-byte records) read a chunk at a time, and each chunk decoded
//! in parallel ([`decode`]). The one read-to-end loop of a data file is
//! here ([`Units::next_chunk`], over `format::games::read_exact_or_end`);
//! game files are read whole games at a time by `format::games`.
//!
//! A chunk is decoded on all threads and handed on in file order, so what
//! comes out does not depend on the thread count.

use std::io::{self, BufRead};

use rayon::prelude::*;
use shakmaty::Chess;

use super::format::games::read_exact_or_end;
use super::format::packed::{self, RECORD};
use super::format::text::parse_line;
use shears::chess::Position;

/// Entries read (and decoded) at once: 2 MB of a packed file.
pub const CHUNK: usize = 1 << 16;

/// One entry of a text or packed file, as read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unit {
    /// A text line (without its line break).
    Line {
        /// Its number, from 1.
        number: u64,
        /// The byte offset just after it.
        end: u64,
        /// Whether it ends with a line break (a line cut off at the end of
        /// a file does not: a writer stopped).
        complete: bool,
        /// Its bytes.
        text: Vec<u8>,
    },
    /// A packed record.
    Record {
        /// Its number, from 1.
        number: u64,
        /// Its bytes.
        bytes: [u8; RECORD],
    },
    /// The bytes after the last whole record: too few for one.
    Cut {
        /// The number the record would have had.
        number: u64,
        /// How many bytes.
        bytes: usize,
    },
}

/// What a chunk's entry holds.
#[derive(Debug, Clone, PartialEq)]
pub enum Decoded {
    /// A position (or why the entry is not one): its line or record number,
    /// board, result for White and score for White.
    Position(u64, Result<(Chess, f32, Option<i32>), String>),
    /// The end of the game of this index.
    GameEnd(u64),
    /// A comment or an empty line.
    Nothing,
}

/// A text or packed file's entries, a chunk at a time.
pub struct Units<R> {
    input: R,
    packed: bool,
    /// Entries read so far.
    read: u64,
    /// Bytes read so far.
    offset: u64,
    done: bool,
}

impl<R: BufRead> Units<R> {
    /// The entries of `input`: packed records when `packed`, else lines.
    pub fn new(input: R, packed: bool) -> Units<R> {
        Units {
            input,
            packed,
            read: 0,
            offset: 0,
            done: false,
        }
    }

    /// Whether entries are packed records.
    pub fn is_packed(&self) -> bool {
        self.packed
    }

    /// The next at most [`CHUNK`] entries, in order; empty at the end.
    ///
    /// # Errors
    ///
    /// When the input cannot be read.
    pub fn next_chunk(&mut self) -> io::Result<Vec<Unit>> {
        if self.done {
            return Ok(Vec::new());
        }
        if self.packed {
            self.records()
        } else {
            self.lines()
        }
    }

    fn records(&mut self) -> io::Result<Vec<Unit>> {
        let mut buf = vec![0u8; CHUNK * RECORD];
        let n = read_exact_or_end(&mut self.input, &mut buf)?;
        let whole = n / RECORD * RECORD;
        let mut units: Vec<Unit> = buf[..whole]
            .chunks_exact(RECORD)
            .enumerate()
            .map(|(i, bytes)| Unit::Record {
                number: self.read + 1 + i as u64,
                bytes: bytes.try_into().expect("chunks of RECORD bytes"),
            })
            .collect();
        self.read += (whole / RECORD) as u64;
        self.offset += whole as u64;
        if n < buf.len() {
            self.done = true;
            if n > whole {
                units.push(Unit::Cut {
                    number: self.read + 1,
                    bytes: n - whole,
                });
            }
        }
        Ok(units)
    }

    fn lines(&mut self) -> io::Result<Vec<Unit>> {
        let mut units = Vec::new();
        while units.len() < CHUNK {
            let mut text = Vec::new();
            let n = self.input.read_until(b'\n', &mut text)?;
            if n == 0 {
                self.done = true;
                break;
            }
            self.read += 1;
            self.offset += n as u64;
            let complete = text.ends_with(b"\n");
            if complete {
                text.pop();
            }
            units.push(Unit::Line {
                number: self.read,
                end: self.offset,
                complete,
                text,
            });
        }
        Ok(units)
    }
}

/// What each unit holds, decoded on all threads, in order.
pub fn decode(units: &[Unit]) -> Vec<Decoded> {
    units.par_iter().map(decode_one).collect()
}

/// What one unit holds.
fn decode_one(unit: &Unit) -> Decoded {
    match unit {
        Unit::Line { number, text, .. } => {
            let text = String::from_utf8_lossy(text);
            match classify(&text) {
                Line::Blank => Decoded::Nothing,
                Line::GameEnd(index) => Decoded::GameEnd(index),
                Line::Position(line) => Decoded::Position(*number, parse_text(line)),
            }
        }
        Unit::Record { number, bytes } => {
            if let Some(index) = packed::game_end_index(bytes) {
                return Decoded::GameEnd(index);
            }
            let parsed = match packed::unpack(bytes) {
                Ok(packed::Record::Position {
                    board,
                    result,
                    score,
                }) => Ok((board, result, score)),
                Ok(packed::Record::GameEnd { .. }) => Err("an end-of-game record".to_owned()),
                Err(reason) => Err(reason),
            };
            Decoded::Position(*number, parsed)
        }
        Unit::Cut { number, bytes } => Decoded::Position(
            *number,
            Err(format!(
                "{bytes} bytes at the end, too few for a {RECORD}-byte record"
            )),
        ),
    }
}

/// What a text line is.
pub enum Line<'a> {
    /// Empty, or a comment (`#`, and a `# game` line without an index).
    Blank,
    /// `# game <index> …`: the end of that game.
    GameEnd(u64),
    /// Anything else: a position, or a bad line.
    Position(&'a str),
}

/// What the text line `text` is.
pub fn classify(text: &str) -> Line<'_> {
    let text = text.trim();
    if text.is_empty() {
        return Line::Blank;
    }
    if let Some(rest) = text.strip_prefix("# game ") {
        return match rest.split_whitespace().next().and_then(|i| i.parse().ok()) {
            Some(index) => Line::GameEnd(index),
            None => Line::Blank,
        };
    }
    if text.starts_with('#') {
        return Line::Blank;
    }
    Line::Position(text)
}

/// A text line's board and labels.
fn parse_text(line: &str) -> Result<(Chess, f32, Option<i32>), String> {
    let parsed = parse_line(line)?;
    let pos = Position::from_fen(parsed.fen, false).map_err(|e| e.to_string())?;
    Ok((pos.board().clone(), parsed.result, parsed.score))
}
