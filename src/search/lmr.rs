//! The base late-move reduction, `LMR_BASE + ln(depth) ln(moves) /
//! LMR_DIVISOR` truncated, read from a table filled once per process: two
//! logarithms and a division per reduced move were a visible cost.

use std::sync::LazyLock;

use super::params::{LMR_BASE, LMR_DIVISOR};

/// Depths and move numbers the table covers; beyond it the formula runs.
const TABLE_SIZE: usize = 64;

static TABLE: LazyLock<[[i32; TABLE_SIZE]; TABLE_SIZE]> = LazyLock::new(|| {
    let mut table = [[0; TABLE_SIZE]; TABLE_SIZE];
    for (depth, row) in table.iter_mut().enumerate() {
        for (moves, r) in row.iter_mut().enumerate() {
            *r = formula(depth as i32, moves);
        }
    }
    table
});

/// The reduction computed directly (the table holds exactly these values).
fn formula(depth: i32, moves: usize) -> i32 {
    let r = LMR_BASE + (depth as f64).ln() * (moves as f64).ln() / LMR_DIVISOR;
    r as i32
}

/// The base late-move reduction for a depth and move number.
pub(super) fn lmr_reduction(depth: i32, moves: usize) -> i32 {
    match usize::try_from(depth) {
        Ok(d) if d < TABLE_SIZE && moves < TABLE_SIZE => TABLE[d][moves],
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
}
