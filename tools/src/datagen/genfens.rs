//! OpenBench's `genfens`: the openings of a data generation spread over
//! many machines. OpenBench starts the engine as
//!
//! ```text
//! shears "genfens N seed S book <file|None> [extra]" "quit"
//! ```
//!
//! and reads back the lines `info string genfens <fen>`: exactly `N` of
//! them, each a position its workers play a game from.
//!
//! The positions are the openings `datagen` would start its games `0` to
//! `N - 1` from with seed `S` and that book (`opening.rs`: a book line, PGN
//! or EPD, or the start position, then random plies; each checked by a
//! search of [`GENFENS_NODES`] nodes and thrown away when it scores beyond
//! [`MAX_OPENING_SCORE`](super::MAX_OPENING_SCORE), or when the game is
//! already over), except that a
//! position given already is drawn again, so the `N` are all different.
//! The same request gives the same lines; another seed, others.
//!
//! `extra` words are not used (OpenBench passes a workload's own
//! settings there); each is reported once on an `info string` line that
//! does not start with `genfens`.

use std::collections::HashSet;
use std::num::{IntErrorKind, ParseIntError};
use std::ops::ControlFlow;
use std::path::PathBuf;

use thiserror::Error;

use super::game::{Player, game_rng, opening};
use super::opening::{Book, BookError, Openings};
use super::{BOOK_RANDOM_PLIES, DatagenConfig, DatagenError, RANDOM_PLIES};
use crate::data::adjudication::Adjudication;
use crate::data::filter::MIN_PLY;
use shears::error::echo;
use shears::eval::Evaluation;

/// Nodes of the search that checks an opening's balance (datagen's own
/// default budget).
pub const GENFENS_NODES: u64 = 5_000;

/// A parsed `genfens` command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// Positions asked for.
    pub count: u64,
    /// The seed.
    pub seed: u64,
    /// The opening book (`None`: the start position).
    pub book: Option<PathBuf>,
    /// The words after the book, not used.
    pub extra: Vec<String>,
}

