//! [`TrainError`]: why `shears train` cannot start or go on. Each variant
//! names the file (and the record) or the option at fault.

use std::path::PathBuf;

use thiserror::Error;

use crate::data::{DataError, SplitError};
use shears::eval::nnue::NetError;

/// Why training cannot run.
#[derive(Debug, Error)]
pub enum TrainError {
    /// A file cannot be read or written.
    #[error("{}: {source}", .path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The score blend needs a search score, and a position has none.
    #[error("{place}: no search score: --lambda above 0 needs one on every position")]
    NoScore {
        /// The file and the position's line or record (`data.bin: record 3`).
        place: String,
    },
    /// A data file cannot be read, or is damaged (the reader's message
    /// names the file, and the record, line or game).
    #[error(transparent)]
    Data(#[from] DataError),
    /// No position to train on.
    #[error("no positions in the data files")]
    Empty,
    /// The validation rule holds out no game, or every game.
    #[error(transparent)]
    BadSplit(#[from] SplitError),
    /// A hidden width the engine does not play.
    #[error(
        "--hidden {given}: the engine plays nets of {} hidden neurons per side",
        shears::eval::nnue::arch::widths_in_words()
    )]
    WrongHidden {
        /// The width asked for.
        given: usize,
    },
    /// An option out of its range.
    #[error("{option} {value}: {expected}")]
    BadOption {
        /// The option.
        option: &'static str,
        /// Its value.
        value: String,
        /// What it must be.
        expected: &'static str,
    },
    /// K cannot be fitted (no scores, or nothing to fit).
    #[error("cannot fit the scale K: {0}; give it with --scale")]
    NoScale(&'static str),
    /// A checkpoint that cannot be used.
    #[error("checkpoint {}: {reason}", .path.display())]
    Checkpoint {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// The exported net was refused by the engine's reader.
    #[error("the exported net {} does not load: {source}", .path.display())]
    Export {
        /// The net file.
        path: PathBuf,
        /// The reader's error.
        source: NetError,
    },
    /// The loss stopped being a number.
    #[error(
        "the loss diverged in epoch {epoch} (it is {loss}); no net was written: try a lower --lr"
    )]
    Diverged {
        /// The epoch (from 1).
        epoch: u32,
        /// The loss.
        loss: f64,
    },
    /// The loss rose far above where the run started.
    #[error(
        "the loss exploded in epoch {epoch}: {loss:.6}, from {start:.6} at the start of the run; \
         no net was written: try a lower --lr"
    )]
    Exploded {
        /// The epoch (from 1).
        epoch: u32,
        /// The epoch's training loss.
        loss: f64,
        /// The loss of the run's first batch, before its step.
        start: f64,
    },
    /// A trained weight the net file cannot hold (not a number, or an
    /// output bias beyond the quantised range).
    #[error("the trained net cannot be exported: {what}; no net was written: try a lower --lr")]
    Unexportable {
        /// Which weight, and its value.
        what: String,
    },
    /// The output exists, and replacing it was not asked for.
    #[error("{}: the net file exists; give --force to replace it, or another --out", .path.display())]
    OutExists {
        /// The net file.
        path: PathBuf,
    },
    /// The run would export a net that no step trained.
    #[error("no training step was taken (the checkpoint has none either): no net was written")]
    Untrained,
    /// The worker threads could not be started.
    #[error("cannot start {threads} threads: {reason}")]
    Threads {
        /// Threads asked for.
        threads: usize,
        /// The pool's error.
        reason: String,
    },
}

impl TrainError {
    /// An I/O error on `path`.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> TrainError {
        TrainError::Io {
            path: path.into(),
            source,
        }
    }
}
