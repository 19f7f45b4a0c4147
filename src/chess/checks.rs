//! Fast "does this move give check?" for move ordering, the check extension
//! and reductions, without playing the move.
//!
//! [`CheckInfo`] is computed once per node: the squares from which each of
//! our piece types would attack the enemy king, and our pieces that block
//! one of our sliders from the king (moving them off the line discovers
//! check). Castling, en passant and promotions change the occupancy in ways
//! these sets do not capture, so those few moves are played on a copy
//! instead. A test compares every answer with playing the move.

use shakmaty::attacks::{aligned, bishop_attacks, knight_attacks, pawn_attacks, rook_attacks};
use shakmaty::{Bitboard, Chess, Move, Position as _, Role, Square};

use super::blockers::slider_blockers;

/// Per-node data for [`CheckInfo::gives_check`].
#[derive(Debug, Clone, Copy)]
pub struct CheckInfo {
    enemy_king: Option<Square>,
    /// Squares from which a piece of each role (pawn..king) gives check.
    check_squares: [Bitboard; 6],
    /// Our pieces standing between one of our sliders and the enemy king.
    discoverers: Bitboard,
}

/// Whether the legal move `m` gives check in `board`: [`CheckInfo`] for one
/// question (a search asks many per node and keeps its `CheckInfo`).
pub fn gives_check(board: &Chess, m: Move) -> bool {
    CheckInfo::new(board).gives_check(board, m)
}

impl CheckInfo {
    /// Check data for a caller that will not ask (it answers "no check").
    pub const UNUSED: CheckInfo = CheckInfo {
        enemy_king: None,
        check_squares: [Bitboard::EMPTY; 6],
        discoverers: Bitboard::EMPTY,
    };

    /// Check data for the side to move in `board`.
    pub fn new(board: &Chess) -> CheckInfo {
        let b = board.board();
        let us = board.turn();
        let Some(king) = b.king_of(!us) else {
            return CheckInfo::UNUSED;
        };
        let occupied = b.occupied();
        let bishop = bishop_attacks(king, occupied);
        let rook = rook_attacks(king, occupied);
        let check_squares = [
            pawn_attacks(!us, king),
            knight_attacks(king),
            bishop,
            rook,
            bishop | rook,
            Bitboard::EMPTY,
        ];
        let discoverers = slider_blockers(b, king, us) & b.by_color(us);
        CheckInfo {
            enemy_king: Some(king),
            check_squares,
            discoverers,
        }
    }

    /// Where a piece of kind `role` on `from` may move to give check (other
    /// than by promoting or castling): the squares from which that kind
    /// checks, every square when the piece uncovers a check by moving off
    /// its line. A superset: [`CheckInfo::gives_check`] still decides.
    #[inline(always)]
    pub fn check_reach(&self, role: Role, from: Square) -> Bitboard {
        if self.discoverers.contains(from) {
            Bitboard::FULL
        } else {
            self.check_squares[role as usize - 1]
        }
    }

    /// Whether the legal move `m` gives check.
    // Inlined: it is asked for every quiet move of a node, and the common
    // case is a couple of bit tests.
    #[inline(always)]
    pub fn gives_check(&self, board: &Chess, m: Move) -> bool {
        let Some(king) = self.enemy_king else {
            return false;
        };
        match m {
            Move::Normal {
                role,
                from,
                to,
                promotion: None,
                ..
            } => {
                self.check_squares[role as usize - 1].contains(to)
                    || (self.discoverers.contains(from) && !aligned(from, to, king))
            }
            _ => gives_check_by_playing(board, m),
        }
    }
}

/// Whether `m` gives check, found by playing it on a copy (the rare moves
/// whose effect on the occupancy [`CheckInfo`] does not model).
#[cold]
#[inline(never)]
fn gives_check_by_playing(board: &Chess, m: Move) -> bool {
    let mut child = board.clone();
    child.play_unchecked(m);
    child.is_check()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Position;
    use crate::chess::random::RandomGame;

    #[test]
    fn agrees_with_playing_the_move_on_random_games() {
        let starts = [
            crate::chess::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        ];
        let mut checked = 0;
        for start in starts {
            for seed in 0..40 {
                let start = Position::from_fen(start, false).unwrap();
                let mut game = RandomGame::new(start, seed);
                loop {
                    let pos = game.position();
                    let moves = pos.board().legal_moves();
                    let info = CheckInfo::new(pos.board());
                    for &m in &moves {
                        let mut child = pos.board().clone();
                        child.play_unchecked(m);
                        assert_eq!(
                            info.gives_check(pos.board(), m),
                            child.is_check(),
                            "{m:?} in {}",
                            pos.fen()
                        );
                        checked += 1;
                    }
                    if game.plies() == 80 || !game.step() {
                        break;
                    }
                }
            }
        }
        assert!(checked > 50_000, "{checked}");
    }
}
