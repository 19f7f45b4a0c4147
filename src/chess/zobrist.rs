//! Zobrist keys of positions: from scratch ([`full_key`]), after a move
//! ([`key_after`], the incremental update) and after a null move
//! ([`null_key`]). Keys are shakmaty's `Zobrist64` values (the Polyglot
//! scheme); the en passant file counts only when a capture there is legal,
//! so that transpositions with and without a double push hash alike.

use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{CastlingSide, Chess, Color, EnPassantMode, Move, Position as _, Role, Square};

/// The zobrist key of a board computed from scratch.
pub fn full_key(board: &Chess) -> u64 {
    board.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// The key after playing `m`, given the child board: the incremental
/// zobrist update. It covers every move kind, so it never falls back to a
/// full recomputation (a test checks it against [`full_key`]).
pub fn key_after(parent: &Chess, parent_key: u64, m: Move, child: &Chess) -> u64 {
    key_finish(key_moved(parent, parent_key, m), parent, child)
}

/// The first half of [`key_after`], known before the move is played: the
/// side to move, the pieces that moved and the parent's en passant file.
/// It is the child's key unless the move changed castling rights or made
/// an en passant capture possible (see [`key_finish`]), which is good
/// enough to start loading the child's table bucket early.
#[inline]
pub fn key_moved(parent: &Chess, parent_key: u64, m: Move) -> u64 {
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
            k ^= Zobrist64::zobrist_for_piece(from, Role::Pawn.of(us));
            k ^= Zobrist64::zobrist_for_piece(to, Role::Pawn.of(us));
            let captured = Square::from_coords(to.file(), from.rank());
            k ^= Zobrist64::zobrist_for_piece(captured, Role::Pawn.of(!us));
        }
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_king_side(king < rook);
            k ^= Zobrist64::zobrist_for_piece(king, Role::King.of(us));
            k ^= Zobrist64::zobrist_for_piece(rook, Role::Rook.of(us));
            k ^= Zobrist64::zobrist_for_piece(side.king_to(us), Role::King.of(us));
            k ^= Zobrist64::zobrist_for_piece(side.rook_to(us), Role::Rook.of(us));
        }
        Move::Put { .. } => unreachable!("standard chess has no drops"),
    }
    k ^= en_passant(parent);
    k.0
}

/// The second half of [`key_after`]: from [`key_moved`]'s partial key,
/// the castling rights the move changed and the child's en passant file.
#[inline]
pub fn key_finish(partial: u64, parent: &Chess, child: &Chess) -> u64 {
    let mut k = Zobrist64(partial);
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
    k ^= en_passant(child);
    k.0
}

/// The key after a null move (the side to move passes; an en passant right
/// lapses).
pub fn null_key(board: &Chess, key: u64) -> u64 {
    let mut k = Zobrist64(key);
    k ^= Zobrist64::zobrist_for_white_turn();
    k ^= en_passant(board);
    k.0
}

/// The en passant term of `board`'s key (zero without a legal capture).
fn en_passant(board: &Chess) -> Zobrist64 {
    board
        .ep_square(EnPassantMode::Legal)
        .map_or(Zobrist64(0), |sq| {
            Zobrist64::zobrist_for_en_passant_file(sq.file())
        })
}
