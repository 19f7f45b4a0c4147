//! Training data (`shears datagen`): self-play games from varied openings
//! (an optional PGN or EPD book, then random plies) at a fixed node budget
//! or depth per move, several games at once, written in game order, each
//! position labelled with the game's result and the search's score.
//!
//! | file | what it owns |
//! |---|---|
//! | `mod.rs` | the run: settings, the worker threads, writing in game order |
//! | `resume.rs` | what a game file already holds, and which files a run refuses |
//! | `opening.rs` | the opening book and which opening each game gets |
//! | `game.rs` | one game: balance check, the moves, the positions kept |
//! | `genfens.rs` | OpenBench's `genfens`: the openings of the games as FENs |
//!
//! The formats it writes, the quiet filter and the adjudication rule are
//! the data room's (`crate::data`: `format/`, `filter.rs`,
//! `adjudication.rs`), which reads what this writes; this module uses
//! them and `data` never uses this one.
//!
//! **One format.** `datagen` writes game files (`*.games`,
//! `data/format/games.rs`) only: the start position, then every move with
//! its search score, the result. Which positions train is decided on
//! reading (the quiet filter), so the file keeps everything. Packed
//! (`.bin`) and text files of the kept positions are made from it by
//! `shears data convert`; a run asked for another name is refused, naming
//! that command ([`resume`]).
//!
//! **Game order.** Game `i` of seed `s` is always the same game (same
//! opening, same moves: the search is single-threaded with a node or depth
//! limit), whichever thread plays it. The threads take the games in order
//! and the writer holds a game that ends early until every game before it
//! is written, so the file is the same bytes whatever the number of
//! threads, and a sha256 compares files made on different machines.
//!
//! **Resuming.** A game is written whole and flushed. Stopping the run at
//! any moment loses at most the games in play; the next run cuts off an
//! unfinished game at the end and plays the games from `n` on, so that a
//! run stopped and resumed writes the same file as one run. A file's
//! header holds the run's settings and the build; a run appends only to a
//! file whose header is its own, and refuses any other file before it
//! writes a byte. Bytes already written are never rewritten.
//!
//! How games end: see `game.rs` and `data/adjudication.rs`; which
//! positions are kept: `data/filter.rs`. The tuner still resolves each
//! position with a quiescence search.

mod game;
pub mod genfens;
pub mod opening;
mod resume;

use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::io::{self, Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use shakmaty::fen::Fen;
use shakmaty::{Chess, EnPassantMode, Move};
use thiserror::Error;

pub use game::{HASH_MB, MAX_OPENING_SCORE, MAX_OPENING_TRIES, MAX_PLIES};
pub use opening::{Book, BookError, Openings};
pub use resume::{Existing, ResumeError, resume};

use crate::data::adjudication::Adjudication;
use crate::data::format::games;
use crate::data::format::header::{BUILD, Header};
use game::{Player, play_game};
use shears::eval::Evaluation;
use shears::search::thread_pool;
use shears::search::tt::TtError;

/// Random plies of an opening without a book (one more on odd games).
pub const RANDOM_PLIES: u32 = 8;
/// Random plies after a book line (one more on odd games).
pub const BOOK_RANDOM_PLIES: u32 = 2;
/// Nodes per move when neither a node nor a depth limit is given.
pub const DEFAULT_NODES: u64 = 5_000;

/// The evaluation as a run's first line shows it: nothing for the
/// hand-crafted one, ` eval net <file>` for a net.
pub fn describe_evaluation(evaluation: &Evaluation) -> String {
    match evaluation {
        Evaluation::HandCrafted => String::new(),
        Evaluation::Net(_) => format!(" eval {}", evaluation.describe()),
    }
}

/// What one `datagen` run does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DatagenConfig {
    /// Games in the file when the run is over (games already there count).
    pub games: u64,
    /// Node budget of each move's search (`None`: no node limit).
    pub nodes: Option<u64>,
    /// Depth of each move's search (`None`: no depth limit). With both
    /// limits a search stops at whichever comes first; one of them must be
    /// set.
    pub depth: Option<u32>,
    /// Games played at once.
    pub threads: usize,
    /// Seed of the openings: game `i` of seed `s` is always the same game.
    pub seed: u64,
    /// Random plies after the book line (or from the start position).
    pub random_plies: u32,
    /// Positions before this game ply are not kept.
    pub min_ply: u32,
    /// How games end before the rules end them.
    pub adjudication: Adjudication,
    /// Nodes of a first, small search of each move (`None`: none): a
    /// position the quiet filter drops anyway plays its move
    /// (`game.rs`, `Player::play`).
    pub probe_nodes: Option<u64>,
}

