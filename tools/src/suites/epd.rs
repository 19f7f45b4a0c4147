//! EPD test suites: parsing lines such as
//!
//! ```text
//! 2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id "WAC.001";
//! ```
//!
//! and searching every position to see whether the engine finds the
//! expected move.
//!
//! A line is the first four FEN fields (placement, side to move, castling,
//! en passant) followed by operations separated by `;` (outside double
//! quotes). Three operations matter:
//!
//! - `bm M1 M2 …`: the position is solved when the engine plays one of
//!   these moves;
//! - `am M1 M2 …`: it is solved when the engine plays none of them;
//! - `id "…"`: the name used in reports (default: `line N`).
//!
//! Point suites such as STS also give several moves points, in `c8`/`c9`
//! (points and UCI moves) or `c0 "f5=10, Be5+=2, …"` (see [`epd_points`]
//! for the rules): each position then scores the points of the move played,
//! added up by theme (the `id` without its number). A line with points but
//! neither `bm` nor `am` is solved by a move with the most points.
//!
//! Every other operation (`acd`, `ce`, a `c0` comment …) is ignored. Moves
//! are SAN (`Qxh7+`, `O-O`, `0-0`, with or without `+`/`#`/`!`/`?` marks) or
//! UCI (`h5h7`). A line with a bad FEN, a move (of `bm`, `am` or a point
//! list) that cannot be read or is not legal, or neither `bm`, `am` nor
//! points becomes an [`EpdLineError`]; the other lines are still returned,
//! so one bad line does not stop a suite.
//!
//! [`run_suite`] searches positions in parallel, each with one search thread
//! and an emptied transposition table, so the result of a position does not
//! depend on which others ran before it or next to it.

use std::fmt;

use rayon::prelude::*;
use shakmaty::Move;
use shakmaty::san::{SanError, SanPlus};
use thiserror::Error;

use super::epd_points::{self, MovePoints, PointScore, theme_of};
use shears::chess::{Position, fen_needs_chess960};
use shears::error::echo;
use shears::eval::Evaluation;
use shears::search::params::SearchConfig;
use shears::search::tt::TtError;
use shears::search::{SearchLimits, SearchRequest, SearchSettings, Searcher, thread_pool};

/// Hash size of each position's table when none is given, MB.
pub const DEFAULT_HASH_MB: usize = 16;
/// Time per position when no limit is given, ms.
pub const DEFAULT_MOVETIME_MS: u64 = 1000;

/// One position of a suite.
#[derive(Debug, Clone)]
pub struct EpdEntry {
    /// 1-based line number in the file.
    pub line: usize,
    /// The `id` operation, or `line N` without one.
    pub id: String,
    /// The id without its number (see [`theme_of`]), or `(no id)`.
    pub theme: String,
    /// The four FEN fields as written (single-spaced).
    pub fen: String,
    /// The loaded position.
    pub position: Position,
    /// Moves of the `bm` operations (empty: no `bm`).
    pub best: Vec<Move>,
    /// Moves of the `am` operations (empty: no `am`).
    pub avoid: Vec<Move>,
    /// The `bm`/`am` operations as written, e.g. `bm Nd5 a4` (joined by
    /// `; ` when there are several), for failure reports.
    pub expected: String,
    /// The points of the moves, in a point suite.
    pub points: Option<MovePoints>,
}

impl EpdEntry {
    /// Whether playing `m` solves the position: `m` is one of the `bm`
    /// moves (when there are any) and none of the `am` moves. No move at
    /// all solves nothing.
    pub fn is_solved_by(&self, m: Option<Move>) -> bool {
        m.is_some_and(|m| {
            (self.best.is_empty() || self.best.contains(&m)) && !self.avoid.contains(&m)
        })
    }
}

/// A line that could not be used (the shared suite-line error).
pub type EpdLineError = shears::error::LineError;

