//! Reading the training data: text and packed `datagen` files, each
//! position parsed, resolved to its quiet leaf and turned into a
//! [`Sample`]; the errors of tuning ([`TuneError`]) and the lines that could
//! not be used ([`BadLine`]).

use std::fs;
use std::path::PathBuf;

use rayon::prelude::*;
use shakmaty::Chess;
use thiserror::Error;

use super::{Sample, quiet};
use crate::datagen::format::parse_line;
use crate::datagen::{is_packed, packed};
use shears::chess::Position;
use shears::eval::coefficients;

/// Why tuning could not run.
#[derive(Debug, Error)]
pub enum TuneError {
    /// A data file could not be read.
    #[error("{path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
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

/// The contents of one data file.
enum Contents {
    /// Text lines (`datagen::format`).
    Text(String),
    /// Packed records (`datagen::packed`).
    Packed(Vec<u8>),
}

/// One position's entry in a data file, before parsing.
#[derive(Clone, Copy)]
pub(super) enum Entry<'a> {
    Line(&'a str),
    Record(&'a [u8; packed::RECORD]),
    /// Bytes at the end of a packed file too few for a record.
    Cut(usize),
}

/// Parses one entry: the board and its labels.
pub(super) fn parse_entry(entry: Entry<'_>) -> Result<(Chess, f32, Option<i32>), String> {
    match entry {
        Entry::Line(line) => {
            let parsed = parse_line(line)?;
            let pos = Position::from_fen(parsed.fen, false).map_err(|e| e.to_string())?;
            Ok((pos.board().clone(), parsed.result, parsed.score))
        }
        Entry::Record(bytes) => match packed::unpack(bytes)? {
            packed::Record::Position {
                board,
                result,
                score,
            } => Ok((board, result, score)),
            packed::Record::GameEnd { .. } => Err("an end-of-game record".to_owned()),
        },
        Entry::Cut(n) => Err(format!(
            "{n} bytes at the end, too few for a {}-byte record",
            packed::RECORD
        )),
    }
}

/// The position entries of `contents`, each with its line (or record)
/// number from 1: comments and end-of-game records left out.
fn entries(contents: &Contents) -> Vec<(usize, Entry<'_>)> {
    match contents {
        Contents::Text(text) => text
            .lines()
            .enumerate()
            .map(|(n, line)| (n + 1, line.trim()))
            .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
            .map(|(n, line)| (n, Entry::Line(line)))
            .collect(),
        Contents::Packed(bytes) => {
            let chunks = bytes.chunks_exact(packed::RECORD);
            let rest = chunks.remainder().len();
            let count = chunks.len();
            let mut out: Vec<(usize, Entry<'_>)> = chunks
                .map(|c| <&[u8; packed::RECORD]>::try_from(c).expect("chunks of RECORD bytes"))
                .enumerate()
                .filter(|(_, r)| packed::game_end_index(r).is_none())
                .map(|(n, r)| (n + 1, Entry::Record(r)))
                .collect();
            if rest > 0 {
                out.push((count + 1, Entry::Cut(rest)));
            }
            out
        }
    }
}

/// What one data line gave.
enum Loaded {
    /// A training position.
    Sample(Sample),
    /// The quiet leaf is in check: left out.
    InCheck,
    /// The quiet leaf is a known win against a bare king, whose value no
    /// weight changes: left out.
    KnownWin,
    /// No score, and scores are needed.
    NoScore,
}

/// Loads the data files (lines starting with `#` are comments): parses each
/// position, resolves it to its quiet leaf and takes its features, in
/// parallel. Positions whose leaf is in check are dropped (not an error).
/// With `need_scores`, every line must carry a search score.
/// `on_progress` gets the number of lines done so far, now and then.
///
/// # Errors
///
/// When a file cannot be read, a line lacks the score `need_scores` asks
/// for (the first such line is named), or nothing usable is left.
pub fn load(
    paths: &[PathBuf],
    need_scores: bool,
    on_progress: &(dyn Fn(u64) + Sync),
) -> Result<(Vec<Sample>, Vec<BadLine>), TuneError> {
    let files: Vec<(PathBuf, Contents)> = paths
        .iter()
        .map(|p| {
            let contents = if is_packed(p) {
                fs::read(p).map(Contents::Packed)
            } else {
                fs::read_to_string(p).map(Contents::Text)
            };
            contents
                .map(|c| (p.clone(), c))
                .map_err(|source| TuneError::Read {
                    path: p.clone(),
                    source,
                })
        })
        .collect::<Result<_, _>>()?;
    let lines: Vec<(&PathBuf, usize, Entry<'_>)> = files
        .iter()
        .flat_map(|(path, contents)| {
            entries(contents)
                .into_iter()
                .map(move |(n, entry)| (path, n, entry))
        })
        .collect();
    let done = std::sync::atomic::AtomicU64::new(0);
    let parsed: Vec<Result<Loaded, BadLine>> = lines
        .par_iter()
        .map(|&(path, number, line)| {
            let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            if n.is_multiple_of(10_000) {
                on_progress(n);
            }
            let (board, result, score) = parse_entry(line).map_err(|reason| BadLine {
                path: path.clone(),
                line: number,
                reason,
            })?;
            if need_scores && score.is_none() {
                return Ok(Loaded::NoScore);
            }
            Ok(quiet::quiet_leaf(&board).map_or(Loaded::InCheck, |leaf| {
                let coefs = coefficients(&leaf);
                if coefs.known_win.is_some() {
                    return Loaded::KnownWin;
                }
                Loaded::Sample(Sample::new(&coefs, result, score))
            }))
        })
        .collect();
    let mut samples = Vec::with_capacity(parsed.len());
    let mut bad = Vec::new();
    for (p, &(path, line, _)) in parsed.into_iter().zip(&lines) {
        match p {
            Ok(Loaded::Sample(s)) => samples.push(s),
            Ok(Loaded::InCheck | Loaded::KnownWin) => {}
            Ok(Loaded::NoScore) => {
                return Err(TuneError::NoScore {
                    path: path.clone(),
                    line,
                });
            }
            Err(b) => bad.push(b),
        }
    }
    if samples.is_empty() {
        return Err(TuneError::Empty {
            bad: bad.len(),
            first: bad.into_iter().next(),
        });
    }
    Ok((samples, bad))
}
