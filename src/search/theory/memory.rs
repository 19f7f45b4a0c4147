//! The memory of the tree that SSS* and MTD(f) search over: for every node
//! visited, the bounds proven on its value so far and its children.
//!
//! Textbook MT keeps these bounds in a transposition table keyed by the
//! position. Here they are kept per node of the *tree* (an arena, a node's
//! children in one block in search order), so that a position reached by
//! two move orders, or with a different repetition history, is two nodes,
//! exactly as minimax sees it: the value found equals the minimax value of
//! the tree, never one borrowed from a transposition.
//!
//! ```text
//!  entries: [root | children of root ........ | children of root's 1st child ... ]
//!                   ^ first                       ^ entries[first].first
//! ```

use shakmaty::Move;

use crate::search::score::INFINITE;

/// No child block yet.
const NONE: u32 = u32::MAX;
/// No best child yet.
const NO_BEST: u16 = u16::MAX;

/// One node's memory.
#[derive(Debug, Clone, Copy)]
struct Entry {
    /// The value is at least this.
    lower: i32,
    /// The value is at most this.
    upper: i32,
    /// Index of the first child (`NONE`: not expanded).
    first: u32,
    /// Number of children.
    count: u16,
    /// The child that last reached the test value (tried first next time).
    best: u16,
    /// The move from the parent (`None` at the root).
    mv: Option<Move>,
}

impl Entry {
    const UNKNOWN: Entry = Entry {
        lower: -INFINITE,
        upper: INFINITE,
        first: NONE,
        count: 0,
        best: NO_BEST,
        mv: None,
    };
}

/// Index of a node in the [`Memory`].
pub type Slot = usize;

/// The memory: the root is slot 0.
#[derive(Debug, Clone)]
pub struct Memory {
    entries: Vec<Entry>,
    /// Most entries allowed.
    limit: usize,
}

impl Memory {
    /// An empty memory (just the root) that may grow to `limit` entries.
    pub fn new(limit: usize) -> Memory {
        Memory {
            entries: vec![Entry::UNKNOWN],
            limit,
        }
    }

    /// The root's slot.
    pub const ROOT: Slot = 0;

    /// The bounds `(lower, upper)` proven for `slot`.
    pub fn bounds(&self, slot: Slot) -> (i32, i32) {
        let e = &self.entries[slot];
        (e.lower, e.upper)
    }

    /// The value of `slot` is known to be `value`.
    pub fn set_exact(&mut self, slot: Slot, value: i32) {
        let e = &mut self.entries[slot];
        e.lower = value;
        e.upper = value;
    }

    /// The value of `slot` is at least `value`; `best` (a child index)
    /// proved it.
    pub fn set_lower(&mut self, slot: Slot, value: i32, best: Option<usize>) {
        let e = &mut self.entries[slot];
        e.lower = e.lower.max(value);
        if let Some(b) = best {
            e.best = b as u16;
        }
    }

    /// The value of `slot` is at most `value`.
    pub fn set_upper(&mut self, slot: Slot, value: i32) {
        let e = &mut self.entries[slot];
        e.upper = e.upper.min(value);
    }

    /// The child block of `slot`: first slot and count (`None`: not expanded).
    pub fn children(&self, slot: Slot) -> Option<(Slot, usize)> {
        let e = &self.entries[slot];
        (e.first != NONE).then_some((e.first as Slot, usize::from(e.count)))
    }

    /// The child index that last proved a lower bound at `slot`.
    pub fn best(&self, slot: Slot) -> Option<usize> {
        let b = self.entries[slot].best;
        (b != NO_BEST).then_some(usize::from(b))
    }

    /// The move that leads to `slot`.
    pub fn mv(&self, slot: Slot) -> Option<Move> {
        self.entries[slot].mv
    }

    /// Gives `slot` one child per move, in this order. Returns false,
    /// changing nothing, when the memory would outgrow its limit.
    pub fn expand(&mut self, slot: Slot, moves: &[Move]) -> bool {
        let first = self.entries.len();
        if first + moves.len() > self.limit || first > NONE as usize - moves.len() {
            return false;
        }
        self.entries.extend(moves.iter().map(|&m| Entry {
            mv: Some(m),
            ..Entry::UNKNOWN
        }));
        let e = &mut self.entries[slot];
        e.first = first as u32;
        e.count = moves.len() as u16;
        true
    }

    /// Bytes the memory holds.
    pub fn bytes(&self) -> u64 {
        (self.entries.len() * size_of::<Entry>()) as u64
    }
}
