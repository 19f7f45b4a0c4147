//! [`Accumulator`]: the hidden layer before activation, one [`Column`] per
//! perspective (`b1` plus the first-layer column of every piece as that
//! side sees it), built from scratch for a root position and then
//! followed move by move; and how each perspective sees the board (its
//! [`Orientation`]), which a king-mirrored net changes when that side's
//! king crosses between the d and e files.
//!
//! It is a plain `Copy` value (1 KB and a cache line at `H` = 256), meant
//! to live on the search stack, one per ply: a child's accumulator is its
//! parent's plus and minus the columns of the pieces the move changes
//! ([`Accumulator::apply_into`] writes it straight into the child's frame:
//! 2, 3 or 4 columns added to the parent's per perspective, read once and
//! written once, no allocation). A null move changes no piece: the child
//! is a copy. The one exception: with [`Layout::KingMirrored`], a king
//! that crosses the d/e line turns its side's board around, and that
//! perspective is refreshed from the board after the move (the other side's
//! is still updated).

use shakmaty::{Board, Color, Move};

use super::arch::{Layout, Orientation, feature_seen};
use super::column::Column;
use super::delta::{Delta, Placed};
use super::net::Net;
use super::simd;

/// Both perspectives of the hidden layer before activation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accumulator<const H: usize> {
    /// By colour: `halves[Color::Black as usize]`, `halves[Color::White
    /// as usize]`.
    halves: [Column<H>; 2],
    /// How each perspective sees the board, by colour as `halves`.
    orientations: [Orientation; 2],
}

impl<const H: usize> Default for Accumulator<H> {
    /// Zeros, oriented as the plain layout's.
    fn default() -> Self {
        let plain = |p| Layout::Plain.orientation(p, None);
        Accumulator {
            halves: [Column::ZERO; 2],
            orientations: [plain(Color::Black), plain(Color::White)],
        }
    }
}

impl<const H: usize> Net<H> {
    /// The perspective whose accumulator `delta` makes refresh: with the
    /// king-mirrored layout, the side whose king crosses between the d and
    /// e files; none otherwise.
    #[inline]
    pub fn refreshes(&self, delta: &Delta) -> Option<Color> {
        if self.layout().is_mirrored() {
            delta.king_crossing()
        } else {
            None
        }
    }
}

impl<const H: usize> Accumulator<H> {
    /// The accumulator of `board`, from scratch.
    pub fn refresh(net: &Net<H>, board: &Board) -> Accumulator<H> {
        let mut acc = Accumulator::default();
        for p in Color::ALL {
            acc.refresh_perspective(net, board, p);
        }
        acc
    }

    /// Builds `perspective`'s half of this accumulator from scratch.
    pub fn refresh_perspective(&mut self, net: &Net<H>, board: &Board, perspective: Color) {
        let orientation = net.layout().orientation_on(perspective, board);
        self.orientations[perspective as usize] = orientation;
        let half = self.half_mut(perspective);
        *half = *net.biases();
        for (sq, piece) in board {
            let col = net.column(feature_seen(perspective, orientation, piece, sq));
            simd::update_in_place(half, [col], []);
        }
    }

    /// The hidden layer before activation as `perspective` sees the board.
    #[inline]
    pub fn perspective(&self, perspective: Color) -> &Column<H> {
        &self.halves[perspective as usize]
    }

    /// How `perspective` sees the board.
    #[inline]
    pub fn orientation(&self, perspective: Color) -> Orientation {
        self.orientations[perspective as usize]
    }

    #[inline]
    fn half_mut(&mut self, perspective: Color) -> &mut Column<H> {
        &mut self.halves[perspective as usize]
    }

    /// Writes into `child` the accumulator after `mover` plays `m` in this
    /// accumulator's position, `after` being the board the move reaches
    /// (`child`'s old contents do not matter).
    #[inline]
    pub fn update_into(
        &self,
        child: &mut Accumulator<H>,
        net: &Net<H>,
        mover: Color,
        m: Move,
        after: &Board,
    ) {
        self.apply_into(child, net, Delta::of_move(mover, m), after);
    }

    /// The accumulator after `mover` plays `m` in this accumulator's
    /// position, reaching the board `after`.
    #[inline]
    pub fn after_move(&self, net: &Net<H>, mover: Color, m: Move, after: &Board) -> Accumulator<H> {
        let mut child = Accumulator::default();
        self.update_into(&mut child, net, mover, m, after);
        child
    }

    /// Writes into `child` this accumulator changed by `delta`, `after`
    /// being the board after the change: it is read only for a perspective
    /// the change refreshes ([`Net::refreshes`]), so a caller that knows
    /// the change refreshes nothing may pass any board.
    // Always inlined: 36 → 30 ns per update in the micro-benchmark
    // (tests/speed.rs), as fast as the kernels alone.
    #[inline(always)]
    pub fn apply_into(
        &self,
        child: &mut Accumulator<H>,
        net: &Net<H>,
        delta: Delta,
        after: &Board,
    ) {
        let refresh = net.refreshes(&delta);
        for p in Color::ALL {
            if refresh == Some(p) {
                child.refresh_perspective(net, after, p);
                continue;
            }
            let orientation = self.orientation(p);
            child.orientations[p as usize] = orientation;
            let col = |(piece, sq): Placed| net.column(feature_seen(p, orientation, piece, sq));
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

    /// Changes this accumulator by `delta`, in place (`after` as in
    /// [`Accumulator::apply_into`]).
    #[inline]
    pub fn apply(&mut self, net: &Net<H>, delta: Delta, after: &Board) {
        let refresh = net.refreshes(&delta);
        for p in Color::ALL {
            if refresh == Some(p) {
                self.refresh_perspective(net, after, p);
                continue;
            }
            let orientation = self.orientation(p);
            let col = |(piece, sq): Placed| net.column(feature_seen(p, orientation, piece, sq));
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