/// Why `genfens` could not give its positions.
#[derive(Debug, Error)]
pub enum GenfensError {
    /// The command is not `genfens N seed S book <file|None> …`.
    #[error("genfens: {0}; expected `genfens <N> seed <S> book <file|None> [extra]`")]
    Usage(String),
    /// The book cannot be read.
    #[error("genfens: {0}")]
    Book(#[from] BookError),
    /// No balanced, new opening was found, or the search could not start.
    #[error("genfens: {0}")]
    Openings(#[from] DatagenError),
}

/// Whether `line` is a `genfens` command (its first word).
pub fn is_genfens(line: &str) -> bool {
    line.split_whitespace()
        .next()
        .is_some_and(|w| w.eq_ignore_ascii_case("genfens"))
}

/// Parses `genfens N seed S book <file|None> [extra]`. `seed` and `book`
/// may come in either order; a book of `None` (any case) is none.
///
/// # Errors
///
/// [`GenfensError::Usage`] naming what is missing or malformed.
pub fn parse(line: &str) -> Result<Request, GenfensError> {
    let usage = |what: String| GenfensError::Usage(what);
    let mut tokens = line.split_whitespace();
    if !tokens
        .next()
        .is_some_and(|w| w.eq_ignore_ascii_case("genfens"))
    {
        return Err(usage("not a genfens command".to_owned()));
    }
    let count = tokens.next().ok_or_else(|| usage("no count".to_owned()))?;
    let count: u64 = count.parse().map_err(|e: ParseIntError| {
        usage(match e.kind() {
            IntErrorKind::PosOverflow => format!(
                "count \"{}\" is too large (at most {})",
                echo(count),
                u64::MAX
            ),
            _ => format!("count \"{}\" is not a whole number", echo(count)),
        })
    })?;
    let (mut seed, mut book, mut extra) = (None, None, Vec::new());
    while let Some(word) = tokens.next() {
        match word.to_ascii_lowercase().as_str() {
            "seed" if seed.is_none() => {
                let text = tokens
                    .next()
                    .ok_or_else(|| usage("no value after seed".to_owned()))?;
                // OpenBench's seeds are non-negative; a negative one is taken
                // as its 64-bit two's complement.
                let value = text
                    .parse::<u64>()
                    .or_else(|_| text.parse::<i64>().map(|v| v as u64))
                    .map_err(|e: ParseIntError| {
                        usage(match e.kind() {
                            IntErrorKind::PosOverflow | IntErrorKind::NegOverflow => {
                                format!("seed \"{}\" is too large (a seed has 64 bits)", echo(text))
                            }
                            _ => format!("seed \"{}\" is not an integer", echo(text)),
                        })
                    })?;
                seed = Some(value);
            }
            "book" if book.is_none() => {
                let text = tokens
                    .next()
                    .ok_or_else(|| usage("no value after book".to_owned()))?;
                book = Some((!text.eq_ignore_ascii_case("none")).then(|| PathBuf::from(text)));
            }
            _ => extra.push(word.to_owned()),
        }
    }
    Ok(Request {
        count,
        seed: seed.ok_or_else(|| usage("no seed".to_owned()))?,
        book: book.ok_or_else(|| usage("no book (give `book None` for none)".to_owned()))?,
        extra,
    })
}

/// Gives the `request.count` positions of `request`, each as a FEN to
/// `on_fen` as soon as it is found, until `on_fen` breaks; returns how
/// many it gave.
///
/// # Errors
///
/// When the book cannot be read, the search cannot start, or no balanced
/// new opening is found for a position (a book whose every line is lost,
/// or too few different positions for the count).
pub fn generate(
    request: &Request,
    on_fen: &mut dyn FnMut(&str) -> ControlFlow<()>,
) -> Result<u64, GenfensError> {
    let book = match &request.book {
        Some(path) => Book::load(std::slice::from_ref(path))?,
        None => Book::default(),
    };
    let random_plies = if book.is_empty() {
        RANDOM_PLIES
    } else {
        BOOK_RANDOM_PLIES
    };
    let config = DatagenConfig {
        games: request.count,
        nodes: Some(GENFENS_NODES),
        depth: None,
        threads: 1,
        seed: request.seed,
        random_plies,
        min_ply: MIN_PLY,
        adjudication: Adjudication::default(),
        probe_nodes: None,
    };
    let openings = Openings::new(book, random_plies, request.seed);
    // Openings are checked with the hand-crafted evaluation, whatever the
    // engine plays with: the same request gives the same openings.
    let mut player = Player::new(&config, &Evaluation::HandCrafted).map_err(DatagenError::from)?;
    let mut seen = HashSet::new();
    for index in 0..request.count {
        let mut rng = game_rng(request.seed, index);
        let pos = opening(&openings, &mut rng, index, &mut player, &mut |pos| {
            !seen.contains(&pos.key())
        })?;
        seen.insert(pos.key());
        if on_fen(&pos.fen()).is_break() {
            return Ok(index + 1);
        }
    }
    Ok(request.count)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shears::chess::Position;

    #[test]
    fn the_command_is_read_as_openbench_writes_it() {
        let r = parse("genfens 16 seed 12345 book None ").unwrap();
        assert_eq!(
            r,
            Request {
                count: 16,
                seed: 12345,
                book: None,
                extra: Vec::new()
            }
        );
        let r = parse("genfens 2 seed -1 book Books/UHO.epd extra words").unwrap();
        assert_eq!(r.seed, u64::MAX);
        assert_eq!(r.book, Some(PathBuf::from("Books/UHO.epd")));
        assert_eq!(r.extra, ["extra", "words"]);
        for (bad, what) in [
            ("genfens", "no count"),
            ("genfens x seed 1 book None", "\"x\""),
            ("genfens 3 book None", "no seed"),
            ("genfens 3 seed 1", "no book"),
            ("genfens 3 seed one book None", "\"one\""),
            ("genfens 3 seed 1 book", "after book"),
        ] {
            let err = parse(bad).unwrap_err().to_string();
            assert!(err.contains(what), "{bad}: {err}");
        }
    }

    #[test]
    fn positions_are_legal_different_and_the_same_for_the_same_seed() {
        let fens = |seed: u64| {
            let mut out = Vec::new();
            let request = Request {
                count: 6,
                seed,
                book: None,
                extra: Vec::new(),
            };
            let given = generate(&request, &mut |fen| {
                out.push(fen.to_owned());
                ControlFlow::Continue(())
            })
            .unwrap();
            assert_eq!(given, 6);
            out
        };
        let a = fens(3);
        assert_eq!(a.len(), 6);
        let mut unique = a.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), 6, "{a:?}");
        for fen in &a {
            let pos = Position::from_fen(fen, false).unwrap();
            assert!(pos.outcome().is_none(), "{fen}");
            assert_eq!(fen.split_whitespace().count(), 6, "{fen}");
        }
        assert_eq!(fens(3), a);
        assert_ne!(fens(4), a);
    }
}
