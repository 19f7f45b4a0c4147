//! MT, the memory-enhanced test (Plaat, Schaeffer, Pijls, de Bruin): a
//! null-window alpha-beta search over the [`Memory`] of the tree that
//! answers "is the value at least γ?".
//!
//! It returns `g`: when `g ≥ γ` the value is at least `g`, else at most `g`.
//! Every node stores the bound it proved, so a later test with another γ
//! skips what is already known: a node whose lower bound is at least the
//! new γ, or whose upper bound is below it, answers at once. SSS* and
//! MTD(f) (`mtd.rs`) are series of such tests.

use shakmaty::Move;

use super::config::MoveOrdering;
use super::context::{Ctx, Start};
use super::memory::{Memory, Slot};
use super::outcome::TheoryStats;
use super::tree::{Bound, Leaving};
use super::window::Window;
use crate::search::score::INFINITE;

/// The test at the node in `slot` (the current position, at `ply`, `depth`
/// plies above the horizon) with the null window `window` = `(γ - 1, γ)`.
pub fn mt(
    ctx: &mut Ctx<'_>,
    mem: &mut Memory,
    slot: Slot,
    depth: u32,
    ply: u32,
    window: Window,
) -> i32 {
    ctx.enter(ply, &window);
    let how = node(ctx, mem, slot, depth, ply, window);
    let (lower, upper) = mem.bounds(slot);
    ctx.leave(how.with_memory(lower, upper))
}

fn node(
    ctx: &mut Ctx<'_>,
    mem: &mut Memory,
    slot: Slot,
    depth: u32,
    ply: u32,
    window: Window,
) -> Leaving {
    if ctx.aborted {
        return Leaving::ABORTED;
    }
    let gamma = window.beta;
    // What the memory already proves.
    let (lower, upper) = mem.bounds(slot);
    if lower >= gamma {
        ctx.stats.memory_hits += 1;
        return Leaving::remembered(lower, Bound::Lower);
    }
    if upper < gamma {
        ctx.stats.memory_hits += 1;
        return Leaving::remembered(upper, Bound::Upper);
    }
    let (first, count) = match mem.children(slot) {
        Some(block) => block,
        None => match ctx.start(ply, depth, None) {
            Start::Terminal(value, kind) => {
                mem.set_exact(slot, value);
                return Leaving::decided(value, kind);
            }
            Start::Horizon => {
                let (value, bound) = ctx.horizon(ply, &window);
                store(mem, slot, value, bound);
                return Leaving::leaf(value, bound);
            }
            Start::Moves(moves) => {
                if !mem.expand(slot, &moves) {
                    ctx.aborted = true;
                    return Leaving::ABORTED;
                }
                ctx.stats.memory_bytes = mem.bytes();
                (mem.children(slot).map_or(0, |b| b.0), moves.len())
            }
        },
    };
    let order = child_order(
        count,
        mem.best(slot)
            .filter(|_| ctx.config.ordering == MoveOrdering::Full),
    );
    let learning = ctx.config.ordering == MoveOrdering::Full;
    let mut tried: Vec<Move> = Vec::new();
    let mut g = -INFINITE;
    let mut best = None;
    for (k, j) in order.enumerate() {
        let child = first + j;
        let Some(m) = mem.mv(child) else {
            continue;
        };
        if learning {
            tried.push(m);
        }
        ctx.play(m);
        let value = -mt(ctx, mem, child, depth - 1, ply + 1, window.child());
        ctx.undo();
        if ctx.aborted {
            return Leaving::ABORTED;
        }
        if value > g {
            g = value;
            best = Some(j);
        }
        if g >= gamma {
            ctx.fail_high(ply, depth, (k, count), &window, &tried);
            break;
        }
    }
    if g >= gamma {
        mem.set_lower(slot, g, best);
    } else {
        mem.set_upper(slot, g);
    }
    Leaving::searched(g, Bound::of(g, window.alpha, window.beta), count)
}

/// Stores a fail-soft result as the bound it is.
fn store(mem: &mut Memory, slot: Slot, value: i32, bound: Bound) {
    match bound {
        Bound::Exact => mem.set_exact(slot, value),
        Bound::Lower => mem.set_lower(slot, value, None),
        Bound::Upper => mem.set_upper(slot, value),
    }
}

/// The children `0..count` in search order: `first` (when given) first,
/// then the others in stored order.
fn child_order(count: usize, first: Option<usize>) -> impl Iterator<Item = usize> {
    first
        .into_iter()
        .chain((0..count).filter(move |&j| Some(j) != first))
}

/// The principal variation below the root, whose value is `value`, found
/// with further tests over the memory (counted as `pv_nodes`, not
/// recorded): at a node of exact value `v`, every child has a value of at
/// least `-v`, and the one whose test "at least `-v + 1`?" fails has
/// exactly `-v`: that is the move.
pub fn principal_variation(
    ctx: &mut Ctx<'_>,
    mem: &mut Memory,
    depth: u32,
    value: i32,
) -> Vec<Move> {
    let tree = ctx.tree.take();
    let before = ctx.stats;
    let mut pv = Vec::new();
    let (mut slot, mut v) = (Memory::ROOT, value);
    for ply in 0..depth {
        let Some((first, count)) = mem.children(slot) else {
            break;
        };
        let mut found = None;
        for child in first..first + count {
            let Some(m) = mem.mv(child) else {
                continue;
            };
            ctx.play(m);
            let g = -mt(
                ctx,
                mem,
                child,
                depth - ply - 1,
                ply + 1,
                Window::test(v).child(),
            );
            ctx.undo();
            if ctx.aborted {
                break;
            }
            // The child's value is at least -v; it is exactly -v unless it
            // is at least -v + 1, i.e. unless our side of it is below v.
            if g >= v {
                found = Some((child, m));
                break;
            }
        }
        let Some((child, m)) = found else {
            break;
        };
        pv.push(m);
        ctx.play(m);
        slot = child;
        v = -v;
    }
    for _ in 0..pv.len() {
        ctx.undo();
    }
    let spent = (ctx.stats.nodes - before.nodes) + (ctx.stats.qnodes - before.qnodes);
    ctx.stats = TheoryStats {
        pv_nodes: before.pv_nodes + spent,
        memory_bytes: ctx.stats.memory_bytes,
        ..before
    };
    ctx.tree = tree;
    pv
}
