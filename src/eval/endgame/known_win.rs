//! Known wins against a bare king: the evaluation that mates.
//!
//! When one side has only its king and the other has no pawns but enough
//! to force mate (a queen, a rook, bishops on both colours, or a bishop
//! and a knight), the linear terms know nothing useful: the win is certain,
//! and what matters is how far the lone king is from the squares where it
//! can be mated. This evaluation replaces them there:
//!
//! ```text
//! KNOWN_WIN + material of the strong side
//!           + EDGE_PUSH   * how far the lone king is from the centre (any mate but bishop and knight)
//!           + CORNER_PUSH * how near it is to a mating corner (bishop and knight only)
//!           + KING_CLOSE  * how near the two kings are
//! ```
//!
//! With a bishop and a knight the mate can only be given in a corner of the
//! bishop's colour, so the nearness to those two corners is all that counts
//! (measured across the long diagonal between the other two, so that the
//! lone king can be walked along an edge from a wrong corner to a right
//! one: an edge term would hold it in the wrong corner); with the others
//! any edge will do.
//!
//! The value does not depend on the tuned weights (the tuner skips these
//! positions) and stays far below the tablebase and mate scores, so the
//! search reads it as "winning, better the closer to mate".

use shakmaty::{Bitboard, Board, Color, Role, Square};

use crate::chess::values::piece_value;

/// The base of every known win, in centipawns, above the material.
pub const KNOWN_WIN: i32 = 2_000;
/// Per step of Manhattan distance of the lone king from the four centre
/// squares (0 to 6).
const EDGE_PUSH: i32 = 20;
/// Per step nearer to the mating corners of a bishop-and-knight mate (0 to
/// 7 steps: see `toward_mating_corner`).
const CORNER_PUSH: i32 = 100;
/// Per step of Manhattan distance nearer between the kings (2 to 14).
const KING_CLOSE: i32 = 10;

/// The known-win score for White when the position is one (see the module
/// documentation), else `None`.
pub fn known_win(board: &Board) -> Option<i32> {
    Color::ALL.into_iter().find_map(|strong| {
        let value = win_for(board, strong)?;
        Some(if strong == Color::White {
            value
        } else {
            -value
        })
    })
}

/// The score for `strong` if it holds a known win against a bare king.
fn win_for(board: &Board, strong: Color) -> Option<i32> {
    let weak = !strong;
    if board.by_color(weak) != board.kings() & board.by_color(weak) {
        return None;
    }
    let ours = board.by_color(strong);
    if !(board.pawns() & ours).is_empty() {
        return None;
    }
    let count = |role: Role| (board.by_role(role) & ours).count();
    let bishops = board.bishops() & ours;
    let both_bishop_colours = !(bishops & Bitboard::LIGHT_SQUARES).is_empty()
        && !(bishops & Bitboard::DARK_SQUARES).is_empty();
    let heavy = count(Role::Queen) + count(Role::Rook) > 0;
    let bishop_and_knight_only = !heavy && count(Role::Knight) >= 1 && !bishops.is_empty();
    if !heavy && !both_bishop_colours && !bishop_and_knight_only {
        return None;
    }
    let lone = board.king_of(weak)?;
    let king = board.king_of(strong)?;

    let material: i32 = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .into_iter()
        .map(|r| count(r) as i32 * piece_value(r))
        .sum();
    let mut value = KNOWN_WIN + material;
    value += KING_CLOSE * (14 - manhattan(king, lone));
    if !heavy && !both_bishop_colours {
        let dark = !(bishops & Bitboard::DARK_SQUARES).is_empty();
        value += CORNER_PUSH * toward_mating_corner(lone, dark);
    } else {
        value += EDGE_PUSH * centre_distance(lone);
    }
    debug_assert!(value > KNOWN_WIN);
    Some(value)
}

/// Files plus ranks between two squares.
fn manhattan(a: Square, b: Square) -> i32 {
    let files = (i32::from(a.file()) - i32::from(b.file())).abs();
    let ranks = (i32::from(a.rank()) - i32::from(b.rank())).abs();
    files + ranks
}

/// How near `sq` is to the corners of a bishop-and-knight mate, along the
/// diagonal between them: 0 on the long diagonal of the other colour (the
/// wrong corners and the centre), 7 in the mating corners (a1 and h8 for a
/// `dark`-squared bishop, else a8 and h1). Every step along an edge from
/// a wrong corner to a right one gains 1, so the lone king can be walked
/// there.
fn toward_mating_corner(sq: Square, dark: bool) -> i32 {
    let file = i32::from(sq.file());
    let rank = i32::from(sq.rank());
    if dark {
        (7 - file - rank).abs()
    } else {
        (file - rank).abs()
    }
}

/// Manhattan distance to the nearest of d4, e4, d5, e5 (0 to 6).
fn centre_distance(sq: Square) -> i32 {
    let axis = |x: i32| if x < 4 { 3 - x } else { x - 4 };
    axis(i32::from(sq.file())) + axis(i32::from(sq.rank()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;

    fn board(fen: &str) -> Board {
        fen.parse::<Fen>()
            .expect("test FEN")
            .as_setup()
            .board
            .clone()
    }

    #[test]
    fn only_mating_material_against_a_bare_king() {
        assert!(known_win(&board("8/8/8/4k3/8/8/8/4K2R w - - 0 1")).is_some_and(|v| v > 0));
        assert!(known_win(&board("4k3/8/8/8/8/8/8/3QK3 b - - 0 1")).is_some_and(|v| v > 0));
        assert!(known_win(&board("4k3/8/8/8/8/8/8/2B1KN2 w - - 0 1")).is_some());
        assert!(known_win(&board("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1")).is_some());
        assert!(known_win(&board("3qk3/8/8/8/8/8/8/4K3 w - - 0 1")).is_some_and(|v| v < 0));
        // Not enough, or not bare, or pawns.
        assert_eq!(known_win(&board("4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1")), None);
        // Two bishops on dark squares (c1, e3).
        assert_eq!(known_win(&board("4k3/8/8/8/8/4B3/8/2B1K3 w - - 0 1")), None);
        assert_eq!(known_win(&board("4k3/7p/8/8/8/8/8/3QK3 w - - 0 1")), None);
        assert_eq!(known_win(&board("4k3/8/8/8/8/8/P7/3QK3 w - - 0 1")), None);
    }

    #[test]
    fn the_lone_king_belongs_in_the_bishops_corner() {
        // Dark-squared bishop (c1): a1 and h8 are the mating corners.
        let in_right = known_win(&board("7k/8/5K2/8/8/8/8/2B2N2 w - - 0 1")).unwrap();
        let in_wrong = known_win(&board("k7/8/2K5/8/8/8/8/2B2N2 w - - 0 1")).unwrap();
        assert!(in_right > in_wrong + 200, "{in_right} vs {in_wrong}");
    }

    #[test]
    fn the_edge_beats_the_centre() {
        let edge = known_win(&board("4k3/8/4K3/8/8/8/8/7R w - - 0 1")).unwrap();
        let centre = known_win(&board("8/8/4K3/8/4k3/8/8/7R w - - 0 1")).unwrap();
        assert!(edge > centre);
    }
}
