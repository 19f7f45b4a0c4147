//! Quiet positions for the tuner: each labelled position is replaced by the
//! leaf of its quiescence search's principal variation, so the evaluation
//! is fitted on positions where nothing hangs.
//!
//! A small search of its own (captures and queen promotions, stand pat,
//! alpha-beta, the engine's MVV-LVA order): the tuner needs the leaf, not
//! the engine's full machinery, and it must not depend on the search's
//! state.

use shakmaty::{Chess, Position as _};

use shears::chess::tactical_moves;
use shears::chess::values::mvv_lva;
use shears::eval::evaluate;

/// Captures deeper than this are not followed: the leaf is taken as quiet.
pub const MAX_QUIET_PLIES: u32 = 12;

fn quiesce(board: &Chess, mut alpha: i32, beta: i32, plies_left: u32) -> (i32, Chess) {
    let stand_pat = evaluate(board);
    let mut best = (stand_pat, board.clone());
    if stand_pat >= beta || plies_left == 0 || board.is_check() {
        return best;
    }
    alpha = alpha.max(stand_pat);
    let mut moves = tactical_moves(board);
    moves.sort_by_key(|&m| std::cmp::Reverse(mvv_lva(m)));
    for m in moves {
        let mut child = board.clone();
        child.play_unchecked(m);
        let (score, leaf) = quiesce(&child, -beta, -alpha, plies_left - 1);
        let score = -score;
        if score > best.0 {
            best = (score, leaf);
            if score >= beta {
                break;
            }
            alpha = alpha.max(score);
        }
    }
    best
}

/// The leaf of the quiescence search's principal variation from `board`
/// (the position itself when standing pat is best). `None` when the leaf is
/// in check, a position the tuner leaves out.
pub fn quiet_leaf(board: &Chess) -> Option<Chess> {
    if board.is_check() {
        return None;
    }
    let (_, leaf) = quiesce(board, -30_000, 30_000, MAX_QUIET_PLIES);
    (!leaf.is_check()).then_some(leaf)
}

/// Whether the leaf has no capture that the side to move would make: used
/// in tests.
#[cfg(test)]
fn stands_pat(board: &Chess) -> bool {
    let stand = evaluate(board);
    tactical_moves(board).iter().all(|m| {
        let mut child = board.clone();
        child.play_unchecked(*m);
        -quiesce(&child, -30_000, 30_000, MAX_QUIET_PLIES).0 <= stand
    })
}

#[cfg(test)]
mod tests {
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Role, Square};

    use super::*;

    fn chess(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    #[test]
    fn a_hanging_queen_is_taken_before_the_position_is_used() {
        // White to move can take the undefended queen on d5.
        let board = chess("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1");
        let leaf = quiet_leaf(&board).unwrap();
        assert!(leaf.board().queens().is_empty());
        assert_eq!(leaf.board().role_at(Square::D5), Some(Role::Rook));
        assert!(stands_pat(&leaf));
    }

    #[test]
    fn a_quiet_position_is_its_own_leaf() {
        let board = Chess::default();
        let leaf = quiet_leaf(&board).unwrap();
        assert_eq!(leaf.board(), board.board());
    }

    #[test]
    fn positions_in_check_are_left_out() {
        let board = chess("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1");
        assert!(quiet_leaf(&board).is_none());
    }
}
