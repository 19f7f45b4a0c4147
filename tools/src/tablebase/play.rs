//! `shears tb-play`: endgames played out by Shears against itself, judged by
//! the Syzygy tables.
//!
//! Each position of an EPD file (the first four FEN fields, or a whole FEN;
//! any operations after them are ignored but `id "…"`) is played to the end
//! by the rules — mate, stalemate, the 50-move rule, threefold repetition,
//! insufficient material — with Shears on both sides: a new search for
//! every move under the same limit (`--movetime` or `--nodes`), one search
//! thread, the table kept through the game as in a real one. The tables'
//! verdict at the start (with the 50-move rule, and the position's halfmove
//! clock) says what should happen: a won position must end in a mate by
//! the side that was winning, a drawn one (cursed wins and blessed losses
//! included) in a draw. The engine plays with the tables or, with
//! `--no-tb`, without them, to measure what they are worth; the verdicts
//! always come from the tables. A position the tables cannot judge (too
//! many pieces, castling rights, a table missing) is not played at all: it
//! is listed as not in the tables at once.

use std::fmt;

use rayon::prelude::*;
use shakmaty::{Color, Position as _};

use crate::suites::epd::operation_id;
use shears::chess::{Position, fen_needs_chess960};
use shears::error::{LineError, echo, parse_numbered_lines};
use shears::eval::Evaluation;
use shears::search::params::SearchConfig;
use shears::search::{SearchLimits, SearchRequest, SearchSettings, Searcher, thread_pool};
use shears::tb::{Tablebases, Verdict, rank_root_moves};

/// A game that has run this many plies without ending stops (the 50-move
/// rule ends every real game long before).
pub const MAX_PLIES: usize = 2000;

/// One position to play out.
#[derive(Debug, Clone)]
pub struct PlayEntry {
    /// Its name: the `id` operation, else `line N`.
    pub id: String,
    /// The position.
    pub position: Position,
}

/// Parses an EPD (or FEN-per-line) file: blank lines and `#` comments are
/// skipped; bad lines come back as errors beside the good ones.
pub fn parse_positions(text: &str) -> (Vec<PlayEntry>, Vec<LineError>) {
    parse_numbered_lines(text, |line, number| {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() < 4 {
            return Err(format!("not a FEN or EPD line: \"{}\"", echo(line)));
        }
        // A whole FEN when the next two fields are its clocks.
        let clocks = fields.len() >= 6
            && fields[4].parse::<u32>().is_ok()
            && fields[5].trim_end_matches(';').parse::<u32>().is_ok();
        let take = if clocks { 6 } else { 4 };
        let fen = fields[..take].join(" ");
        let fen = fen.trim_end_matches(';');
        let position =
            Position::from_fen(fen, fen_needs_chess960(fen)).map_err(|e| e.to_string())?;
        let operations = skip_fields(line, take).trim_start_matches(';');
        let id = operation_id(operations).unwrap_or_else(|| format!("line {number}"));
        Ok(PlayEntry { id, position })
    })
}

/// `line` after its first `n` whitespace-separated fields.
fn skip_fields(line: &str, n: usize) -> &str {
    let mut rest = line.trim_start();
    for _ in 0..n {
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        rest = rest[end..].trim_start();
    }
    rest
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Finish {
    /// Checkmate: `winner` mated.
    Mate {
        /// The side that mated.
        winner: Color,
    },
    /// Stalemate.
    Stalemate,
    /// A hundred plies without a capture or pawn move.
    FiftyMoves,
    /// The same position a third time.
    Repetition,
    /// Neither side can mate.
    Insufficient,
    /// [`MAX_PLIES`] reached (should not happen).
    TooLong,
}

impl Finish {
    /// The game's result for play: `Some(winner)` or `None` for a draw.
    pub fn winner(self) -> Option<Color> {
        match self {
            Finish::Mate { winner } => Some(winner),
            _ => None,
        }
    }
}

impl fmt::Display for Finish {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Finish::Mate { winner } => write!(f, "mate by {winner}"),
            Finish::Stalemate => f.write_str("draw (stalemate)"),
            Finish::FiftyMoves => f.write_str("draw (50-move rule)"),
            Finish::Repetition => f.write_str("draw (threefold repetition)"),
            Finish::Insufficient => f.write_str("draw (insufficient material)"),
            Finish::TooLong => write!(f, "stopped after {MAX_PLIES} plies"),
        }
    }
}

