//! Training data for the tuner (`shears datagen`): self-play games from
//! randomised openings at a fixed node budget per move, several games at
//! once, each position labelled with the game's result.
//!
//! **File format.** Plain text, appended game by game:
//!
//! ```text
//! <fen> | <result>          one line per kept position; result from White's
//! ...                        side: 1.0 win, 0.5 draw, 0.0 loss
//! # game <index> <result> <plies>
//! ```
//!
//! A game's block is written whole and flushed, then closed by its `# game`
//! line. So stopping the run at any moment loses at most the games in play;
//! on the next run an unfinished block at the end is cut off and the games
//! whose index is already there are skipped ([`resume`]).
//!
//! **Which positions.** Not the random opening plies, not positions in
//! check, not positions whose chosen move is a capture or a promotion
//! (the evaluation would be judged on a position about to change), and not
//! positions with a mate score. The tuner still resolves each position with
//! a quiescence search.

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Seek, SeekFrom, Write};
use std::path::Path;

use shakmaty::{Color, KnownOutcome, Move, Position as _};
use thiserror::Error;

use crate::chess::Position;
use crate::chess::random::Rng;
use crate::search::params::SearchConfig;
use crate::search::tt::TtError;
use crate::search::{MATE_BOUND, SearchLimits, SearchSettings, Searcher, thread_pool};

/// Random plies before the engine takes over (one more on odd games, so
/// both colours start half of the games).
pub const RANDOM_PLIES: u32 = 8;
/// A random opening whose first search scores beyond this (centipawns) is
/// thrown away and drawn again.
pub const MAX_OPENING_SCORE: i32 = 300;
/// Resign adjudication: a score at least this large (centipawns, for one
/// side) ...
pub const RESIGN_SCORE: i32 = 1000;
/// ... on this many consecutive plies ends the game.
pub const RESIGN_PLIES: u32 = 6;
/// Draw adjudication: from this ply on ...
pub const DRAW_MIN_PLY: u32 = 80;
/// ... scores within this many centipawns of zero ...
pub const DRAW_SCORE: i32 = 10;
/// ... on this many consecutive plies end the game as a draw.
pub const DRAW_PLIES: u32 = 12;
/// Games longer than this are drawn.
pub const MAX_PLIES: u32 = 400;
/// Hash table of each game's searches, MB.
pub const HASH_MB: usize = 16;

/// What one `datagen` run does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DatagenConfig {
    /// Games in the file when the run is over (games already there count).
    pub games: u64,
    /// Node budget of each move's search.
    pub nodes: u64,
    /// Games played at once.
    pub threads: usize,
    /// Seed of the random openings: game `i` of seed `s` is always the same
    /// opening.
    pub seed: u64,
}

/// One finished game.
#[derive(Debug, Clone, PartialEq)]
pub struct GameRecord {
    /// The game's index (which opening it was).
    pub index: u64,
    /// The result from White's side: 1.0, 0.5 or 0.0.
    pub result: f32,
    /// Plies played, random ones included.
    pub plies: u32,
    /// The FENs of the kept positions.
    pub positions: Vec<String>,
}

impl GameRecord {
    /// The game's block in the data file.
    pub fn to_text(&self) -> String {
        let mut text = String::new();
        for fen in &self.positions {
            text.push_str(&format!("{fen} | {:.1}\n", self.result));
        }
        text.push_str(&format!(
            "# game {} {:.1} {}\n",
            self.index, self.result, self.plies
        ));
        text
    }
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
}

/// The engine's own searcher, one thread, fixed nodes: what both sides play
/// with.
struct Player {
    searcher: Searcher,
    limits: SearchLimits,
}

impl Player {
    fn new(nodes: u64) -> Result<Player, TtError> {
        Ok(Player {
            searcher: Searcher::new(SearchSettings::single(SearchConfig::default()), HASH_MB)?,
            limits: SearchLimits::nodes(nodes),
        })
    }

    fn new_game(&mut self) {
        self.searcher.new_game();
    }

    /// The chosen move and its score for the side to move.
    fn think(&mut self, pos: &Position) -> Option<(Move, i32)> {
        let outcome = self.searcher.think(pos, &self.limits);
        Some((outcome.best?, outcome.score?))
    }
}

/// Whether the game is over by the rules: `Some(result for White)`.
fn rules_result(pos: &Position) -> Option<f32> {
    pos.outcome().map(|outcome| match outcome {
        KnownOutcome::Decisive {
            winner: Color::White,
        } => 1.0,
        KnownOutcome::Decisive {
            winner: Color::Black,
        } => 0.0,
        KnownOutcome::Draw => 0.5,
    })
}

/// A random, playable and roughly balanced opening for game `index`.
fn opening(rng: &mut Rng, index: u64, player: &mut Player) -> Position {
    let plies = RANDOM_PLIES + (index % 2) as u32;
    loop {
        let mut pos = Position::startpos();
        for _ in 0..plies {
            let moves = pos.board().legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play(moves[rng.below(moves.len())]);
        }
        if rules_result(&pos).is_some() {
            continue;
        }
        player.new_game();
        match player.think(&pos) {
            Some((_, score)) if score.abs() <= MAX_OPENING_SCORE => return pos,
            _ => continue,
        }
    }
}

