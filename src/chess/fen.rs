//! Positions from and to FEN: standard FEN, Shredder-FEN (`HAha`) and X-FEN
//! castling, four to six fields; unreachable but playable positions (too
//! much material, an impossible check) are accepted, as Stockfish does.

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, PositionError, PositionErrorKinds};

use super::position::Position;
use crate::error::FenError;

/// The standard start position in FEN.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

impl Position {
    /// Parses a FEN (2 to 6 fields; castling as `KQkq`, Shredder-FEN `HAha`
    /// or X-FEN).
    ///
    /// With `chess960` false the castling rights must be standard ones; with
    /// it true any rook may carry them.
    ///
    /// # Errors
    ///
    /// [`FenError`] when the text is not a FEN or describes an illegal
    /// position; the message says which.
    pub fn from_fen(fen: &str, chess960: bool) -> Result<Position, FenError> {
        let fen_text = fen.trim();
        if fen_text.is_empty() {
            return Err(FenError::Empty);
        }
        let fields = fen_text.split_whitespace().count();
        if !(2..=6).contains(&fields) {
            return Err(FenError::Syntax {
                fen: fen_text.to_owned(),
                reason: format!("expected 2 to 6 fields, found {fields}"),
            });
        }
        let parsed = Fen::from_ascii(fen_text.as_bytes()).map_err(|e| FenError::Syntax {
            fen: fen_text.to_owned(),
            reason: e.to_string(),
        })?;
        let mode = if chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        let board: Chess = match parsed.into_position(mode) {
            Ok(board) => board,
            Err(err) => {
                let kinds = err.kinds();
                let message = err.to_string();
                match tolerate(err) {
                    Some(board) => board,
                    None => {
                        let mut reason =
                            message.trim_start_matches("illegal position: ").to_owned();
                        let chess960_would_fit = !chess960
                            && kinds.contains(PositionErrorKinds::INVALID_CASTLING_RIGHTS)
                            && Position::from_fen(fen_text, true).is_ok();
                        if chess960_would_fit {
                            reason.push_str(" (Chess960 castling needs UCI_Chess960 on)");
                        }
                        return Err(FenError::Illegal {
                            fen: fen_text.to_owned(),
                            reason,
                        });
                    }
                }
            }
        };
        Ok(Position::from_chess(board))
    }

    /// The position as FEN (castling as `KQkq` where that is unambiguous,
    /// X-FEN style, else Shredder-FEN file letters).
    pub fn fen(&self) -> String {
        Fen::from_position(self.board(), EnPassantMode::Legal).to_string()
    }
}

/// Accepts positions that are unreachable but perfectly playable (too much
/// material, an impossible double check), as Stockfish does; anything else
/// stays an error.
fn tolerate(err: PositionError<Chess>) -> Option<Chess> {
    match err.ignore_too_much_material() {
        Ok(board) => Some(board),
        Err(err) => err.ignore_impossible_check().ok(),
    }
}

/// Whether a FEN's castling field can only be read as Chess960 (Shredder
/// letters such as `HAha`, or X-FEN rights on rooks that are not in the
/// corners, or a king off the e-file).
pub fn fen_needs_chess960(fen: &str) -> bool {
    let castling = fen.split_whitespace().nth(2).unwrap_or("-");
    if castling
        .chars()
        .any(|c| !matches!(c, 'K' | 'Q' | 'k' | 'q' | '-'))
    {
        return true;
    }
    castling != "-"
        && Position::from_fen(fen, false).is_err()
        && Position::from_fen(fen, true).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Position as _;

    #[test]
    fn shredder_and_short_fens_load() {
        let p = Position::from_fen(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1",
            true,
        )
        .unwrap();
        assert_eq!(p.board().legal_moves().len(), 20);
        let short = Position::from_fen(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
            false,
        )
        .unwrap();
        assert_eq!(short.key(), Position::startpos().key());
        assert!(fen_needs_chess960(
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
        ));
        assert!(!fen_needs_chess960(START_FEN));
    }
}
