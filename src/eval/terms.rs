//! The list of evaluation terms, in two parts: those that depend only on
//! the pawns and kings (what the pawn cache stores) and all the others.
//! Every term is generic over the [`Accumulator`], so the same code serves
//! the search's sum and the tuner's trace.

use shakmaty::{Bitboard, Board, Chess, Position as _};

use super::accumulator::Accumulator;
use super::layout as w;
use super::{
    batteries, bishops, imbalance, king, knights, material, mobility, passed, pawns, rooks, space,
    threats,
};

/// The terms that depend only on the pawns and kings (what the pawn cache
/// stores); returns the passed pawns.
pub fn pawn_terms<A: Accumulator>(board: &Board, acc: &mut A) -> Bitboard {
    material::pawns_and_kings(board, acc);
    let passed = pawns::structure(board, acc);
    passed::rank_and_kings(board, passed, acc);
    king::shelter(board, acc);
    passed
}

/// The terms that depend only on the piece counts (what the cache's
/// material part stores).
pub fn count_terms<A: Accumulator>(board: &Board, acc: &mut A) {
    imbalance::imbalance(board, acc);
}

/// Every other term, given the passed pawns.
pub fn piece_terms<A: Accumulator>(pos: &Chess, passed: Bitboard, acc: &mut A) {
    material::pieces(pos.board(), acc);
    positional_terms(pos, passed, acc);
}

/// The piece terms after the pieces' material and tables: everything that
/// needs attack maps (what a lazy evaluation leaves out).
pub fn positional_terms<A: Accumulator>(pos: &Chess, passed: Bitboard, acc: &mut A) {
    let board = pos.board();
    let maps = mobility::mobility(board, acc);
    king::danger(board, &maps, acc);
    knights::knights(board, acc);
    bishops::bishops(board, &maps, acc);
    rooks::rooks(pos, &maps, acc);
    batteries::batteries(board, acc);
    threats::threats(board, &maps, acc);
    passed::path(board, passed, &maps, pos.turn(), acc);
    space::space(board, &maps, acc);
    acc.add(pos.turn(), w::TEMPO, 1);
}
