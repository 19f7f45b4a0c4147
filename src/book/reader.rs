//! A Polyglot book in memory: loaded and checked whole
//! ([`Book::open`]), then the moves of a position found by binary search
//! ([`Book::moves`]) and one of them chosen ([`BookMoves::choose`]).
//!
//! Loading refuses a file whose size is not a multiple of 16 and one whose
//! keys are out of order (a binary search in it would miss moves), so a
//! book that loads is one that is read right. Entries that code no legal
//! move of the position are left out of its moves (and counted).

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};

use shakmaty::{Chess, Move};

use super::format::{ENTRY_SIZE, Entry, decode_move, polyglot_key};
use crate::chess::random::Rng;
use crate::error::BookError;

/// A loaded, checked Polyglot book.
#[derive(Debug, Clone)]
pub struct Book {
    path: PathBuf,
    entries: Vec<Entry>,
}

/// A legal move of a position with its entry's numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BookMove {
    /// The move.
    pub mv: Move,
    /// Its weight.
    pub weight: u16,
    /// Its learning field.
    pub learn: u32,
}

/// The book moves of one position, in the book's order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BookMoves {
    /// The legal moves the book gives.
    pub moves: Vec<BookMove>,
    /// Entries of the position whose move is not legal there (a key
    /// collision or a broken book).
    pub illegal: usize,
}

/// How a move is picked from the book moves of a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Selection {
    /// Always the highest weight (the first of equals, in book order).
    Best,
    /// At random, each move in proportion to its weight.
    Weighted,
}

impl Book {
    /// Loads and checks the book at `path`.
    ///
    /// # Errors
    ///
    /// [`BookError`] when the file cannot be read, is not a file, is not a
    /// whole number of entries, does not fit in memory, or is not sorted by
    /// key.
    pub fn open(path: &Path) -> Result<Book, BookError> {
        let io = |e: std::io::Error| BookError::Io {
            path: path.to_path_buf(),
            reason: e.to_string(),
        };
        // Checked before opening: opening a FIFO would wait for a writer.
        if !std::fs::metadata(path).map_err(io)?.is_file() {
            return Err(BookError::NotAFile {
                path: path.to_path_buf(),
            });
        }
        let file = File::open(path).map_err(io)?;
        let size = file.metadata().map_err(io)?.len();
        if size % ENTRY_SIZE as u64 != 0 {
            return Err(BookError::BadSize {
                path: path.to_path_buf(),
                size,
            });
        }
        let count = size / ENTRY_SIZE as u64;
        let mut entries = Vec::new();
        usize::try_from(count)
            .ok()
            .and_then(|n| entries.try_reserve_exact(n).ok())
            .ok_or_else(|| BookError::TooLarge {
                path: path.to_path_buf(),
                entries: count,
            })?;
        let mut reader = BufReader::with_capacity(1 << 16, file);
        let mut bytes = [0; ENTRY_SIZE];
        for _ in 0..count {
            reader.read_exact(&mut bytes).map_err(io)?;
            entries.push(Entry::from_bytes(&bytes));
        }
        // The file may have grown since its size was taken.
        if reader.read(&mut bytes).map_err(io)? != 0 {
            return Err(io(std::io::Error::other(
                "the file changed while it was read",
            )));
        }
        Book::from_entries(path, entries)
    }

    /// A book of `entries` (named `path` in messages), checked for order.
    ///
    /// # Errors
    ///
    /// [`BookError::Unsorted`] at the first entry whose key is smaller than
    /// the one before it.
    pub fn from_entries(path: &Path, entries: Vec<Entry>) -> Result<Book, BookError> {
        if let Some(i) = entries.windows(2).position(|w| w[1].key < w[0].key) {
            return Err(BookError::Unsorted {
                path: path.to_path_buf(),
                index: i + 1,
                key: entries[i + 1].key,
                previous: entries[i].key,
            });
        }
        Ok(Book {
            path: path.to_path_buf(),
            entries,
        })
    }

    /// The file the book came from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book has no entry.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// All entries, in file order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The entries with `key`, in file order (binary search).
    pub fn entries_for(&self, key: u64) -> &[Entry] {
        let start = self.entries.partition_point(|e| e.key < key);
        let len = self.entries[start..].partition_point(|e| e.key == key);
        &self.entries[start..start + len]
    }

    /// The book moves of `board` that are legal there.
    pub fn moves(&self, board: &Chess) -> BookMoves {
        let mut out = BookMoves::default();
        for entry in self.entries_for(polyglot_key(board)) {
            match decode_move(entry.raw_move, board) {
                Some(mv) => out.moves.push(BookMove {
                    mv,
                    weight: entry.weight,
                    learn: entry.learn,
                }),
                None => out.illegal += 1,
            }
        }
        out
    }
}

impl BookMoves {
    /// The sum of the weights.
    pub fn total_weight(&self) -> u64 {
        self.moves.iter().map(|m| u64::from(m.weight)).sum()
    }

