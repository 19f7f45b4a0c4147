//! Bitboard masks the terms share, computed at compile time, small square
//! helpers, and the pawn-structure measures that more than one piece term
//! reads (outposts, closedness). "Ahead" and "relative rank" are always
//! from the side named by the `Color` argument.

use shakmaty::{Bitboard, Color, Square};

const FILE_A: u64 = 0x0101_0101_0101_0101;
const NOT_FILE_A: u64 = !FILE_A;
const NOT_FILE_H: u64 = !(FILE_A << 7);

/// Each file.
pub const FILES: [u64; 8] = {
    let mut t = [0; 8];
    let mut f = 0;
    while f < 8 {
        t[f] = FILE_A << f;
        f += 1;
    }
    t
};

/// Files a to d (the queen's wing; e to h is the king's).
pub const QUEEN_SIDE: Bitboard = Bitboard(0x0F0F_0F0F_0F0F_0F0F);

/// Each rank.
pub const RANKS: [u64; 8] = {
    let mut t = [0; 8];
    let mut r = 0;
    while r < 8 {
        t[r] = 0xff << (8 * r);
        r += 1;
    }
    t
};

/// The files beside each file.
pub const ADJACENT_FILES: [u64; 8] = {
    let mut t = [0; 8];
    let mut f = 0;
    while f < 8 {
        let file = FILE_A << f;
        t[f] = ((file & NOT_FILE_A) >> 1) | ((file & NOT_FILE_H) << 1);
        f += 1;
    }
    t
};

/// `AHEAD[color][rank]`: every square on the ranks strictly ahead of `rank`.
const AHEAD: [[u64; 8]; 2] = {
    let mut t = [[0; 8]; 2];
    let mut r = 0;
    while r < 8 {
        t[Color::White as usize][r] = if r < 7 { u64::MAX << (8 * (r + 1)) } else { 0 };
        t[Color::Black as usize][r] = (1u64 << (8 * r)) - 1;
        r += 1;
    }
    t
};

/// Which files [`spans`] covers ahead of the square.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Span {
    File,
    Adjacent,
    Both,
}

const fn spans(span: Span) -> [[u64; 64]; 2] {
    let mut t = [[0; 64]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 64 {
            let f = sq % 8;
            let files = match span {
                Span::File => FILES[f],
                Span::Adjacent => ADJACENT_FILES[f],
                Span::Both => FILES[f] | ADJACENT_FILES[f],
            };
            t[c][sq] = files & AHEAD[c][sq / 8];
            sq += 1;
        }
        c += 1;
    }
    t
}

/// `FORWARD_FILE[color][sq]`: the squares ahead of `sq` on its file.
pub const FORWARD_FILE: [[u64; 64]; 2] = spans(Span::File);

/// `ATTACK_SPAN[color][sq]`: the squares ahead of `sq` on the neighbouring
/// files: those a pawn of `color` on `sq` may attack as it advances, and
/// those from which an enemy pawn may still come to attack `sq`.
pub const ATTACK_SPAN: [[u64; 64]; 2] = spans(Span::Adjacent);

/// `PASSED_SPAN[color][sq]`: the squares ahead on the pawn's own and the
/// neighbouring files; a pawn is passed when no enemy pawn stands there.
pub const PASSED_SPAN: [[u64; 64]; 2] = spans(Span::Both);

/// `KING_ZONE[sq]`: the 3×3 block around the king, moved off the edge so
/// that it always has nine squares (a king on g1 has the zone f1–h3).
pub const KING_ZONE: [u64; 64] = {
    let mut t = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        let f = clamp(sq % 8, 1, 6);
        let r = clamp(sq / 8, 1, 6);
        let files = FILES[f - 1] | FILES[f] | FILES[f + 1];
        let ranks = RANKS[r - 1] | RANKS[r] | RANKS[r + 1];
        t[sq] = files & ranks;
        sq += 1;
    }
    t
};

