//! Typed handles on the weight groups declared in `layout.rs`.
//!
//! Every weight has an index in one flat space (`layout::ALL`). A group of
//! one weight is named by that index (`layout::TEMPO: usize`); a group of
//! several is named by a handle that knows its shape, and the terms ask it
//! for the index of one of its weights: `layout::PASSED_PAWN.at(rank)`,
//! `layout::PAWN_SHELTER.at(edge, rank)`. In debug builds the handle checks
//! that the weight is inside the group, so an offset can never run into the
//! next group unnoticed (the trace identity would still hold then, so no
//! other test would catch it). In release builds it is an addition.

use std::ops::Range;

/// An array group: `[S; len]` in `weights.rs`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Array {
    start: usize,
    len: usize,
}

impl Array {
    /// The group whose first weight has index `start`, with `len` weights.
    pub const fn new(start: usize, len: usize) -> Array {
        Array { start, len }
    }

    /// The index of the group's weight `i`.
    ///
    /// # Panics
    ///
    /// In debug builds, when `i` is not inside the group.
    #[inline(always)]
    pub const fn at(self, i: usize) -> usize {
        debug_assert!(i < self.len, "weight index beyond its array group");
        self.start + i
    }

    /// Number of weights in the group.
    pub const fn len(self) -> usize {
        self.len
    }

    /// Whether the group is empty (never, for a declared group).
    pub const fn is_empty(self) -> bool {
        self.len == 0
    }

    /// The indices of all the group's weights.
    pub const fn indices(self) -> Range<usize> {
        self.start..self.start + self.len
    }
}

/// A table group: `[[S; cols]; rows]` in `weights.rs`, row by row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Table {
    start: usize,
    rows: usize,
    cols: usize,
}

impl Table {
    /// The group whose first weight has index `start`, `rows` × `cols`.
    pub const fn new(start: usize, rows: usize, cols: usize) -> Table {
        Table { start, rows, cols }
    }

    /// The index of the weight in row `row`, column `col`.
    ///
    /// # Panics
    ///
    /// In debug builds, when the cell is not inside the table.
    #[inline(always)]
    pub const fn at(self, row: usize, col: usize) -> usize {
        debug_assert!(row < self.rows, "row beyond its table group");
        debug_assert!(col < self.cols, "column beyond its table group");
        self.start + row * self.cols + col
    }

    /// The indices of all the group's weights.
    pub const fn indices(self) -> Range<usize> {
        self.start..self.start + self.rows * self.cols
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_index_inside_their_group() {
        let a = Array::new(10, 3);
        assert_eq!((a.at(0), a.at(2), a.len()), (10, 12, 3));
        assert_eq!(a.indices(), 10..13);
        let t = Table::new(20, 2, 4);
        assert_eq!((t.at(0, 0), t.at(1, 3)), (20, 27));
        assert_eq!(t.indices(), 20..28);
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "beyond its array group")]
    fn an_array_offset_past_the_group_panics_in_debug_builds() {
        let _ = Array::new(10, 3).at(3);
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "column beyond its table group")]
    fn a_table_column_past_the_row_panics_in_debug_builds() {
        let _ = Table::new(20, 2, 4).at(0, 4);
    }
}
