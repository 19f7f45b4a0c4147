//! Making a Polyglot book from games, entry for entry as `polyglot
//! make-book` (PolyGlot 2.0.4, Debian's) makes it; tests/client/
//! polyglot_book.py compares the files byte for byte.
//!
//! Every move of a game up to `max_ply` counts for its position: `n` (games
//! through the position that played it) goes up by 1 and `sum` by 2 for a
//! win of the side that moved, 1 for a draw, 0 for a loss. A game whose
//! result is unknown (`*`) counts as a draw, as in polyglot. When one
//! move's `n` reaches 16384, the `n` and `sum` of every move of that
//! position are halved (rounding up), which keeps the counts in 16 bits
//! and lets recent games weigh more.
//!
//! An entry is kept when `n ≥ min_game`, `sum > 0`, the score `sum / 2n`
//! is at least `min_score`, its side to move is not left out
//! (`only_white`, `only_black`), and its key is not 0 (kept free for a
//! header by polyglot). Its weight is `sum` (1 with `uniform`), its learn
//! field 0. Entries are sorted by key, then by weight (highest first),
//! equal weights in the order their moves were first seen: polyglot's
//! qsort is glibc's merge sort, stable, so its files are byte for byte the
//! same.

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use shakmaty::{Chess, Color, Move, Position as _};

use super::format::{Entry, encode_move, polyglot_key};
use crate::chess::pgn::GameResult;

/// `n` at which the counts of a position are halved.
const COUNT_MAX: u32 = 16_384;

/// What `make` keeps: polyglot make-book's options.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MakeOptions {
    /// Moves at plies `0..max_ply` of a game count (`-max-ply`, default
    /// 1024).
    pub max_ply: usize,
    /// Fewest games through an entry (`-min-game`, default 3).
    pub min_game: u32,
    /// Lowest score `sum / 2n`, from 0 to 1 (`-min-score`, given in
    /// percent there; default 0).
    pub min_score: f64,
    /// Keep only the entries of positions with this side to move
    /// (`-only-white`, `-only-black`).
    pub only: Option<Color>,
    /// Every kept entry weighs 1 (`-uniform`).
    pub uniform: bool,
}

impl Default for MakeOptions {
    fn default() -> Self {
        MakeOptions {
            max_ply: 1024,
            min_game: 3,
            min_score: 0.0,
            only: None,
            uniform: false,
        }
    }
}

/// The counts of one (position, move).
#[derive(Debug, Clone, Copy)]
struct Count {
    key: u64,
    raw_move: u16,
    n: u32,
    sum: u32,
    turn: Color,
}

/// Counts moves of games; [`BookMaker::finish`] gives the book.
#[derive(Debug, Default)]
pub struct BookMaker {
    options: MakeOptions,
    /// In the order first seen.
    counts: Vec<Count>,
    index: HashMap<(u64, u16), usize>,
    /// The counts of each position, to halve them together.
    by_key: HashMap<u64, Vec<usize>>,
    games: u64,
}

impl BookMaker {
    /// A maker with `options`.
    pub fn new(options: MakeOptions) -> BookMaker {
        BookMaker {
            options,
            ..BookMaker::default()
        }
    }

    /// Games added so far.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// (position, move) pairs counted so far.
    pub fn pairs(&self) -> usize {
        self.counts.len()
    }

    /// Counts the moves of one game (legal moves of `start` and on, as
    /// `PgnGame::mainline` gives them); moves past `max_ply` are ignored.
    pub fn add_game(&mut self, start: &Chess, moves: &[Move], result: GameResult) {
        self.games += 1;
        let mut board = start.clone();
        // The side that moved first scores 2/1/0 for a win/draw/loss.
        let mut score: u32 = match (result, board.turn()) {
            (GameResult::WhiteWins, Color::White) | (GameResult::BlackWins, Color::Black) => 2,
            (GameResult::WhiteWins, Color::Black) | (GameResult::BlackWins, Color::White) => 0,
            (GameResult::Draw | GameResult::Unknown, _) => 1,
        };
        for &m in moves.iter().take(self.options.max_ply) {
            self.count(&board, m, score);
            // The moves came from `mainline`, legal in turn.
            board.play_unchecked(m);
            score = 2 - score;
        }
    }

    fn count(&mut self, board: &Chess, m: Move, score: u32) {
        let key = polyglot_key(board);
        let raw_move = encode_move(m);
        let next = self.counts.len();
        let i = *self.index.entry((key, raw_move)).or_insert(next);
        if i == next {
            self.counts.push(Count {
                key,
                raw_move,
                n: 0,
                sum: 0,
                turn: board.turn(),
            });
            self.by_key.entry(key).or_default().push(i);
        }
        let c = &mut self.counts[i];
        c.n += 1;
        c.sum += score;
        if c.n >= COUNT_MAX {
            for &j in &self.by_key[&key] {
                let c = &mut self.counts[j];
                c.n = c.n.div_ceil(2);
                c.sum = c.sum.div_ceil(2);
            }
        }
    }

    /// The weight of a count that is kept, `None` for one that is not.
    fn weight(&self, c: &Count) -> Option<u16> {
        let o = &self.options;
        let kept = c.n >= o.min_game
            && c.sum > 0
            && f64::from(c.sum) / f64::from(c.n) / 2.0 >= o.min_score
            && o.only.is_none_or(|side| side == c.turn)
            && c.key != 0;
        // `sum` stays below 2 * COUNT_MAX = 32768, inside 16 bits.
        let weight = if o.uniform { 1 } else { c.sum as u16 };
        kept.then_some(weight)
    }

