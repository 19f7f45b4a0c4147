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

use super::layout::ALL;
use super::tapered::S;

/// A sink for weighted feature counts.
pub trait Accumulator {
    /// Counts weight `index` (a `layout` index) `count` times for `color`.
    fn add(&mut self, color: Color, index: usize, count: i32);
}

/// The fast accumulator: the running sum of the weights, White minus Black.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Sum(pub S);

impl Accumulator for Sum {
    #[inline(always)]
    fn add(&mut self, color: Color, index: usize, count: i32) {
        let v = ALL[index] * count;
        match color {
            Color::White => self.0 += v,
            Color::Black => self.0 -= v,
        }
    }
}
