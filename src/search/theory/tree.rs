//! The tree a teaching search visited, recorded node by node for pictures
//! (`shears tree`) and for tests.
//!
//! Nodes are kept in one arena, root first; a node's children are the
//! moves the search tried from it, in the order it tried them. A node
//! visited again (a NegaScout re-search, a later pass of SSS* or MTD(f)) is
//! the same node with one more [`Visit`]. Moves it never tried are not
//! recorded: they are the pruned part (`legal - children`), which the
//! search's [`Cut`] names.
//!
//! Values and windows are recorded as the search saw them (negamax: from the
//! side to move at the node); pictures turn them round as they need.

use shakmaty::Move;

/// Index of a node in a [`SearchTree`].
pub type NodeId = usize;

/// Marks a path entry whose node was not recorded (the tree was full).
const UNRECORDED: NodeId = NodeId::MAX;

/// What a returned value says about the true value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// The value itself.
    Exact,
    /// The value is at least this (the node failed high).
    Lower,
    /// The value is at most this (the node failed low).
    Upper,
}

impl Bound {
    /// What a fail-soft search of window `(alpha, beta)` that returned
    /// `value` knows.
    pub fn of(value: i32, alpha: i32, beta: i32) -> Bound {
        if value >= beta {
            Bound::Lower
        } else if value <= alpha {
            Bound::Upper
        } else {
            Bound::Exact
        }
    }

    /// The same knowledge seen from the other side (a negated value).
    pub fn flipped(self) -> Bound {
        match self {
            Bound::Exact => Bound::Exact,
            Bound::Lower => Bound::Upper,
            Bound::Upper => Bound::Lower,
        }
    }
}

/// What kind of node it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeKind {
    /// Not known yet (a node only ever answered from memory).
    Unknown,
    /// Searched through its moves.
    Interior,
    /// At the horizon: valued by the evaluation or quiescence.
    Leaf,
    /// A draw by the rules (repetition, 50 moves, insufficient material).
    Draw,
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move is stalemated.
    Stalemate,
}

/// A cut-off, as the root player sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CutSide {
    /// At a MAX node: a move reached β, the MIN player above will not allow it.
    Beta,
    /// At a MIN node: a reply pushed the value to α or below, the MAX
    /// player above has better.
    Alpha,
}

/// Where the bound that made a cut-off came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CutDepth {
    /// From the parent.
    Shallow,
    /// From an ancestor at least three plies up.
    Deep,
    /// From the test bound γ of an MTD pass (or a root window).
    Test,
}

/// A cut-off at a node: which, and how many moves it left unsearched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cut {
    /// β-cut or α-cut.
    pub side: CutSide,
    /// Shallow, deep or test.
    pub depth: CutDepth,
    /// Moves the visit did not search.
    pub pruned: u32,
}

/// One search of a node: the window it was given and what it returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Visit {
    /// α of the window.
    pub alpha: i32,
    /// β of the window.
    pub beta: i32,
    /// The value returned.
    pub value: i32,
    /// What that value says.
    pub bound: Bound,
    /// Answered from the memory of the tree, without searching.
    pub from_memory: bool,
}

/// A node of the recorded tree.
#[derive(Debug, Clone)]
pub struct TreeNode {
    /// The parent (`None` for the root).
    pub parent: Option<NodeId>,
    /// The move from the parent.
    pub mv: Option<Move>,
    /// Distance from the root.
    pub ply: u32,
    /// The moves tried from here, in the order first tried.
    pub children: Vec<NodeId>,
    /// Legal moves of the position (0 for leaves and terminal nodes).
    pub legal: u32,
    /// The kind of node.
    pub kind: NodeKind,
    /// Every search of this node, in order.
    pub visits: Vec<Visit>,
    /// The last cut-off made here.
    pub cut: Option<Cut>,
    /// On the principal variation.
    pub pv: bool,
    /// The bounds the memory holds after the last visit (SSS*, MTD(f)).
    pub memory: Option<(i32, i32)>,
}

impl TreeNode {
    /// The last visit (every recorded node has one).
    pub fn last_visit(&self) -> Option<&Visit> {
        self.visits.last()
    }

    /// Legal moves never tried from here: the pruned part.
    pub fn pruned(&self) -> u32 {
        if self.kind == NodeKind::Interior {
            self.legal.saturating_sub(self.children.len() as u32)
        } else {
            0
        }
    }
}

/// How a visit ended, for [`SearchTree::leave`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Leaving {
    /// The value returned.
    pub value: i32,
    /// What it says.
    pub bound: Bound,
    /// The kind of node, when this visit learned it.
    pub kind: Option<NodeKind>,
    /// Legal moves, when this visit counted them.
    pub legal: Option<u32>,
    /// Answered from memory.
    pub from_memory: bool,
    /// The memory's bounds after the visit.
    pub memory: Option<(i32, i32)>,
}

/// The recorded tree.
#[derive(Debug, Clone)]
pub struct SearchTree {
    nodes: Vec<TreeNode>,
    /// The nodes from the root to the one being searched.
    path: Vec<NodeId>,
    /// Most nodes kept.
    limit: usize,
    /// A node could not be recorded: the tree is incomplete.
    full: bool,
}

impl SearchTree {
    /// An empty tree that keeps at most `limit` nodes.
    pub fn new(limit: usize) -> SearchTree {
        SearchTree {
            nodes: Vec::new(),
            path: Vec::new(),
            limit,
            full: false,
        }
    }