/// What the engine did on one position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EpdResult {
    /// 1-based line number of the entry.
    pub line: usize,
    /// The entry's id.
    pub id: String,
    /// The entry's theme.
    pub theme: String,
    /// The entry's `bm`/`am` text as written.
    pub expected: String,
    /// The move the engine chose (`None` if no iteration completed).
    pub found: Option<Move>,
    /// That move in SAN with its `+`/`#` suffix, or `(none)`.
    pub found_san: String,
    /// Whether the move solves the position.
    pub solved: bool,
    /// Score of the last completed iteration (internal units).
    pub score: Option<i32>,
    /// Last completed depth.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// What the move scored, in a point suite.
    pub points: Option<PointScore>,
}

impl fmt::Display for EpdResult {
    /// `ok <id>: <move>` or `fail <id>: expected <bm/am> found <move>`,
    /// and ` (<points>/<max>)` in a point suite.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.solved {
            write!(f, "ok {}: {}", self.id, self.found_san)?;
        } else {
            write!(
                f,
                "fail {}: expected {} found {}",
                self.id, self.expected, self.found_san
            )?;
        }
        match self.points {
            Some(p) => write!(f, " ({}/{})", p.got, p.max),
            None => Ok(()),
        }
    }
}

/// The suite could not be run at all.
#[derive(Debug, Error)]
pub enum EpdRunError {
    /// A position's transposition table could not be allocated.
    #[error("--hash: {0}")]
    Hash(#[from] TtError),
    /// The worker threads could not be started.
    #[error("cannot start {threads} worker threads: {reason}")]
    Threads {
        /// How many were asked for.
        threads: usize,
        /// What rayon said.
        reason: String,
    },
}

/// Parses a whole suite. Good lines and bad lines are both returned, so a
/// malformed line does not stop the others. Blank lines and lines starting
/// with `#` are skipped.
pub fn parse_epd(text: &str) -> (Vec<EpdEntry>, Vec<EpdLineError>) {
    shears::error::parse_numbered_lines(text, parse_line)
}

/// Parses one non-blank EPD line; `number` is its 1-based line number.
///
/// # Errors
///
/// The reason, when the FEN is bad, a move of `bm`, `am` or a point list
/// cannot be read or is illegal, or there is neither `bm`, `am` nor points.
pub fn parse_line(line: &str, number: usize) -> Result<EpdEntry, String> {
    let mut rest = line.trim_start();
    let mut fields = Vec::with_capacity(4);
    while fields.len() < 4 {
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        if end == 0 {
            break;
        }
        fields.push(&rest[..end]);
        rest = rest[end..].trim_start();
    }
    if fields.len() < 4 {
        return Err(format!(
            "expected 4 FEN fields, found {} in \"{}\"",
            fields.len(),
            echo(line)
        ));
    }
    let fen = fields.join(" ");
    let position = Position::from_fen(&fen, fen_needs_chess960(&fen)).map_err(|e| e.to_string())?;

    let id = operation_id(rest);
    let mut best = Vec::new();
    let mut avoid = Vec::new();
    let mut expected = Vec::new();
    for (opcode, operands) in operations(rest) {
        match opcode {
            "bm" | "am" => {
                let moves = operand_tokens(operands);
                if moves.is_empty() {
                    return Err(format!("{opcode} without a move"));
                }
                let target = if opcode == "bm" {
                    &mut best
                } else {
                    &mut avoid
                };
                for text in moves {
                    let m = parse_move(&position, &text).map_err(|e| format!("{opcode}: {e}"))?;
                    target.push(m);
                }
                expected.push(format!("{opcode} {operands}"));
            }
            _ => {}
        }
    }
    let points = resolve_points(&position, rest)?;
    if best.is_empty() && avoid.is_empty() {
        let Some(points) = &points else {
            return Err("no bm, am or points".to_owned());
        };
        best = points.best_moves();
        let sans: Vec<String> = best.iter().map(|m| move_to_san(&position, *m)).collect();
        expected.push(format!("most points {}", sans.join(" ")));
    }
    Ok(EpdEntry {
        line: number,
        theme: id.as_deref().map_or("(no id)", theme_of).to_owned(),
        id: id.unwrap_or_else(|| format!("line {number}")),
        fen,
        position,
        best,
        avoid,
        expected: expected.join("; "),
        points,
    })
}

/// The point list of an EPD line's operation `text`, its moves resolved in
/// `position` (see [`epd_points::point_list`]).
///
/// # Errors
///
/// When the list cannot be read, or a move of it cannot be read or is
/// illegal; the reason names the field.
fn resolve_points(position: &Position, text: &str) -> Result<Option<MovePoints>, String> {
    let field = |name: &str| {
        operations(text)
            .find(|(opcode, _)| *opcode == name)
            .map(|(_, operands)| operand_tokens(operands).join(" "))
    };
    let (c0, c8, c9) = (field("c0"), field("c8"), field("c9"));
    let Some(list) = epd_points::point_list(c0.as_deref(), c8.as_deref(), c9.as_deref())? else {
        return Ok(None);
    };
    let mut moves = Vec::with_capacity(list.items.len());
    for (text, points) in &list.items {
        let m = parse_move(position, text).map_err(|e| format!("{}: {e}", list.field))?;
        moves.push((m, *points));
    }
    Ok(Some(MovePoints::new(moves)))
}

/// The operand of the `id` operation in an EPD line's operation `text` (the
/// text after the FEN fields), if there is one.
pub fn operation_id(text: &str) -> Option<String> {
    operations(text)
        .find(|(opcode, _)| *opcode == "id")
        .and_then(|(_, operands)| operand_tokens(operands).into_iter().next())
}

/// The operations of an EPD line's operation text, as `(opcode, operands)`
/// (operands trimmed), empty ones skipped.
fn operations(text: &str) -> impl Iterator<Item = (&str, &str)> {
    split_outside_quotes(text, ';')
        .into_iter()
        .filter_map(|op| {
            let op = op.trim();
            let end = op.find(char::is_whitespace).unwrap_or(op.len());
            (!op.is_empty()).then(|| (&op[..end], op[end..].trim()))
        })
}

/// Splits `text` at `sep`, except inside double quotes.
fn split_outside_quotes(text: &str, sep: char) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut quoted = false;
    let mut start = 0;
    for (i, c) in text.char_indices() {
        if c == '"' {
            quoted = !quoted;
        } else if c == sep && !quoted {
            parts.push(&text[start..i]);
            start = i + c.len_utf8();
        }
    }
    parts.push(&text[start..]);
    parts
}

