//! Piece terms: the bishop pair, knight and bishop outposts (held, or one
//! knight move away), minor pieces behind a pawn and their distance to
//! their king, own pawns on a bishop's colour, bishops on a long diagonal,
//! rooks on open and half-open files, on the seventh rank and on the enemy
//! queen's file; rooks trapped by their own king and bishops shut in on
//! the enemy's rook file; knights and rooks by how closed the pawns are,
//! and knights far from both kings.

use shakmaty::attacks::{bishop_attacks, knight_attacks, rook_attacks};
use shakmaty::{Bitboard, Chess, Color, Position as _, Role, Square};

use super::accumulator::Accumulator;
use super::attacks::AttackMaps;
use super::layout as w;
use super::masks::{FILES, RANKS, bishop_pair, forward, relative_rank};

/// d4, e4, d5, e5.
const CENTRE: Bitboard = Bitboard(0x0000_0018_1800_0000);

/// The a1–h8 and a8–h1 diagonals: the only squares from which a bishop can
/// see two centre squares (d4 and e5, or e4 and d5), so the only ones where
/// the long-diagonal test needs an attack lookup.
const LONG_DIAGONALS: Bitboard = Bitboard(0x8040_2010_0804_0201 | 0x0102_0408_1020_4080);

/// A rook with at most this many safe squares may be trapped.
const TRAPPED_ROOK_MOBILITY: usize = 3;

/// A bishop on one of these squares (from White's side) is shut in when
/// the enemy pawn on the paired square, its only way back, is defended by
/// another enemy pawn: the bishop that took on a7 and was cut off by ...b6.
const TRAPPED_BISHOP: [(Square, Square); 4] = [
    (Square::A7, Square::B6),
    (Square::H7, Square::G6),
    (Square::A6, Square::B5),
    (Square::H6, Square::G5),
];

/// The squares of [`TRAPPED_BISHOP`] a bishop of either side may be
/// trapped on.
const TRAPPED_BISHOP_SQUARES: Bitboard = Bitboard(
    (1 << 48) | (1 << 55) | (1 << 40) | (1 << 47) | (1 << 8) | (1 << 15) | (1 << 16) | (1 << 23),
);

/// Whether `color`'s bishop on `sq` is trapped (see [`TRAPPED_BISHOP`]).
fn trapped_bishop(
    color: Color,
    sq: Square,
    theirs: Bitboard,
    their_pawn_attacks: Bitboard,
) -> bool {
    TRAPPED_BISHOP.into_iter().any(|(bishop, pawn)| {
        let (bishop, pawn) = match color {
            Color::White => (bishop, pawn),
            Color::Black => (bishop.flip_vertical(), pawn.flip_vertical()),
        };
        sq == bishop && theirs.contains(pawn) && their_pawn_attacks.contains(pawn)
    })
}

/// The outpost squares of `color`: 4th to 6th rank, defended by an own
/// pawn, and out of reach of every enemy pawn, now and later (no enemy pawn
/// on a neighbouring file ahead).
fn outposts(color: Color, ours: Bitboard, theirs: Bitboard) -> Bitboard {
    let t = theirs.0;
    // Every square an enemy pawn stands on or will pass, toward our side.
    let path = Bitboard(match color {
        Color::White => {
            let f = t | t >> 8;
            let f = f | f >> 16;
            f | f >> 32
        }
        Color::Black => {
            let f = t | t << 8;
            let f = f | f << 16;
            f | f << 32
        }
    });
    let reach = super::masks::pawn_attacks(!color, path);
    let ranks = match color {
        Color::White => Bitboard(RANKS[3] | RANKS[4] | RANKS[5]),
        Color::Black => Bitboard(RANKS[2] | RANKS[3] | RANKS[4]),
    };
    ranks & super::masks::pawn_attacks(color, ours) & !reach
}

/// How closed the pawn structure is, 0 (open) to 8 (locked): the pawns,
/// plus three per locked pair (a white pawn right below a black one), less
/// four per file without pawns, divided by 3 (Ethereal's measure).
fn closedness(board: &shakmaty::Board) -> usize {
    let white = board.pawns() & board.white();
    let black = board.pawns() & board.black();
    let locked = white & Bitboard(black.0 >> 8);
    // Every pawn's file folded onto the first rank: its bits are the files
    // with pawns.
    let mut files = board.pawns().0;
    files |= files >> 32;
    files |= files >> 16;
    files |= files >> 8;
    let open_files = 8 - (files & 0xff).count_ones() as i32;
    let sum = board.pawns().count() as i32 + 3 * locked.count() as i32 - 4 * open_files;
    (sum / 3).clamp(0, 8) as usize
}