    /// The book: kept entries, sorted (see the module docs).
    pub fn finish(self) -> Vec<Entry> {
        let mut entries: Vec<Entry> = self
            .counts
            .iter()
            .filter_map(|c| {
                self.weight(c).map(|weight| Entry {
                    key: c.key,
                    raw_move: c.raw_move,
                    weight,
                    learn: 0,
                })
            })
            .collect();
        // Stable: equal weights keep the order first seen.
        entries.sort_by(|a, b| a.key.cmp(&b.key).then(b.weight.cmp(&a.weight)));
        entries
    }
}

/// Writes `entries` as a book file at `path`: first to a temporary file
/// beside it, then renamed over it, so that a failed write leaves any old
/// file as it was.
///
/// # Errors
///
/// When the file cannot be written or renamed.
pub fn write_book(path: &Path, entries: &[Entry]) -> io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".tmp{}", std::process::id()));
    let tmp = std::path::PathBuf::from(tmp);
    let written = (|| {
        let mut out = BufWriter::new(File::create(&tmp)?);
        for e in entries {
            out.write_all(&e.to_bytes())?;
        }
        out.into_inner()
            .map_err(io::IntoInnerError::into_error)?
            .sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::format::decode_move;
    use crate::chess::pgn::PgnReader;

    fn make(pgn: &str, options: MakeOptions) -> Vec<Entry> {
        let mut maker = BookMaker::new(options);
        for game in PgnReader::new(pgn.as_bytes()) {
            let game = game.unwrap();
            let (start, moves) = game.mainline(options.max_ply).unwrap();
            maker.add_game(&start, &moves, game.result());
        }
        maker.finish()
    }

    /// (move, weight) at the start position, in book order.
    fn at_start(entries: &[Entry]) -> Vec<(String, u16)> {
        let board = Chess::default();
        let key = polyglot_key(&board);
        entries
            .iter()
            .filter(|e| e.key == key)
            .map(|e| {
                let m = decode_move(e.raw_move, &board).unwrap();
                (
                    m.to_uci(shakmaty::CastlingMode::Standard).to_string(),
                    e.weight,
                )
            })
            .collect()
    }

    const GAMES: &str = "[Result \"1-0\"]\n1. e4 e5 2. Nf3 1-0\n\
                         [Result \"0-1\"]\n1. e4 c5 0-1\n\
                         [Result \"1/2-1/2\"]\n1. d4 d5 1/2-1/2\n\
                         [Result \"*\"]\n1. e4 e5 *\n";

    #[test]
    fn weights_are_two_per_win_and_one_per_draw_of_the_side_that_moved() {
        let one = MakeOptions {
            min_game: 1,
            ..MakeOptions::default()
        };
        let entries = make(GAMES, one);
        // e4: a win, a loss, an unknown (a draw) = 3; d4: a draw = 1.
        assert_eq!(
            at_start(&entries),
            [("e2e4".to_owned(), 3), ("d2d4".to_owned(), 1)]
        );
        // e5 scored 0 (loss) + 1 (unknown); c5 2; d5 1; Nf3 2: six entries.
        assert_eq!(entries.len(), 6);
        assert!(entries.windows(2).all(|w| w[0].key <= w[1].key));
        // min-game 2 keeps e4 (3 games) and e5 (2 games) only.
        let two = MakeOptions {
            min_game: 2,
            ..MakeOptions::default()
        };
        assert_eq!(make(GAMES, two).len(), 2);
        // Only the first ply: the two start entries.
        let first = MakeOptions { max_ply: 1, ..one };
        assert_eq!(make(GAMES, first).len(), 2);
        // Only Black's moves: e5, c5, d5.
        let black = MakeOptions {
            only: Some(Color::Black),
            ..one
        };
        assert_eq!(make(GAMES, black).len(), 3);
        // Score at least 50%: e4 (3/6), c5 (2/2), d4, d5 (1/2), Nf3 (2/2).
        let half = MakeOptions {
            min_score: 0.5,
            ..one
        };
        assert_eq!(make(GAMES, half).len(), 5);
        let uniform = MakeOptions {
            uniform: true,
            ..one
        };
        assert!(make(GAMES, uniform).iter().all(|e| e.weight == 1));
    }

    #[test]
    fn counts_of_a_position_are_halved_when_one_reaches_16384() {
        // 16383 wins with e4 and one draw with d4, then one more e4 win:
        // e4 reaches n = 16384 and both moves of the position are halved.
        let mut maker = BookMaker::new(MakeOptions::default());
        let board = Chess::default();
        let e4 = decode_move((12 << 6) | 28, &board).unwrap();
        let d4 = decode_move((11 << 6) | 27, &board).unwrap();
        maker.add_game(&board, &[d4], GameResult::Draw);
        for _ in 0..COUNT_MAX {
            maker.add_game(&board, &[e4], GameResult::WhiteWins);
        }
        let c: Vec<(u32, u32)> = maker.counts.iter().map(|c| (c.n, c.sum)).collect();
        assert_eq!(c, [(1, 1), (8192, 16384)]);
        let entries = maker.finish();
        // d4's n = 1 is below min-game 3.
        assert_eq!(at_start(&entries), [("e2e4".to_owned(), 16384)]);
    }

    #[test]
    fn a_written_book_reads_back_entry_for_entry() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("b.bin");
        let entries = make(
            GAMES,
            MakeOptions {
                min_game: 1,
                ..MakeOptions::default()
            },
        );
        write_book(&path, &entries).unwrap();
        let book = crate::book::Book::open(&path).unwrap();
        assert_eq!(book.entries(), entries.as_slice());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        assert!(write_book(&dir.path().join("no/such/dir/b.bin"), &entries).is_err());
    }
}
