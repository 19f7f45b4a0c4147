//! The search stack: one [`Frame`] per ply from the root, holding what a
//! node leaves for the nodes around it (its static evaluation, the move it
//! played, its killers, its principal variation).
//!
//! Frames are reached by ply; earlier plies through [`Stack::back`], which
//! says `None` before the root instead of letting `ply - n` underflow.

use arrayvec::ArrayVec;
use shakmaty::{Move, Piece};

use super::ordering::history::{ContinuationKey, Continuations};
use super::score::MAX_PLY;

/// A principal variation.
pub(super) type Line = ArrayVec<Move, MAX_PLY>;

/// What the search keeps for one ply.
#[derive(Debug, Clone, Default)]
pub(super) struct Frame {
    /// The node's static evaluation (`-INFINITE` in check; the root has
    /// none and keeps 0).
    pub static_eval: i32,
    /// The move this node is searching (`None` for a null move).
    pub played: Option<Move>,
    /// The piece that made it.
    pub moved: Option<Piece>,
    /// Two quiet moves that caused a beta cutoff at this ply, newest first.
    pub killers: [Option<Move>; 2],
    /// The node's principal variation.
    pub pv: Line,
    /// A move the node must not search: set while a singular extension
    /// test searches the node's other moves.
    pub excluded: Option<Move>,
    /// Double extensions on the path to this node (they are limited).
    pub double_extensions: u8,
}

impl Frame {
    /// Records a quiet move that caused a cutoff as the first killer.
    pub fn add_killer(&mut self, m: Move) {
        if self.killers[0] != Some(m) {
            self.killers[1] = self.killers[0];
            self.killers[0] = Some(m);
        }
    }
}

/// One frame per ply, `0..=MAX_PLY`; a fresh stack per search.
pub(super) struct Stack {
    frames: Box<[Frame]>,
}

impl Stack {
    /// A stack of empty frames.
    pub fn new() -> Stack {
        Stack {
            frames: vec![Frame::default(); MAX_PLY + 1].into_boxed_slice(),
        }
    }

    /// The frame at `ply`.
    #[inline]
    pub fn at(&self, ply: usize) -> &Frame {
        &self.frames[ply]
    }

    /// The frame at `ply`, to change.
    #[inline]
    pub fn at_mut(&mut self, ply: usize) -> &mut Frame {
        &mut self.frames[ply]
    }

    /// The frame `n` plies before `ply`, if that is not before the root.
    #[inline]
    pub fn back(&self, ply: usize, n: usize) -> Option<&Frame> {
        ply.checked_sub(n).map(|p| &self.frames[p])
    }

    /// The moves one and two plies before `ply`, as the continuation
    /// history keys them.
    #[inline]
    pub fn continuations(&self, ply: usize) -> Continuations {
        let key = |n| {
            let frame = self.back(ply, n)?;
            Some(ContinuationKey::new(frame.moved?, frame.played?))
        };
        Continuations([key(1), key(2)])
    }

    /// Makes the PV at `ply` the move `m` followed by the PV of `ply + 1`
    /// (cut off if it cannot fit, which a line below the root never
    /// reaches).
    #[inline]
    pub fn extend_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.frames.split_at_mut(ply + 1);
        let pv = &mut head[ply].pv;
        pv.clear();
        pv.push(m);
        pv.try_extend_from_slice(&tail[0].pv).ok();
    }
}
