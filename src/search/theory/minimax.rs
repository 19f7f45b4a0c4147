//! Minimax, in negamax form: every node, no window. The value of a node is
//! the largest of its children's values, each negated (what is good for
//! the opponent is bad for us); this is the definition every other
//! algorithm here must reproduce.

use super::context::{Ctx, Start};
use super::tree::{Bound, Leaving};
use super::window::Window;
use crate::search::score::INFINITE;

/// The minimax value of the current node at `ply`, `depth` plies above
/// the horizon.
pub fn minimax(ctx: &mut Ctx<'_>, depth: u32, ply: u32) -> i32 {
    ctx.enter(ply, &Window::FULL);
    let how = node(ctx, depth, ply);
    ctx.leave(how)
}

fn node(ctx: &mut Ctx<'_>, depth: u32, ply: u32) -> Leaving {
    ctx.pv_clear(ply);
    if ctx.aborted {
        return Leaving::ABORTED;
    }
    let moves = match ctx.start(ply, depth, None) {
        Start::Terminal(value, kind) => return Leaving::decided(value, kind),
        Start::Horizon => {
            let (value, bound) = ctx.horizon(ply, &Window::FULL);
            return Leaving::leaf(value, bound);
        }
        Start::Moves(moves) => moves,
    };
    let mut best = -INFINITE;
    for &m in &moves {
        ctx.play(m);
        let score = -minimax(ctx, depth - 1, ply + 1);
        ctx.undo();
        if ctx.aborted {
            return Leaving::ABORTED;
        }
        if score > best {
            best = score;
            ctx.pv_update(ply, m);
        }
    }
    Leaving::searched(best, Bound::Exact, moves.len())
}
