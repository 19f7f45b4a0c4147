//! The α/β window of a node, with where each bound came from, so that a
//! cut-off can be called shallow or deep.
//!
//! In negamax a child is searched with `(-β, -α)`: the child's β is its
//! parent's α. A bound set at ply `o` (a node there raised its α) reaches
//! the plies `o + 1, o + 3, …` as their β. A cut-off at ply `p` is
//! **shallow** when its β was set by the parent (`p - o = 1`), **deep**
//! when it came from further up (`p - o ≥ 3` in plain alpha-beta; a
//! NegaScout null window `(α, α + 1)` derives both bounds from α, so there
//! a bound also reaches `o + 2`), and a **test** cut-off when the bound
//! came from outside the tree: the γ of an MTD test (SSS*, MTD(f)) or a
//! root window.

use super::tree::{CutDepth, CutSide};
use crate::search::score::INFINITE;

/// A search window with the ply that set each bound (`None`: the bound was
/// given from outside the tree).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    /// Lower bound: the searcher already has this much.
    pub alpha: i32,
    /// Upper bound: the opponent already has a way to hold the value here.
    pub beta: i32,
    /// The ply whose node set `alpha`.
    pub alpha_from: Option<u32>,
    /// The ply whose node set `beta`.
    pub beta_from: Option<u32>,
}

impl Window {
    /// The full window `(-∞, +∞)`.
    pub const FULL: Window = Window {
        alpha: -INFINITE,
        beta: INFINITE,
        alpha_from: None,
        beta_from: None,
    };

    /// The null window `(γ - 1, γ)` of a test "is the value at least γ?".
    pub fn test(gamma: i32) -> Window {
        Window {
            alpha: gamma - 1,
            beta: gamma,
            alpha_from: None,
            beta_from: None,
        }
    }

    /// The window of a child: `(-β, -α)`, the origins swapped with it.
    pub fn child(&self) -> Window {
        Window {
            alpha: -self.beta,
            beta: -self.alpha,
            alpha_from: self.beta_from,
            beta_from: self.alpha_from,
        }
    }

    /// The null window `(-α - 1, -α)` a NegaScout child is first searched
    /// with: "can this move beat α?".
    pub fn null_child(&self) -> Window {
        Window {
            alpha: -self.alpha - 1,
            beta: -self.alpha,
            alpha_from: self.alpha_from,
            beta_from: self.alpha_from,
        }
    }

    /// The node at `ply` found `score > α`: α becomes `score`.
    pub fn raise_alpha(&mut self, score: i32, ply: u32) {
        self.alpha = score;
        self.alpha_from = Some(ply);
    }

    /// How a cut-off at `ply` (value ≥ β) is called.
    pub fn cut_depth(&self, ply: u32) -> CutDepth {
        match self.beta_from {
            None => CutDepth::Test,
            Some(o) if ply.saturating_sub(o) <= 1 => CutDepth::Shallow,
            Some(_) => CutDepth::Deep,
        }
    }
}

/// Which cut-off a fail-high is, seen from the root player: at a MAX node
/// (even ply, the root's side to move) it is a β-cut, at a MIN node an α-cut.
pub fn cut_side(ply: u32) -> CutSide {
    if ply.is_multiple_of(2) {
        CutSide::Beta
    } else {
        CutSide::Alpha
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_from_the_parent_cut_shallow_and_from_further_up_deep() {
        // Root (ply 0) raises α: the ply-1 child's β comes from ply 0.
        let mut root = Window::FULL;
        root.raise_alpha(30, 0);
        let one = root.child();
        assert_eq!((one.alpha, one.beta), (-INFINITE, -30));
        assert_eq!(one.cut_depth(1), CutDepth::Shallow);
        // Ply 1 has not raised α: ply 2 sees β = +∞ from outside, ply 3 the
        // root's bound, two MIN/MAX levels down: a deep cut-off.
        let two = one.child();
        let three = two.child();
        assert_eq!(three.beta, -30);
        assert_eq!(three.cut_depth(3), CutDepth::Deep);
        assert_eq!(Window::test(5).child().child().cut_depth(2), CutDepth::Test);
        assert_eq!(cut_side(0), CutSide::Beta);
        assert_eq!(cut_side(3), CutSide::Alpha);
    }
}