/// Scores the piece terms of both sides.
pub fn pieces<A: Accumulator>(pos: &Chess, maps: &AttackMaps, acc: &mut A) {
    let board = pos.board();
    let occupied = board.occupied();
    let closed = closedness(board);
    for color in Color::ALL {
        let us = board.by_color(color);
        let ours = board.pawns() & us;
        let theirs = board.pawns() & board.by_color(!color);
        let king = board.king_of(color);

        // Bishop pair: bishops on both square colours.
        let bishops = board.bishops() & us;
        if bishop_pair(board, color) {
            acc.add(color, w::BISHOP_PAIR, 1);
        }

        // Outposts held, or reachable by a knight.
        let posts = outposts(color, ours, theirs);
        let behind_pawn = forward(!color, board.pawns());
        for sq in board.knights() & us {
            if posts.contains(sq) {
                acc.add(color, w::KNIGHT_OUTPOST, 1);
            } else if (knight_attacks(sq) & posts & !us).any() {
                acc.add(color, w::KNIGHT_REACHABLE_OUTPOST, 1);
            }
            if behind_pawn.contains(sq) {
                acc.add(color, w::KNIGHT_BEHIND_PAWN, 1);
            }
            if let Some(k) = king {
                acc.add(color, w::KNIGHT_KING_DISTANCE, k.distance(sq) as i32);
            }
            acc.add(color, w::KNIGHT_CLOSEDNESS.at(closed), 1);
            // Far from both kings: the knight takes part in nothing.
            let nearest = board
                .kings()
                .into_iter()
                .map(|k| k.distance(sq))
                .min()
                .unwrap_or(0) as usize;
            if nearest >= 4 {
                acc.add(color, w::KNIGHT_FAR_FROM_KINGS.at(nearest - 4), 1);
            }
        }

        // Bishops: outposts, behind a pawn, king distance, own pawns on
        // their colour (and those of them blocked), long diagonals, shut
        // in on the rook file.
        let blocked = ours & forward(!color, occupied);
        let their_pawn_attacks = maps.by(!color, Role::Pawn);
        for sq in bishops {
            if TRAPPED_BISHOP_SQUARES.contains(sq)
                && trapped_bishop(color, sq, theirs, their_pawn_attacks)
            {
                acc.add(color, w::BISHOP_TRAPPED, 1);
            }
            if posts.contains(sq) {
                acc.add(color, w::BISHOP_OUTPOST, 1);
            }
            if behind_pawn.contains(sq) {
                acc.add(color, w::BISHOP_BEHIND_PAWN, 1);
            }
            if let Some(k) = king {
                acc.add(color, w::BISHOP_KING_DISTANCE, k.distance(sq) as i32);
            }
            let colour = if Bitboard::LIGHT_SQUARES.contains(sq) {
                Bitboard::LIGHT_SQUARES
            } else {
                Bitboard::DARK_SQUARES
            };
            acc.add(color, w::BISHOP_PAWNS.at(0), (ours & colour).count() as i32);
            acc.add(
                color,
                w::BISHOP_PAWNS.at(1),
                (blocked & colour).count() as i32,
            );
            if LONG_DIAGONALS.contains(sq)
                && (bishop_attacks(sq, board.pawns()) & CENTRE).count() >= 2
            {
                acc.add(color, w::BISHOP_LONG_DIAGONAL, 1);
            }
        }

        // Rooks: open and half-open files, the seventh rank when it holds
        // enemy pawns or the enemy king is cut off on the eighth, the enemy
        // queen's file, and a rook shut in by its own king.
        let seventh = Bitboard(RANKS[if color == Color::White { 6 } else { 1 }]);
        let king_on_eighth = board
            .king_of(!color)
            .is_some_and(|k| relative_rank(color, k) == 7);
        let queen_files = (board.queens() & board.by_color(!color))
            .into_iter()
            .fold(Bitboard::EMPTY, |b, q| {
                b | Bitboard(FILES[q.file() as usize])
            });
        let area = !us & !maps.by(!color, Role::Pawn);
        let cannot_castle = !pos.castles().has_color(color);
        for sq in board.rooks() & us {
            acc.add(color, w::ROOK_CLOSEDNESS.at(closed), 1);
            let file = Bitboard(FILES[sq.file() as usize]);
            if (board.pawns() & file).is_empty() {
                acc.add(color, w::ROOK_OPEN_FILE, 1);
            } else if (ours & file).is_empty() {
                acc.add(color, w::ROOK_HALF_OPEN_FILE, 1);
            }
            if seventh.contains(sq) && (king_on_eighth || (theirs & seventh).any()) {
                acc.add(color, w::ROOK_ON_SEVENTH, 1);
            }
            if queen_files.contains(sq) {
                acc.add(color, w::ROOK_ON_QUEEN_FILE, 1);
            }
            if let Some(k) = king {
                let kf = k.file() as u32;
                let shut_in = (kf < 4) == ((sq.file() as u32) < kf);
                if shut_in && (rook_attacks(sq, occupied) & area).count() <= TRAPPED_ROOK_MOBILITY {
                    acc.add(color, w::ROOK_TRAPPED, 1 + i32::from(cannot_castle));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::Square;

    use super::*;

    #[test]
    fn trapped_bishop_squares_are_those_of_the_pairs_for_both_sides() {
        let squares = TRAPPED_BISHOP
            .into_iter()
            .fold(Bitboard::EMPTY, |b, (sq, _)| {
                b | Bitboard::from(sq) | Bitboard::from(sq.flip_vertical())
            });
        assert_eq!(squares, TRAPPED_BISHOP_SQUARES);
    }

    #[test]
    fn only_long_diagonal_squares_see_two_centre_squares() {
        // On an empty board a bishop sees the most it ever can.
        for sq in Square::ALL {
            let seen = (bishop_attacks(sq, Bitboard::EMPTY) & CENTRE).count();
            if !LONG_DIAGONALS.contains(sq) {
                assert!(seen < 2, "{sq} sees {seen} centre squares");
            }
        }
    }
}
