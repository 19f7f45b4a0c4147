//! Where the training positions come from: [`Item`], the one boundary
//! between the data files and the trainer (a stream of labelled positions
//! in file order, each game closed by [`Item::GameEnd`]), and
//! [`PackedFile`], that stream read from a packed `datagen` file
//! (`datagen::packed`).
//!
//! Any reader that yields `Result<Item, TrainError>` game by game can feed
//! the trainer ([`super::dataset::Dataset::extend`]); the packed reader is
//! the one there is now.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use shakmaty::Chess;

use super::error::TrainError;
use crate::datagen::packed::{self, RECORD, Record};

/// Records decoded at once (in parallel): 2 MB of file.
const CHUNK_RECORDS: usize = 1 << 16;

/// A labelled position of a data file.
#[derive(Clone, Debug)]
pub struct Labelled {
    /// The position.
    pub board: Chess,
    /// The search score, centipawns from White's side, when known.
    pub white_score: Option<i32>,
    /// The game's result for White: 1, ½ or 0.
    pub white_result: f32,
    /// Where it is in its file (record or line number, from 1), for
    /// messages.
    pub place: u64,
}

/// One item of a data file, in file order.
#[derive(Clone, Debug)]
pub enum Item {
    /// A position of the current game.
    Position(Labelled),
    /// The end of the current game.
    GameEnd,
}

/// The items of a packed data file, read a chunk at a time (each chunk's
/// records decoded in parallel), in file order.
pub struct PackedFile {
    path: PathBuf,
    file: File,
    /// Records read so far.
    records: u64,
    /// Decoded items not yet handed out.
    ready: VecDeque<Result<Item, TrainError>>,
    /// The file is read to its end.
    done: bool,
}

impl PackedFile {
    /// Opens `path`.
    ///
    /// # Errors
    ///
    /// When the file cannot be opened.
    pub fn open(path: &Path) -> Result<PackedFile, TrainError> {
        let file = File::open(path).map_err(|e| TrainError::io(path, e))?;
        Ok(PackedFile {
            path: path.to_path_buf(),
            file,
            records: 0,
            ready: VecDeque::new(),
            done: false,
        })
    }

    /// Reads as much of `buf` as the file still has.
    fn fill(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut n = 0;
        while n < buf.len() {
            match self.file.read(&mut buf[n..]) {
                Ok(0) => break,
                Ok(k) => n += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(n)
    }

    /// Reads and decodes the next chunk into `ready`.
    fn read_chunk(&mut self) {
        let mut buf = vec![0u8; CHUNK_RECORDS * RECORD];
        let n = match self.fill(&mut buf) {
            Ok(n) => n,
            Err(e) => {
                self.ready.push_back(Err(TrainError::io(&self.path, e)));
                self.done = true;
                return;
            }
        };
        let whole = n / RECORD * RECORD;
        let first = self.records + 1;
        let path = &self.path;
        let decoded: Vec<Result<Item, TrainError>> = buf[..whole]
            .par_chunks_exact(RECORD)
            .enumerate()
            .map(|(i, bytes)| {
                let bytes: &[u8; RECORD] = bytes.try_into().expect("chunks of RECORD bytes");
                let place = first + i as u64;
                match packed::unpack(bytes) {
                    Ok(Record::Position {
                        board,
                        result,
                        score,
                    }) => Ok(Item::Position(Labelled {
                        board,
                        white_score: score,
                        white_result: result,
                        place,
                    })),
                    Ok(Record::GameEnd { .. }) => Ok(Item::GameEnd),
                    Err(reason) => Err(TrainError::Damaged {
                        path: path.clone(),
                        record: place,
                        reason,
                    }),
                }
            })
            .collect();
        self.records += (whole / RECORD) as u64;
        self.ready.extend(decoded);
        if n < buf.len() {
            self.done = true;
            if n > whole {
                self.ready.push_back(Err(TrainError::CutRecord {
                    path: self.path.clone(),
                    bytes: n - whole,
                }));
            }
        }
    }
}

impl Iterator for PackedFile {
    type Item = Result<Item, TrainError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.ready.is_empty() && !self.done {
            self.read_chunk();
        }
        self.ready.pop_front()
    }
}

/// The items of any data file [`crate::data`] reads (game files through the
/// quiet filter of their own header, text files, packed files): its
/// positions in file order, with a game end wherever the game index changes
/// and after the last position.
pub struct AnyFile {
    positions: crate::data::Positions,
    /// The game of the positions handed out last.
    game: Option<u64>,
    /// A position read past a game's end, handed out after the end.
    pending: Option<Labelled>,
    /// The file is read to its end (its last game closed).
    done: bool,
}

impl AnyFile {
    /// Opens `path`.
    ///
    /// # Errors
    ///
    /// When the file cannot be opened, or a game file's header cannot be
    /// read.
    pub fn open(path: &Path) -> Result<AnyFile, TrainError> {
        let file = crate::data::open(path).map_err(|e| TrainError::Data {
            reason: e.to_string(),
        })?;
        Ok(AnyFile {
            positions: file.positions(),
            game: None,
            pending: None,
            done: false,
        })
    }
}

impl Iterator for AnyFile {
    type Item = Result<Item, TrainError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(p) = self.pending.take() {
            return Some(Ok(Item::Position(p)));
        }
        if self.done {
            return None;
        }
        match self.positions.next() {
            Some(Ok(p)) => {
                let labelled = Labelled {
                    board: p.board,
                    white_score: p.score,
                    white_result: p.result,
                    place: p.at.number(),
                };
                let new_game = self.game.is_some_and(|g| g != p.game);
                self.game = Some(p.game);
                if new_game {
                    self.pending = Some(labelled);
                    Some(Ok(Item::GameEnd))
                } else {
                    Some(Ok(Item::Position(labelled)))
                }
            }
            Some(Err(e)) => {
                self.done = true;
                Some(Err(TrainError::Data {
                    reason: e.to_string(),
                }))
            }
            None => {
                self.done = true;
                self.game.is_some().then_some(Ok(Item::GameEnd))
            }
        }
    }
}