    /// Whether a node could not be recorded for want of room (the search
    /// should stop: the picture would be wrong).
    pub fn is_full(&self) -> bool {
        self.full
    }

    /// The nodes, root first (empty before a search).
    pub fn nodes(&self) -> &[TreeNode] {
        &self.nodes
    }

    /// One node.
    pub fn node(&self, id: NodeId) -> &TreeNode {
        &self.nodes[id]
    }

    /// The root, if anything was recorded.
    pub fn root(&self) -> Option<&TreeNode> {
        self.nodes.first()
    }

    /// Visits over all nodes: the search's node count.
    pub fn visits(&self) -> u64 {
        self.nodes.iter().map(|n| n.visits.len() as u64).sum()
    }

    /// Nodes with a pruned part (legal moves never tried).
    pub fn pruned_nodes(&self) -> usize {
        self.nodes.iter().filter(|n| n.pruned() > 0).count()
    }

    /// The search enters the node reached by `mv` from the current one
    /// (`None`: the root) with window `(alpha, beta)`.
    pub fn enter(&mut self, mv: Option<Move>, alpha: i32, beta: i32) {
        let id = self.find_or_add(mv);
        if id != UNRECORDED {
            self.nodes[id].visits.push(Visit {
                alpha,
                beta,
                value: 0,
                bound: Bound::Exact,
                from_memory: false,
            });
        }
        self.path.push(id);
    }

    fn find_or_add(&mut self, mv: Option<Move>) -> NodeId {
        let parent = match self.path.last() {
            None if !self.nodes.is_empty() => return 0,
            None => None,
            Some(&UNRECORDED) => return UNRECORDED,
            Some(&p) => Some(p),
        };
        if let Some(p) = parent
            && let Some(&c) = self.nodes[p]
                .children
                .iter()
                .find(|&&c| self.nodes[c].mv == mv)
        {
            return c;
        }
        if self.nodes.len() >= self.limit {
            self.full = true;
            return UNRECORDED;
        }
        let id = self.nodes.len();
        self.nodes.push(TreeNode {
            parent,
            mv,
            ply: self.path.len() as u32,
            children: Vec::new(),
            legal: 0,
            kind: NodeKind::Unknown,
            visits: Vec::new(),
            cut: None,
            pv: false,
            memory: None,
        });
        if let Some(p) = parent {
            self.nodes[p].children.push(id);
        }
        id
    }

    /// The node being searched made a cut-off.
    pub fn cut(&mut self, cut: Cut) {
        if let Some(&id) = self.path.last()
            && id != UNRECORDED
        {
            self.nodes[id].cut = Some(cut);
        }
    }

    /// The search leaves the current node.
    pub fn leave(&mut self, how: Leaving) {
        let Some(id) = self.path.pop() else {
            return;
        };
        if id == UNRECORDED {
            return;
        }
        let node = &mut self.nodes[id];
        if let Some(visit) = node.visits.last_mut() {
            visit.value = how.value;
            visit.bound = how.bound;
            visit.from_memory = how.from_memory;
        }
        if let Some(kind) = how.kind {
            node.kind = kind;
        }
        if let Some(legal) = how.legal {
            node.legal = legal;
        }
        if how.memory.is_some() {
            node.memory = how.memory;
        }
    }

    /// Marks the root and the nodes of `pv` below it as the principal
    /// variation (as far as they were recorded).
    pub fn mark_pv(&mut self, pv: &[Move]) {
        if self.nodes.is_empty() {
            return;
        }
        let mut id = 0;
        self.nodes[0].pv = true;
        for &m in pv {
            let next = self.nodes[id]
                .children
                .iter()
                .copied()
                .find(|&c| self.nodes[c].mv == Some(m));
            match next {
                Some(c) => {
                    self.nodes[c].pv = true;
                    id = c;
                }
                None => break,
            }
        }
    }
}

impl Leaving {
    /// A stopped search: nothing it returns means anything.
    pub const ABORTED: Leaving = Leaving {
        value: 0,
        bound: Bound::Exact,
        kind: None,
        legal: None,
        from_memory: false,
        memory: None,
    };

    /// A node decided by the rules (draw, checkmate, stalemate).
    pub fn decided(value: i32, kind: NodeKind) -> Leaving {
        Leaving {
            value,
            bound: Bound::Exact,
            kind: Some(kind),
            legal: Some(0),
            ..Leaving::ABORTED
        }
    }

    /// A horizon node.
    pub fn leaf(value: i32, bound: Bound) -> Leaving {
        Leaving {
            value,
            bound,
            kind: Some(NodeKind::Leaf),
            legal: Some(0),
            ..Leaving::ABORTED
        }
    }

    /// A node searched through (some of) its `legal` moves.
    pub fn searched(value: i32, bound: Bound, legal: usize) -> Leaving {
        Leaving {
            value,
            bound,
            kind: Some(NodeKind::Interior),
            legal: Some(legal as u32),
            ..Leaving::ABORTED
        }
    }

    /// A visit answered from the memory of the tree.
    pub fn remembered(value: i32, bound: Bound) -> Leaving {
        Leaving {
            value,
            bound,
            from_memory: true,
            ..Leaving::ABORTED
        }
    }

    /// The same, with the memory's bounds after the visit.
    pub fn with_memory(self, lower: i32, upper: i32) -> Leaving {
        Leaving {
            memory: Some((lower, upper)),
            ..self
        }
    }
}
