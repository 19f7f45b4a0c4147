//! Reading the training data: the positions of data files of any format
//! (`data::reader`), each resolved to its quiet leaf and turned into a
//! [`Sample`]; the errors of tuning ([`TuneError`]) and the lines that could
//! not be used ([`BadLine`]).

use std::path::PathBuf;

use rayon::prelude::*;
use thiserror::Error;

use super::{Sample, quiet};
use crate::data::reader::{DataError, TrainingPosition, open};
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

/// Positions resolved in parallel at a time.
const CHUNK: usize = 1 << 16;

/// Loads the data files of any format (`data::reader`): reads each
/// position, resolves it to its quiet leaf and takes its features, a chunk
/// of positions at a time in parallel, in file order. Positions whose leaf
/// is in check are dropped (not an error). With `need_scores`, every
/// position must carry a search score. `on_progress` gets the number of
/// positions read so far, now and then.
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
    on_progress: &(dyn Fn(u64) + Sync),
) -> Result<(Vec<Sample>, Vec<BadLine>), TuneError> {
    let mut samples = Vec::new();
    let mut bad = Vec::new();
    let mut read = 0u64;
    for path in paths {
        let mut chunk = Vec::with_capacity(CHUNK);
        for position in open(path)?.positions() {
            match position {
                Ok(p) => {
                    if need_scores && p.score.is_none() {
                        return Err(TuneError::NoScore {
                            path: path.clone(),
                            line: p.at.number() as usize,
                        });
                    }
                    chunk.push(p);
                }
                Err(DataError::BadEntry { path, line, reason }) => bad.push(BadLine {
                    path,
                    line: line as usize,
                    reason,
                }),
                Err(e) => return Err(e.into()),
            }
            if chunk.len() == CHUNK {
                read += chunk.len() as u64;
                samples.extend(resolve(&chunk));
                chunk.clear();
                on_progress(read);
            }
        }
        read += chunk.len() as u64;
        samples.extend(resolve(&chunk));
        on_progress(read);
    }
    if samples.is_empty() {
        return Err(TuneError::Empty {
            bad: bad.len(),
            first: bad.into_iter().next(),
        });
    }
    Ok((samples, bad))
}

/// The samples of `positions`, in order: each resolved to its quiet leaf
/// (dropped when that is in check, or a known win against a bare king,
/// whose value no weight changes).
fn resolve(positions: &[TrainingPosition]) -> Vec<Sample> {
    positions
        .par_iter()
        .filter_map(|p| {
            let leaf = quiet::quiet_leaf(&p.board)?;
            let coefs = coefficients(&leaf);
            coefs
                .known_win
                .is_none()
                .then(|| Sample::new(&coefs, p.result, p.score))
        })
        .collect()
}
