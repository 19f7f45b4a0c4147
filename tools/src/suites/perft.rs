//! Perft suites: lines `FEN ;D1 n ;D2 n …` (the format of the published
//! suites), parsed and checked in parallel over positions.
//!
//! Chess960 positions are recognised from their castling field (Shredder
//! letters, or X-FEN rights that only Chess960 can explain).

use std::fmt;

use rayon::prelude::*;

use shears::chess::perft::perft;
use shears::chess::{Position, fen_needs_chess960};

/// One suite line.
#[derive(Debug, Clone)]
pub struct SuiteEntry {
    /// 1-based line number in the file.
    pub line: usize,
    /// The FEN as written.
    pub fen: String,
    /// The loaded position.
    pub position: Position,
    /// `(depth, expected count)`, in file order.
    pub expected: Vec<(u32, u64)>,
}

/// A line that could not be used (the shared suite-line error).
pub type SuiteLineError = shears::error::LineError;

/// A depth whose count did not match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// 1-based line number.
    pub line: usize,
    /// The FEN.
    pub fen: String,
    /// The depth.
    pub depth: u32,
    /// The count in the file.
    pub expected: u64,
    /// Our count.
    pub got: u64,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "mismatch: line {} fen {} depth {} expected {} got {}",
            self.line, self.fen, self.depth, self.expected, self.got
        )
    }
}

/// Parses a whole suite; good lines and bad lines are both returned, so a
/// malformed line does not stop the others. Blank lines and `#` comments are
/// skipped.
pub fn parse_suite(text: &str) -> (Vec<SuiteEntry>, Vec<SuiteLineError>) {
    shears::error::parse_numbered_lines(text, parse_entry)
}

fn parse_entry(line: &str, number: usize) -> Result<SuiteEntry, String> {
    let mut parts = line.split(';');
    let fen = parts.next().unwrap_or("").trim().to_owned();
    let chess960 = fen_needs_chess960(&fen);
    let position = Position::from_fen(&fen, chess960).map_err(|e| e.to_string())?;
    let mut expected = Vec::new();
    for part in parts {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        let mut fields = part.split_whitespace();
        let (Some(d), Some(n), None) = (fields.next(), fields.next(), fields.next()) else {
            return Err(format!(
                "expected \"D<depth> <count>\", found \"{}\"",
                shears::error::echo(part)
            ));
        };
        let depth = d
            .strip_prefix('D')
            .or_else(|| d.strip_prefix('d'))
            .and_then(|x| x.parse::<u32>().ok())
            .filter(|&x| (1..=20).contains(&x))
            .ok_or_else(|| format!("bad depth \"{}\"", shears::error::echo(d)))?;
        let count = n
            .parse::<u64>()
            .map_err(|_| format!("bad count \"{}\"", shears::error::echo(n)))?;
        expected.push((depth, count));
    }
    if expected.is_empty() {
        return Err("no \";D<depth> <count>\" fields".to_owned());
    }
    Ok(SuiteEntry {
        line: number,
        fen,
        position,
        expected,
    })
}

/// Checks every entry at every depth up to `max_depth` whose expected count
/// is at most `max_nodes` (when given). Positions run in parallel on the
/// current rayon pool; `on_done` is called once per position (for a progress
/// bar). Returns the mismatches, in line order.
pub fn check_suite(
    entries: &[SuiteEntry],
    max_depth: Option<u32>,
    max_nodes: Option<u64>,
    on_done: &(dyn Fn() + Sync),
) -> Vec<Mismatch> {
    let mut mismatches: Vec<Mismatch> = entries
        .par_iter()
        .flat_map_iter(|entry| {
            let found: Vec<Mismatch> = entry
                .expected
                .iter()
                .filter(|(d, n)| {
                    max_depth.is_none_or(|m| *d <= m) && max_nodes.is_none_or(|m| *n <= m)
                })
                .filter_map(|&(depth, expected)| {
                    let got = perft(&entry.position, depth);
                    (got != expected).then(|| Mismatch {
                        line: entry.line,
                        fen: entry.fen.clone(),
                        depth,
                        expected,
                        got,
                    })
                })
                .collect();
            on_done();
            found
        })
        .collect();
    mismatches.sort_by_key(|m| (m.line, m.depth));
    mismatches
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_lines_are_reported_by_number_and_the_rest_still_parse() {
        let text = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400\n\
                    not a fen ;D1 3\n\
                    \n\
                    8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 x\n\
                    8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3\n";
        let (entries, errors) = parse_suite(text);
        assert_eq!(entries.len(), 2);
        assert_eq!(
            errors.iter().map(|e| e.line).collect::<Vec<_>>(),
            vec![2, 4]
        );
        assert!(check_suite(&entries, None, None, &|| {}).is_empty());
    }

    #[test]
    fn wrong_counts_are_mismatches() {
        let (entries, _) = parse_suite("8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 4 ;D2 10");
        let m = check_suite(&entries, None, None, &|| {});
        assert_eq!(m.len(), 2);
        assert_eq!((m[0].depth, m[0].expected, m[0].got), (1, 4, 3));
    }
}
