//! Node kinds and the search window.
//!
//! A node's kind is a zero-sized marker type, so the compiler builds one
//! copy of the search per kind with the tests on the kind folded away:
//!
//! - [`Root`]: the root, searching the root moves (MultiPV, reports); no
//!   TT cutoff, pruning or reduction there.
//! - [`Pv`]: a node on the principal variation, with an open window.
//! - [`NonPv`]: every other node, searched with a zero window to prove that
//!   it is no better (or no worse) than a bound.

use super::score::INFINITE;

/// What the search needs to know about a node's kind.
pub(super) trait NodeKind {
    /// On the principal variation (an open window).
    const PV: bool;
    /// The root.
    const ROOT: bool;
    /// The kind of a child searched with the same kind of window (the first
    /// move of a PV node is a PV node).
    type Next: NodeKind;
}

/// The root node.
pub(super) struct Root;
/// A node on the principal variation.
pub(super) struct Pv;
/// A zero-window node.
pub(super) struct NonPv;

impl NodeKind for Root {
    const PV: bool = true;
    const ROOT: bool = true;
    type Next = Pv;
}

impl NodeKind for Pv {
    const PV: bool = true;
    const ROOT: bool = false;
    type Next = Pv;
}

impl NodeKind for NonPv {
    const PV: bool = false;
    const ROOT: bool = false;
    type Next = NonPv;
}

/// How a node is entered, besides its kind and window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct NodeFlags {
    /// An expected cut node: a zero-window node whose parent expects it to
    /// fail high (the node after a move that was reduced, or a sibling of
    /// an expected all node), where late moves are reduced more.
    pub cut: bool,
    /// A null move may be tried (not right after one, nor in a
    /// verification or singular-extension search).
    pub null_ok: bool,
}

impl NodeFlags {
    /// The root, and every PV node.
    pub const PV: NodeFlags = NodeFlags {
        cut: false,
        null_ok: true,
    };

    /// A child with a null move allowed; `cut` says if it is an expected
    /// cut node.
    pub fn child(cut: bool) -> NodeFlags {
        NodeFlags { cut, null_ok: true }
    }

    /// A node searched without null moves.
    pub fn no_null(cut: bool) -> NodeFlags {
        NodeFlags {
            cut,
            null_ok: false,
        }
    }
}

/// The bounds `(alpha, beta)` a node is searched with, from the side to
/// move's view: scores at or below alpha fail low, at or above beta fail
/// high.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Window {
    /// The score the side to move already has elsewhere.
    pub alpha: i32,
    /// The score the opponent already has elsewhere.
    pub beta: i32,
}

impl Window {
    /// The window wider than every score.
    pub const FULL: Window = Window {
        alpha: -INFINITE,
        beta: INFINITE,
    };

    /// The window `(alpha, beta)`.
    #[inline]
    pub fn new(alpha: i32, beta: i32) -> Window {
        debug_assert!(alpha < beta, "an empty window ({alpha}, {beta})");
        Window { alpha, beta }
    }

    /// The same window from the child's side: `(-beta, -alpha)`.
    #[inline]
    pub fn child(self) -> Window {
        Window::new(-self.beta, -self.alpha)
    }

    /// The zero window just above alpha, from the child's side: enough to
    /// prove a move no better than alpha.
    #[inline]
    pub fn zero_child(self) -> Window {
        Window::new(-self.alpha - 1, -self.alpha)
    }

    /// Whether the window holds a single score (a non-PV node's window).
    #[inline]
    pub fn is_zero(self) -> bool {
        self.beta - self.alpha == 1
    }
}
