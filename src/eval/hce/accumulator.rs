//! Where the terms put what they find. Every term is written once, generic
//! over [`Accumulator`]: it says "weight `index`, `count` times, for
//! `color`" and the accumulator decides what that means.
//!
//! - [`Sum`] (search): adds the weight's value, White minus Black.
//! - `trace::Tracer` (tuner and UCI `eval`): records the coefficient of each
//!   weight and the total of each trace row.
//!
//! Because every term goes through [`Accumulator::add`], the evaluation
//! before the endgame scale factor is exactly
//! `sum(coefficient[i] * weight[i])`, in midgame and endgame separately.

use shakmaty::{Color, Role, Square};

use super::layout::{ALL, COUNT, KING_DANGER, MATERIAL, piece_square};
use super::tapered::S;
use super::terms::danger::penalty;

/// A sink for weighted feature counts.
pub trait Accumulator {
    /// Counts weight `index` (a `layout` index) `count` times for `color`.
    fn add(&mut self, color: Color, index: usize, count: i32);

    /// Counts danger feature `feature` (weight `KING_DANGER + feature`)
    /// `count` times toward the danger count of `color`'s king, which
    /// costs `color` not linearly (`danger::penalty`).
    fn danger(&mut self, color: Color, feature: usize, count: i32);

    /// Counts one `color` piece of type `role` on `sq`: its material weight
    /// (kings have none) and its piece-square weight.
    #[inline(always)]
    fn piece(&mut self, color: Color, role: Role, sq: Square) {
        if role != Role::King {
            self.add(color, MATERIAL.at(role as usize - 1), 1);
        }
        self.add(color, piece_square(color, role, sq), 1);
    }
}

/// A weight packed into one integer: the endgame value in the high 16 bits,
/// the midgame value (signed) in the low 16. Packed pairs add and multiply
/// by a count as one integer (modulo 2³²), and unpack exactly while each
/// half of the sum stays within `i16`, which every evaluation does (whole
/// armies sum to a few thousand centipawns).
const fn pack(s: S) -> i32 {
    (s.1 << 16).wrapping_add(s.0)
}

const fn unpack(p: i32) -> S {
    let mg = p as i16 as i32;
    S(mg, p.wrapping_sub(mg) >> 16)
}

const fn pack_all() -> [i32; COUNT] {
    let mut out = [0; COUNT];
    let mut i = 0;
    while i < COUNT {
        out[i] = pack(ALL[i]);
        i += 1;
    }
    out
}

/// [`ALL`], packed.
static PACKED: [i32; COUNT] = pack_all();

/// [`Accumulator::piece`] for [`Sum`]: `[color][role - 1][square]`, the
/// packed sum of the piece's material and piece-square weights.
static PACKED_PIECES: [[[i32; 64]; 6]; 2] = pack_pieces();

const fn pack_pieces() -> [[[i32; 64]; 6]; 2] {
    let mut out = [[[0; 64]; 6]; 2];
    let mut c = 0;
    while c < 2 {
        let color = Color::ALL[c];
        let mut r = 0;
        while r < 6 {
            let role = Role::ALL[r];
            let mut sq = 0;
            while sq < 64 {
                let square = Square::ALL[sq];
                let mut packed = PACKED[piece_square(color, role, square)];
                if r < 5 {
                    packed = packed.wrapping_add(PACKED[MATERIAL.at(r)]);
                }
                out[color as usize][r][sq] = packed;
                sq += 1;
            }
            r += 1;
        }
        c += 1;
    }
    out
}

/// The fast accumulator: the running sum of the weights, White minus Black,
/// packed (one multiply and one add per term), and each king's danger
/// count, packed too.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Sum {
    sum: i32,
    /// Danger counts, by the king's colour.
    danger: [i32; 2],
}

impl Sum {
    /// A sum that starts at `s`.
    #[inline(always)]
    pub const fn new(s: S) -> Self {
        Sum {
            sum: pack(s),
            danger: [0; 2],
        }
    }

    /// The sum so far, each king's danger penalty included.
    #[inline(always)]
    pub fn total(self) -> S {
        unpack(self.sum) - penalty(unpack(self.danger[Color::White as usize]))
            + penalty(unpack(self.danger[Color::Black as usize]))
    }
}

impl Accumulator for Sum {
    #[inline(always)]
    fn add(&mut self, color: Color, index: usize, count: i32) {
        let v = PACKED[index].wrapping_mul(count);
        self.sum = match color {
            Color::White => self.sum.wrapping_add(v),
            Color::Black => self.sum.wrapping_sub(v),
        };
    }

    #[inline(always)]
    fn danger(&mut self, color: Color, feature: usize, count: i32) {
        let d = &mut self.danger[color as usize];
        *d = d.wrapping_add(PACKED[KING_DANGER.at(feature)].wrapping_mul(count));
    }

    #[inline(always)]
    fn piece(&mut self, color: Color, role: Role, sq: Square) {
        let v = PACKED_PIECES[color as usize][role as usize - 1][sq as usize];
        self.sum = match color {
            Color::White => self.sum.wrapping_add(v),
            Color::Black => self.sum.wrapping_sub(v),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_pairs_add_and_unpack_exactly() {
        let pairs = [
            S(0, 0),
            S(-1, 1),
            S(1, -1),
            S(-9000, 9000),
            S(32767, -32768),
        ];
        for s in pairs {
            assert_eq!(unpack(pack(s)), s);
        }
        let mut sum = Sum::new(S(-5, 7));
        for i in 0..40 {
            sum.add(Color::White, i, 3);
            sum.add(Color::Black, i, 2);
        }
        let expected = ALL.iter().take(40).fold(S(-5, 7), |t, &w| t + w);
        assert_eq!(sum.total(), expected);
    }

    #[test]
    fn a_packed_piece_is_its_material_and_table_weights() {
        for color in Color::ALL {
            for role in Role::ALL {
                for sq in [Square::A1, Square::E4, Square::H7, Square::C8] {
                    let mut packed = Sum::default();
                    packed.piece(color, role, sq);
                    let mut apart = Sum::default();
                    if role != Role::King {
                        apart.add(color, MATERIAL.at(role as usize - 1), 1);
                    }
                    apart.add(color, piece_square(color, role, sq), 1);
                    assert_eq!(packed, apart, "{color:?} {role:?} {sq:?}");
                }
            }
        }
    }
}
