//! Training data for the tuner (`shears datagen`): self-play games from
//! varied openings (an optional PGN book, then random plies) at a fixed
//! node budget or depth per move, several games at once, each kept
//! position labelled with the game's result and the search's score.
//!
//! | file | what it owns |
//! |---|---|
//! | `mod.rs` | the run: settings, the file, resuming, the worker threads |
//! | `format.rs` | the data line format, written here and read by `tune` |
//! | `packed.rs` | the packed binary format (32-byte records), for files named `*.bin` |
//! | `opening.rs` | the opening book and which opening each game gets |
//! | `game.rs` | one game: balance check, adjudication, the quiet filter |
//!
//! **File layout.** Plain text, appended game by game:
//!
//! ```text
//! # datagen <settings of the run>     once per run (a comment)
//! <fen> | <result> | <score>          one line per kept position (format.rs)
//! ...
//! # game <index> <result> <plies>
//! ```
//!
//! A file whose name ends in `.bin` holds the same in packed 32-byte records
//! instead (`packed.rs`; no `# datagen` line), each game closed by an
//! end-of-game record.
//!
//! A game's block is written whole and flushed, then closed by its `# game`
//! line (or record). So stopping the run at any moment loses at most the games in play;
//! on the next run an unfinished block at the end is cut off and the games
//! whose index is already there are skipped ([`resume`]). Game `i` of seed
//! `s` is always the same game (same opening, same moves: the search is
//! single-threaded with a node or depth limit), whichever thread plays it.
//!
//! Which positions are kept, and how games end: see `game.rs`. The tuner
//! still resolves each position with a quiescence search.

pub mod format;
mod game;
pub mod opening;
pub mod packed;

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::Path;

use shakmaty::fen::Fen;
use shakmaty::{Chess, EnPassantMode};
use thiserror::Error;

pub use game::{
    DRAW_MIN_PLY, DRAW_PLIES, DRAW_SCORE, HASH_MB, MAX_OPENING_SCORE, MAX_OPENING_TRIES, MAX_PLIES,
    RESIGN_PLIES, RESIGN_SCORE,
};
pub use opening::{Book, BookError, Openings};

use game::{Player, play_game};
use shears::eval::Evaluation;
use shears::search::thread_pool;
use shears::search::tt::TtError;

/// Random plies of an opening without a book (one more on odd games).
pub const RANDOM_PLIES: u32 = 8;
/// Random plies after a book line (one more on odd games).
pub const BOOK_RANDOM_PLIES: u32 = 2;
/// Positions before this game ply (move 9) are not kept.
pub const MIN_PLY: u32 = 16;
/// Nodes per move when neither a node nor a depth limit is given.
pub const DEFAULT_NODES: u64 = 5_000;

/// The evaluation as the settings line shows it: nothing for the
/// hand-crafted one (the line is as it always was), ` eval net <file>` for
/// a net.
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
}

impl DatagenConfig {
    /// The settings as the `# datagen` line shows them.
    pub fn describe(&self) -> String {
        let or_dash = |v: Option<String>| v.unwrap_or_else(|| "-".to_owned());
        format!(
            "seed {} nodes {} depth {} random-plies {} min-ply {}",
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
}

impl GameRecord {
    /// The game's block in the data file.
    pub fn to_text(&self) -> String {
        let mut text = String::new();
        for p in &self.positions {
            text.push_str(&format::format_line(&p.fen(), self.result, p.white_score));
            text.push('\n');
        }
        text.push_str(&format!(
            "# game {} {:.1} {}\n",
            self.index, self.result, self.plies
        ));
        text
    }

    /// The game's block in a packed data file.
    pub fn to_packed(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity((self.positions.len() + 1) * packed::RECORD);
        for p in &self.positions {
            bytes.extend_from_slice(&packed::pack(&p.board, self.result, Some(p.white_score)));
        }
        bytes.extend_from_slice(&packed::pack_game_end(self.index, self.result, self.plies));
        bytes
    }
}

/// Whether `path` names a packed data file (`.bin`) rather than a text one.
pub fn is_packed(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("bin"))
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

/// What a data file already holds: the indices of its complete games, and
/// the length of its complete part.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Existing {
    /// Indices of the games closed by a `# game` line.
    pub games: HashSet<u64>,
    /// Bytes up to and including the last `# game` line.
    pub complete_len: u64,
    /// Positions in the complete part.
    pub positions: u64,
}

/// Reads what `path` holds (nothing if it does not exist).
///
/// # Errors
///
/// When the file exists but cannot be read.
pub fn resume(path: &Path) -> io::Result<Existing> {
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Existing::default()),
        Err(e) => return Err(e),
    };
    let mut reader = BufReader::new(file);
    if is_packed(path) {
        resume_packed(&mut reader)
    } else {
        resume_text(&mut reader)
    }
}