impl DatagenConfig {
    /// The settings as a run's first line (on stderr) shows them.
    pub fn describe(&self) -> String {
        let or_dash = |v: Option<String>| v.unwrap_or_else(|| "-".to_owned());
        let adjudication = if self.adjudication == Adjudication::default() {
            String::new()
        } else {
            format!(" adjudication {}", self.adjudication)
        };
        let probe = self
            .probe_nodes
            .map_or_else(String::new, |n| format!(" probe-nodes {n}"));
        format!(
            "seed {} nodes {} depth {} random-plies {} min-ply {}{probe}{adjudication}",
            self.seed,
            or_dash(self.nodes.map(|n| n.to_string())),
            or_dash(self.depth.map(|d| d.to_string())),
            self.random_plies,
            self.min_ply
        )
    }
}

/// A kept position with its search score.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Labelled {
    /// The position.
    pub board: Chess,
    /// The search's score from White's side, centipawns (never a mate).
    pub white_score: i32,
}

impl Labelled {
    /// The position's FEN.
    pub fn fen(&self) -> String {
        Fen::from_position(&self.board, EnPassantMode::Legal).to_string()
    }
}

/// One finished game.
#[derive(Debug, Clone, PartialEq)]
pub struct GameRecord {
    /// The game's index (which opening it was).
    pub index: u64,
    /// The result from White's side: 1.0, 0.5 or 0.0.
    pub result: f32,
    /// Plies played, the opening's included.
    pub plies: u32,
    /// The kept positions.
    pub positions: Vec<Labelled>,
    /// Where the engine started to play (after the opening).
    pub start: Chess,
    /// Every move played from `start`, with its search's score for the
    /// side to move.
    pub moves: Vec<(Move, i32)>,
}

impl GameRecord {
    /// The game in a game file.
    pub fn to_game(&self) -> games::Game {
        games::Game {
            start: self.start.clone(),
            result: self.result,
            moves: self.moves.iter().map(|&(m, s)| (m, Some(s))).collect(),
        }
    }
}

/// The header of a game file made by a run of `config` and `openings`
/// with `evaluation` (a net adds an `eval` setting: its file and digest;
/// the hand-crafted evaluation adds none, so its headers are as before;
/// a probe adds `probe_nodes`, an adjudication other than the default an
/// `adjudication` setting; without them the header is as before).
pub fn run_header(config: &DatagenConfig, openings: &Openings, evaluation: &Evaluation) -> Header {
    let int = |n: u64| -> toml::Value {
        i64::try_from(n).map_or_else(|_| n.to_string().into(), toml::Value::Integer)
    };
    let mut settings: Vec<(&str, toml::Value)> = vec![
        ("source", "datagen".into()),
        ("build", BUILD.into()),
        ("seed", int(config.seed)),
    ];
    if let Some(nodes) = config.nodes {
        settings.push(("nodes", int(nodes)));
    }
    if let Some(depth) = config.depth {
        settings.push(("depth", int(u64::from(depth))));
    }
    settings.push(("random_plies", int(u64::from(config.random_plies))));
    settings.push(("min_ply", int(u64::from(config.min_ply))));
    if let Some(book) = openings.book_files() {
        settings.push(("book", book.into()));
    }
    if let Some(net) = evaluation.net() {
        let eval = format!("net {} (digest {:016x})", net.source(), net.id());
        settings.push(("eval", eval.into()));
    }
    if let Some(probe) = config.probe_nodes {
        settings.push(("probe_nodes", int(probe)));
    }
    if config.adjudication != Adjudication::default() {
        settings.push(("adjudication", config.adjudication.to_string().into()));
    }
    Header::new(&settings)
}

