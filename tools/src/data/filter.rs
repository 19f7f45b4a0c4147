//! The quiet filter: which positions of a game are training positions,
//! written once for everything that asks (`datagen` as it plays, the
//! reader of game files, `data convert`, `data stats`, `data from-pgn`).
//!
//! A position is kept ([`keep`]) only when
//! - its game ply (from the FEN's move counter) is at least `min_ply`,
//! - the side to move is not in check,
//! - the move the search chose is not a capture, not a promotion and does
//!   not give check,
//! - the score is not a mate score.
//!
//! `datagen` never asks about the opening's plies (the book line and the
//! random plies): its games start after them.

use shakmaty::{Chess, Color, Move, Position as _};

use shears::chess::gives_check;
use shears::search::TB_WIN_BOUND;

/// Positions before this game ply (move 9) are not kept, unless a file or
/// a run says otherwise.
pub const MIN_PLY: u32 = 16;

/// Which positions of a game file come out of the reader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Filter {
    /// The quiet filter ([`keep`]) from this game ply: a scored, not mate,
    /// position, not in check, where the move played is no capture,
    /// promotion or check.
    Quiet {
        /// The first game ply kept.
        min_ply: u32,
    },
    /// Every position of every game, with its score when it has one.
    All,
}

impl Filter {
    /// Whether the position `board`, from which `played` was played with
    /// the search's `score` (side to move; `None` for a move without one,
    /// a book move), comes out.
    pub fn keeps(self, board: &Chess, played: Move, score: Option<i32>) -> bool {
        match self {
            Filter::Quiet { min_ply } => score.is_some_and(|s| keep(board, played, s, min_ply)),
            Filter::All => true,
        }
    }
}

/// The game ply of `board` by its move counter (0 at the start position).
pub fn game_ply(board: &Chess) -> u32 {
    2 * (board.fullmoves().get() - 1) + u32::from(board.turn() == Color::Black)
}

/// Whether the position `board`, where the search chose `best` with
/// `score` (side to move), is kept for training: see the module docs.
pub fn keep(board: &Chess, best: Move, score: i32, min_ply: u32) -> bool {
    quiet(board, best, min_ply) && score.abs() < TB_WIN_BOUND
}

/// The quiet filter without its score test: whether `board`, from game
/// ply `min_ply` on and not in check, is answered by `best`, neither a
/// capture nor a promotion nor a check.
pub fn quiet(board: &Chess, best: Move, min_ply: u32) -> bool {
    game_ply(board) >= min_ply
        && !board.is_check()
        && !best.is_capture()
        && !best.is_promotion()
        && !gives_check(board, best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shears::chess::Position;

    fn position(fen: &str) -> Position {
        Position::from_fen(fen, false).unwrap()
    }

    #[test]
    fn the_quiet_filter_drops_checks_captures_and_early_plies() {
        let parse = |pos: &Position, uci: &str| pos.parse_move(uci, false).unwrap();
        // Move 20, White to move, nothing attacked.
        let pos =
            position("r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 w - - 0 20");
        assert!(
            keep(pos.board(), parse(&pos, "c1g5"), 30, 16),
            "a quiet move"
        );
        assert!(
            !keep(pos.board(), parse(&pos, "c1g5"), 30, 40),
            "before min ply"
        );
        assert!(
            !keep(pos.board(), parse(&pos, "c4f7"), 30, 16),
            "a capture with check"
        );
        assert!(!keep(pos.board(), parse(&pos, "f3e5"), 30, 16), "a capture");
        assert!(
            !keep(pos.board(), parse(&pos, "c1g5"), 31_990, 16),
            "a mate score"
        );
        // The filter: a move without a score is kept only by `All`.
        let quiet = Filter::Quiet { min_ply: 16 };
        assert!(quiet.keeps(pos.board(), parse(&pos, "c1g5"), Some(30)));
        assert!(!quiet.keeps(pos.board(), parse(&pos, "c1g5"), None));
        assert!(!quiet.keeps(pos.board(), parse(&pos, "f3e5"), Some(30)));
        assert!(Filter::All.keeps(pos.board(), parse(&pos, "f3e5"), None));
        // A quiet checking move: the rook to the back rank.
        let pos = position("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 30");
        assert!(
            !keep(pos.board(), parse(&pos, "a1a8"), 500, 16),
            "a checking move"
        );
        assert!(
            keep(pos.board(), parse(&pos, "a1a7"), 500, 16),
            "not a check"
        );
        // The side to move in check.
        let pos = position("4k3/8/8/8/8/8/4r3/4K3 w - - 0 30");
        assert!(
            !keep(pos.board(), parse(&pos, "e1d1"), -300, 16),
            "in check"
        );
        // A promotion.
        let pos = position("6k1/P7/8/8/8/8/8/6K1 w - - 0 50");
        assert!(
            !keep(pos.board(), parse(&pos, "a7a8n"), 900, 16),
            "a promotion"
        );
    }
}
