//! Alpha-beta, in fail-soft negamax form.
//!
//! A node is searched with a window `(α, β)`: α is what the side to move is
//! already sure of elsewhere, β what the opponent is already sure of. Once
//! a move reaches β the opponent will never let the game come here, so the
//! remaining moves are cut off; the value returned is then only a lower
//! bound, and one at or below α only an upper bound. Inside the window it
//! is exact, and at the root, searched with the full window, it is the
//! minimax value. With the best move first the tree shrinks from `b^d` to
//! about `b^⌈d/2⌉ + b^⌊d/2⌋ - 1` leaves (Knuth and Moore).

use super::context::{Ctx, Start};
use super::tree::{Bound, Leaving};
use super::window::Window;
use crate::search::score::INFINITE;

/// The value of the current node at `ply`, `depth` plies above the
/// horizon, searched with `window` (fail-soft).
pub fn alphabeta(ctx: &mut Ctx<'_>, depth: u32, ply: u32, window: Window) -> i32 {
    ctx.enter(ply, &window);
    let how = node(ctx, depth, ply, window);
    ctx.leave(how)
}

fn node(ctx: &mut Ctx<'_>, depth: u32, ply: u32, mut window: Window) -> Leaving {
    ctx.pv_clear(ply);
    if ctx.aborted {
        return Leaving::ABORTED;
    }
    let moves = match ctx.start(ply, depth, None) {
        Start::Terminal(value, kind) => return Leaving::decided(value, kind),
        Start::Horizon => {
            let (value, bound) = ctx.horizon(ply, &window);
            return Leaving::leaf(value, bound);
        }
        Start::Moves(moves) => moves,
    };
    let alpha = window.alpha;
    let mut best = -INFINITE;
    for (i, &m) in moves.iter().enumerate() {
        ctx.play(m);
        let score = -alphabeta(ctx, depth - 1, ply + 1, window.child());
        ctx.undo();
        if ctx.aborted {
            return Leaving::ABORTED;
        }
        if score > best {
            best = score;
            if score > window.alpha {
                window.raise_alpha(score, ply);
                ctx.pv_update(ply, m);
            }
        }
        // Cut-off: the opponent has better than this node already.
        if score >= window.beta {
            ctx.fail_high(ply, depth, (i, moves.len()), &window, &moves[..=i]);
            break;
        }
    }
    Leaving::searched(best, Bound::of(best, alpha, window.beta), moves.len())
}
