//! [`Dataset`]: every training position in memory as a [`Sample`], with
//! the games they belong to, and the split of the games into training and
//! held-out ones ([`Split`]).
//!
//! Validation holds out whole *games*, not positions: positions of one game
//! are alike, and a net tested on positions of the games it learned from
//! looks better than it is.

use std::path::{Path, PathBuf};

use super::error::TrainError;
use super::sample::Sample;
use super::source::{AnyFile, Item, PackedFile};
use crate::datagen::{is_packed, packed::RECORD};

/// Which games are held out for validation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split {
    /// Every `n`th game (games `n - 1`, `2n - 1`, … counting from 0 over
    /// the files in the order given).
    EveryNthGame(u32),
    /// The last `p` percent of the games (at least one).
    LastPercent(u32),
}

impl Split {
    /// The rule as its command-line option.
    pub fn describe(self) -> String {
        match self {
            Split::EveryNthGame(n) => format!("--val-every-games {n}"),
            Split::LastPercent(p) => format!("--val-percent {p}"),
        }
    }

    /// Whether game `game` of `games` is held out.
    fn holds_out(self, game: usize, games: usize) -> bool {
        match self {
            Split::EveryNthGame(n) => n > 0 && game % n as usize == n as usize - 1,
            Split::LastPercent(p) => {
                let held = (games * p as usize).div_ceil(100);
                game >= games - held.min(games)
            }
        }
    }
}

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

/// The positions of a split, as indices into [`Dataset::samples`].
#[derive(Clone, Debug, Default)]
pub struct Parts {
    /// Positions to train on.
    pub train: Vec<u32>,
    /// Held-out positions.
    pub validation: Vec<u32>,
    /// Games to train on.
    pub train_games: usize,
    /// Held-out games.
    pub validation_games: usize,
}

impl Dataset {
    /// Games (an unfinished one at the end of a file counts as one).
    pub fn games(&self) -> usize {
        self.ends.len()
    }

    /// Adds the items of one data file. Positions after the file's last
    /// game end (a game the writer did not finish) count as one game.
    /// With `need_scores`, every position must have a search score.
    ///
    /// # Errors
    ///
    /// The first error of `items`, or [`TrainError::NoScore`].
    pub fn extend(
        &mut self,
        path: &Path,
        items: impl IntoIterator<Item = Result<Item, TrainError>>,
        need_scores: bool,
        on_progress: &mut dyn FnMut(usize),
    ) -> Result<(), TrainError> {
        let mut open = false;
        for item in items {
            match item? {
                Item::Position(p) => {
                    if need_scores && p.white_score.is_none() {
                        return Err(TrainError::NoScore {
                            path: path.to_path_buf(),
                            record: p.place,
                        });
                    }
                    let board = shakmaty::Position::board(&p.board);
                    let turn = shakmaty::Position::turn(&p.board);
                    match Sample::new(board, turn, p.white_score, p.white_result) {
                        Some(s) => self.samples.push(s),
                        None => self.crowded += 1,
                    }
                    open = true;
                    if self.samples.len().is_multiple_of(1 << 16) {
                        on_progress(self.samples.len());
                    }
                }
                Item::GameEnd => {
                    self.ends.push(self.samples.len());
                    open = false;
                }
            }
        }
        if open {
            self.ends.push(self.samples.len());
        }
        Ok(())
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
        let games = self.games();
        let mut parts = Parts::default();
        let mut start = 0;
        for (game, &end) in self.ends.iter().enumerate() {
            let range = start as u32..end as u32;
            if split.holds_out(game, games) {
                parts.validation.extend(range);
                parts.validation_games += 1;
            } else {
                parts.train.extend(range);
                parts.train_games += 1;
            }
            start = end;
        }
        let bad = |advice| TrainError::BadSplit {
            games,
            rule: split.describe(),
            held_out: parts.validation_games,
            advice,
        };
        if parts.validation.is_empty() {
            return Err(bad(
                "no held-out position; hold out more games (a smaller --val-every-games, a \
                 larger --val-percent) or give more data",
            ));
        }
        if parts.train.is_empty() {
            return Err(bad(
                "no position left to train on; hold out fewer games or give more data",
            ));
        }
        Ok(parts)
    }
}

/// Reads the data files into one [`Dataset`] (packed `.bin` files, game
/// files through their quiet filter, text files);
/// `on_progress` gets the positions read so far, now and then.
///
/// # Errors
///
/// A file that cannot be read, is damaged or cut, or (with
/// `need_scores`) has a position without a score; no position at all.
pub fn load(
    paths: &[PathBuf],
    need_scores: bool,
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
    let _ = data.samples.try_reserve(bytes / RECORD);
    for path in paths {
        if is_packed(path) {
            data.extend(path, PackedFile::open(path)?, need_scores, on_progress)?;
        } else {
            data.extend(path, AnyFile::open(path)?, need_scores, on_progress)?;
        }
    }
    if data.samples.is_empty() {
        return Err(TrainError::Empty);
    }
    Ok(data)
}
