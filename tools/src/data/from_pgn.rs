//! `shears data from-pgn`: the games of a match runner's PGN files, with
//! the engines' scores from the move comments, as a game file
//! (`data/format/games.rs`), so that games played on many machines (OpenBench
//! workers, fastchess or cutechess runs) become training data.
//!
//! **Scores.** The comment after a move starts with the score the engine
//! that played it gave, from its own side (the side to move before the
//! move), in pawns:
//!
//! - fastchess and cutechess: `{+0.31/12 0.234s}`, a mate `{+M5/12 0.1s}`,
//!   the last move with the reason after a comma: `{-0.10/8 0.1s, White
//!   loses on time}`; a book move `{book}`;
//! - OpenBench's compact form: `{+0.31}` or `{+0.31 12/20 234 50000}`.
//!
//! A score becomes centipawns (pawns × 100, rounded), the engine's own
//! units when the engine is Shears (its `score cp` is its internal score).
//! Shears' report of a tablebase win, `±(200.00 - n/100)`, becomes its
//! internal tablebase score again, and a mate in `n` moves a mate score
//! (`MATE - 2n + 1`, or `-(MATE - 2n)` for being mated), which the quiet
//! filter drops. A move without a score (a book move, no comment, a
//! comment that does not start with a score) is kept with none, and the
//! reader does not train on its position.
//!
//! **Which games.** Only games that ended normally: a result `1-0`, `0-1`
//! or `1/2-1/2`, a `Termination` tag (when there is one) of `normal` or
//! `adjudication`, and no forfeit named in the last comment (on time,
//! disconnects, stalls, illegal move). Standard chess only, from the start
//! position or the `FEN` tag (`SetUp "1"`). Every other game is skipped and
//! counted by its reason; a game whose moves cannot be read is named.

use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use thiserror::Error;

use super::filter::{Filter, MIN_PLY};
use super::format::Format;
use super::format::games::Game;
use super::format::header::{BUILD, Header};
use shears::chess::pgn::{GameResult, PgnGame, PgnReader};
use shears::search::{MATE, MAX_PLY, TB_CP, TB_WIN};

/// The quiet filter's default first ply for converted games.
pub const DEFAULT_MIN_PLY: u32 = MIN_PLY;
/// `Termination` tags of games that ended normally (lower case).
const NORMAL_ENDINGS: [&str; 2] = ["normal", "adjudication"];
/// Words of a last comment that name a forfeit (lower case).
const FORFEITS: [&str; 8] = [
    "on time",
    "disconnect",
    "stall",
    "illegal",
    "forfeit",
    "abandon",
    "interrupt",
    "crash",
];

/// The score a move comment starts with, centipawns from the mover's view
/// (see the module docs); `None` when it starts with none.
///
/// ```
/// use shears_tools::data::from_pgn::comment_score;
/// assert_eq!(comment_score("+0.31/12 0.234s"), Some(31));
/// assert_eq!(comment_score("-1.05 12/20 234 50000"), Some(-105));
/// assert_eq!(comment_score("book"), None);
/// assert!(comment_score("+M5/12 0.1s").is_some_and(|s| s > 31_000));
/// ```
pub fn comment_score(comment: &str) -> Option<i32> {
    let first = comment
        .split(|c: char| c.is_whitespace() || c == ',')
        .find(|t| !t.is_empty())?;
    let value = first.split('/').next()?;
    let (negative, body) = match value.as_bytes().first()? {
        b'+' => (false, &value[1..]),
        b'-' => (true, &value[1..]),
        _ => (false, value),
    };
    if let Some(moves) = body.strip_prefix(['M', '#']) {
        let n: i32 = moves.parse().ok().filter(|n| (1..=500).contains(n))?;
        let plies = (2 * n).min(MAX_PLY as i32);
        return Some(if negative {
            -(MATE - plies)
        } else {
            MATE - plies + 1
        });
    }
    if !body.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        || !body.bytes().any(|b| b.is_ascii_digit())
    {
        return None;
    }
    let pawns: f64 = body.parse().ok()?;
    let cp = (pawns * 100.0).round().min(f64::from(i16::MAX)) as i32;
    // Shears' report of a tablebase win n plies away: 20000 - n.
    let cp = if (TB_CP - MAX_PLY as i32..=TB_CP).contains(&cp) {
        TB_WIN - (TB_CP - cp)
    } else {
        cp
    };
    Some(if negative { -cp } else { cp })
}

