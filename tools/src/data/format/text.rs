//! The text format of the training data, written by `data convert` (and by
//! older `datagen` runs) and read by the reader: one labelled position a
//! line.
//!
//! ```text
//! <fen> | <result> | <score>
//! ```
//!
//! - `<result>`: the game's result from White's side, `1.0`, `0.5` or `0.0`.
//! - `<score>`: the score of the search that chose the move played from
//!   this position, in centipawns (the engine's internal units, the
//!   evaluation's scale) and **from White's side**, like the result. Mate
//!   scores are never written (such positions are not kept), so every score
//!   is an evaluation-range number, below [`TB_WIN_BOUND`] in absolute value.
//!
//! Files from before the scores (`<fen> | <result>`) stay readable: their
//! lines parse with `score: None`. Lines starting with `#` are comments
//! (`datagen` closes each game with `# game <index> <result> <plies>`).
//!
//! ```
//! use shears_tools::data::format::text::{parse_line, format_line};
//! let line = format_line("8/8/8/8/8/8/8/K6k w - - 0 1", 0.5, -12);
//! assert_eq!(line, "8/8/8/8/8/8/8/K6k w - - 0 1 | 0.5 | -12");
//! let parsed = parse_line(&line).unwrap();
//! assert_eq!((parsed.result, parsed.score), (0.5, Some(-12)));
//! assert_eq!(parse_line("8/8/8/8/8/8/8/K6k w - - 0 1 | 1.0").unwrap().score, None);
//! ```

use shears::search::TB_WIN_BOUND;

/// One parsed data line; the FEN is not checked here (the reader builds
/// the position and reports a bad one).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DataLine<'a> {
    /// The position, as written.
    pub fen: &'a str,
    /// The game's result for White: 1.0, 0.5 or 0.0.
    pub result: f32,
    /// The search score for White, centipawns; `None` on a line of the old
    /// format.
    pub score: Option<i32>,
}

/// The line of a position with its labels (no newline).
pub fn format_line(fen: &str, result: f32, white_score: i32) -> String {
    format!("{fen} | {result:.1} | {white_score}")
}

/// Parses one data line (not a comment): `<fen> | <result> [| <score>]`.
///
/// # Errors
///
/// A message saying what is wrong: a missing field, a result other than
/// 1.0, 0.5 or 0.0, a score that is not an integer or is a mate score.
pub fn parse_line(line: &str) -> Result<DataLine<'_>, String> {
    let mut fields = line.split('|');
    let fen = fields.next().unwrap_or_default().trim();
    let Some(result) = fields.next() else {
        return Err("expected `<fen> | <result> [| <score>]`".to_owned());
    };
    let score = fields.next();
    if fields.next().is_some() {
        return Err("too many `|` fields: expected `<fen> | <result> [| <score>]`".to_owned());
    }
    if fen.is_empty() {
        return Err("no FEN before the first `|`".to_owned());
    }
    let result = result.trim();
    let result: f32 = result
        .parse()
        .map_err(|_| format!("bad result `{}`", shears::error::echo(result)))?;
    if ![0.0, 0.5, 1.0].contains(&result) {
        return Err(format!("result {result} is not 1.0, 0.5 or 0.0"));
    }
    let score = match score.map(str::trim) {
        None => None,
        Some(text) => {
            let score: i32 = text.parse().map_err(|_| {
                format!(
                    "bad score `{}`: expected whole centipawns",
                    shears::error::echo(text)
                )
            })?;
            if score.abs() >= TB_WIN_BOUND {
                return Err(format!(
                    "score {score} is a mate or tablebase score, not a label"
                ));
            }
            Some(score)
        }
    };
    Ok(DataLine { fen, result, score })
}

#[cfg(test)]
mod tests {
    use super::*;

    const FEN: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";

    #[test]
    fn a_written_line_reads_back() {
        let line = format_line(FEN, 1.0, 37);
        assert_eq!(
            parse_line(&line).unwrap(),
            DataLine {
                fen: FEN,
                result: 1.0,
                score: Some(37)
            }
        );
    }

    #[test]
    fn an_old_line_without_a_score_still_reads() {
        let line = format!("{FEN} | 0.0");
        let parsed = parse_line(&line).unwrap();
        assert_eq!((parsed.fen, parsed.result, parsed.score), (FEN, 0.0, None));
    }

    #[test]
    fn bad_lines_are_rejected_with_a_reason() {
        let reason = |line: &str| parse_line(line).unwrap_err();
        assert!(reason(FEN).contains("expected"));
        assert!(reason(&format!("{FEN} | 0.7")).contains("0.7"));
        assert!(reason(&format!("{FEN} | win")).contains("win"));
        assert!(reason(&format!("{FEN} | 0.5 | 12.5")).contains("12.5"));
        assert!(reason(&format!("{FEN} | 0.5 |")).contains("bad score"));
        assert!(reason(&format!("{FEN} | 0.5 | 31900")).contains("mate"));
        assert!(reason(&format!("{FEN} | 0.5 | 3 | 4")).contains("too many"));
        assert!(reason(" | 0.5 | 3").contains("no FEN"));
    }
}