/// Whether the king area reaches 4 ranks forward (Ethereal's shape) rather
/// than the 3×3 block of [`KING_ZONE`].
pub const KING_AREA_FORWARD: bool = true;

/// `KING_AREA[color][sq]`: the king area that king safety counts attacks
/// on: 3 files (moved off the edge, as [`KING_ZONE`]) by 4 ranks, from one
/// rank behind the king to two ahead of it, moved off the back and front
/// edges so that it always has twelve squares (a white king on g1 has
/// f1–h4); with [`KING_AREA_FORWARD`] off, [`KING_ZONE`].
pub const KING_AREA: [[u64; 64]; 2] = {
    let mut t = [[0; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let f = clamp(sq % 8, 1, 6);
        let files = FILES[f - 1] | FILES[f] | FILES[f + 1];
        let r = sq / 8;
        // White: ranks base..base+3 with base = r - 1, within 0..=4.
        let white_base = clamp(if r == 0 { 0 } else { r - 1 }, 0, 4);
        // Black: the mirror, ranks top-3..=top with top = r + 1, within 3..=7.
        let black_top = clamp(r + 1, 3, 7);
        let mut white = 0;
        let mut black = 0;
        let mut i = 0;
        while i < 4 {
            white |= RANKS[white_base + i];
            black |= RANKS[black_top - i];
            i += 1;
        }
        if KING_AREA_FORWARD {
            t[0][sq] = files & black;
            t[1][sq] = files & white;
        } else {
            t[0][sq] = KING_ZONE[sq];
            t[1][sq] = KING_ZONE[sq];
        }
        sq += 1;
    }
    t
};

/// `KING_FLANK[color][file]`: the flank of `color`'s king on `file`: the
/// files within two of it, on the king's half of the board and one rank
/// beyond (ranks 1–5 for White, 4–8 for Black).
pub const KING_FLANK: [[u64; 8]; 2] = {
    let white = RANKS[0] | RANKS[1] | RANKS[2] | RANKS[3] | RANKS[4];
    let black = RANKS[3] | RANKS[4] | RANKS[5] | RANKS[6] | RANKS[7];
    let mut t = [[0; 8]; 2];
    let mut f: usize = 0;
    while f < 8 {
        let mut files = 0;
        let mut g = f.saturating_sub(2);
        while g < 8 && g <= f + 2 {
            files |= FILES[g];
            g += 1;
        }
        t[0][f] = files & black;
        t[1][f] = files & white;
        f += 1;
    }
    t
};

const fn clamp(x: usize, lo: usize, hi: usize) -> usize {
    if x < lo {
        lo
    } else if x > hi {
        hi
    } else {
        x
    }
}

/// The rank of `sq` counted from `color`'s side, 0 to 7.
#[inline(always)]
pub fn relative_rank(color: Color, sq: Square) -> usize {
    let r = sq.rank() as usize;
    if color == Color::White { r } else { 7 - r }
}

/// The squares on the ranks strictly behind `sq`'s rank.
#[inline(always)]
pub fn behind(color: Color, sq: Square) -> Bitboard {
    Bitboard(AHEAD[(!color) as usize][sq.rank() as usize])
}

/// The square in front of `sq` from `color`'s side (`sq` must not be on
/// the last rank).
#[inline(always)]
pub fn square_ahead(color: Color, sq: Square) -> Square {
    match color {
        Color::White => sq.offset(8),
        Color::Black => sq.offset(-8),
    }
    .expect("a pawn is never on its last rank")
}

/// The squares the pawns `pawns` of `color` attack.
#[inline(always)]
pub fn pawn_attacks(color: Color, pawns: Bitboard) -> Bitboard {
    let p = pawns.0;
    Bitboard(match color {
        Color::White => ((p & NOT_FILE_A) << 7) | ((p & NOT_FILE_H) << 9),
        Color::Black => ((p & NOT_FILE_A) >> 9) | ((p & NOT_FILE_H) >> 7),
    })
}

/// The squares one rank forward of `squares`, from `color`'s side.
#[inline(always)]
pub fn forward(color: Color, squares: Bitboard) -> Bitboard {
    match color {
        Color::White => Bitboard(squares.0 << 8),
        Color::Black => Bitboard(squares.0 >> 8),
    }
}

/// Whether `color` has bishops on both square colours.
#[inline(always)]
pub fn bishop_pair(board: &shakmaty::Board, color: Color) -> bool {
    let bishops = board.bishops() & board.by_color(color);
    (bishops & Bitboard::LIGHT_SQUARES).any() && (bishops & Bitboard::DARK_SQUARES).any()
}

/// The outpost squares of `color`, whose pawns are `ours` (the enemy's
/// `theirs`): 4th to 6th rank, defended by an own pawn, and out of reach of
/// every enemy pawn, now and later (no enemy pawn on a neighbouring file
/// ahead).
pub fn outposts(color: Color, ours: Bitboard, theirs: Bitboard) -> Bitboard {
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
    let reach = pawn_attacks(!color, path);
    let ranks = match color {
        Color::White => Bitboard(RANKS[3] | RANKS[4] | RANKS[5]),
        Color::Black => Bitboard(RANKS[2] | RANKS[3] | RANKS[4]),
    };
    ranks & pawn_attacks(color, ours) & !reach
}

/// How closed the pawn structure is, 0 (open) to 8 (locked): the pawns,
/// plus three per locked pair (a white pawn right below a black one), less
/// four per file without pawns, divided by 3 (Ethereal's measure).
pub fn closedness(board: &shakmaty::Board) -> usize {
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

/// The mask of `table[color][sq]` as a bitboard.
#[inline(always)]
pub fn mask(table: &[[u64; 64]; 2], color: Color, sq: Square) -> Bitboard {
    Bitboard(table[color as usize][sq as usize])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_match_their_definitions() {
        let w = Color::White;
        let b = Color::Black;
        assert_eq!(mask(&FORWARD_FILE, w, Square::E4).count(), 4);
        assert!(mask(&FORWARD_FILE, b, Square::E4).contains(Square::E1));
        assert_eq!(mask(&ATTACK_SPAN, w, Square::A2).count(), 6);
        assert_eq!(mask(&PASSED_SPAN, b, Square::D7).count(), 18);
        assert_eq!(Bitboard(KING_ZONE[Square::G1 as usize]).count(), 9);
        let area = |c: Color, sq: Square| Bitboard(KING_AREA[c as usize][sq as usize]);
        if KING_AREA_FORWARD {
            assert_eq!(area(w, Square::G1), Bitboard(0x0000_0000_E0E0_E0E0));
            assert_eq!(area(b, Square::G8), area(w, Square::G1).flip_vertical());
            assert_eq!(area(w, Square::A5).count(), 12);
            assert!(area(w, Square::A5).contains(Square::C7));
            assert!(area(w, Square::A5).contains(Square::A4));
            assert_eq!(area(w, Square::E8), area(b, Square::E1).flip_vertical());
        }
        assert!(Bitboard(KING_ZONE[Square::G1 as usize]).contains(Square::H3));
        // The flank of a king on the g-file: e–h, ranks 1–5 (White).
        let flank = |c: Color, file: usize| Bitboard(KING_FLANK[c as usize][file]);
        assert_eq!(flank(w, 6), Bitboard(0x0000_00F0_F0F0_F0F0));
        assert_eq!(flank(b, 6), flank(w, 6).flip_vertical());
        assert_eq!(flank(w, 3).count(), 25);
        assert_eq!(flank(w, 0).count(), 15);
        assert_eq!(
            pawn_attacks(w, Bitboard::from_square(Square::A2)),
            Bitboard::from_square(Square::B3)
        );
        assert_eq!(
            pawn_attacks(b, Bitboard::from_square(Square::H7)),
            Bitboard::from_square(Square::G6)
        );
        assert_eq!(relative_rank(b, Square::A7), 1);
        assert_eq!(square_ahead(b, Square::A7), Square::A6);
    }
}
