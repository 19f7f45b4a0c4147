//! NegaScout (Reinefeld), known in engines as principal variation search.
//!
//! The first move is searched with the full window; every later move only
//! with the null window `(α, α + 1)`: a cheap test of "is it better than
//! what I have?". Usually it is not, and the test proves that with fewer
//! nodes than a full search would. When a test says it is (α < value < β)
//! the move is searched again with the window `(value, β)` to learn by how
//! much: a re-search. The value is the same as alpha-beta's; the gain
//! depends on the first move usually being the best.
//!
//! Below a node whose children are static-evaluation leaves, a test's value
//! is already exact (fail-soft), so no re-search is needed there.

use super::config::Leaf;
use super::context::{Ctx, Start};
use super::tree::{Bound, Leaving};
use super::window::Window;
use crate::search::score::INFINITE;

/// The value of the current node at `ply`, `depth` plies above the
/// horizon, searched with `window` (fail-soft).
pub fn negascout(ctx: &mut Ctx<'_>, depth: u32, ply: u32, window: Window) -> i32 {
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
    let exact_children = depth == 1 && ctx.config.leaf == Leaf::Eval;
    let alpha = window.alpha;
    let mut best = -INFINITE;
    for (i, &m) in moves.iter().enumerate() {
        ctx.play(m);
        let score = if i == 0 {
            -negascout(ctx, depth - 1, ply + 1, window.child())
        } else {
            // Null-window test: can this move beat α?
            let test = -negascout(ctx, depth - 1, ply + 1, window.null_child());
            if test > window.alpha && test < window.beta && !exact_children && !ctx.aborted {
                // Re-search: it can; by how much?
                ctx.stats.re_searches += 1;
                let mut wider = window;
                wider.raise_alpha(test, ply);
                -negascout(ctx, depth - 1, ply + 1, wider.child())
            } else {
                test
            }
        };
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
        if score >= window.beta {
            ctx.fail_high(ply, depth, (i, moves.len()), &window, &moves[..=i]);
            break;
        }
    }
    Leaving::searched(best, Bound::of(best, alpha, window.beta), moves.len())
}
