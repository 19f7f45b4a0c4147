//! Tapered scores: [`S`], a midgame/endgame pair of centipawn values (the
//! unit of every evaluation weight and term), the game [`phase`] that blends
//! the pair, and the last step of every evaluation ([`finish`]: blend, then
//! the endgame scale factor).

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

use shakmaty::{Board, Color};

use super::terms::endgame::SCALE_NORMAL;

/// Phase of the full set of pieces.
pub const MAX_PHASE: i32 = 24;

/// The game phase, 0 (no pieces) to [`MAX_PHASE`]: knights and bishops
/// count 1, rooks 2, queens 4.
pub fn phase(board: &Board) -> i32 {
    let p = board.knights().count()
        + board.bishops().count()
        + 2 * board.rooks().count()
        + 4 * board.queens().count();
    (p as i32).min(MAX_PHASE)
}

/// Blends a midgame/endgame pair by phase (truncating toward zero).
pub fn taper(s: S, phase: i32) -> i32 {
    (s.0 * phase + s.1 * (MAX_PHASE - phase)) / MAX_PHASE
}

/// The blend of `total` by `phase`, times the scale factor (out of
/// [`SCALE_NORMAL`]) of the side it favours: the last step of every
/// evaluation.
#[inline(always)]
pub fn finish(total: S, phase: i32, scale: impl FnOnce(Color) -> i32) -> i32 {
    let v = taper(total, phase);
    let ahead = if v > 0 { Color::White } else { Color::Black };
    v * scale(ahead) / SCALE_NORMAL
}

/// A midgame/endgame pair of centipawn values: `S(midgame, endgame)`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct S(pub i32, pub i32);

impl S {
    /// Zero in both phases.
    pub const ZERO: S = S(0, 0);

    /// The midgame value.
    pub const fn mg(self) -> i32 {
        self.0
    }

    /// The endgame value.
    pub const fn eg(self) -> i32 {
        self.1
    }
}

impl Add for S {
    type Output = S;
    #[inline(always)]
    fn add(self, o: S) -> S {
        S(self.0 + o.0, self.1 + o.1)
    }
}

impl AddAssign for S {
    #[inline(always)]
    fn add_assign(&mut self, o: S) {
        self.0 += o.0;
        self.1 += o.1;
    }
}

impl Sub for S {
    type Output = S;
    #[inline(always)]
    fn sub(self, o: S) -> S {
        S(self.0 - o.0, self.1 - o.1)
    }
}

impl SubAssign for S {
    #[inline(always)]
    fn sub_assign(&mut self, o: S) {
        self.0 -= o.0;
        self.1 -= o.1;
    }
}

impl Neg for S {
    type Output = S;
    #[inline(always)]
    fn neg(self) -> S {
        S(-self.0, -self.1)
    }
}

impl Mul<i32> for S {
    type Output = S;
    #[inline(always)]
    fn mul(self, k: i32) -> S {
        S(self.0 * k, self.1 * k)
    }
}