/// Plays game `index` to the end.
fn play_game(index: u64, config: &DatagenConfig, player: &mut Player) -> GameRecord {
    let mut rng = Rng::new(config.seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
    let mut pos = opening(&mut rng, index, player);
    player.new_game();
    let mut plies = pos.history().len() as u32;
    let mut positions = Vec::new();
    let (mut resign_run, mut draw_run) = (0i32, 0u32);
    let result = loop {
        if let Some(r) = rules_result(&pos) {
            break r;
        }
        if plies >= MAX_PLIES {
            break 0.5;
        }
        let Some((best, score)) = player.think(&pos) else {
            break 0.5;
        };
        let white_score = if pos.turn() == Color::White {
            score
        } else {
            -score
        };
        // Resign adjudication: the same side clearly winning for a while.
        let sign = white_score.signum();
        if white_score.abs() >= RESIGN_SCORE {
            resign_run = if resign_run.signum() == sign {
                resign_run + sign
            } else {
                sign
            };
        } else {
            resign_run = 0;
        }
        if resign_run.unsigned_abs() >= RESIGN_PLIES {
            break if resign_run > 0 { 1.0 } else { 0.0 };
        }
        // Draw adjudication: a long, level game.
        draw_run = if white_score.abs() <= DRAW_SCORE {
            draw_run + 1
        } else {
            0
        };
        if plies >= DRAW_MIN_PLY && draw_run >= DRAW_PLIES {
            break 0.5;
        }
        let board = pos.board();
        if !board.is_check()
            && !best.is_capture()
            && !best.is_promotion()
            && score.abs() < MATE_BOUND
        {
            positions.push(pos.fen());
        }
        pos.play(best);
        plies += 1;
    };
    GameRecord {
        index,
        result,
        plies,
        positions,
    }
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
    let mut existing = Existing::default();
    let (mut offset, mut pending) = (0u64, 0u64);
    let mut reader = BufReader::new(file);
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

/// Plays games until `path` holds `config.games` of them, appending each as
/// it ends; `on_game` is called after each write (for a progress bar).
/// Returns how many games and positions this run added.
///
/// # Errors
///
/// When the file cannot be read or written, or the threads or tables
/// cannot be had.
pub fn run(
    path: &Path,
    config: &DatagenConfig,
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
    let threads = config.threads.max(1);
    let pool = thread_pool(threads, "datagen").map_err(|e| DatagenError::Threads {
        threads,
        reason: e.to_string(),
    })?;
    let (sender, receiver) = std::sync::mpsc::channel::<Result<GameRecord, TtError>>();
    let mut written = (0u64, 0u64);
    std::thread::scope(|scope| -> Result<(), DatagenError> {
        scope.spawn(move || {
            use rayon::prelude::*;
            pool.install(|| {
                todo.par_iter().with_max_len(1).for_each_init(
                    || Player::new(config.nodes),
                    |player, &index| {
                        let record = match player {
                            Ok(p) => Ok(play_game(index, config, p)),
                            Err(e) => Err(e.clone()),
                        };
                        // The writer stops listening only on an error.
                        let _ = sender.send(record);
                    },
                );
            });
        });
        for record in receiver {
            let record = record?;
            file.write_all(record.to_text().as_bytes())
                .and_then(|()| file.flush())
                .map_err(io_error)?;
            written.0 += 1;
            written.1 += record.positions.len() as u64;
            on_game(&record);
        }
        Ok(())
    })?;
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> DatagenConfig {
        DatagenConfig {
            games: 2,
            nodes: 300,
            threads: 1,
            seed: 7,
        }
    }

    #[test]
    fn a_game_ends_with_a_result_and_labels_quiet_positions() {
        let mut player = Player::new(300).unwrap();
        let game = play_game(3, &small(), &mut player);
        assert!([0.0, 0.5, 1.0].contains(&game.result));
        assert!(game.plies > RANDOM_PLIES);
        for fen in &game.positions {
            let pos = Position::from_fen(fen, false).unwrap();
            assert!(!pos.board().is_check(), "{fen}");
        }
        let text = game.to_text();
        assert!(text.ends_with(&format!("# game 3 {:.1} {}\n", game.result, game.plies)));
        assert_eq!(text.lines().count(), game.positions.len() + 1);
    }

    #[test]
    fn the_same_index_and_seed_give_the_same_opening() {
        let mut player = Player::new(300).unwrap();
        let a = opening(&mut Rng::new(11), 4, &mut player);
        let b = opening(&mut Rng::new(11), 4, &mut player);
        assert_eq!(a.fen(), b.fen());
        assert_eq!(a.history().len(), RANDOM_PLIES as usize);
    }

    #[test]
    fn an_interrupted_file_resumes_without_losing_or_repeating_games() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("data.txt");
        let (games, _) = run(&path, &small(), &|_| {}).unwrap();
        assert_eq!(games, 2);
        let full = std::fs::read_to_string(&path).unwrap();
        // A run killed in the middle of a block: a partial game at the end.
        let partial = format!("{full}8/8/8/8/8/8/8/K6k w - - 0 1 | 0.5\n8/8/8/8/8/8/8/K5k");
        std::fs::write(&path, partial).unwrap();
        let existing = resume(&path).unwrap();
        assert_eq!(existing.games, HashSet::from([0, 1]));
        assert_eq!(existing.complete_len, full.len() as u64);

        let more = DatagenConfig {
            games: 3,
            ..small()
        };
        let (games, _) = run(&path, &more, &|_| {}).unwrap();
        assert_eq!(games, 1, "only the missing game is played");
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with(&full), "what was written is kept");
        assert!(!text.contains("K5k"), "the partial block is cut off");
        assert_eq!(resume(&path).unwrap().games, HashSet::from([0, 1, 2]));
    }
}
