//! [`Delta`]: the pieces a move takes off the board and puts on it, which
//! is all an accumulator needs to follow the move. It depends only on the
//! move and the side making it, so it is computed before the move is made
//! and costs no board lookup.

use shakmaty::{Color, Move, Piece, Role, Square};

use super::arch::crosses_centre;

/// A piece on a square.
pub type Placed = (Piece, Square);

/// The change a move makes to the board's pieces. Castling in Chess960
/// may leave the king or the rook where it was: the delta still removes
/// and re-adds it, which cancels exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Delta {
    /// A piece moves (promoting or not) without capturing.
    Quiet {
        /// The piece on its new square (the promoted piece for a promotion).
        add: Placed,
        /// The piece on its old square.
        sub: Placed,
    },
    /// A piece moves and captures (en passant included: the captured pawn
    /// is not on the target square).
    Capture {
        /// The piece on its new square (the promoted piece for a promotion).
        add: Placed,
        /// The piece on its old square, then the captured piece.
        sub: [Placed; 2],
    },
    /// Castling: king and rook.
    Castle {
        /// King and rook on their new squares.
        add: [Placed; 2],
        /// King and rook on their old squares.
        sub: [Placed; 2],
    },
    /// A piece put on the board (a drop: not in chess, kept so that every
    /// shakmaty move has a delta).
    Put {
        /// The piece put down.
        add: Placed,
    },
}

impl Delta {
    /// The delta of `m`, played by `mover`.
    #[inline]
    pub fn of_move(mover: Color, m: Move) -> Delta {
        match m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                let add = (promotion.unwrap_or(role).of(mover), to);
                let sub = (role.of(mover), from);
                match capture {
                    None => Delta::Quiet { add, sub },
                    Some(captured) => Delta::Capture {
                        add,
                        sub: [sub, (captured.of(!mover), to)],
                    },
                }
            }
            Move::EnPassant { from, to } => {
                let captured = Square::from_coords(to.file(), from.rank());
                Delta::Capture {
                    add: (Role::Pawn.of(mover), to),
                    sub: [
                        (Role::Pawn.of(mover), from),
                        (Role::Pawn.of(!mover), captured),
                    ],
                }
            }
            Move::Castle { king, rook } => {
                let side = shakmaty::CastlingSide::from_king_side(king < rook);
                let (k, r) = (Role::King.of(mover), Role::Rook.of(mover));
                Delta::Castle {
                    add: [(k, side.king_to(mover)), (r, side.rook_to(mover))],
                    sub: [(k, king), (r, rook)],
                }
            }
            Move::Put { role, to } => Delta::Put {
                add: (role.of(mover), to),
            },
        }
    }

    /// The side whose king this change moves between the d and e files
    /// (files a–d to e–h or back: castling may), if any.
    #[inline]
    pub fn king_crossing(&self) -> Option<Color> {
        let (to, from) = match *self {
            Delta::Quiet { add, sub } => (add, sub),
            Delta::Capture { add, sub: [sub, _] } => (add, sub),
            Delta::Castle {
                add: [king_to, _],
                sub: [king_from, _],
            } => (king_to, king_from),
            Delta::Put { .. } => return None,
        };
        let (king, from) = from;
        (king.role == Role::King && crosses_centre(from, to.1)).then_some(king.color)
    }
}
