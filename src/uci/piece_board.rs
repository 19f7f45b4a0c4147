//! The net's value of each piece drawn as a board, for `eval`: eight rows
//! of eight boxes, rank 8 at the top and the a-file on the left (White's
//! view), each box holding the piece's letter (upper case White's) and
//! under it its value in pawns, signed, from White's view; a king's box
//! and an empty square's hold no value. Stockfish 15.1's `eval` draws its
//! net's piece values so.
//!
//! ```text
//! +-------+-------+-- … --+
//! |   r   |   n   |       |
//! | -4.56 | -3.41 |       |
//! +-------+-------+-- … --+
//! ```

use shakmaty::{File, Rank, Square};

use crate::eval::PieceValues;

/// Characters inside a box.
const INSIDE: usize = 7;

/// The board's lines: 8 × 3 + 1. `pawns` turns a value (the net's
/// centipawns) into pawns as `eval` shows them.
pub fn piece_board(pieces: &PieceValues, pawns: impl Fn(i32) -> f64) -> Vec<String> {
    let rule = format!("{}+", format!("+{}", "-".repeat(INSIDE)).repeat(8));
    let mut lines = Vec::with_capacity(25);
    for rank in Rank::ALL.into_iter().rev() {
        let (mut letters, mut values) = (String::from("|"), String::from("|"));
        for file in File::ALL {
            let (letter, value) = match pieces.at(Square::from_coords(file, rank)) {
                Some((piece, value)) => (
                    piece.char().to_string(),
                    value.map_or_else(String::new, |v| pawns_text(pawns(v))),
                ),
                None => (String::new(), String::new()),
            };
            letters.push_str(&format!("{letter:^INSIDE$}|"));
            values.push_str(&format!("{value:^INSIDE$}|"));
        }
        lines.extend([rule.clone(), letters, values]);
    }
    lines.push(rule);
    lines
}

/// A value in pawns in five characters at most (up to ±99,999): two
/// decimals below 10, one below 100, none above.
fn pawns_text(pawns: f64) -> String {
    if pawns.abs() < 9.995 {
        format!("{pawns:+.2}")
    } else if pawns.abs() < 99.95 {
        format!("{pawns:+.1}")
    } else {
        format!("{pawns:+.0}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{LoadedNet, piece_values};
    use shakmaty::Chess;

    #[test]
    fn the_board_has_a_box_per_square_with_each_piece_and_its_value() {
        let net = LoadedNet::built_in().unwrap();
        let pieces = piece_values(&net, &Chess::default());
        let lines = piece_board(&pieces, |cp| f64::from(cp) / 100.0);
        assert_eq!(lines.len(), 25);
        assert!(lines.iter().all(|l| l.chars().count() == 65), "{lines:#?}");
        assert_eq!(lines[0], format!("{}+", "+-------".repeat(8)));
        assert_eq!(
            lines[1],
            "|   r   |   n   |   b   |   q   |   k   |   b   |   n   |   r   |"
        );
        assert_eq!(lines[22], lines[1].to_uppercase());
        // Black's pieces take from White, White's add; kings and the empty
        // middle have no value.
        let cells = |line: &str| -> Vec<String> {
            line.split('|')
                .skip(1)
                .take(8)
                .map(|c| c.trim().to_owned())
                .collect()
        };
        let black = cells(&lines[2]);
        let white = cells(&lines[23]);
        assert_eq!((black[4].as_str(), white[4].as_str()), ("", ""));
        for k in [0, 1, 2, 3, 5, 6, 7] {
            assert!(black[k].starts_with('-'), "{black:?}");
            assert!(white[k].starts_with('+'), "{white:?}");
            assert_eq!(black[k].len(), 5, "{black:?}");
        }
        assert!(cells(&lines[11]).iter().all(String::is_empty));
        // The value is the piece's, in pawns.
        let (_, queen) = pieces.at(Square::D1).unwrap();
        assert_eq!(
            white[3],
            format!("{:+.2}", f64::from(queen.unwrap()) / 100.0)
        );
    }

    #[test]
    fn values_take_five_characters_at_most() {
        assert_eq!(pawns_text(0.951), "+0.95");
        assert_eq!(pawns_text(-3.0), "-3.00");
        assert_eq!(pawns_text(12.34), "+12.3");
        assert_eq!(pawns_text(-140.2), "-140");
        assert_eq!(pawns_text(0.0), "+0.00");
    }
}
