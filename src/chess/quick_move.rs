//! Turning a stored move (origin, destination, promotion) back into a legal
//! move of a position, quickly, for the common cases.
//!
//! The search checks every transposition-table move this way before playing
//! it (an entry may be stale, or come from another position whose key
//! collides). shakmaty's `UciMove::to_move` does it by generating every
//! legal move of that piece kind to the destination square; most table
//! moves are ordinary moves of a knight, bishop, rook, queen or pawn out of
//! check, whose legality is a few bit tests: the piece is ours, it reaches
//! the square, and it is not pinned or stays on its pin line. Everything
//! else (king moves and castling, en passant, promotions, positions in
//! check) is left to shakmaty: [`Quick::Unsure`].

use shakmaty::attacks::{
    aligned, bishop_attacks, knight_attacks, pawn_attacks, queen_attacks, rook_attacks,
};
use shakmaty::{Bitboard, Chess, Color, Move, Position as _, Role, Square};

use super::movegen::pinned;

/// What the quick look at a stored move found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quick {
    /// The move is legal: this one.
    Legal(Move),
    /// No legal move of the position has these squares.
    Illegal,
    /// A case left to the full check.
    Unsure,
}

/// The legal move of `board` from `from` to `to` promoting to `promotion`
/// (see the module documentation); `in_check`: the side to move is in check
/// (the search knows it already).
pub fn quick_move(
    board: &Chess,
    in_check: bool,
    from: Square,
    to: Square,
    promotion: Option<Role>,
) -> Quick {
    debug_assert_eq!(in_check, board.is_check());
    let b = board.board();
    let us = board.turn();
    let Some(piece) = b.piece_at(from) else {
        return Quick::Illegal;
    };
    if piece.color != us {
        return Quick::Illegal;
    }
    let role = piece.role;
    if promotion.is_some() && role != Role::Pawn {
        return Quick::Illegal;
    }
    if role == Role::King || promotion.is_some() || in_check {
        return Quick::Unsure;
    }
    if b.by_color(us).contains(to) {
        // Only castling (a king move) lands on an own piece.
        return Quick::Illegal;
    }
    let capture = b.role_at(to);
    if capture == Some(Role::King) {
        return Quick::Unsure;
    }
    let occupied = b.occupied();
    let reaches = match role {
        Role::Knight => knight_attacks(from).contains(to),
        Role::Bishop => bishop_attacks(from, occupied).contains(to),
        Role::Rook => rook_attacks(from, occupied).contains(to),
        Role::Queen => queen_attacks(from, occupied).contains(to),
        _ => {
            if Bitboard::BACKRANKS.contains(to) {
                // A promotion without its piece, or a malformed entry.
                return Quick::Unsure;
            }
            if from.file() != to.file() {
                if capture.is_none() {
                    // En passant, or nothing.
                    return Quick::Unsure;
                }
                pawn_attacks(us, from).contains(to)
            } else {
                pawn_push_reaches(us, from, to, occupied)
            }
        }
    };
    if !reaches {
        return Quick::Illegal;
    }
    let Some(king) = b.king_of(us) else {
        return Quick::Unsure;
    };
    if pinned(board, king).contains(from) && !aligned(from, to, king) {
        return Quick::Illegal;
    }
    Quick::Legal(Move::Normal {
        role,
        from,
        capture,
        to,
        promotion: None,
    })
}

/// Whether a pawn of `color` on `from` can step to `to` on its own file: one
/// square forward onto an empty square, or two from its start rank over an
/// empty one.
fn pawn_push_reaches(color: Color, from: Square, to: Square, occupied: Bitboard) -> bool {
    let step: i32 = if color == Color::White { 8 } else { -8 };
    let Some(one) = from.offset(step) else {
        return false;
    };
    if occupied.contains(one) {
        return false;
    }
    if to == one {
        return true;
    }
    let start = if color == Color::White { 1 } else { 6 };
    from.rank() as u32 == start && one.offset(step) == Some(to) && !occupied.contains(to)
}

#[cfg(test)]
mod tests {
    use shakmaty::uci::UciMove;

    use super::*;
    use crate::chess::Position;
    use crate::chess::random::{RandomGame, TRICKY_STARTS};

    /// Every square pair (and every promotion of the pawns' pairs) of many
    /// positions along random games: a quick answer is always shakmaty's.
    #[test]
    fn quick_answers_agree_with_shakmaty() {
        let (mut quick, mut checked) = (0, 0);
        for fen in TRICKY_STARTS {
            for seed in 0..6 {
                let start = Position::from_fen(fen, false).unwrap();
                let mut game = RandomGame::new(start, seed);
                loop {
                    let board = game.position().board();
                    for from in Square::ALL {
                        for to in Square::ALL {
                            for promotion in [None, Some(Role::Queen), Some(Role::Knight)] {
                                let uci = UciMove::Normal {
                                    from,
                                    to,
                                    promotion,
                                };
                                let full = uci.to_move(board).ok();
                                match quick_move(board, board.is_check(), from, to, promotion) {
                                    Quick::Legal(m) => {
                                        assert_eq!(full, Some(m), "{uci} in {board:?}");
                                        quick += 1;
                                    }
                                    Quick::Illegal => {
                                        assert_eq!(full, None, "{uci} in {board:?}");
                                        quick += 1;
                                    }
                                    Quick::Unsure => {}
                                }
                                checked += 1;
                            }
                        }
                    }
                    if game.plies() == 40 || !game.step() {
                        break;
                    }
                }
            }
        }
        assert!(checked > 1_000_000, "only {checked} checked");
        assert!(
            quick * 10 > checked * 9,
            "only {quick} of {checked} answered quickly"
        );
    }
}
