//! The opening book as the engine uses it: the loaded book (`BookFile`),
//! the generator of its random choices (`BookSeed`), and the decision
//! whether a `go` is answered from the book at all.
//!
//! The book answers only a `go` that asks for a move of a game: one with
//! a clock (`wtime`/`btime`) or `movetime`, and without `infinite`,
//! `ponder`, `searchmoves`, `mate`, `depth` or `nodes`. Those are analysis
//! (or a GUI waiting for `stop`/`ponderhit`, which a move sent at once
//! would break), so they always search. The move must also be legal, of
//! non-zero weight, and the game no more than `BookDepth` plies old.

use std::path::Path;

use shakmaty::{Chess, Color, Position as _};

use super::options::Options;
use crate::book::{Book, BookMove, Selection};
use crate::chess::random::Rng;
use crate::error::BookError;
use crate::search::SearchLimits;

/// A move the book chose, with the total weight of the position's moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BookChoice {
    /// The move and its entry's numbers.
    pub book_move: BookMove,
    /// The sum of the weights of the position's legal book moves.
    pub total: u64,
}

/// The engine's opening book state.
#[derive(Debug)]
pub struct OpeningBook {
    book: Option<Book>,
    rng: Rng,
}

impl OpeningBook {
    /// The book named by `options` (none when `BookFile` is empty), its
    /// choices seeded by `BookSeed`.
    ///
    /// # Errors
    ///
    /// When the book cannot be loaded.
    pub fn new(options: &Options) -> Result<OpeningBook, BookError> {
        let mut book = OpeningBook {
            book: None,
            rng: Rng::new(0),
        };
        book.reseed(options.book_seed());
        book.load(options.book_file())?;
        Ok(book)
    }

    /// Loads the book at `path` in place of the current one (an empty path
    /// unloads it). On error the current book stays.
    ///
    /// # Errors
    ///
    /// When the file cannot be loaded: missing, unreadable, not a whole
    /// number of entries, or not sorted.
    pub fn load(&mut self, path: &str) -> Result<(), BookError> {
        self.book = match path {
            "" => None,
            path => Some(Book::open(Path::new(path))?),
        };
        Ok(())
    }

    /// Restarts the random choices from `seed`; 0 takes a seed from the
    /// clock and the process id.
    pub fn reseed(&mut self, seed: u64) {
        self.rng = Rng::seeded_or_clock(seed);
    }

    /// The loaded book, if any.
    pub fn book(&self) -> Option<&Book> {
        self.book.as_ref()
    }

    /// Whether a `go` with `limits` would be answered from the book but no
    /// book is loaded (`OwnBook` on, no `BookFile`).
    pub fn is_missing(&self, limits: &SearchLimits, options: &Options) -> bool {
        options.own_book() && self.book.is_none() && asks_for_a_game_move(limits)
    }

    /// The book's move for a `go` with `limits` in `board`, if the options
    /// and the limits let the book answer and it has a move.
    pub fn choose(
        &mut self,
        board: &Chess,
        limits: &SearchLimits,
        options: &Options,
    ) -> Option<BookChoice> {
        if !options.own_book()
            || !asks_for_a_game_move(limits)
            || game_ply(board) >= u64::from(options.book_depth())
        {
            return None;
        }
        let moves = self.book.as_ref()?.moves(board);
        let selection = if options.book_variety() {
            Selection::Weighted
        } else {
            Selection::Best
        };
        let book_move = moves.choose(selection, &mut self.rng)?;
        Some(BookChoice {
            book_move,
            total: moves.total_weight(),
        })
    }
}

/// Whether `go` asks for a move of a game (see the module docs).
pub fn asks_for_a_game_move(limits: &SearchLimits) -> bool {
    let clock = &limits.clock;
    let timed = clock.wtime.is_some() || clock.btime.is_some() || clock.movetime.is_some();
    timed
        && !limits.infinite
        && !limits.ponder
        && limits.searchmoves.is_empty()
        && limits.mate.is_none()
        && limits.depth.is_none()
        && limits.nodes.is_none()
}

/// Plies played in the game, from the position's move number and side to
/// move (0 at the start).
pub fn game_ply(board: &Chess) -> u64 {
    2 * (u64::from(board.fullmoves().get()) - 1) + u64::from(board.turn() == Color::Black)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_timed_game_moves_are_answered_from_the_book() {
        let timed = SearchLimits {
            clock: crate::search::time::Clock {
                wtime: Some(1000),
                ..Default::default()
            },
            ..SearchLimits::default()
        };
        assert!(asks_for_a_game_move(&timed));
        let movetime = SearchLimits {
            clock: crate::search::time::Clock {
                movetime: Some(100),
                ..Default::default()
            },
            ..SearchLimits::default()
        };
        assert!(asks_for_a_game_move(&movetime));
        assert!(!asks_for_a_game_move(&SearchLimits::default()));
        assert!(!asks_for_a_game_move(&SearchLimits::depth(5)));
        for analysis in [
            SearchLimits {
                infinite: true,
                ..timed.clone()
            },
            SearchLimits {
                ponder: true,
                ..timed.clone()
            },
            SearchLimits {
                depth: Some(3),
                ..timed.clone()
            },
            SearchLimits {
                nodes: Some(3),
                ..timed.clone()
            },
            SearchLimits {
                mate: Some(3),
                ..timed.clone()
            },
        ] {
            assert!(!asks_for_a_game_move(&analysis), "{analysis:?}");
        }
    }

    #[test]
    fn the_game_ply_comes_from_the_move_number_and_side_to_move() {
        let start = Chess::default();
        assert_eq!(game_ply(&start), 0);
        let fen: shakmaty::fen::Fen = "8/8/8/8/8/8/8/K1k5 b - - 0 20".parse().unwrap();
        let board: Chess = fen.into_position(shakmaty::CastlingMode::Standard).unwrap();
        assert_eq!(game_ply(&board), 39);
    }
}
