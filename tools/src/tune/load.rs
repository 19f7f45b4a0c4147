//! Reading the training data: the positions of data files of any format
//! (the one reader, `data::files`), with their games, each resolved to its quiet leaf and turned into a
//! [`Sample`]; the errors of tuning ([`TuneError`]) and the lines that could
//! not be used ([`BadLine`]).

use std::path::PathBuf;

use rayon::prelude::*;
use thiserror::Error;

use super::{Sample, quiet};
use crate::data::SplitError;
use crate::data::{DataError, Item, TrainingPosition, read_files};
use shears::eval::coefficients;

/// Why tuning could not run.
#[derive(Debug, Error)]
pub enum TuneError {
    /// A data file could not be read, or is damaged.
    #[error(transparent)]
    Data(#[from] DataError),
    /// The weights file could not be written.
    #[error("{path}: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// No usable position in the data; `bad` lines could not be read, the
    /// first of them `first`.
    #[error(
        "no usable positions in the data{}",
        .first.as_ref().map_or_else(String::new, |b| format!(
            " ({} bad line{}, the first {}:{}: {})",
            .bad,
            if *.bad == 1 { "" } else { "s" },
            b.path.display(),
            b.line,
            b.reason
        ))
    )]
    Empty {
        /// How many lines were bad.
        bad: usize,
        /// The first bad line (in file order), if any.
        first: Option<BadLine>,
    },
    /// The score blend was asked for, and a line has no score.
    #[error(
        "{path}:{line}: no search score on this line (a data file from before scores were \
         written): tuning with --lambda above 0 needs one on every position"
    )]
    NoScore {
        /// The file.
        path: PathBuf,
        /// Its first line without a score, from 1.
        line: usize,
    },
    /// The held-out games leave nothing to fit.
    #[error(transparent)]
    Split(#[from] SplitError),
    /// A blend weight outside 0 to 1.
    #[error("lambda {0} is not between 0 and 1")]
    BadLambda(f64),
    /// `--only` named no weight group of `eval/hce/layout.rs`.
    #[error("--only {0}: no weight group of that name (see src/eval/hce/layout.rs)")]
    UnknownGroup(String),
}

/// A line of a data file that could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadLine {
    /// The file.
    pub path: PathBuf,
    /// Its line number, from 1 (its record number in a packed file).
    pub line: usize,
    /// Why.
    pub reason: String,
}

/// The positions of the data files, resolved, and their games.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Loaded {
    /// Every usable position, in file order.
    pub samples: Vec<Sample>,
    /// Where each game ends in `samples` (exclusive), in order (a game
    /// none of whose positions is usable ends where the one before it
    /// does): what `data::split_games` splits.
    pub ends: Vec<usize>,
    /// The lines or records that could not be read (skipped).
    pub bad: Vec<BadLine>,
}

/// Positions resolved in parallel at a time.
const CHUNK: usize = 1 << 16;

/// An item read, before its position is resolved.
enum Read {
    Position(TrainingPosition),
    GameEnd,
}

/// Loads the data files of any format through the one reader
/// (`data::files`), the first `first` positions of them when given: reads
/// each position, resolves it to its quiet leaf and takes its features, a
/// chunk of positions at a time in parallel, in file order, with the ends
/// of the games. Positions whose leaf is in check are dropped (not an
/// error). With `need_scores`, every position must carry a search score.
/// `on_progress` gets the number of positions read so far, now and then.
///
/// # Errors
///
/// When a file cannot be read or is damaged (a game file: the game is
/// named), a position lacks the score `need_scores` asks for (the first
/// such line is named), or nothing usable is left. Bad lines or records of
/// text and packed files are returned, not errors.
pub fn load(
    paths: &[PathBuf],
    need_scores: bool,
    first: Option<u64>,
    on_progress: &(dyn Fn(u64) + Sync),
) -> Result<Loaded, TuneError> {
    let mut loaded = Loaded::default();
    let mut read = 0u64;
    let mut chunk = Vec::with_capacity(CHUNK);
    let mut files = read_files(paths, first);
    while let Some(item) = files.next() {
        match item {
            Ok((file, Item::Position(p))) => {
                if need_scores && p.score.is_none() {
                    return Err(TuneError::NoScore {
                        path: files.path(file).to_owned(),
                        line: p.at.number() as usize,
                    });
                }
                read += 1;
                chunk.push(Read::Position(p));
            }
            Ok((_, Item::GameEnd { .. })) => chunk.push(Read::GameEnd),
            Err(DataError::BadEntry { path, at, reason }) => loaded.bad.push(BadLine {
                path,
                line: at.number() as usize,
                reason,
            }),
            Err(e) => return Err(e.into()),
        }
        if chunk.len() == CHUNK {
            resolve(&mut loaded, &chunk);
            chunk.clear();
            on_progress(read);
        }
    }
    resolve(&mut loaded, &chunk);
    on_progress(read);
    if loaded.samples.is_empty() {
        return Err(TuneError::Empty {
            bad: loaded.bad.len(),
            first: loaded.bad.into_iter().next(),
        });
    }
    Ok(loaded)
}

/// Adds the samples of `items` to `loaded`, in order: each position
/// resolved to its quiet leaf (dropped when that is in check, or a known
/// win against a bare king, whose value no weight changes), each game end
/// recorded.
fn resolve(loaded: &mut Loaded, items: &[Read]) {
    let samples: Vec<Option<Sample>> = items
        .par_iter()
        .map(|item| {
            let Read::Position(p) = item else {
                return None;
            };
            let leaf = quiet::quiet_leaf(&p.board)?;
            let coefs = coefficients(&leaf);
            coefs
                .known_win
                .is_none()
                .then(|| Sample::new(&coefs, p.result, p.score))
        })
        .collect();
    for (item, sample) in items.iter().zip(samples) {
        match item {
            Read::GameEnd => loaded.ends.push(loaded.samples.len()),
            Read::Position(_) => loaded.samples.extend(sample),
        }
    }
}