/// The operands of an operation: whitespace-separated tokens, a quoted
/// string being one token (without its quotes; an unterminated quote runs
/// to the end).
fn operand_tokens(text: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut rest = text.trim_start();
    while !rest.is_empty() {
        if let Some(body) = rest.strip_prefix('"') {
            let end = body.find('"').unwrap_or(body.len());
            tokens.push(body[..end].to_owned());
            rest = body.get(end + 1..).unwrap_or("").trim_start();
        } else {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            tokens.push(rest[..end].to_owned());
            rest = rest[end..].trim_start();
        }
    }
    tokens
}

/// Reads a move in SAN (check/mate suffixes and `!`/`?` annotations
/// allowed, castling as `O-O` or `0-0`) or, failing that, in UCI notation.
///
/// # Errors
///
/// Why the move cannot be read or played here.
pub fn parse_move(position: &Position, text: &str) -> Result<Move, String> {
    let stripped = text.trim_end_matches(['!', '?']);
    let san_text = if stripped.starts_with("0-0") {
        stripped.replace('0', "O")
    } else {
        stripped.to_owned()
    };
    let san_error = match SanPlus::from_ascii(san_text.as_bytes()) {
        Ok(san) => match san.san.to_move(position.board()) {
            Ok(m) => return Ok(m),
            Err(e) => Some(e),
        },
        Err(_) => None,
    };
    // Both castling notations are tried, so the mode does not matter here.
    if let Ok(m) = position.parse_move(stripped, false) {
        return Ok(m);
    }
    Err(match san_error {
        Some(SanError::AmbiguousSan) => format!("ambiguous move \"{}\"", echo(text)),
        Some(_) => format!("illegal move \"{}\"", echo(text)),
        None => format!("cannot read move \"{}\"", echo(text)),
    })
}