fn resume_text(reader: &mut impl BufRead) -> io::Result<Existing> {
    let mut existing = Existing::default();
    let (mut offset, mut pending) = (0u64, 0u64);
    let mut line = Vec::new();
    loop {
        line.clear();
        let n = reader.read_until(b'\n', &mut line)?;
        if n == 0 {
            break;
        }
        offset += n as u64;
        if !line.ends_with(b"\n") {
            break; // cut off mid-line: not complete
        }
        let text = String::from_utf8_lossy(&line);
        if let Some(rest) = text.strip_prefix("# game ") {
            if let Some(Ok(i)) = rest.split_whitespace().next().map(str::parse) {
                existing.games.insert(i);
            }
            existing.complete_len = offset;
            existing.positions += pending;
            pending = 0;
        } else if !text.starts_with('#') {
            pending += 1;
        }
    }
    Ok(existing)
}

fn resume_packed(reader: &mut impl Read) -> io::Result<Existing> {
    let mut existing = Existing::default();
    let (mut offset, mut pending) = (0u64, 0u64);
    let mut record = [0u8; packed::RECORD];
    loop {
        match reader.read_exact(&mut record) {
            Ok(()) => {}
            // The end, or a record cut off: not complete.
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => break,
            Err(e) => return Err(e),
        }
        offset += packed::RECORD as u64;
        if let Some(index) = packed::game_end_index(&record) {
            existing.games.insert(index);
            existing.complete_len = offset;
            existing.positions += pending;
            pending = 0;
        } else {
            pending += 1;
        }
    }
    Ok(existing)
}

