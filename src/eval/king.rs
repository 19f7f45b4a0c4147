//! King safety: the pawn shelter and storm and the open files around the
//! king (pawns and king only, cached: [`shelter`]), and the attacks on the
//! king zone, its weak squares and safe checks (pieces: [`danger`]).
//!
//! Attack units stay linear in the weights: each enemy piece that attacks
//! the king zone adds a fixed `ATTACK_UNIT` (`attacks.rs`) for its type plus one per zone
//! square it attacks; the sum (halved without an enemy queen, zero with
//! fewer than two attackers) picks one entry of `KING_DANGER`, so the
//! danger curve itself is a table the tuner fits.

use shakmaty::attacks::{bishop_attacks, knight_attacks, rook_attacks};
use shakmaty::{Bitboard, Board, Color, Role};

use super::accumulator::Accumulator;
use super::attacks::AttackMaps;
use super::layout as w;
use super::masks::{FILES, KING_ZONE, behind, relative_rank};

/// The last `KING_DANGER` entry: larger unit counts use it.
const MAX_UNITS: i32 = 31;

/// The relative rank of the pawn in `pawns` nearest to `color`'s back rank
/// (0 when there is none).
fn rearmost_rank(color: Color, pawns: Bitboard) -> usize {
    let sq = match color {
        Color::White => pawns.first(),
        Color::Black => pawns.last(),
    };
    sq.map_or(0, |sq| relative_rank(color, sq))
}

/// Shelter, storm and open files on the three files around each king.
pub fn shelter<A: Accumulator>(board: &Board, acc: &mut A) {
    for color in Color::ALL {
        let Some(king) = board.king_of(color) else {
            continue;
        };
        let ours = board.pawns() & board.by_color(color);
        let theirs = board.pawns() & board.by_color(!color);
        let level_or_ahead = !behind(color, king);
        let centre = (king.file() as usize).clamp(1, 6);
        for (f, &file) in FILES.iter().enumerate().skip(centre - 1).take(3) {
            let file = Bitboard(file);
            let edge = f.min(7 - f);
            let our_rank = rearmost_rank(color, ours & file & level_or_ahead);
            let their_rank = rearmost_rank(color, theirs & file & level_or_ahead);
            acc.add(color, w::PAWN_SHELTER + 8 * edge + our_rank, 1);
            if our_rank > 0 && their_rank == our_rank + 1 {
                acc.add(color, w::BLOCKED_STORM + their_rank, 1);
            } else {
                acc.add(color, w::PAWN_STORM + 8 * edge + their_rank, 1);
            }
            if (ours & file).is_empty() {
                if (theirs & file).is_empty() {
                    acc.add(color, w::KING_OPEN_FILE, 1);
                } else {
                    acc.add(color, w::KING_HALF_OPEN_FILE, 1);
                }
            }
        }
    }
}

/// Attack units on each king's zone, and the enemy's safe checks: squares
/// from which an enemy piece would give check, that it attacks, that we do
/// not defend and that no enemy piece occupies.
pub fn danger<A: Accumulator>(board: &Board, maps: &AttackMaps, acc: &mut A) {
    let occupied = board.occupied();
    for color in Color::ALL {
        let Some(king) = board.king_of(color) else {
            continue;
        };
        let c = color as usize;
        let enemy = !color;

        // Attack units.
        if maps.king_attackers[c] >= 2 {
            let mut units = maps.king_units[c];
            if (board.queens() & board.by_color(enemy)).is_empty() {
                units /= 2;
            }
            let units = units.min(MAX_UNITS) as usize;
            if units > 0 {
                acc.add(color, w::KING_DANGER + units, 1);
            }
        }

        // Weak squares of the zone: attacked by the enemy, defended by
        // no pawn, minor piece or rook of ours.
        if maps.king_attackers[c] >= 1 && (board.queens() & board.by_color(enemy)).any() {
            let defenders = maps.by_role[c][..4]
                .iter()
                .fold(Bitboard::EMPTY, |b, &a| b | a);
            let weak = Bitboard(KING_ZONE[king as usize]) & maps.all[enemy as usize] & !defenders;
            acc.add(color, w::KING_WEAK_ZONE + weak.count().min(9), 1);
        }

        // Safe checks.
        let safe = !maps.all[c] & !board.by_color(enemy);
        let diagonal = bishop_attacks(king, occupied);
        let straight = rook_attacks(king, occupied);
        let checks = [
            knight_attacks(king) & maps.by(enemy, Role::Knight),
            diagonal & maps.by(enemy, Role::Bishop),
            straight & maps.by(enemy, Role::Rook),
            (diagonal | straight) & maps.by(enemy, Role::Queen),
        ];
        for (i, squares) in checks.into_iter().enumerate() {
            if (squares & safe).any() {
                acc.add(color, w::SAFE_CHECK + i, 1);
            }
        }
    }
}