/// `m` in SAN with its `+`/`#` suffix, as played from `position`.
pub fn move_to_san(position: &Position, m: Move) -> String {
    SanPlus::from_move(position.board().clone(), m).to_string()
}

/// Searches one entry with `searcher` (one search thread), after emptying
/// its table and histories, so that the result does not depend on what was
/// searched before.
pub fn run_position(
    searcher: &mut Searcher,
    entry: &EpdEntry,
    limits: &SearchLimits,
    evaluation: &Evaluation,
) -> EpdResult {
    searcher.new_game();
    let settings = SearchSettings::single(SearchConfig::default());
    let request = SearchRequest::new(&entry.position, limits, settings).with_evaluation(evaluation);
    let outcome = searcher.think(&request);
    let found = outcome.best();
    EpdResult {
        line: entry.line,
        id: entry.id.clone(),
        theme: entry.theme.clone(),
        expected: entry.expected.clone(),
        found,
        found_san: found.map_or_else(|| "(none)".to_owned(), |m| move_to_san(&entry.position, m)),
        solved: entry.is_solved_by(found),
        score: outcome.score(),
        depth: outcome.depth(),
        nodes: outcome.counters.nodes,
        points: entry.points.as_ref().map(|p| PointScore {
            got: p.of(found),
            max: p.max(),
        }),
    }
}

/// Searches every entry under `limits` (`limits.clock.movetime`, `depth`
/// or `nodes`) with `evaluation`, `threads` positions at a time, each with
/// one search thread and an emptied `hash_mb` table (see [`run_position`]). `on_done` is
/// called as each position finishes (in any order; for a progress bar).
/// Returns the results in the order of `entries`.
///
/// # Errors
///
/// When the worker threads cannot be started or a table cannot be
/// allocated.
pub fn run_suite(
    entries: &[EpdEntry],
    limits: &SearchLimits,
    evaluation: &Evaluation,
    hash_mb: usize,
    threads: usize,
    on_done: &(dyn Fn(&EpdResult) + Sync),
) -> Result<Vec<EpdResult>, EpdRunError> {
    let threads = threads.max(1);
    let pool = thread_pool(threads, "epd").map_err(|e| EpdRunError::Threads {
        threads,
        reason: e.to_string(),
    })?;
    pool.install(|| {
        entries
            .par_iter()
            .with_max_len(1)
            .map_init(
                || Searcher::new(hash_mb),
                |searcher, entry| {
                    let searcher = searcher.as_mut().map_err(|e| e.clone())?;
                    let result = run_position(searcher, entry, limits, evaluation);
                    on_done(&result);
                    Ok(result)
                },
            )
            .collect()
    })
}

/// How many results are solved.
pub fn solved_count(results: &[EpdResult]) -> usize {
    results.iter().filter(|r| r.solved).count()
}

/// The points of the results by theme (those of a point suite; empty when
/// none has points), in order of first appearance.
pub fn theme_scores(results: &[EpdResult]) -> Vec<epd_points::ThemeScore> {
    epd_points::by_theme(
        results
            .iter()
            .filter_map(|r| Some((r.theme.as_str(), r.points?))),
    )
}

#[cfg(test)]
mod tests {
    use shakmaty::Position as _;

    use super::*;

    fn uci(moves: &[Move]) -> Vec<String> {
        moves
            .iter()
            .map(|m| shears::chess::move_to_uci(*m, false))
            .collect()
    }

