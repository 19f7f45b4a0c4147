//! The terms of the hand-crafted evaluation, one topic per file, and the
//! list of them, in two parts: those that depend only on the pawns and
//! kings (what the pawn cache stores) and all the others. Every term is
//! generic over the [`Accumulator`], so the same code serves the search's
//! sum and the tuner's trace.
//!
//! | file | terms |
//! |---|---|
//! | `material.rs` | material, piece-square tables |
//! | `imbalance.rs` | quadratic material imbalance |
//! | `pawns.rs` | doubled, isolated, backward, supported, phalanx, candidate pawns |
//! | `passed.rs` | passed pawns: rank, king distances, free and safe path, blockade, rook behind, unstoppable |
//! | `mobility.rs` | safe squares per piece type |
//! | `king.rs` | shelter, storm, open files, king distance to the pawn files; one danger count per king (attackers, area hits, weak squares, safe checks, guards), squared in the midgame |
//! | `danger.rs` | the king-danger features and the curve of the count (read by `king.rs`, the sum and the trace) |
//! | `knights.rs` | outposts held or reachable, behind a pawn, king distance, closedness, far from both kings |
//! | `bishops.rs` | the pair, outposts, behind a pawn, king distance, own pawns on the bishop's colour, long diagonals, trapped bishops |
//! | `rooks.rs` | closedness, open and half-open files, the 7th, the enemy queen's file, trapped rooks |
//! | `batteries.rs` | rooks doubled or with the queen on a file, queen and bishop aimed at the king |
//! | `threats.rs` | pieces attacked by pawns or lesser pieces, hanging pieces, pawn-push threats, restricted squares, weak pawns, minor by minor, weak minor by a major, queen attacked, overloaded pieces |
//! | `space.rs` | space behind the pawns |
//! | `complexity.rs` | how far the endgame score may move (not linear: adjusts the endgame sum) |
//! | `endgame.rs` | scale factors: opposite bishops, material that cannot mate, wrong bishop, few pawns, a lone queen against pieces, a large pawn majority |
//!
//! plus the tempo bonus for the side to move (here, in
//! [`positional_terms`]). A new term goes into the file of its topic and
//! into one of the lists below: [`pawn_terms`] when it depends only on the
//! pawns and kings, [`positional_terms`] when it needs the attack maps.

pub(super) mod batteries;
pub(super) mod bishops;
pub(super) mod complexity;
pub(super) mod danger;
pub(super) mod endgame;
pub(super) mod imbalance;
pub(super) mod king;
pub(super) mod knights;
pub(super) mod material;
pub(super) mod mobility;
pub(super) mod passed;
pub(super) mod pawns;
pub(super) mod rooks;
pub(super) mod space;
pub(super) mod threats;

use shakmaty::{Bitboard, Board, Chess, Position as _};

use crate::eval::hce::accumulator::Accumulator;
use crate::eval::hce::layout as w;

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
