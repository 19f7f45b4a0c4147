//! What a teaching search is asked to do: which algorithm, in which move
//! order, and what a leaf is worth. Nothing here searches.

use std::fmt;

/// The game-tree algorithms of the theory module, each a plain fixed-depth
/// search that returns the minimax value of the position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Every node, no window: the definition of the value.
    Minimax,
    /// Fail-soft negamax alpha-beta.
    AlphaBeta,
    /// NegaScout / principal variation search: null windows after the
    /// first move, a re-search when one of them fails high.
    NegaScout,
    /// SSS*, as MT-SSS*: MTD(+∞), a series of null-window tests over a
    /// memory of the tree, each lowering an upper bound.
    Sss,
    /// MTD(f): null-window tests over the same memory, starting from a
    /// first guess and converging from both sides.
    Mtdf,
}

impl Algorithm {
    /// Every algorithm, in the order tables and plots list them.
    pub const ALL: [Algorithm; 5] = [
        Algorithm::Minimax,
        Algorithm::AlphaBeta,
        Algorithm::NegaScout,
        Algorithm::Sss,
        Algorithm::Mtdf,
    ];

    /// The command-line name (`minimax`, `alphabeta`, `negascout`, `sss`,
    /// `mtdf`).
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Minimax => "minimax",
            Algorithm::AlphaBeta => "alphabeta",
            Algorithm::NegaScout => "negascout",
            Algorithm::Sss => "sss",
            Algorithm::Mtdf => "mtdf",
        }
    }

    /// The name a reader knows it by.
    pub fn title(self) -> &'static str {
        match self {
            Algorithm::Minimax => "minimax",
            Algorithm::AlphaBeta => "alpha-beta",
            Algorithm::NegaScout => "NegaScout/PVS",
            Algorithm::Sss => "SSS* (MT-SSS*)",
            Algorithm::Mtdf => "MTD(f)",
        }
    }

    /// Whether the algorithm keeps a memory of the tree between its passes
    /// (SSS* and MTD(f)).
    pub fn uses_memory(self) -> bool {
        matches!(self, Algorithm::Sss | Algorithm::Mtdf)
    }
}

/// The order in which a node's moves are searched. It never changes a
/// value, only how much is pruned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MoveOrdering {
    /// Move-generation order.
    None,
    /// Captures and queen promotions first, most valuable victim first,
    /// then the quiet moves in generation order.
    MvvLva,
    /// The engine's move picker: winning captures (MVV-LVA checked by SEE),
    /// killers, quiet checks, history, losing captures last; SSS* and
    /// MTD(f) also try the move that last cut a node off first.
    Full,
}

impl MoveOrdering {
    /// Every ordering, weakest first.
    pub const ALL: [MoveOrdering; 3] =
        [MoveOrdering::None, MoveOrdering::MvvLva, MoveOrdering::Full];

    /// The command-line name (`none`, `mvv-lva`, `full`).
    pub fn name(self) -> &'static str {
        match self {
            MoveOrdering::None => "none",
            MoveOrdering::MvvLva => "mvv-lva",
            MoveOrdering::Full => "full",
        }
    }
}

/// What a node at the horizon (depth 0) is worth.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Leaf {
    /// The static evaluation.
    Eval,
    /// A quiescence search: captures and queen promotions (all evasions in
    /// check) until the position is quiet, with stand-pat.
    Qsearch,
}

impl Leaf {
    /// The command-line name (`eval`, `qsearch`).
    pub fn name(self) -> &'static str {
        match self {
            Leaf::Eval => "eval",
            Leaf::Qsearch => "qsearch",
        }
    }
}

/// One teaching search: algorithm, ordering and leaf value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TheoryConfig {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// The move ordering.
    pub ordering: MoveOrdering,
    /// The value of a horizon node.
    pub leaf: Leaf,
}

impl TheoryConfig {
    /// `algorithm` with `ordering` and static-evaluation leaves.
    pub fn new(algorithm: Algorithm, ordering: MoveOrdering) -> TheoryConfig {
        TheoryConfig {
            algorithm,
            ordering,
            leaf: Leaf::Eval,
        }
    }
}

impl fmt::Display for TheoryConfig {
    /// `alpha-beta, mvv-lva ordering` (and `, qsearch leaves` when so).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.algorithm.title())?;
        if self.algorithm != Algorithm::Minimax {
            write!(f, ", {} ordering", self.ordering.name())?;
        }
        if self.leaf == Leaf::Qsearch {
            f.write_str(", qsearch leaves")?;
        }
        Ok(())
    }
}