    #[test]
    fn several_bm_moves_and_san_marks() {
        let (entries, errors) = parse_epd(
            "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - bm Nd5 a4!; id \"BK.05\";\n",
        );
        assert!(errors.is_empty(), "{errors:?}");
        let e = &entries[0];
        assert_eq!(e.line, 1);
        assert_eq!(e.id, "BK.05");
        assert_eq!(uci(&e.best), ["c3d5", "a2a4"]);
        assert!(e.avoid.is_empty());
        assert_eq!(e.expected, "bm Nd5 a4!");
        assert!(e.is_solved_by(Some(e.best[1])));
        assert!(!e.is_solved_by(None));
    }

    #[test]
    fn am_and_default_id_and_check_suffix_and_uci() {
        let text = "# a comment\n\
                    \n\
                    3r2k1/1p3ppp/2pq4/p1n5/P6P/1P6/1PB2QP1/1K2R3 w - - am Rd1\n\
                    r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - bm h6h7; c0 \"x\";\n\
                    r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - bm Qxh7+\n";
        let (entries, errors) = parse_epd(text);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(entries.len(), 3);
        let am = &entries[0];
        assert_eq!((am.line, am.id.as_str()), (3, "line 3"));
        assert_eq!(uci(&am.avoid), ["e1d1"]);
        assert!(!am.is_solved_by(Some(am.avoid[0])));
        let other = am
            .position
            .board()
            .legal_moves()
            .into_iter()
            .find(|m| *m != am.avoid[0]);
        assert!(am.is_solved_by(other));
        assert_eq!(entries[1].best, entries[2].best);
        assert_eq!(
            move_to_san(&entries[2].position, entries[2].best[0]),
            "Qxh7+"
        );
    }

    #[test]
    fn quoted_id_keeps_spaces_and_semicolons() {
        let (entries, errors) = parse_epd(
            "7k/8/8/8/8/8/8/R3K3 w Q - id \"tricky; id with spaces\"; bm O-O-O; c0 \"a;b\";",
        );
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(entries[0].id, "tricky; id with spaces");
        assert_eq!(uci(&entries[0].best), ["e1c1"]);
    }

    #[test]
    fn utf8_comments_and_zero_castling() {
        let (entries, errors) = parse_epd(
            "4k3/8/8/8/8/8/8/4K2R w K - bm 0-0; c0 \"Réti–Alekhine; Baden-Baden 1925 ♔\"; id \"ü\";",
        );
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(entries[0].id, "ü");
        assert_eq!(move_to_san(&entries[0].position, entries[0].best[0]), "O-O");
    }

    #[test]
    fn bad_lines_are_reported_by_number_and_the_rest_still_parse() {
        let text = "4k3/8/8/8/8/8/8/4K2R w K - bm Rh8+;\n\
                    4k3/8/8/8/8/8/8/4K2R w K - bm Rh9;\n\
                    4k3/8/8/8/8/8/8/4K2R w K - bm Ra8;\n\
                    4k3/8/8/8/8/8/8/4K2R w K - id \"no moves\";\n\
                    4k3/8/8/8/8/8/8/4K2X w K - bm Rh8;\n\
                    4k3/8 w;\n\
                    4k3/8/8/8/8/8/8/4K2R w K - bm ;\n\
                    4k3/8/8/8/8/8/8/4K2R w K - bm Rh8#;\n";
        let (entries, errors) = parse_epd(text);
        assert_eq!(
            entries.iter().map(|e| e.line).collect::<Vec<_>>(),
            vec![1, 8]
        );
        assert_eq!(
            errors.iter().map(|e| e.line).collect::<Vec<_>>(),
            vec![2, 3, 4, 5, 6, 7]
        );
        assert_eq!(
            errors[0].to_string(),
            "line 2: bm: cannot read move \"Rh9\""
        );
        assert_eq!(errors[1].to_string(), "line 3: bm: illegal move \"Ra8\"");
        assert_eq!(errors[2].reason, "no bm, am or points");
    }

    #[test]
    fn ambiguous_san_is_an_error() {
        let (_, errors) = parse_epd("4k3/8/8/8/8/8/8/4KN1N w - - bm Ng3;");
        assert_eq!(errors[0].reason, "bm: ambiguous move \"Ng3\"");
    }
}
