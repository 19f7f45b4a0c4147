//! One teaching search, start to end: the chosen algorithm from the root,
//! then the best move, the principal variation and the costs.

use super::alphabeta::alphabeta;
use super::config::{Algorithm, TheoryConfig};
use super::context::Ctx;
use super::limits::TheoryLimits;
use super::memory::Memory;
use super::minimax::minimax;
use super::mt::principal_variation;
use super::mtd::mtd;
use super::negascout::negascout;
use super::outcome::TheoryResult;
use super::tree::SearchTree;
use super::window::Window;
use crate::chess::Position;
use crate::search::score::INFINITE;

/// Searches `pos` to `depth` plies (at least 1) with `config` under
/// `limits`, recording the tree into `tree` when given (its principal
/// variation marked).
///
/// Every algorithm returns the same value: the minimax value of the
/// position at that depth, with draws by the rules (at every node but the
/// root), checkmate and stalemate scored as the engine scores them, and the
/// static evaluation (or quiescence) at the horizon. A search stopped by
/// `limits` (or by a full `tree`) returns no value.
pub fn search(
    pos: &Position,
    depth: u32,
    config: TheoryConfig,
    limits: TheoryLimits<'_>,
    mut tree: Option<&mut SearchTree>,
) -> TheoryResult {
    let depth = depth.max(1);
    let mut ctx = Ctx::new(pos, config, limits, tree.as_deref_mut());
    let (value, pv) = match config.algorithm {
        Algorithm::Minimax => {
            let v = minimax(&mut ctx, depth, 0);
            (v, ctx.root_pv())
        }
        Algorithm::AlphaBeta => {
            let v = alphabeta(&mut ctx, depth, 0, Window::FULL);
            (v, ctx.root_pv())
        }
        Algorithm::NegaScout => {
            let v = negascout(&mut ctx, depth, 0, Window::FULL);
            (v, ctx.root_pv())
        }
        Algorithm::Sss | Algorithm::Mtdf => {
            let mut mem = Memory::new(limits.max_memory_entries);
            let guess = if config.algorithm == Algorithm::Sss {
                INFINITE
            } else {
                ctx.evaluate()
            };
            match mtd(&mut ctx, &mut mem, depth, guess) {
                Some(v) => {
                    let pv = principal_variation(&mut ctx, &mut mem, depth, v);
                    ctx.stats.memory_bytes = mem.bytes();
                    (v, pv)
                }
                None => (0, Vec::new()),
            }
        }
    };
    ctx.finish_stats();
    let aborted = ctx.aborted;
    let stats = ctx.stats;
    drop(ctx);
    if aborted {
        return TheoryResult {
            depth,
            stats,
            ..TheoryResult::default()
        };
    }
    if let Some(tree) = tree {
        tree.mark_pv(&pv);
    }
    TheoryResult {
        value: Some(value),
        best: pv.first().copied(),
        pv,
        depth,
        stats,
    }
}
