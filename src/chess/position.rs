//! Our `Position`: a `shakmaty::Chess` board plus its 64-bit zobrist key and
//! the keys of every earlier position (game history, then search path).
//!
//! Owns: loading positions from FEN (standard, Shredder-FEN and X-FEN),
//! applying trusted moves with an incremental zobrist update, turning UCI move
//! text into legal moves, and the `d` board diagram. It deliberately does not
//! evaluate or search.
//!
//! shakmaty positions are copy-make: `play` clones nothing itself, the caller
//! clones the `Position` when it needs the parent back.
//!
//! ```
//! use shears::chess::Position;
//! let mut pos = Position::startpos();
//! let m = pos.parse_move("e2e4", false).unwrap();
//! pos.play(m);
//! assert_eq!(pos.fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
//! ```

use std::fmt::Write as _;

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{
    CastlingMode, CastlingSide, Chess, Color, EnPassantMode, File, Move, Position as _,
    PositionError, PositionErrorKinds, Rank, Square,
};

use crate::error::{FenError, MoveError};

/// The standard start position in FEN.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A chess position with its zobrist key and key history.
#[derive(Clone, Debug)]
pub struct Position {
    board: Chess,
    key: u64,
    /// Keys of the positions before this one, oldest first.
    history: Vec<u64>,
}

impl Default for Position {
    fn default() -> Self {
        Self::startpos()
    }
}

impl Position {
    /// The standard start position.
    pub fn startpos() -> Position {
        Position::from_chess(Chess::default())
    }

    /// Wraps a shakmaty position, computing its key from scratch.
    pub fn from_chess(board: Chess) -> Position {
        let key = full_key(&board);
        Position {
            board,
            key,
            history: Vec::new(),
        }
    }

    /// Parses a FEN (4 to 6 fields; castling as `KQkq`, Shredder-FEN `HAha`
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

    /// The shakmaty board.
    pub fn board(&self) -> &Chess {
        &self.board
    }

    /// The zobrist key of the current position.
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Keys of all earlier positions, oldest first.
    pub fn history(&self) -> &[u64] {
        &self.history
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.board.turn()
    }

    /// Plays a move that is known to be legal here (it came from
    /// `legal_moves()` or from [`Position::parse_move`]).
    pub fn play(&mut self, m: Move) {
        debug_assert!(self.board.is_legal(m), "play() needs a legal move");
        let mut child = self.board.clone();
        child.play_unchecked(m);
        let key = key_after(&self.board, self.key, m, &child);
        self.history.push(self.key);
        self.key = key;
        self.board = child;
    }

    /// The position after `m`, leaving `self` untouched.
    pub fn child(&self, m: Move) -> Position {
        let mut next = self.clone();
        next.play(m);
        next
    }

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
        let moves = self.board.legal_moves();
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

    /// The position as FEN (castling as `KQkq` where that is unambiguous,
    /// X-FEN style, else Shredder-FEN file letters).
    pub fn fen(&self) -> String {
        Fen::from_position(&self.board, EnPassantMode::Legal).to_string()
    }

    /// Stockfish-style `d` output: diagram, FEN, key and checkers.
    pub fn diagram(&self) -> String {
        let mut out = String::new();
        let sep = " +---+---+---+---+---+---+---+---+\n";
        out.push_str(sep);
        for rank in Rank::ALL.iter().rev() {
            for file in File::ALL {
                let sq = Square::from_coords(file, *rank);
                let ch = self.board.board().piece_at(sq).map_or(' ', |p| p.char());
                let _ = write!(out, " | {ch}");
            }
            let _ = writeln!(out, " | {}", rank.char());
            out.push_str(sep);
        }
        out.push_str("   a   b   c   d   e   f   g   h\n\n");
        let _ = writeln!(out, "Fen: {}", self.fen());
        let _ = writeln!(out, "Key: {:016X}", self.key);
        let checkers: Vec<String> = self
            .board
            .checkers()
            .into_iter()
            .map(|sq| sq.to_string())
            .collect();
        let _ = write!(out, "Checkers: {}", checkers.join(" "));
        out
    }
}

/// The key after playing `m`, given the child board: the incremental
/// zobrist update. It covers every move kind, so it never falls back to a
/// full recomputation (a test checks it against [`full_key`]).
pub fn key_after(parent: &Chess, parent_key: u64, m: Move, child: &Chess) -> u64 {
    let us = parent.turn();
    let mut k = Zobrist64(parent_key);
    k ^= Zobrist64::zobrist_for_white_turn();
    match m {
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => {
            k ^= Zobrist64::zobrist_for_piece(from, role.of(us));
            k ^= Zobrist64::zobrist_for_piece(to, promotion.unwrap_or(role).of(us));
            if let Some(captured) = capture {
                k ^= Zobrist64::zobrist_for_piece(to, captured.of(!us));
            }
        }
        Move::EnPassant { from, to } => {
            let pawn = shakmaty::Role::Pawn;
            k ^= Zobrist64::zobrist_for_piece(from, pawn.of(us));
            k ^= Zobrist64::zobrist_for_piece(to, pawn.of(us));
            let captured = Square::from_coords(to.file(), from.rank());
            k ^= Zobrist64::zobrist_for_piece(captured, pawn.of(!us));
        }
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_king_side(king < rook);
            k ^= Zobrist64::zobrist_for_piece(king, shakmaty::Role::King.of(us));
            k ^= Zobrist64::zobrist_for_piece(rook, shakmaty::Role::Rook.of(us));
            k ^= Zobrist64::zobrist_for_piece(side.king_to(us), shakmaty::Role::King.of(us));
            k ^= Zobrist64::zobrist_for_piece(side.rook_to(us), shakmaty::Role::Rook.of(us));
        }
        Move::Put { .. } => unreachable!("standard chess has no drops"),
    }
    // Castling rights that changed (most moves change none: the rook
    // squares with rights, which shakmaty keeps in step with the rights,
    // tell at once).
    let (old, new) = (parent.castles(), child.castles());
    if old.castling_rights() != new.castling_rights() {
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if old.has(color, side) != new.has(color, side) {
                    k ^= Zobrist64::zobrist_for_castling_right(color, side);
                }
            }
        }
    }
    // En passant file: only a legal capture counts, so that transpositions
    // with and without a double push hash alike.
    if let Some(sq) = parent.ep_square(EnPassantMode::Legal) {
        k ^= Zobrist64::zobrist_for_en_passant_file(sq.file());
    }
    if let Some(sq) = child.ep_square(EnPassantMode::Legal) {
        k ^= Zobrist64::zobrist_for_en_passant_file(sq.file());
    }
    k.0
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

/// The zobrist key of a board computed from scratch.
pub fn full_key(board: &Chess) -> u64 {
    board.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
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
