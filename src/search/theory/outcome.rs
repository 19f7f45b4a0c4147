//! What a teaching search reports: its value, best move and principal
//! variation, and what it cost ([`TheoryStats`]).

use shakmaty::Move;

/// Counters of one teaching search.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TheoryStats {
    /// Node visits of the fixed-depth tree (root, interior nodes and horizon
    /// nodes; a node visited again counts again).
    pub nodes: u64,
    /// Horizon nodes valued (static evaluations, or quiescence searches
    /// started). SSS* and MTD(f) value a leaf once and then remember it.
    pub leaves: u64,
    /// Nodes of the quiescence searches below the horizon.
    pub qnodes: u64,
    /// Fail-highs caused by a move (value ≥ β).
    pub fail_highs: u64,
    /// Of those, by the first move searched.
    pub first_move_fail_highs: u64,
    /// Fail-highs that left at least one move unsearched: the cut-offs
    /// (each is one pruned stub in a picture of alpha-beta).
    pub cutoffs: u64,
    /// NegaScout re-searches after a null window failed high.
    pub re_searches: u64,
    /// Null-window passes of SSS* and MTD(f) over the root.
    pub passes: u64,
    /// Visits answered from the memory of the tree.
    pub memory_hits: u64,
    /// Nodes spent finding the principal variation after the value was
    /// known (SSS*, MTD(f)); not part of `nodes`.
    pub pv_nodes: u64,
    /// Bytes of the memory of the tree at the end (SSS*, MTD(f)).
    pub memory_bytes: u64,
    /// Bytes of the positions on the search path at its deepest.
    pub path_bytes: u64,
}

impl TheoryStats {
    /// Adds another search's counters (memory: the larger).
    pub fn add(&mut self, other: &TheoryStats) {
        self.nodes += other.nodes;
        self.leaves += other.leaves;
        self.qnodes += other.qnodes;
        self.fail_highs += other.fail_highs;
        self.first_move_fail_highs += other.first_move_fail_highs;
        self.cutoffs += other.cutoffs;
        self.re_searches += other.re_searches;
        self.passes += other.passes;
        self.memory_hits += other.memory_hits;
        self.pv_nodes += other.pv_nodes;
        self.memory_bytes = self.memory_bytes.max(other.memory_bytes);
        self.path_bytes = self.path_bytes.max(other.path_bytes);
    }

    /// Memory used: the tree's memory plus the search path.
    pub fn memory(&self) -> u64 {
        self.memory_bytes + self.path_bytes
    }

    /// Share of fail-highs made by the first move (`None`: none at all).
    pub fn first_move_rate(&self) -> Option<f64> {
        (self.fail_highs > 0).then(|| self.first_move_fail_highs as f64 / self.fail_highs as f64)
    }
}

/// The result of a teaching search.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TheoryResult {
    /// The minimax value of the root from its side to move (internal
    /// units: centipawns, or `±(MATE - plies)`); `None` when the search
    /// was stopped before it knew it.
    pub value: Option<i32>,
    /// The best move (`None`: stopped, or no legal move).
    pub best: Option<Move>,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// The depth searched.
    pub depth: u32,
    /// What it cost.
    pub stats: TheoryStats,
}