/// Why a game is not converted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Skip {
    /// No result (`*`), or none given.
    Unfinished,
    /// Lost by a forfeit or ended abnormally (the tag or comment).
    Forfeit(String),
    /// Not standard chess.
    Variant(String),
    /// Its moves or start position cannot be read.
    Bad(String),
}

/// The game of `pgn` in a game file, or why it is skipped.
///
/// # Errors
///
/// [`Skip`] for a game that did not end normally, is not standard chess,
/// or cannot be read.
pub fn convert_game(pgn: &PgnGame) -> Result<Game, Skip> {
    let result = match pgn.result() {
        GameResult::WhiteWins => 1.0,
        GameResult::BlackWins => 0.0,
        GameResult::Draw => 0.5,
        GameResult::Unknown => return Err(Skip::Unfinished),
    };
    if let Some(t) = pgn.tag("Termination")
        && !NORMAL_ENDINGS.contains(&t.trim().to_ascii_lowercase().as_str())
    {
        return Err(Skip::Forfeit(format!(
            "Termination \"{}\"",
            shears::error::echo(t)
        )));
    }
    let last_comment = pgn
        .moves
        .last()
        .and_then(|m| m.comment.as_deref())
        .unwrap_or_default()
        .to_ascii_lowercase();
    if let Some(word) = FORFEITS.iter().find(|w| last_comment.contains(*w)) {
        return Err(Skip::Forfeit(format!(
            "the last comment names a forfeit ({word})"
        )));
    }
    if let Some(v) = pgn.tag("Variant") {
        let v = v.trim().to_ascii_lowercase();
        if !(v.is_empty() || v == "standard" || v == "chess") {
            return Err(Skip::Variant(v));
        }
    }
    let (start, moves) = pgn.mainline(usize::MAX).map_err(Skip::Bad)?;
    let moves = moves
        .into_iter()
        .zip(&pgn.moves)
        .map(|(m, san)| (m, san.comment.as_deref().and_then(comment_score)))
        .collect();
    Ok(Game {
        start,
        result,
        moves,
    })
}

/// Why a conversion could not be made.
#[derive(Debug, Error)]
pub enum FromPgnError {
    /// A PGN file cannot be read.
    #[error("{path}: {source}", path = .path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The output cannot be written (or exists).
    #[error("{path}: {source}", path = .path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The output is not named as a game file.
    #[error("{path}: the output must be a game file (a name ending in .games)", path = .0.display())]
    NotGames(PathBuf),
}

/// What a conversion did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FromPgnReport {
    /// Games written.
    pub games: u64,
    /// Their moves.
    pub positions: u64,
    /// Their moves with a score.
    pub scored: u64,
    /// Their training positions (the quiet filter).
    pub kept: u64,
    /// Games skipped: unfinished, forfeits, other variants, unreadable.
    pub skipped: [u64; 4],
    /// The first unreadable or forfeited games, named (file, game, reason).
    pub named: Vec<String>,
}

/// Games named in a report, at most.
const NAMED: usize = 10;

