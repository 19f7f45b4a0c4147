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

use shakmaty::Color;

use super::danger::penalty;
use super::layout::{ALL, COUNT, KING_DANGER};
use super::tapered::S;

/// A sink for weighted feature counts.
pub trait Accumulator {
    /// Counts weight `index` (a `layout` index) `count` times for `color`.
    fn add(&mut self, color: Color, index: usize, count: i32);

    /// Counts danger feature `feature` (weight `KING_DANGER + feature`)
    /// `count` times toward the danger count of `color`'s king, which
    /// costs `color` not linearly (`danger::penalty`).
    fn danger(&mut self, color: Color, feature: usize, count: i32);
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
}