/// One played-out position.
#[derive(Debug, Clone)]
pub struct PlayResult {
    /// Its name.
    pub id: String,
    /// The start position.
    pub fen: String,
    /// The side to move at the start.
    pub turn: Color,
    /// The tables' verdict at the start, for the side to move (`None`: not
    /// in the tables).
    pub verdict: Option<Verdict>,
    /// How the game ended (`None`: not played, as the tables could not
    /// judge it).
    pub finish: Option<Finish>,
    /// Plies played.
    pub plies: usize,
    /// The moves, in UCI notation.
    pub moves: Vec<String>,
}

impl PlayResult {
    /// Whether the game ended as the tables said it should: a win
    /// converted by the winning side, a draw held. `None` when there was
    /// no verdict.
    pub fn ok(&self) -> Option<bool> {
        let expected = match self.verdict? {
            Verdict::Win => Some(self.turn),
            Verdict::Loss => Some(!self.turn),
            Verdict::Draw => None,
        };
        let finish = self.finish?;
        Some(finish.winner() == expected && finish != Finish::TooLong)
    }
}

impl fmt::Display for PlayResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verdict = match self.verdict {
            Some(Verdict::Win) => format!("{} wins", self.turn),
            Some(Verdict::Loss) => format!("{} wins", !self.turn),
            Some(Verdict::Draw) => "draw".to_owned(),
            None => "not in the tables".to_owned(),
        };
        let mark = match self.ok() {
            Some(true) => "ok",
            Some(false) => "FAIL",
            None => "-",
        };
        match self.finish {
            Some(finish) => write!(
                f,
                "{mark:4} {}: {}  tables: {verdict}  result: {finish} after {} plies",
                self.id, self.fen, self.plies
            ),
            None => write!(
                f,
                "{mark:4} {}: {}  tables: {verdict}  result: not played",
                self.id, self.fen
            ),
        }
    }
}

/// What `tb-play` is asked.
#[derive(Debug, Clone)]
pub struct PlayConfig {
    /// The limit of every move's search.
    pub limits: SearchLimits,
    /// The evaluation Shears plays with.
    pub evaluation: Evaluation,
    /// Hash table size in MB of each game.
    pub hash_mb: usize,
    /// Whether the engine plays with the tables.
    pub engine_tables: bool,
}

/// The tables' verdict for the side to move of `pos`, with its halfmove
/// clock (from the DTZ ranking of its moves).
pub fn verdict(tables: &Tablebases, pos: &Position) -> Option<Verdict> {
    let moves: Vec<_> = pos.board().legal_moves().into_iter().collect();
    if moves.is_empty() {
        return None;
    }
    let ranking = rank_root_moves(tables, pos, &moves)?;
    Some(ranking.best()?.verdict(true))
}

/// Plays `entry` out with `searcher` (emptied first): see the module
/// documentation. A position the tables cannot judge is not played.
pub fn play(
    searcher: &mut Searcher,
    tables: &Tablebases,
    entry: &PlayEntry,
    config: &PlayConfig,
) -> PlayResult {
    let mut pos = entry.position.clone();
    let verdict = verdict(tables, &pos);
    let mut result = PlayResult {
        id: entry.id.clone(),
        fen: entry.position.fen(),
        turn: entry.position.turn(),
        verdict,
        finish: None,
        plies: 0,
        moves: Vec::new(),
    };
    if verdict.is_none() {
        return result;
    }
    searcher.new_game();
    let mut moves = Vec::new();
    let finish = loop {
        if let Some(finish) = finish_of(&pos) {
            break finish;
        }
        if moves.len() >= MAX_PLIES {
            break Finish::TooLong;
        }
        let settings = SearchSettings::single(SearchConfig::default());
        let engine_tables = config.engine_tables.then_some(tables);
        let request = SearchRequest::new(&pos, &config.limits, settings)
            .with_tables(engine_tables)
            .with_evaluation(&config.evaluation);
        let outcome = searcher.think(&request);
        let Some(m) = outcome.best() else {
            // Unreachable: a position with a legal move always gets one.
            break Finish::TooLong;
        };
        moves.push(shears::chess::move_to_uci(m, false));
        pos.play(m);
    };
    result.finish = Some(finish);
    result.plies = moves.len();
    result.moves = moves;
    result
}

/// How the game at `pos` has ended by the rules, if it has.
fn finish_of(pos: &Position) -> Option<Finish> {
    let board = pos.board();
    if board.legal_moves().is_empty() {
        return Some(if board.is_check() {
            Finish::Mate {
                winner: !board.turn(),
            }
        } else {
            Finish::Stalemate
        });
    }
    if board.halfmoves() >= 100 {
        Some(Finish::FiftyMoves)
    } else if board.is_insufficient_material() {
        Some(Finish::Insufficient)
    } else if pos.repetitions() >= 2 {
        Some(Finish::Repetition)
    } else {
        None
    }
}

