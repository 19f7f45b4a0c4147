//! Text forms of moves and boards: UCI move text in (both castling
//! notations) and out, move lists applied all or nothing, and the `d`
//! board diagram.

use std::fmt::Write as _;

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, File, Move, Position as _, Rank, Square};

use super::position::Position;
use crate::error::MoveError;

impl Position {
    /// Turns UCI move text into a legal move.
    ///
    /// Both castling notations are accepted (`e1g1` and king-takes-rook
    /// `e1h1`); where they are ambiguous (a Chess960 king on b1 and `b1c1`),
    /// the notation of the active mode wins.
    ///
    /// # Errors
    ///
    /// [`MoveError::Malformed`] for text that is not UCI move syntax,
    /// [`MoveError::Null`] for `0000`, [`MoveError::Illegal`] for a well-formed
    /// move that is not legal here.
    pub fn parse_move(&self, text: &str, chess960: bool) -> Result<Move, MoveError> {
        let uci = UciMove::from_ascii(text.as_bytes())
            .map_err(|_| MoveError::Malformed(text.to_owned()))?;
        match uci {
            UciMove::Null => return Err(MoveError::Null),
            UciMove::Put { .. } => return Err(MoveError::Malformed(text.to_owned())),
            UciMove::Normal { .. } => {}
        }
        let (first, second) = if chess960 {
            (CastlingMode::Chess960, CastlingMode::Standard)
        } else {
            (CastlingMode::Standard, CastlingMode::Chess960)
        };
        let moves = self.board().legal_moves();
        for mode in [first, second] {
            if let Some(m) = moves.iter().find(|m| m.to_uci(mode) == uci) {
                return Ok(*m);
            }
        }
        Err(MoveError::Illegal {
            mv: text.to_owned(),
            fen: self.fen(),
        })
    }

    /// Plays a sequence of UCI moves, all or nothing.
    ///
    /// # Errors
    ///
    /// The first bad move, with its index (0-based) in the list; `self` is
    /// unchanged then.
    pub fn play_uci_moves<'a, I>(
        &mut self,
        moves: I,
        chess960: bool,
    ) -> Result<(), (usize, MoveError)>
    where
        I: IntoIterator<Item = &'a str>,
    {
        let mut next = self.clone();
        for (i, text) in moves.into_iter().enumerate() {
            let m = next.parse_move(text, chess960).map_err(|e| (i, e))?;
            next.play(m);
        }
        *self = next;
        Ok(())
    }

    /// Stockfish-style `d` output: diagram, FEN, key and checkers.
    pub fn diagram(&self) -> String {
        let board = self.board();
        let mut out = String::new();
        let sep = " +---+---+---+---+---+---+---+---+\n";
        out.push_str(sep);
        for rank in Rank::ALL.iter().rev() {
            for file in File::ALL {
                let sq = Square::from_coords(file, *rank);
                let ch = board.board().piece_at(sq).map_or(' ', |p| p.char());
                let _ = write!(out, " | {ch}");
            }
            let _ = writeln!(out, " | {}", rank.char());
            out.push_str(sep);
        }
        out.push_str("   a   b   c   d   e   f   g   h\n\n");
        let _ = writeln!(out, "Fen: {}", self.fen());
        let _ = writeln!(out, "Key: {:016X}", self.key());
        let checkers: Vec<String> = board
            .checkers()
            .into_iter()
            .map(|sq| sq.to_string())
            .collect();
        let _ = write!(out, "Checkers: {}", checkers.join(" "));
        out
    }
}

/// Formats a move in UCI notation (`e1g1`, or `e1h1` in Chess960 mode).
pub fn move_to_uci(m: Move, chess960: bool) -> String {
    let mode = if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    m.to_uci(mode).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn castling_accepts_both_notations() {
        let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false).unwrap();
        let a = pos.parse_move("e1g1", false).unwrap();
        let b = pos.parse_move("e1h1", false).unwrap();
        assert_eq!(a, b);
        assert_eq!(move_to_uci(a, false), "e1g1");
        assert_eq!(move_to_uci(a, true), "e1h1");
    }

    #[test]
    fn chess960_ambiguous_king_step_prefers_active_notation() {
        // King b1, rook a1: in Chess960 notation "b1c1" is a king step,
        // castling is "b1a1".
        let pos = Position::from_fen("1k6/8/8/8/8/8/8/RK6 w A - 0 1", true).unwrap();
        let step = pos.parse_move("b1c1", true).unwrap();
        assert!(matches!(step, Move::Normal { .. }));
        let castle = pos.parse_move("b1a1", true).unwrap();
        assert!(matches!(castle, Move::Castle { .. }));
    }

    #[test]
    fn null_and_garbage_moves_are_rejected() {
        let pos = Position::startpos();
        assert_eq!(pos.parse_move("0000", false), Err(MoveError::Null));
        assert!(matches!(
            pos.parse_move("e2e5", false),
            Err(MoveError::Illegal { .. })
        ));
        assert!(matches!(
            pos.parse_move("hello", false),
            Err(MoveError::Malformed(_))
        ));
    }

    #[test]
    fn failed_move_list_leaves_position_unchanged() {
        let mut pos = Position::startpos();
        let before = pos.fen();
        let err = pos
            .play_uci_moves(["e2e4", "e7e5", "e1e3"], false)
            .unwrap_err();
        assert_eq!(err.0, 2);
        assert_eq!(pos.fen(), before);
        assert!(pos.history().is_empty());
    }
}
