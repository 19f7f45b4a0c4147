//! [`Dataset`]: every training position in memory as a [`Sample`], with
//! the games they belong to, and the split of the games into training and
//! held-out ones (`data::split`'s [`Split`], the rule `tune` uses too).

use std::path::PathBuf;

use super::error::TrainError;
use super::sample::Sample;
use crate::data::format::packed::RECORD;
use crate::data::{Item, read_files, split_games};

pub use crate::data::{Parts, Split};

/// The positions of the data files and their games.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// Every position, in file order.
    pub samples: Vec<Sample>,
    /// Where each game ends in `samples` (exclusive), in order: game `g`
    /// is `samples[ends[g - 1]..ends[g]]` (from 0 for the first).
    ends: Vec<usize>,
    /// Positions left out: more than 32 pieces on the board.
    pub crowded: u64,
}

impl Dataset {
    /// Games (an unfinished one at the end of a file counts as one).
    pub fn games(&self) -> usize {
        self.ends.len()
    }

    /// Splits the games by `split`.
    ///
    /// # Errors
    ///
    /// [`TrainError::Empty`] without positions; [`TrainError::BadSplit`]
    /// when no position, or every one, is held out.
    pub fn split(&self, split: Split) -> Result<Parts, TrainError> {
        if self.samples.is_empty() {
            return Err(TrainError::Empty);
        }
        Ok(split_games(&self.ends, split, true)?)
    }
}

/// Reads the data files into one [`Dataset`] through the one reader
/// (`data::files`: packed `.bin` files, game files through their quiet
/// filter, text files), the first `first` positions of them when given. A
/// file's positions after its last game end (a game the writer did not
/// finish) count as one game, and so does a game the limit cuts.
/// With `need_scores`, every position must have a search score.
/// `on_progress` gets the positions read so far, now and then.
///
/// # Errors
///
/// A file that cannot be read, is damaged or cut, or (with
/// `need_scores`) has a position without a score; no position at all.
pub fn load(
    paths: &[PathBuf],
    need_scores: bool,
    first: Option<u64>,
    on_progress: &mut dyn FnMut(usize),
) -> Result<Dataset, TrainError> {
    let mut bytes = 0;
    for path in paths {
        let meta = std::fs::metadata(path).map_err(|e| TrainError::io(path, e))?;
        bytes += meta.len() as usize;
    }
    let mut data = Dataset::default();
    // Every record but the games' ends is a position: no reallocation on
    // the way. (Only a hint: a file too large for memory is read until
    // memory runs out, not refused here.)
    let wanted = first.map_or(usize::MAX, |n| usize::try_from(n).unwrap_or(usize::MAX));
    let _ = data.samples.try_reserve((bytes / RECORD).min(wanted));
    let mut files = read_files(paths, first);
    while let Some(item) = files.next() {
        let (file, item) = item?;
        match item {
            Item::Position(p) => {
                if need_scores && p.score.is_none() {
                    return Err(TrainError::NoScore {
                        place: p.at.in_file(files.path(file)),
                    });
                }
                let board = shakmaty::Position::board(&p.board);
                let turn = shakmaty::Position::turn(&p.board);
                match Sample::new(board, turn, p.score, p.result) {
                    Some(s) => data.samples.push(s),
                    None => data.crowded += 1,
                }
                if data.samples.len().is_multiple_of(1 << 16) {
                    on_progress(data.samples.len());
                }
            }
            Item::GameEnd { .. } => data.ends.push(data.samples.len()),
        }
    }
    if data.samples.is_empty() {
        return Err(TrainError::Empty);
    }
    Ok(data)
}
