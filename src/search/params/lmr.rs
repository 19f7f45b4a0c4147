//! The base late-move reduction, `LMR_BASE + ln(depth) ln(moves) /
//! LMR_DIVISOR` truncated, read from a table filled once per process: two
//! logarithms and a division per reduced move were a visible cost.
//!
//! In the `spsa` build the two tunables can change at run time: the table
//! holds atomics and [`refresh`] refills it (a relaxed atomic load is a
//! plain load on x86-64).

use std::sync::LazyLock;
#[cfg(feature = "spsa")]
use std::sync::atomic::{AtomicI32, Ordering};

use super::values::{LMR_BASE, LMR_DIVISOR};

/// Depths and move numbers the table covers; beyond it the formula runs.
const TABLE_SIZE: usize = 64;

/// One entry of the table.
#[cfg(not(feature = "spsa"))]
type Entry = i32;
#[cfg(feature = "spsa")]
type Entry = AtomicI32;

static TABLE: LazyLock<[[Entry; TABLE_SIZE]; TABLE_SIZE]> = LazyLock::new(|| {
    std::array::from_fn(|depth| {
        std::array::from_fn(|moves| new_entry(formula(depth as i32, moves)))
    })
});

/// An entry holding `r`.
#[cfg(not(feature = "spsa"))]
fn new_entry(r: i32) -> Entry {
    r
}
#[cfg(feature = "spsa")]
fn new_entry(r: i32) -> Entry {
    AtomicI32::new(r)
}

/// The reduction computed directly (the table holds exactly these values).
fn formula(depth: i32, moves: usize) -> i32 {
    let base = f64::from(LMR_BASE.get()) / 100.0;
    let divisor = f64::from(LMR_DIVISOR.get()) / 100.0;
    let r = base + (depth as f64).ln() * (moves as f64).ln() / divisor;
    r as i32
}

/// The table entry for `depth` and `moves` (both below [`TABLE_SIZE`]).
#[inline(always)]
fn entry(depth: usize, moves: usize) -> i32 {
    #[cfg(not(feature = "spsa"))]
    let r = TABLE[depth][moves];
    #[cfg(feature = "spsa")]
    let r = TABLE[depth][moves].load(Ordering::Relaxed);
    r
}

/// Refills the table from the current `LMR_BASE` and `LMR_DIVISOR` (the
/// `spsa` build, after `setoption` changed one of them).
#[cfg(feature = "spsa")]
pub(super) fn refresh() {
    for (depth, row) in TABLE.iter().enumerate() {
        for (moves, r) in row.iter().enumerate() {
            r.store(formula(depth as i32, moves), Ordering::Relaxed);
        }
    }
}

/// The base late-move reduction for a depth and move number.
pub(in crate::search) fn lmr_reduction(depth: i32, moves: usize) -> i32 {
    match usize::try_from(depth) {
        Ok(d) if d < TABLE_SIZE && moves < TABLE_SIZE => entry(d, moves),
        _ => formula(depth, moves),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_matches_the_formula() {
        for depth in -2..100 {
            for moves in 0..300 {
                assert_eq!(
                    lmr_reduction(depth, moves),
                    formula(depth, moves),
                    "{depth} {moves}"
                );
            }
        }
    }

    #[test]
    fn hundredths_give_the_old_fractions_exactly() {
        // LMR_BASE 75 and LMR_DIVISOR 225 were the f64 constants 0.75 and
        // 2.25: the same numbers, so the same table.
        assert_eq!(f64::from(LMR_BASE.spec().default) / 100.0, 0.75);
        assert_eq!(f64::from(LMR_DIVISOR.spec().default) / 100.0, 2.25);
    }
}
