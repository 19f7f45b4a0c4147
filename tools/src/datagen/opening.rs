//! The openings of the self-play games: a line from an opening book (PGN
//! or EPD, optional) followed by a few random legal plies.
//!
//! Which opening game `i` of seed `s` gets depends on `i` and `s` only, never
//! on the other games or the threads, so a run is reproducible and a
//! resumed run plays exactly the games that are missing:
//!
//! - **Book line.** The book's lines are shuffled once by the seed; game `i`
//!   first takes line `i mod n` of that order, so every line is used once
//!   before any is used twice. A game whose first tries are all rejected
//!   (see `game.rs`: too unbalanced, or already over) moves on to lines
//!   drawn at random by the game's own generator.
//! - **Random plies.** Then `random_plies` uniformly random legal moves
//!   (one more on odd games, so that either colour is first to leave the
//!   opening in half of the games), drawn from the game's generator, which
//!   is seeded by `s` and `i`.
//!
//! The book is read whole at the start ([`Book::load`]) and every game in
//! it must be usable: a syntax error, an illegal move or a variant other
//! than standard chess stops the run with the file and the game named, so
//! that the data never depends on which games happened to be skipped. A
//! file whose name ends in `.epd` holds one position a line instead (the
//! four FEN fields, then the two counters or `hmvc`/`fmvn` operations, if
//! any; other operations are ignored): a line with no moves.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use shakmaty::{Chess, Move, Position as _};
use thiserror::Error;

use shears::chess::pgn::PgnReader;
use shears::chess::random::Rng;
use shears::chess::{Position, fen_needs_chess960};

/// Tries of a game on its first book line (each with new random plies)
/// before it takes other lines.
pub const TRIES_PER_LINE: u32 = 4;

/// Why an opening book cannot be used.
#[derive(Debug, Error)]
pub enum BookError {
    /// The file cannot be opened or read.
    #[error("{path}: {source}")]
    Read {
        /// The book file.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
    /// A game of the book cannot be played out.
    #[error("{path}: {game}: {reason}")]
    BadGame {
        /// The book file.
        path: PathBuf,
        /// Which game (number, line).
        game: String,
        /// Why.
        reason: String,
    },
    /// The book holds no game.
    #[error("{path}: no games in this file (is it PGN?)")]
    Empty {
        /// The book file.
        path: PathBuf,
    },
}

/// One opening line: where it starts and its moves, all legal.
#[derive(Debug, Clone)]
struct BookLine {
    start: Chess,
    moves: Vec<Move>,
}

/// Opening lines read from PGN files.
#[derive(Debug, Clone, Default)]
pub struct Book {
    lines: Vec<BookLine>,
    /// The files read, with their line counts, for the `# datagen` line.
    sources: Vec<(String, usize)>,
}

impl Book {
    /// Reads every game of the PGN files `paths`, in order.
    ///
    /// # Errors
    ///
    /// When a file cannot be read, holds no game, or holds a game that
    /// cannot be played out (named by its number and line).
    pub fn load(paths: &[PathBuf]) -> Result<Book, BookError> {
        let mut book = Book::default();
        for path in paths {
            let file = File::open(path).map_err(|source| BookError::Read {
                path: path.clone(),
                source,
            })?;
            let is_epd = path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("epd"));
            if is_epd {
                book.read_epd(path, BufReader::new(file))?;
            } else {
                book.read(path, BufReader::new(file))?;
            }
        }
        Ok(book)
    }

    /// Adds the positions of the EPD text `input` (read from `path`).
    fn read_epd(&mut self, path: &Path, input: impl BufRead) -> Result<(), BookError> {
        let before = self.lines.len();
        for (n, line) in input.lines().enumerate() {
            let line = line.map_err(|source| BookError::Read {
                path: path.to_owned(),
                source,
            })?;
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let start = epd_position(line).map_err(|reason| BookError::BadGame {
                path: path.to_owned(),
                game: format!("line {}", n + 1),
                reason,
            })?;
            self.lines.push(BookLine {
                start,
                moves: Vec::new(),
            });
        }
        self.add_source(path, before)
    }

    /// Names `path` among the sources, with the lines read from it since
    /// there were `before`.
    fn add_source(&mut self, path: &Path, before: usize) -> Result<(), BookError> {
        if self.lines.len() == before {
            return Err(BookError::Empty {
                path: path.to_owned(),
            });
        }
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        self.sources.push((name, self.lines.len() - before));
        Ok(())
    }

