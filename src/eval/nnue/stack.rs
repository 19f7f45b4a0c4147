//! [`AccumulatorStack`]: one [`Accumulator`] per ply of a search, kept up
//! to date lazily.
//!
//! Making a move only notes what it changes (its [`Delta`], or a null
//! move) in the child's slot and marks the slot stale; nothing is added or
//! subtracted yet. When the search asks for the evaluation at a ply,
//! [`AccumulatorStack::get`] walks back to the nearest ply whose
//! accumulator is up to date (the root always is) and applies the noted
//! changes forward from there, marking each slot up to date. A node whose
//! evaluation comes from the transposition table or the evaluation cache,
//! or that is cut off before it evaluates, never pays for its update; a
//! node that does evaluate pays for the updates of the plies above it that
//! did not (each once).
//!
//! ```text
//! ply      0        1        2        3
//!        root ─m1─► ·  ─m2─► ·  ─m3─► ·          get(3): 0 is ready, so
//! ready   yes      no       no       no          apply m1, m2, m3 forward
//! ```
//!
//! Why a stale slot never holds a wrong accumulator: a slot is made stale
//! every time a move (or null move) is made from the ply above it, and
//! made ready only by applying that move to its parent's accumulator.
//! So a ready slot at ply `p` was computed after the last move made at
//! ply `p − 1`, from a parent that has not changed since (changing the
//! parent needs a move made above it, which happens only after the search
//! has left ply `p`).
//!
//! When the walk back would be long, refreshing the slot from its board is
//! cheaper than the updates: [`REFRESH_DISTANCE`].
//!
//! A king-mirrored net refreshes a perspective whose king crosses between
//! the d and e files ([`Net::refreshes`]), from the board after the move:
//! so a move of a king across that line keeps a copy of the board it
//! reaches in its slot (whatever the layout: it costs a 72-byte copy on a
//! rare move), for the walk forward to read.

use shakmaty::{Board, Color, Move};

use super::accumulator::Accumulator;
use super::delta::Delta;
use super::net::Net;

/// Stale plies above a slot beyond which [`AccumulatorStack::get`]
/// refreshes it from its board instead of applying the moves: a refresh
/// adds a column per piece (about 32, 130–155 ns on the development
/// machine), an update 2 to 4 (about 30 ns), so past 5 updates the refresh
/// is cheaper. The search rarely walks that far (an evaluation at most
/// plies), so this matters little.
pub const REFRESH_DISTANCE: usize = 5;

/// How a ply's position came from the one above it.
#[derive(Debug, Clone, Copy)]
enum Change {
    /// A move changed these pieces.
    Move(Delta),
    /// A null move: the same pieces.
    Null,
}

/// One ply's accumulator and how to bring it up to date.
#[derive(Debug, Clone)]
struct Slot<const H: usize> {
    acc: Accumulator<H>,
    change: Change,
    ready: bool,
    /// The board after the move, when the move took a king across the d/e
    /// line (else whatever it was: never read then).
    board: Board,
}

impl<const H: usize> Default for Slot<H> {
    fn default() -> Slot<H> {
        Slot {
            acc: Accumulator::default(),
            change: Change::Null,
            ready: false,
            board: Board::empty(),
        }
    }
}

/// The accumulators of one search thread, by ply from the root (see the
/// module documentation). Ply 0 is the root.
#[derive(Debug, Clone, Default)]
pub struct AccumulatorStack<const H: usize> {
    slots: Vec<Slot<H>>,
}

impl<const H: usize> AccumulatorStack<H> {
    /// A stack of `plies` slots (the root's included): the deepest ply it
    /// keeps is `plies − 1`.
    pub fn with_plies(plies: usize) -> AccumulatorStack<H> {
        AccumulatorStack {
            slots: vec![Slot::default(); plies.max(1)],
        }
    }

    /// Plies the stack keeps (the root's included).
    pub fn plies(&self) -> usize {
        self.slots.len()
    }

    /// Starts a search at `root`: its accumulator from scratch.
    pub fn set_root(&mut self, net: &Net<H>, root: &Board) {
        let slot = &mut self.slots[0];
        slot.acc = Accumulator::refresh(net, root);
        slot.ready = true;
    }

    /// `mover` played `m` from ply `ply − 1`, reaching the board `after`:
    /// notes it at `ply` (nothing is computed yet; `after` is copied only
    /// when a king crosses the d/e line).
    ///
    /// # Panics
    ///
    /// When `ply` is 0 or not below [`AccumulatorStack::plies`].
    #[inline]
    pub fn push_move(&mut self, ply: usize, mover: Color, m: Move, after: &Board) {
        debug_assert!(ply > 0, "the root is set, not played into");
        let slot = &mut self.slots[ply];
        let delta = Delta::of_move(mover, m);
        if delta.king_crossing().is_some() {
            slot.board.clone_from(after);
        }
        slot.change = Change::Move(delta);
        slot.ready = false;
    }

    /// A null move was made from ply `ply − 1`: notes it at `ply`.
    ///
    /// # Panics
    ///
    /// When `ply` is 0 or not below [`AccumulatorStack::plies`].
    #[inline]
    pub fn push_null(&mut self, ply: usize) {
        debug_assert!(ply > 0, "the root is set, not played into");
        let slot = &mut self.slots[ply];
        slot.change = Change::Null;
        slot.ready = false;
    }

    /// The accumulator at `ply`, whose position has `board`, brought up
    /// to date.
    ///
    /// # Panics
    ///
    /// When `ply` is not below [`AccumulatorStack::plies`], or (in debug
    /// builds) when the root was never set.
    #[inline]
    pub fn get(&mut self, ply: usize, net: &Net<H>, board: &Board) -> &Accumulator<H> {
        if !self.slots[ply].ready {
            self.bring_up_to_date(ply, net, board);
        }
        &self.slots[ply].acc
    }

    /// Makes the slot at `ply` (stale) up to date: the noted changes
    /// applied forward from the nearest ready slot above it, or a refresh
    /// from `board` when that is more than [`REFRESH_DISTANCE`] plies up.
    #[inline(never)]
    fn bring_up_to_date(&mut self, ply: usize, net: &Net<H>, board: &Board) {
        let Some(ready) = (0..ply)
            .rev()
            .take(REFRESH_DISTANCE)
            .find(|&p| self.slots[p].ready)
        else {
            let slot = &mut self.slots[ply];
            slot.acc = Accumulator::refresh(net, board);
            slot.ready = true;
            return;
        };
        for p in ready + 1..=ply {
            let (above, below) = self.slots.split_at_mut(p);
            let (parent, slot) = (&above[p - 1].acc, &mut below[0]);
            match slot.change {
                Change::Move(delta) => parent.apply_into(&mut slot.acc, net, delta, &slot.board),
                Change::Null => slot.acc = *parent,
            }
            slot.ready = true;
        }
    }
}