/// Converts the games of `inputs` into the new game file `output`, its
/// header naming the PGN files and `min_ply` (the reader's quiet filter).
///
/// # Errors
///
/// When a PGN file cannot be read, or the output exists, is not named
/// `*.games`, or cannot be written.
pub fn from_pgn(
    inputs: &[PathBuf],
    output: &Path,
    min_ply: u32,
) -> Result<FromPgnReport, FromPgnError> {
    if Format::of(output) != Format::Games {
        return Err(FromPgnError::NotGames(output.to_owned()));
    }
    let write_error = |source| FromPgnError::Write {
        path: output.to_owned(),
        source,
    };
    let names: Vec<String> = inputs
        .iter()
        .map(|p| {
            p.file_name().map_or_else(
                || p.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            )
        })
        .collect();
    let header = Header::new(&[
        ("source", "from-pgn".into()),
        ("build", BUILD.into()),
        ("pgn", names.join(", ").into()),
        ("min_ply", i64::from(min_ply).into()),
    ]);
    let mut readers = Vec::with_capacity(inputs.len());
    for path in inputs {
        let file = File::open(path).map_err(|source| FromPgnError::Read {
            path: path.clone(),
            source,
        })?;
        readers.push((path, PgnReader::new(BufReader::new(file))));
    }
    let out = File::options()
        .write(true)
        .create_new(true)
        .open(output)
        .map_err(write_error)?;
    let mut out = BufWriter::new(out);
    out.write_all(&header.to_bytes()).map_err(write_error)?;
    let mut report = FromPgnReport::default();
    let quiet = Filter::Quiet { min_ply };
    for (path, reader) in readers {
        for pgn in reader {
            let pgn = pgn.map_err(|source| FromPgnError::Read {
                path: path.clone(),
                source,
            })?;
            match convert_game(&pgn) {
                Ok(game) => {
                    report.games += 1;
                    report.positions += game.moves.len() as u64;
                    for (board, m, score) in game.positions() {
                        report.scored += u64::from(score.is_some());
                        report.kept += u64::from(quiet.keeps(&board, m, score));
                    }
                    out.write_all(&game.to_bytes()).map_err(write_error)?;
                }
                Err(skip) => {
                    let (slot, reason) = match skip {
                        Skip::Unfinished => (0, None),
                        Skip::Forfeit(r) => (1, Some(r)),
                        Skip::Variant(v) => (2, Some(format!("variant {v}"))),
                        Skip::Bad(r) => (3, Some(r)),
                    };
                    report.skipped[slot] += 1;
                    if let Some(reason) = reason
                        && report.named.len() < NAMED
                    {
                        report.named.push(format!(
                            "{}: {}: {reason}",
                            path.display(),
                            pgn.describe()
                        ));
                    }
                }
            }
        }
    }
    out.flush().map_err(write_error)?;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_read_in_every_form() {
        for (comment, score) in [
            ("+0.31/12 0.234s", Some(31)),
            ("-0.10/8 0.1s, White loses on time", Some(-10)),
            ("0.00/20 1.002s", Some(0)),
            ("+0.31", Some(31)),
            ("-1.25 12/20 234 50000", Some(-125)),
            ("+12.34/3", Some(1234)),
            ("book", None),
            ("", None),
            ("0.234s", None),
            ("+/12", None),
            ("nan", None),
            ("+M1/3 0.01s", Some(MATE - 1)),
            ("-M2/5", Some(-(MATE - 4))),
            ("+199.95/30", Some(TB_WIN - 5)),
            ("-200.00/30", Some(-TB_WIN)),
        ] {
            assert_eq!(comment_score(comment), score, "{comment}");
        }
    }

    fn game(tags: &str, moves: &str) -> PgnGame {
        let text = format!("{tags}\n\n{moves}\n");
        PgnReader::new(text.as_bytes()).next().unwrap().unwrap()
    }

    #[test]
    fn only_games_that_ended_normally_are_converted() {
        let moves = "1. e4 {book} e5 {+0.20/10 0.1s} 2. Nf3 {+0.31/12 0.2s} 1-0";
        let g = convert_game(&game("[Result \"1-0\"]\n[Termination \"normal\"]", moves)).unwrap();
        assert_eq!(g.result, 1.0);
        let scores: Vec<Option<i32>> = g.moves.iter().map(|m| m.1).collect();
        assert_eq!(scores, [None, Some(20), Some(31)]);
        assert_eq!(
            convert_game(&game("[Result \"*\"]", "1. e4 *")),
            Err(Skip::Unfinished)
        );
        assert!(matches!(
            convert_game(&game(
                "[Result \"0-1\"]\n[Termination \"time forfeit\"]",
                "1. e4 0-1"
            )),
            Err(Skip::Forfeit(_))
        ));
        assert!(matches!(
            convert_game(&game(
                "[Result \"0-1\"]",
                "1. e4 {+0.1/3 9.9s, White loses on time} 0-1"
            )),
            Err(Skip::Forfeit(_))
        ));
        assert!(matches!(
            convert_game(&game(
                "[Result \"1/2-1/2\"]\n[Variant \"Chess960\"]",
                "1. e4 1/2-1/2"
            )),
            Err(Skip::Variant(_))
        ));
        assert!(matches!(
            convert_game(&game("[Result \"1-0\"]", "1. e5 1-0")),
            Err(Skip::Bad(_))
        ));
        let fen = "[Result \"1/2-1/2\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 40\"]";
        let g = convert_game(&game(fen, "40. e4 {+1.00/5} Kd7 {-1.1/5} 1/2-1/2")).unwrap();
        assert_eq!(g.moves.len(), 2);
        assert_eq!(crate::data::filter::game_ply(&g.start), 78);
    }
}
