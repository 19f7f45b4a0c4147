//! Material and piece-square tables.
//!
//! Pawns and kings are scored apart from the other pieces because their part
//! depends only on the pawn structure and the king squares, which the pawn
//! cache keys on. [`material_balance`] is the material alone, for a limited
//! strength that sees little beyond it (`engine::strength::handicap`).

use shakmaty::{Board, Chess, Color, Position as _, Role};

use crate::eval::hce::accumulator::{Accumulator, Sum};
use crate::eval::hce::layout as w;
use crate::eval::hce::tapered::{phase, taper};

fn role_terms<A: Accumulator>(board: &Board, role: Role, acc: &mut A) {
    for color in Color::ALL {
        let pieces = board.by_role(role) & board.by_color(color);
        for sq in pieces {
            acc.piece(color, role, sq);
        }
    }
}

/// Pawn material and the pawn and king tables (cached with the pawns).
pub fn pawns_and_kings<A: Accumulator>(board: &Board, acc: &mut A) {
    role_terms(board, Role::Pawn, acc);
    role_terms(board, Role::King, acc);
}

/// Material and tables of knights, bishops, rooks and queens.
pub fn pieces<A: Accumulator>(board: &Board, acc: &mut A) {
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        role_terms(board, role, acc);
    }
}

/// The material balance alone, from the side to move's point of view: the
/// `MATERIAL` weights of both sides' pawns to queens, tapered by the phase
/// (no piece-square tables, no other term, no scale factor).
pub fn material_balance(pos: &Chess) -> i32 {
    let board = pos.board();
    let mut acc = Sum::default();
    for role in [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
    ] {
        for color in Color::ALL {
            let count = (board.by_role(role) & board.by_color(color)).count() as i32;
            acc.add(color, w::MATERIAL.at(role as usize - 1), count);
        }
    }
    let white = taper(acc.total(), phase(board));
    match pos.turn() {
        Color::White => white,
        Color::Black => -white,
    }
}
