//! The MTD family: a value found by a series of null-window tests ([`mt`])
//! over one memory of the tree, each test narrowing `lower ≤ value ≤ upper`
//! until the two meet.
//!
//! - **SSS\*** (Stockman), in Plaat's MT-SSS* form: MTD(+∞). The first test
//!   asks "at least +∞?", fails, and returns an upper bound; each next test
//!   asks "at least that bound?" and lowers it, until a test succeeds: the
//!   value is the last bound. It never values a leaf that alpha-beta with
//!   the same move order would skip, but it revisits interior nodes on every
//!   pass and must remember the whole tree it has seen.
//! - **MTD(f)**: the same from a first guess `f` (here the static
//!   evaluation of the root), moving up or down, so a good guess needs only
//!   a few passes.

use super::context::Ctx;
use super::memory::Memory;
use super::mt::mt;
use super::window::Window;
use crate::search::score::INFINITE;

/// The value of the root by tests over `mem`, starting from the guess
/// `first_guess` (`INFINITE` for SSS*); `None` when stopped.
pub fn mtd(ctx: &mut Ctx<'_>, mem: &mut Memory, depth: u32, first_guess: i32) -> Option<i32> {
    let (mut lower, mut upper) = (-INFINITE, INFINITE);
    let mut g = first_guess;
    while lower < upper {
        // Test "value ≥ γ?" just above what is known from below.
        let gamma = if g == lower { g + 1 } else { g };
        ctx.stats.passes += 1;
        g = mt(ctx, mem, Memory::ROOT, depth, 0, Window::test(gamma));
        if ctx.aborted {
            return None;
        }
        if g < gamma {
            upper = g;
        } else {
            lower = g;
        }
    }
    Some(g)
}