    /// A weight's share of the total, in percent (0 when the total is 0).
    pub fn share(&self, weight: u16) -> f64 {
        match self.total_weight() {
            0 => 0.0,
            total => f64::from(weight) * 100.0 / total as f64,
        }
    }

    /// The move to play, if any: moves of weight 0 are never played. `rng`
    /// is drawn from only for [`Selection::Weighted`].
    pub fn choose(&self, selection: Selection, rng: &mut Rng) -> Option<BookMove> {
        let total = self.total_weight();
        if total == 0 {
            return None;
        }
        match selection {
            Selection::Best => {
                let best = self.moves.iter().map(|m| m.weight).max()?;
                self.moves.iter().find(|m| m.weight == best).copied()
            }
            Selection::Weighted => {
                let mut pick = rng.next_u64() % total;
                for m in &self.moves {
                    let w = u64::from(m.weight);
                    if pick < w {
                        return Some(*m);
                    }
                    pick -= w;
                }
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::format::encode_move;
    use shakmaty::Position as _;

    fn entry(key: u64, raw_move: u16, weight: u16) -> Entry {
        Entry {
            key,
            raw_move,
            weight,
            learn: 0,
        }
    }

    fn start_book(weights: &[(&str, u16)]) -> (Book, Chess) {
        let board = Chess::default();
        let key = polyglot_key(&board);
        let mut entries = vec![entry(key - 1, 1, 1), entry(key + 1, 1, 1)];
        for (uci, w) in weights {
            let m = uci
                .parse::<shakmaty::uci::UciMove>()
                .unwrap()
                .to_move(&board)
                .unwrap();
            entries.insert(entries.len() - 1, entry(key, encode_move(m), *w));
        }
        (
            Book::from_entries(Path::new("t.bin"), entries).unwrap(),
            board,
        )
    }

    #[test]
    fn binary_search_finds_every_entry_of_a_key_and_nothing_else() {
        let (book, board) = start_book(&[("e2e4", 5), ("d2d4", 3), ("g1f3", 0)]);
        let moves = book.moves(&board);
        assert_eq!(moves.moves.len(), 3);
        assert_eq!(moves.illegal, 0);
        assert_eq!(moves.total_weight(), 8);
        assert_eq!(moves.share(3), 37.5);
        assert!(book.entries_for(7).is_empty());
        let after = {
            let mut b = board.clone();
            b.play_unchecked(moves.moves[0].mv);
            b
        };
        assert!(book.moves(&after).moves.is_empty());
    }

    #[test]
    fn best_takes_the_first_highest_weight_and_weighted_follows_the_weights() {
        let (book, board) = start_book(&[("d2d4", 1), ("e2e4", 3), ("c2c4", 3), ("g1f3", 0)]);
        let moves = book.moves(&board);
        let mut rng = Rng::new(1);
        let best = moves.choose(Selection::Best, &mut rng).unwrap();
        assert_eq!(best.mv.to_string(), "e2-e4");
        let mut counts = [0u32; 4];
        for _ in 0..7000 {
            let m = moves.choose(Selection::Weighted, &mut rng).unwrap();
            counts[moves.moves.iter().position(|x| *x == m).unwrap()] += 1;
        }
        // Expected 1000, 3000, 3000, 0.
        assert_eq!(counts[3], 0, "{counts:?}");
        assert!((800..1200).contains(&counts[0]), "{counts:?}");
        assert!((2700..3300).contains(&counts[1]), "{counts:?}");
        assert!((2700..3300).contains(&counts[2]), "{counts:?}");
    }

    #[test]
    fn moves_of_weight_zero_alone_are_never_played() {
        let (book, board) = start_book(&[("e2e4", 0)]);
        let moves = book.moves(&board);
        assert_eq!(moves.moves.len(), 1);
        assert_eq!(moves.choose(Selection::Best, &mut Rng::new(0)), None);
        assert_eq!(moves.choose(Selection::Weighted, &mut Rng::new(0)), None);
    }

    #[test]
    fn illegal_entries_are_counted_not_listed() {
        let board = Chess::default();
        let key = polyglot_key(&board);
        // e2e5 and a1a8 are not legal at the start.
        let book = Book::from_entries(
            Path::new("t.bin"),
            vec![entry(key, (12 << 6) | 36, 4), entry(key, 56, 4)],
        )
        .unwrap();
        let moves = book.moves(&board);
        assert!(moves.moves.is_empty());
        assert_eq!(moves.illegal, 2);
    }

    #[test]
    fn unsorted_entries_are_refused_naming_the_first_out_of_order() {
        let e = Book::from_entries(
            Path::new("u.bin"),
            vec![
                entry(1, 1, 1),
                entry(5, 1, 1),
                entry(5, 2, 1),
                entry(3, 1, 1),
            ],
        )
        .unwrap_err();
        assert_eq!(
            e,
            BookError::Unsorted {
                path: PathBuf::from("u.bin"),
                index: 3,
                key: 3,
                previous: 5
            }
        );
    }
}