/// Why a run could not go on.
#[derive(Debug, Error)]
pub enum DatagenError {
    /// The data file could not be read, cut or written.
    #[error("{path}: {source}")]
    Io {
        /// The data file.
        path: String,
        /// What went wrong.
        source: io::Error,
    },
    /// A game's hash table could not be allocated.
    #[error(transparent)]
    Tt(#[from] TtError),
    /// The thread pool could not be built.
    #[error("cannot start {threads} threads: {reason}")]
    Threads {
        /// Threads asked for.
        threads: usize,
        /// The pool's error.
        reason: String,
    },
    /// The file is not this run's own game file (or cannot be read).
    #[error(transparent)]
    Resume(#[from] ResumeError),
    /// No try at an opening for a game was playable and balanced.
    #[error(
        "game {index}: no playable opening scored within ±{MAX_OPENING_SCORE} cp in {tries} tries \
         ({per_line} on its book line, then other lines): is the book one-sided?"
    )]
    NoOpening {
        /// The game.
        index: u64,
        /// Tries made.
        tries: u32,
        /// Tries on the game's own book line.
        per_line: u32,
    },
}

/// Plays games with `evaluation` until `path` holds `config.games` of
/// them, appending each in game order; `on_game` is called after each write (for progress).
/// Returns how many games and positions this run added.
///
/// # Errors
///
/// When the file is not this run's own game file ([`ResumeError`]: another
/// name than `.games`, another kind of file, other settings; nothing is
/// written then), cannot be read or written, the threads or tables cannot
/// be had, or a game finds no balanced opening.
pub fn run(
    path: &Path,
    config: &DatagenConfig,
    evaluation: &Evaluation,
    openings: &Openings,
    on_game: &(dyn Fn(&GameRecord) + Sync),
) -> Result<(u64, u64), DatagenError> {
    let io_error = |source| DatagenError::Io {
        path: path.display().to_string(),
        source,
    };
    let header = run_header(config, openings, evaluation);
    let existing = resume(path, &header)?;
    let todo: Vec<u64> = (existing.games..config.games.max(existing.games)).collect();
    if todo.is_empty() {
        return Ok((0, 0));
    }
    let mut file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .map_err(io_error)?;
    file.set_len(existing.complete_len).map_err(io_error)?;
    file.seek(SeekFrom::End(0)).map_err(io_error)?;
    if existing.header.is_none() {
        file.write_all(&header.to_bytes()).map_err(io_error)?;
    }
    let mut written = (0u64, 0u64);
    play_in_order(config, evaluation, openings, &todo, &mut |record| {
        file.write_all(&record.to_game().to_bytes())
            .and_then(|()| file.flush())
            .map_err(io_error)?;
        written.0 += 1;
        written.1 += record.positions.len() as u64;
        on_game(record);
        Ok(())
    })?;
    Ok(written)
}

/// Plays the games `todo` with `evaluation` on `config.threads` threads and hands each to
/// `write` in the order of `todo`.
///
/// Each thread takes the next game not yet taken, so the games in play are
/// always near the next one to write; a game that ends before the games
/// taken ahead of it waits in a reorder buffer (a few games: as many as end
/// while the oldest is still played). On an error the games not yet taken
/// are not started, and the error is returned once the threads are done.
fn play_in_order(
    config: &DatagenConfig,
    evaluation: &Evaluation,
    openings: &Openings,
    todo: &[u64],
    write: &mut dyn FnMut(&GameRecord) -> Result<(), DatagenError>,
) -> Result<(), DatagenError> {
    let threads = config.threads.max(1);
    let pool = thread_pool(threads, "datagen").map_err(|e| DatagenError::Threads {
        threads,
        reason: e.to_string(),
    })?;
    let (sender, receiver) =
        std::sync::mpsc::channel::<(usize, Result<GameRecord, DatagenError>)>();
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| -> Result<(), DatagenError> {
        let (next, stop) = (&next, &stop);
        scope.spawn(move || {
            pool.broadcast(|_| {
                let mut player = Player::new(config, evaluation);
                while !stop.load(Ordering::Relaxed) {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&index) = todo.get(k) else {
                        break;
                    };
                    let record = match &mut player {
                        Ok(p) => play_game(index, config, openings, p),
                        Err(e) => Err(e.clone().into()),
                    };
                    // The writer stops listening only on an error.
                    if sender.send((k, record)).is_err() {
                        break;
                    }
                }
            });
        });
        let mut pending: BTreeMap<usize, GameRecord> = BTreeMap::new();
        let mut want = 0;
        let outcome = (|| {
            for (k, record) in &receiver {
                pending.insert(k, record?);
                while let Some(record) = pending.remove(&want) {
                    write(&record)?;
                    want += 1;
                }
            }
            Ok(())
        })();
        // On an error the games not yet taken are not started.
        stop.store(true, Ordering::Relaxed);
        drop(receiver);
        outcome
    })
}

#[cfg(test)]
mod tests;