    /// Adds the games of `input` (read from `path`).
    fn read(&mut self, path: &Path, input: impl Read) -> Result<(), BookError> {
        let before = self.lines.len();
        for game in PgnReader::new(input) {
            let game = game.map_err(|source| BookError::Read {
                path: path.to_owned(),
                source,
            })?;
            let bad = |reason: String| BookError::BadGame {
                path: path.to_owned(),
                game: game.describe(),
                reason,
            };
            if game
                .tag("Variant")
                .is_some_and(|v| v.to_ascii_lowercase().contains("960"))
            {
                return Err(bad("Chess960 openings are not supported".to_owned()));
            }
            let (start, moves) = game.mainline(usize::MAX).map_err(bad)?;
            self.lines.push(BookLine { start, moves });
        }
        self.add_source(path, before)
    }

    /// Lines in the book.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// Whether the book has no line.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }
}

/// The position of an EPD line (see the module docs).
fn epd_position(line: &str) -> Result<Chess, String> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    if tokens.len() < 4 {
        return Err(format!(
            "expected 4 FEN fields, found {} in \"{}\"",
            tokens.len(),
            shears::error::echo(line)
        ));
    }
    let counter = |i: usize| tokens.get(i).filter(|t| t.parse::<u32>().is_ok());
    let operation = |name: &str| {
        tokens
            .windows(2)
            .find(|w| w[0] == name)
            .map(|w| w[1].trim_end_matches(';'))
    };
    let (halfmoves, fullmoves) = match (counter(4), counter(5)) {
        (Some(h), Some(f)) => (*h, *f),
        _ => (
            operation("hmvc").unwrap_or("0"),
            operation("fmvn").unwrap_or("1"),
        ),
    };
    let fen = format!("{} {halfmoves} {fullmoves}", tokens[..4].join(" "));
    if fen_needs_chess960(&fen) {
        return Err("Chess960 openings are not supported".to_owned());
    }
    Position::from_fen(&fen, false)
        .map(|p| p.board().clone())
        .map_err(|e| e.to_string())
}

/// How the games of a run open: see the module docs.
#[derive(Debug, Clone)]
pub struct Openings {
    book: Book,
    /// The book's line indices in the seed's order.
    order: Vec<u32>,
    random_plies: u32,
}

impl Openings {
    /// Openings from `book` (empty: from the start position) followed by
    /// `random_plies` random plies, in the order of `seed`.
    pub fn new(book: Book, random_plies: u32, seed: u64) -> Openings {
        let mut order: Vec<u32> = (0..book.len() as u32).collect();
        // Fisher-Yates with the run's seed (not a game's).
        let mut rng = Rng::new(seed ^ 0x6F70_656E_696E_6773);
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        Openings {
            book,
            order,
            random_plies,
        }
    }

    /// Whether the games start from book lines.
    pub fn has_book(&self) -> bool {
        !self.book.is_empty()
    }

    /// The book files and their line counts, for the `# datagen` line.
    pub fn describe(&self) -> String {
        format!("book {}", self.book_files().as_deref().unwrap_or("-"))
    }

    /// The book files and their line counts, `a.pgn (12 lines), b.epd (3
    /// lines)`; `None` without a book.
    pub fn book_files(&self) -> Option<String> {
        if self.book.sources.is_empty() {
            return None;
        }
        let files: Vec<String> = self
            .book
            .sources
            .iter()
            .map(|(name, n)| format!("{name} ({n} lines)"))
            .collect();
        Some(files.join(", "))
    }

    /// Random plies of game `index` after its book line.
    pub fn random_plies(&self, index: u64) -> u32 {
        self.random_plies + (index % 2) as u32
    }