/// Plays games with `evaluation` until `path` holds `config.games` of
/// them, appending each as it ends; `on_game` is called after each write
/// (for progress). Returns how many games and positions this run added.
///
/// # Errors
///
/// When the file cannot be read or written, the threads or tables cannot
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
    let existing = resume(path).map_err(io_error)?;
    let mut file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .map_err(io_error)?;
    file.set_len(existing.complete_len).map_err(io_error)?;
    file.seek(SeekFrom::End(0)).map_err(io_error)?;

    let todo: Vec<u64> = (0..)
        .filter(|i| !existing.games.contains(i))
        .take(config.games.saturating_sub(existing.games.len() as u64) as usize)
        .collect();
    if todo.is_empty() {
        return Ok((0, 0));
    }
    let packed = is_packed(path);
    if !packed {
        let header = format!(
            "# datagen {} {}{}\n",
            config.describe(),
            openings.describe(),
            describe_evaluation(evaluation)
        );
        file.write_all(header.as_bytes()).map_err(io_error)?;
    }
    let threads = config.threads.max(1);
    let pool = thread_pool(threads, "datagen").map_err(|e| DatagenError::Threads {
        threads,
        reason: e.to_string(),
    })?;
    let (sender, receiver) = std::sync::mpsc::channel::<Result<GameRecord, DatagenError>>();
    let stop = std::sync::atomic::AtomicBool::new(false);
    let mut written = (0u64, 0u64);
    std::thread::scope(|scope| -> Result<(), DatagenError> {
        let stop = &stop;
        scope.spawn(move || {
            use rayon::prelude::*;
            pool.install(|| {
                todo.par_iter().with_max_len(1).for_each_init(
                    || Player::new(config, evaluation),
                    |player, &index| {
                        if stop.load(std::sync::atomic::Ordering::Relaxed) {
                            return;
                        }
                        let record = match player {
                            Ok(p) => play_game(index, config, openings, p),
                            Err(e) => Err(e.clone().into()),
                        };
                        // The writer stops listening only on an error.
                        let _ = sender.send(record);
                    },
                );
            });
        });
        let outcome = (|| {
            for record in receiver {
                let record = record?;
                let block = if packed {
                    record.to_packed()
                } else {
                    record.to_text().into_bytes()
                };
                file.write_all(&block)
                    .and_then(|()| file.flush())
                    .map_err(io_error)?;
                written.0 += 1;
                written.1 += record.positions.len() as u64;
                on_game(&record);
            }
            Ok(())
        })();
        // On an error the games still queued are not started.
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        outcome
    })?;
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two short games on one thread: the configuration of the datagen
    /// unit tests (here and in `game.rs`).
    pub(super) fn small() -> DatagenConfig {
        DatagenConfig {
            games: 2,
            nodes: Some(300),
            depth: None,
            threads: 1,
            seed: 7,
            random_plies: RANDOM_PLIES,
            min_ply: MIN_PLY,
        }
    }

    fn no_book(config: &DatagenConfig) -> Openings {
        Openings::new(Book::default(), config.random_plies, config.seed)
    }

    #[test]
    fn an_interrupted_file_resumes_without_losing_or_repeating_games() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("data.txt");
        let (games, _) = run(
            &path,
            &small(),
            &Evaluation::HandCrafted,
            &no_book(&small()),
            &|_| {},
        )
        .unwrap();
        assert_eq!(games, 2);
        let full = std::fs::read_to_string(&path).unwrap();
        assert!(
            full.starts_with("# datagen seed 7 nodes 300 depth - "),
            "{full}"
        );
        for line in full.lines().filter(|l| !l.starts_with('#')) {
            let parsed = format::parse_line(line).unwrap();
            assert!(parsed.score.is_some(), "{line}");
        }
        // A run killed in the middle of a block: a partial game at the end.
        let partial = format!("{full}8/8/8/8/8/8/8/K6k w - - 0 1 | 0.5 | 3\n8/8/8/8/8/8/8/K5k");
        std::fs::write(&path, partial).unwrap();
        let existing = resume(&path).unwrap();
        assert_eq!(existing.games, HashSet::from([0, 1]));
        assert_eq!(existing.complete_len, full.len() as u64);

        let more = DatagenConfig {
            games: 3,
            ..small()
        };
        let (games, _) = run(
            &path,
            &more,
            &Evaluation::HandCrafted,
            &no_book(&more),
            &|_| {},
        )
        .unwrap();
        assert_eq!(games, 1, "only the missing game is played");
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with(&full), "what was written is kept");
        assert!(!text.contains("K5k"), "the partial block is cut off");
        assert_eq!(resume(&path).unwrap().games, HashSet::from([0, 1, 2]));
        // Nothing left to do: nothing is written, not even a header.
        let (games, _) = run(
            &path,
            &more,
            &Evaluation::HandCrafted,
            &no_book(&more),
            &|_| {},
        )
        .unwrap();
        assert_eq!(games, 0);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    }

    #[test]
    fn a_packed_file_holds_the_text_file_positions_and_resumes() {
        let dir = tempfile::tempdir().unwrap();
        let (txt, bin) = (dir.path().join("d.txt"), dir.path().join("d.bin"));
        run(
            &txt,
            &small(),
            &Evaluation::HandCrafted,
            &no_book(&small()),
            &|_| {},
        )
        .unwrap();
        run(
            &bin,
            &small(),
            &Evaluation::HandCrafted,
            &no_book(&small()),
            &|_| {},
        )
        .unwrap();
        let text = std::fs::read_to_string(&txt).unwrap();
        let bytes = std::fs::read(&bin).unwrap();
        assert_eq!(bytes.len() % packed::RECORD, 0);
        // Decode the packed file back into text lines.
        let mut decoded = String::new();
        for chunk in bytes.chunks_exact(packed::RECORD) {
            match packed::unpack(chunk.try_into().unwrap()).unwrap() {
                packed::Record::Position {
                    board,
                    result,
                    score,
                } => {
                    let fen = Fen::from_position(&board, EnPassantMode::Legal).to_string();
                    decoded.push_str(&format::format_line(&fen, result, score.unwrap()));
                    decoded.push('\n');
                }
                packed::Record::GameEnd {
                    index,
                    result,
                    plies,
                } => decoded.push_str(&format!("# game {index} {result:.1} {plies}\n")),
            }
        }
        let without_header: String = text.lines().skip(1).map(|l| format!("{l}\n")).collect();
        assert_eq!(decoded, without_header);
        let existing = resume(&bin).unwrap();
        assert_eq!(existing.games, HashSet::from([0, 1]));
        assert_eq!(existing.complete_len, bytes.len() as u64);
        assert_eq!(existing.positions, resume(&txt).unwrap().positions);

        // Cut off inside a game: a whole position record, then half of one.
        let mut cut = bytes.clone();
        cut.extend_from_slice(&bytes[..packed::RECORD + 16]);
        std::fs::write(&bin, &cut).unwrap();
        assert_eq!(resume(&bin).unwrap().complete_len, bytes.len() as u64);
        let more = DatagenConfig {
            games: 3,
            ..small()
        };
        let (games, _) = run(
            &bin,
            &more,
            &Evaluation::HandCrafted,
            &no_book(&more),
            &|_| {},
        )
        .unwrap();
        assert_eq!(games, 1);
        let after = std::fs::read(&bin).unwrap();
        assert!(after.starts_with(&bytes));
        assert_eq!(resume(&bin).unwrap().games, HashSet::from([0, 1, 2]));
    }

    #[test]
    fn a_file_of_the_old_format_resumes_with_the_new_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.txt");
        let old = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | 0.5\n\
                   # game 0 0.5 80\n";
        std::fs::write(&path, old).unwrap();
        let existing = resume(&path).unwrap();
        assert_eq!((existing.games.len(), existing.positions), (1, 1));
        let (games, _) = run(
            &path,
            &small(),
            &Evaluation::HandCrafted,
            &no_book(&small()),
            &|_| {},
        )
        .unwrap();
        assert_eq!(games, 1, "game 0 is there already");
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with(old));
        assert!(text.contains("\n# game 1 "));
    }

    #[test]
    fn a_one_sided_book_is_an_error_not_a_hang() {
        let dir = tempfile::tempdir().unwrap();
        let pgn = dir.path().join("lost.pgn");
        // Black gives up the queen for two pawns.
        std::fs::write(
            &pgn,
            "[Result \"*\"]\n\n1. d4 e5 2. dxe5 Qh4 3. Nf3 Qxf2+ 4. Kxf2 *\n",
        )
        .unwrap();
        let config = DatagenConfig {
            random_plies: 0,
            nodes: Some(100),
            ..small()
        };
        let openings = Openings::new(Book::load(&[pgn]).unwrap(), 0, 1);
        let err = run(
            &dir.path().join("d.txt"),
            &config,
            &Evaluation::HandCrafted,
            &openings,
            &|_| {},
        )
        .unwrap_err();
        assert!(matches!(err, DatagenError::NoOpening { .. }), "{err}");
    }
}