/// Plays every entry, `threads` games at a time, each with one search
/// thread and its own `config.hash_mb` table; the engine gets `tables`
/// unless `config.engine_tables` is false. `on_done` is called as each
/// game ends (in any order). Returns the results in the order of `entries`.
///
/// # Errors
///
/// When the worker threads cannot be started or a table cannot be
/// allocated (the message says which).
pub fn play_all(
    entries: &[PlayEntry],
    tables: &std::sync::Arc<Tablebases>,
    config: &PlayConfig,
    threads: usize,
    on_done: &(dyn Fn(&PlayResult) + Sync),
) -> Result<Vec<PlayResult>, String> {
    let threads = threads.max(1);
    let pool = thread_pool(threads, "tb-play")
        .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
    pool.install(|| {
        entries
            .par_iter()
            .with_max_len(1)
            .map_init(
                || Searcher::new(config.hash_mb),
                |searcher, entry| {
                    let searcher = searcher.as_mut().map_err(|e| e.to_string())?;
                    let result = play(searcher, tables, entry, config);
                    on_done(&result);
                    Ok(result)
                },
            )
            .collect()
    })
}

/// The totals of a run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    /// Positions the tables call won (for either side).
    pub wins: usize,
    /// Of those, converted by the winning side.
    pub converted: usize,
    /// Plies to mate over the converted wins.
    pub mate_plies: usize,
    /// Positions the tables call drawn.
    pub draws: usize,
    /// Of those, drawn.
    pub held: usize,
    /// Positions not in the tables (not played).
    pub unjudged: usize,
}

impl Summary {
    /// The totals of `results`.
    pub fn of(results: &[PlayResult]) -> Summary {
        let mut s = Summary::default();
        for r in results {
            match (r.verdict, r.ok()) {
                (None, _) | (_, None) => s.unjudged += 1,
                (Some(Verdict::Draw), Some(ok)) => {
                    s.draws += 1;
                    s.held += usize::from(ok);
                }
                (Some(_), Some(ok)) => {
                    s.wins += 1;
                    if ok {
                        s.converted += 1;
                        s.mate_plies += r.plies;
                    }
                }
            }
        }
        s
    }

    /// Games that did not end as the tables said.
    pub fn failures(&self) -> usize {
        self.wins - self.converted + self.draws - self.held
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let average = if self.converted > 0 {
            format!(
                " (on average {:.1} plies to mate)",
                self.mate_plies as f64 / self.converted as f64
            )
        } else {
            String::new()
        };
        write!(
            f,
            "wins converted {}/{}{average}, draws held {}/{}, failures {}",
            self.converted,
            self.wins,
            self.held,
            self.draws,
            self.failures()
        )?;
        if self.unjudged > 0 {
            write!(f, ", not in the tables (not played) {}", self.unjudged)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epd_and_fen_lines_are_read_with_their_ids() {
        let text = "# a comment\n\
                    8/1k1K4/8/8/6R1/8/8/8 w - - bm #4;\n\
                    \n\
                    4k3/8/4K3/4P3/8/8/8/8 b - - 12 40\n\
                    8/8/8/8/8/2k5/8/KB6 w - - c0 \"draw\"; id \"kbk\";\n\
                    not a fen at all\n";
        let (entries, errors) = parse_positions(text);
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(errors[0].line, 6);
        let ids: Vec<&str> = entries.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids, ["line 2", "line 4", "kbk"]);
        assert_eq!(entries[1].position.board().halfmoves(), 12);
    }

    #[test]
    fn a_result_is_ok_when_the_game_ends_as_the_verdict_says() {
        let result = |verdict, finish| PlayResult {
            id: String::new(),
            fen: String::new(),
            turn: Color::Black,
            verdict,
            finish: Some(finish),
            plies: 9,
            moves: Vec::new(),
        };
        let black_mates = Finish::Mate {
            winner: Color::Black,
        };
        assert_eq!(result(Some(Verdict::Win), black_mates).ok(), Some(true));
        assert_eq!(result(Some(Verdict::Loss), black_mates).ok(), Some(false));
        assert_eq!(
            result(Some(Verdict::Draw), Finish::FiftyMoves).ok(),
            Some(true)
        );
        assert_eq!(
            result(Some(Verdict::Win), Finish::Repetition).ok(),
            Some(false)
        );
        assert_eq!(result(None, Finish::Stalemate).ok(), None);
        let summary = Summary::of(&[
            result(Some(Verdict::Win), black_mates),
            result(Some(Verdict::Draw), black_mates),
            result(None, black_mates),
        ]);
        assert_eq!(
            summary.to_string(),
            "wins converted 1/1 (on average 9.0 plies to mate), draws held 0/1, failures 1, not in the tables (not played) 1"
        );
    }
}
