//! [`Accumulator`]: the hidden layer before activation, one [`Column`] per
//! perspective (`b1` plus the first-layer column of every piece as that
//! side sees it), built from scratch for a root position and then
//! followed move by move.
//!
//! It is a plain `Copy` value of 1 KB, meant to live on the search stack,
//! one per ply: a child's accumulator is its parent's plus and minus the
//! columns of the pieces the move changes ([`Accumulator::update_into`]
//! writes it straight into the child's frame: 2, 3 or 4 columns added to
//! the parent's per perspective, read once and written once, no
//! allocation). A null move changes no piece: the child is a copy.

use shakmaty::{Board, Color, Move};

use super::arch::feature;
use super::column::Column;
use super::delta::{Delta, Placed};
use super::net::Net;
use super::simd;

/// Both perspectives of the hidden layer before activation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Accumulator {
    /// By colour: `halves[Color::Black as usize]`, `halves[Color::White
    /// as usize]`.
    halves: [Column; 2],
}

impl Accumulator {
    /// The accumulator of `board`, from scratch.
    pub fn refresh(net: &Net, board: &Board) -> Accumulator {
        let mut acc = Accumulator {
            halves: [*net.biases(); 2],
        };
        for (sq, piece) in board {
            for p in Color::ALL {
                let col = net.column(feature(p, piece, sq));
                simd::update_in_place(acc.half_mut(p), [col], []);
            }
        }
        acc
    }

    /// The hidden layer before activation as `perspective` sees the board.
    #[inline]
    pub fn perspective(&self, perspective: Color) -> &Column {
        &self.halves[perspective as usize]
    }

    #[inline]
    fn half_mut(&mut self, perspective: Color) -> &mut Column {
        &mut self.halves[perspective as usize]
    }

    /// Writes into `child` the accumulator after `mover` plays `m` in this
    /// accumulator's position (`child`'s old contents do not matter).
    #[inline]
    pub fn update_into(&self, child: &mut Accumulator, net: &Net, mover: Color, m: Move) {
        self.apply_into(child, net, Delta::of_move(mover, m));
    }

    /// The accumulator after `mover` plays `m` in this accumulator's
    /// position.
    #[inline]
    pub fn after_move(&self, net: &Net, mover: Color, m: Move) -> Accumulator {
        let mut child = Accumulator::default();
        self.update_into(&mut child, net, mover, m);
        child
    }

    /// Writes into `child` this accumulator changed by `delta`.
    // Always inlined: 36 → 30 ns per update in the micro-benchmark
    // (tests/speed.rs), as fast as the kernels alone.
    #[inline(always)]
    pub fn apply_into(&self, child: &mut Accumulator, net: &Net, delta: Delta) {
        for p in Color::ALL {
            let col = |(piece, sq): Placed| net.column(feature(p, piece, sq));
            let (input, out) = (self.perspective(p), child.half_mut(p));
            match delta {
                Delta::Quiet { add, sub } => simd::update(out, input, [col(add)], [col(sub)]),
                Delta::Capture { add, sub: [s1, s2] } => {
                    simd::update(out, input, [col(add)], [col(s1), col(s2)]);
                }
                Delta::Castle {
                    add: [a1, a2],
                    sub: [s1, s2],
                } => simd::update(out, input, [col(a1), col(a2)], [col(s1), col(s2)]),
                Delta::Put { add } => simd::update(out, input, [col(add)], []),
            }
        }
    }

    /// Changes this accumulator by `delta`, in place.
    #[inline]
    pub fn apply(&mut self, net: &Net, delta: Delta) {
        for p in Color::ALL {
            let col = |(piece, sq): Placed| net.column(feature(p, piece, sq));
            let acc = self.half_mut(p);
            match delta {
                Delta::Quiet { add, sub } => simd::update_in_place(acc, [col(add)], [col(sub)]),
                Delta::Capture { add, sub: [s1, s2] } => {
                    simd::update_in_place(acc, [col(add)], [col(s1), col(s2)]);
                }
                Delta::Castle {
                    add: [a1, a2],
                    sub: [s1, s2],
                } => simd::update_in_place(acc, [col(a1), col(a2)], [col(s1), col(s2)]),
                Delta::Put { add } => simd::update_in_place(acc, [col(add)], []),
            }
        }
    }
}