    /// Try `attempt` (0 first) at an opening for game `index`: its book line
    /// then its random plies, drawn from `rng` (the game's generator). The
    /// position keeps the whole line as its history. Fewer random plies
    /// are played when the game ends on the way; the caller rejects such
    /// an opening.
    pub fn candidate(&self, index: u64, attempt: u32, rng: &mut Rng) -> Position {
        let mut pos = if self.order.is_empty() {
            Position::startpos()
        } else {
            let n = self.order.len();
            let slot = if attempt < TRIES_PER_LINE {
                (index % n as u64) as usize
            } else {
                rng.below(n)
            };
            let line = &self.book.lines[self.order[slot] as usize];
            let mut pos = Position::from_chess(line.start.clone());
            for &m in &line.moves {
                // Checked for legality when the book was read.
                pos.play(m);
            }
            pos
        };
        for _ in 0..self.random_plies(index) {
            let moves = pos.board().legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play(moves[rng.below(moves.len())]);
        }
        pos
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PGN: &str = "[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n\
                       [Result \"*\"]\n\n1. d4 d5 2. c4 e6 *\n\n\
                       [Result \"*\"]\n\n1. c4 c5 *\n";

    fn book(text: &str) -> Result<Book, BookError> {
        let mut book = Book::default();
        book.read(Path::new("book.pgn"), text.as_bytes())?;
        Ok(book)
    }

    #[test]
    fn a_book_line_is_played_out_then_the_random_plies() {
        let openings = Openings::new(book(PGN).unwrap(), 2, 5);
        for index in 0..6 {
            let pos = openings.candidate(index, 0, &mut Rng::new(index));
            let line_plies = pos.plies() - openings.random_plies(index) as usize;
            assert!([2, 4].contains(&line_plies), "{}", pos.fen());
        }
    }

    #[test]
    fn the_choice_depends_on_the_seed_and_the_index_only() {
        let book = book(PGN).unwrap();
        let fens = |seed: u64| -> Vec<String> {
            let openings = Openings::new(book.clone(), 0, seed);
            (0..3)
                .map(|i| openings.candidate(i, 0, &mut Rng::new(99)).fen())
                .collect()
        };
        assert_eq!(fens(1), fens(1), "same seed, same openings");
        let mut sorted = fens(1);
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 3, "each line once in the first n games");
        assert!(
            (2..20).any(|seed| fens(seed) != fens(1)),
            "the seed changes the order"
        );
        // A game's own generator does not pick its first line.
        let openings = Openings::new(book, 0, 1);
        assert_eq!(
            openings.candidate(4, 1, &mut Rng::new(1)).fen(),
            openings.candidate(4, 2, &mut Rng::new(2)).fen()
        );
    }

    #[test]
    fn without_a_book_the_game_starts_from_the_start_position() {
        let openings = Openings::new(Book::default(), 8, 1);
        let a = openings.candidate(3, 0, &mut Rng::new(11));
        let b = openings.candidate(3, 0, &mut Rng::new(11));
        assert_eq!(a.fen(), b.fen());
        assert_eq!(a.plies(), 9);
    }

    #[test]
    fn an_epd_book_gives_its_positions_with_their_counters() {
        let text = "# a comment\n\
                    rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n\
                    rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - hmvc 0; fmvn 2; c0 \"x\";\n\
                    \n\
                    rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - id \"x\";\n";
        let mut book = Book::default();
        book.read_epd(Path::new("b.epd"), text.as_bytes()).unwrap();
        assert_eq!(book.len(), 3);
        let openings = Openings::new(book.clone(), 0, 1);
        assert_eq!(openings.book_files().as_deref(), Some("b.epd (3 lines)"));
        // Even games: no random ply.
        let mut fens: Vec<String> = [0, 2, 4]
            .iter()
            .map(|&i| openings.candidate(i, 0, &mut Rng::new(1)).fen())
            .collect();
        fens.sort();
        assert_eq!(
            fens,
            [
                "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 0 1",
                "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            ]
        );
        let err = Book::default()
            .read_epd(Path::new("b.epd"), "8/8/8 w - -\n".as_bytes())
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("b.epd: line 1: "), "{err}");
        assert!(matches!(
            Book::default().read_epd(Path::new("e.epd"), "\n".as_bytes()),
            Err(BookError::Empty { .. })
        ));
    }

    #[test]
    fn a_bad_book_is_refused_with_the_game_named() {
        let err = book("[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n").unwrap_err();
        let text = err.to_string();
        assert!(text.starts_with("book.pgn: game 1 (line 1"), "{text}");
        assert!(text.contains("Ke3"), "{text}");
        let err = book("not a pgn at all\n").unwrap_err().to_string();
        assert!(err.contains("book.pgn"), "{err}");
        assert!(matches!(book("").unwrap_err(), BookError::Empty { .. }));
        let err = book("[Variant \"Chess960\"]\n\n1. e4 *\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("Chess960"), "{err}");
        let err = Book::load(&[PathBuf::from("/no/such/book.pgn")])
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("/no/such/book.pgn: "), "{err}");
    }
}
