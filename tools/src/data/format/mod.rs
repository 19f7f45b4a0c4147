//! The formats of the data files, byte by byte, and how a file's name
//! tells which it is ([`Format`]). `datagen` and `data from-pgn` write game
//! files, `data convert` the packed and text files; the reader
//! (`data/reader.rs`) reads all three.
//!
//! | file | what it owns |
//! |---|---|
//! | `games.rs` | the game format (whole games, 4 bytes a move), the one `datagen` writes |
//! | `header.rs` | a game file's header: magic, version, the settings that made its games |
//! | `packed.rs` | the packed binary format of kept positions (32-byte records) |
//! | `text.rs` | the text line format of kept positions |

pub mod games;
pub mod header;
pub mod packed;
pub mod text;

use std::path::Path;

use shakmaty::Color;

/// The formats of the data files, told apart by the file's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Text lines (`text.rs`): any name but the two below.
    Text,
    /// Packed 32-byte records (`packed.rs`): a name ending in `.bin`.
    Packed,
    /// Whole games (`games.rs`): a name ending in `.games`.
    Games,
}

impl Format {
    /// The format of the file `path`.
    pub fn of(path: &Path) -> Format {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or_default();
        if ext.eq_ignore_ascii_case("bin") {
            Format::Packed
        } else if ext.eq_ignore_ascii_case("games") {
            Format::Games
        } else {
            Format::Text
        }
    }
}

/// The score `score` of the side to move `turn` from White's view, as the
/// packed and text formats hold scores (a game file keeps each move's
/// score from its mover's view, as the search gave it). The flip is its
/// own inverse: `white_view(turn, white)` is White's score from the side
/// to move's view.
#[inline]
pub fn white_view(turn: Color, score: i32) -> i32 {
    match turn {
        Color::White => score,
        Color::Black => -score,
    }
}
