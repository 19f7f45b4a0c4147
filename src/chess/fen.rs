//! Positions from and to FEN: standard FEN, Shredder-FEN (`HAha`) and X-FEN
//! castling, four to six fields; unreachable but playable positions (too
//! much material, an impossible check) are accepted, as Stockfish does.

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position as _, PositionError};

use super::position::Position;
use crate::error::FenError;

/// The standard start position in FEN.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

impl Position {
    /// Parses a FEN (2 to 6 fields; castling as `KQkq`, Shredder-FEN `HAha`
    /// or X-FEN), read as [`Position::from_fen_noting`] reads it, without
    /// the notes.
    ///
    /// # Errors
    ///
    /// [`FenError`] when the text is not a FEN or describes an illegal
    /// position; the message says which.
    pub fn from_fen(fen: &str, chess960: bool) -> Result<Position, FenError> {
        Position::from_fen_noting(fen, chess960).map(|(position, _)| position)
    }

    /// Parses a FEN (2 to 6 fields; castling as `KQkq`, Shredder-FEN `HAha`
    /// or X-FEN), and says what it had to drop.
    ///
    /// With `chess960` false the castling rights must be standard ones; with
    /// it true any rook may carry them. As Stockfish, python-chess and
    /// lichess read a board editor's FEN, castling rights without their king
    /// or rook in place and an en passant square no pawn could have made are
    /// dropped (each named in a [`FenNote`]); rights that only Chess960
    /// castling could hold are refused while `chess960` is off, with a hint.
    /// The halfmove clock and move number must fit in 32 bits.
    ///
    /// # Errors
    ///
    /// [`FenError`] when the text is not a FEN or describes an illegal
    /// position; the message says which.
    pub fn from_fen_noting(
        fen: &str,
        chess960: bool,
    ) -> Result<(Position, Vec<FenNote>), FenError> {
        let fen_text = fen.trim();
        if fen_text.is_empty() {
            return Err(FenError::Empty);
        }
        let syntax = |reason: String| FenError::Syntax {
            fen: fen_text.to_owned(),
            reason,
        };
        let fields: Vec<&str> = fen_text.split_whitespace().collect();
        if !(2..=6).contains(&fields.len()) {
            return Err(syntax(format!(
                "expected 2 to 6 fields, found {}",
                fields.len()
            )));
        }
        // shakmaty saturates counters that do not fit; refuse them instead.
        for (field, name) in fields.iter().skip(4).zip(["halfmove clock", "move number"]) {
            if field.bytes().all(|b| b.is_ascii_digit()) && field.parse::<u32>().is_err() {
                return Err(syntax(format!(
                    "the {name} {} is too large (at most {})",
                    crate::error::echo(field),
                    u32::MAX
                )));
            }
        }
        let parsed = Fen::from_ascii(fen_text.as_bytes()).map_err(|e| syntax(e.to_string()))?;
        let mode = if chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        let setup = parsed.as_setup().clone();
        let illegal = |reason: String| FenError::Illegal {
            fen: fen_text.to_owned(),
            reason,
        };
        let board: Chess = match parsed.into_position(mode) {
            Ok(board) => board,
            Err(err) => {
                let message = err.to_string();
                tolerate(err).ok_or_else(|| {
                    illegal(message.trim_start_matches("illegal position: ").to_owned())
                })?
            }
        };
        let notes = notes(&setup, &board);
        // Rights that Chess960 castling keeps whole: a Chess960 position
        // sent without UCI_Chess960, not a board editor's leftover.
        let dropped_castling = notes
            .iter()
            .any(|n| matches!(n, FenNote::CastlingDropped(_)));
        if !chess960
            && dropped_castling
            && Position::from_fen_noting(fen_text, true).is_ok_and(|(_, notes960)| {
                !notes960
                    .iter()
                    .any(|n| matches!(n, FenNote::CastlingDropped(_)))
            })
        {
            return Err(illegal(
                "invalid castling rights (Chess960 castling needs UCI_Chess960 on)".to_owned(),
            ));
        }
        Ok((Position::from_chess(board), notes))
    }

    /// The position as FEN (castling as `KQkq` where that is unambiguous,
    /// X-FEN style, else Shredder-FEN file letters).
    pub fn fen(&self) -> String {
        Fen::from_position(self.board(), EnPassantMode::Legal).to_string()
    }
}

/// Something [`Position::from_fen_noting`] dropped from a FEN.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FenNote {
    /// Castling rights without their king or rook in place (as FEN letters).
    CastlingDropped(String),
    /// An en passant square no double pawn push could have made.
    EnPassantDropped(String),
}

impl std::fmt::Display for FenNote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FenNote::CastlingDropped(rights) => write!(
                f,
                "castling rights \"{rights}\" dropped: their king or rook is not in place"
            ),
            FenNote::EnPassantDropped(square) => write!(
                f,
                "en passant square {square} dropped: no pawn can have just moved past it"
            ),
        }
    }
}

/// Accepts positions that are unreachable but perfectly playable (too much
/// material, an impossible double check), and board-editor leftovers
/// (castling rights without king or rook, an impossible en passant square:
/// dropped), as Stockfish does; anything else stays an error.
fn tolerate(err: PositionError<Chess>) -> Option<Chess> {
    let err = match err.ignore_invalid_castling_rights() {
        Ok(board) => return Some(board),
        Err(err) => err,
    };
    let err = match err.ignore_invalid_ep_square() {
        Ok(board) => return Some(board),
        Err(err) => err,
    };
    let err = match err.ignore_too_much_material() {
        Ok(board) => return Some(board),
        Err(err) => err,
    };
    err.ignore_impossible_check().ok()
}

/// What the accepted `board` lost of the `setup` the FEN described.
fn notes(setup: &shakmaty::Setup, board: &Chess) -> Vec<FenNote> {
    let mut notes = Vec::new();
    let kept = board.castles().castling_rights();
    let dropped = setup.castling_rights & !kept;
    if dropped.any() {
        // White before Black, king side before queen side, as FEN writes.
        let mut squares: Vec<shakmaty::Square> = dropped.into_iter().collect();
        squares.sort_by_key(|sq| {
            (
                sq.rank() != shakmaty::Rank::First,
                std::cmp::Reverse(sq.file()),
            )
        });
        let letters: String = squares
            .into_iter()
            .map(|sq| {
                let c = match sq.file() {
                    shakmaty::File::H => 'k',
                    shakmaty::File::A => 'q',
                    file => file.char(),
                };
                if sq.rank() == shakmaty::Rank::First {
                    c.to_ascii_uppercase()
                } else {
                    c
                }
            })
            .collect();
        notes.push(FenNote::CastlingDropped(letters));
    }
    if let Some(ep) = setup.ep_square
        && board.maybe_ep_square() != Some(ep)
    {
        notes.push(FenNote::EnPassantDropped(ep.to_string()));
    }
    notes
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
