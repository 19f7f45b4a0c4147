//! What a picture of a recorded search tree shows, independent of the file
//! format: which nodes are drawn (a node with more than `max_width`
//! children shows the first ones, and always its principal-variation
//! child, then one "+N more" box for the rest), the pruned stubs, every
//! label, and the place of each box (root on the left, one column per ply,
//! one row per drawn leaf, a parent centred on its children).
//!
//! One convention, minimax: every value, bound and window is shown from
//! the root's side to move (the MAX player), whoever moves at the node.
//! Each column is a MAX level (the root's side to move: a node takes the
//! largest of its children's values) or a MIN level (the opponent: the
//! smallest). So the principal variation carries the root's value down to
//! its leaf. The searches themselves are negamax (each node's value from
//! its own side to move); `lines` (below) turns a MIN node's value, bounds and
//! window round (`v` → `-v`, `≥` ↔ `≤`, `[α, β]` → `[-β, -α]`).

use shakmaty::san::SanPlus;
use shakmaty::{Color, Position as _};

use super::text;
use shears::chess::Position;
use shears::search::theory::{
    Bound, Cut, CutDepth, CutSide, NodeId, NodeKind, SearchTree, TreeNode,
};

/// One box of the picture.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// A recorded node.
    Node {
        /// Its id in the tree.
        id: NodeId,
        /// Its label lines (move, value, window).
        lines: [String; 3],
        /// Visits (a node searched again counts again).
        visits: u64,
        /// On the principal variation.
        pv: bool,
    },
    /// The moves a node never searched: pruned by a cut-off.
    Stub {
        /// How many.
        pruned: u32,
        /// The cut-off, when one was recorded.
        cut: Option<Cut>,
    },
    /// Children folded away by `max_width`.
    Fold {
        /// Children hidden.
        children: usize,
        /// Visits of their subtrees.
        visits: u64,
        /// Nodes with a pruned part in their subtrees.
        stubs: usize,
    },
}

/// A box with its place and its parent box.
#[derive(Debug, Clone, PartialEq)]
pub struct Placed {
    /// The box.
    pub item: Item,
    /// Its parent (index in [`Picture::items`]).
    pub parent: Option<usize>,
    /// Column: the ply.
    pub column: u32,
    /// Row, in units of one box (a parent sits between its children).
    pub row: f64,
    /// The edge from the parent is on the principal variation.
    pub pv_edge: bool,
}

/// A picture of a search tree, ready to be written.
#[derive(Debug, Clone, PartialEq)]
pub struct Picture {
    /// Every box, parents before children.
    pub items: Vec<Placed>,
    /// Columns (plies) used.
    pub columns: u32,
    /// Rows used.
    pub rows: u32,
    /// The root's side to move: the MAX player.
    pub max_side: Color,
    /// The title (one or more lines, separated by newlines).
    pub title: String,
}

impl Picture {
    /// The picture of `tree`, searched from `root`, folding every node's
    /// children beyond `max_width` (0: no folding).
    pub fn new(tree: &SearchTree, root: &Position, max_width: usize, title: String) -> Picture {
        let mut builder = Builder {
            tree,
            max_width,
            items: Vec::new(),
            next_row: 0,
            pos: root.clone(),
        };
        if tree.root().is_some() {
            builder.node(0, None, "root".to_owned());
        }
        let columns = builder
            .items
            .iter()
            .map(|p| p.column + 1)
            .max()
            .unwrap_or(1);
        Picture {
            rows: builder.next_row.max(1),
            items: builder.items,
            columns,
            max_side: root.turn(),
            title,
        }
    }

    /// Whether column `column` holds MAX nodes (the root's side to move).
    pub fn is_max(column: u32) -> bool {
        column.is_multiple_of(2)
    }

    /// The header of column `column`: `ply 1 · MIN (Black to move)`, and
    /// what a node there takes from its children, with whose view every
    /// value is from (the root's side to move, in every column).
    pub fn header(&self, column: u32) -> [String; 2] {
        let (level, to_move, takes) = if Picture::is_max(column) {
            ("MAX", self.max_side, "largest")
        } else {
            ("MIN", !self.max_side, "smallest")
        };
        [
            format!("ply {column} · {level} ({} to move)", side(to_move)),
            format!("{} child · {}'s view", takes, side(self.max_side)),
        ]
    }

    /// The legend's statement of the value convention (SVG and dot).
    pub fn convention(&self) -> String {
        let root = side(self.max_side);
        format!(
            "Every value and window is {root}'s view (the root's side to move): a MAX node (▲, {root} \
             to move) takes the largest of its children's values, a MIN node (▼) the smallest."
        )
    }
}

fn side(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

struct Builder<'t> {
    tree: &'t SearchTree,
    max_width: usize,
    items: Vec<Placed>,
    next_row: u32,
    /// The position of the node being laid out.
    pos: Position,
}

impl Builder<'_> {
    /// Lays out node `id` (its position is `self.pos`), reached by the move
    /// written `move_text`, and its subtree; returns its index.
    fn node(&mut self, id: NodeId, parent: Option<usize>, move_text: String) -> usize {
        let node = self.tree.node(id);
        let index = self.items.len();
        self.items.push(Placed {
            item: Item::Node {
                id,
                lines: lines(node, move_text),
                visits: node.visits.len() as u64,
                pv: node.pv,
            },
            parent,
            column: node.ply,
            row: 0.0,
            pv_edge: node.pv && parent.is_some(),
        });
        let shown = self.shown_children(node);
        let mut rows = Vec::new();
        for &c in &shown {
            let child = self.tree.node(c);
            let Some(m) = child.mv else {
                continue;
            };
            let text = self.move_text(child);
            self.pos.play(m);
            let ci = self.node(c, Some(index), text);
            self.pos.undo();
            rows.push(self.items[ci].row);
        }
        let hidden: Vec<NodeId> = node
            .children
            .iter()
            .copied()
            .filter(|c| !shown.contains(c))
            .collect();
        if !hidden.is_empty() {
            let (visits, stubs) = hidden.iter().fold((0, 0), |(v, s), &c| {
                let (cv, cs) = self.subtree(c);
                (v + cv, s + cs)
            });
            let item = Item::Fold {
                children: hidden.len(),
                visits,
                stubs,
            };
            rows.push(self.leaf_item(item, index, node.ply + 1));
        }
        if node.pruned() > 0 {
            let item = Item::Stub {
                pruned: node.pruned(),
                cut: node.cut,
            };
            rows.push(self.leaf_item(item, index, node.ply + 1));
        }
        self.items[index].row = match (rows.first(), rows.last()) {
            (Some(first), Some(last)) => (first + last) / 2.0,
            _ => {
                self.next_row += 1;
                f64::from(self.next_row - 1)
            }
        };
        index
    }

    /// A stub or fold box in its own row; returns the row.
    fn leaf_item(&mut self, item: Item, parent: usize, column: u32) -> f64 {
        let row = f64::from(self.next_row);
        self.next_row += 1;
        self.items.push(Placed {
            item,
            parent: Some(parent),
            column,
            row,
            pv_edge: false,
        });
        row
    }

    /// The children drawn: the first `max_width` in search order, the
    /// principal-variation child and, at a node with a cut-off, the child
    /// that made it (the last searched), wherever they are.
    fn shown_children(&self, node: &TreeNode) -> Vec<NodeId> {
        if self.max_width == 0 || node.children.len() <= self.max_width {
            return node.children.clone();
        }
        let mut shown: Vec<NodeId> = node.children[..self.max_width].to_vec();
        let rest = &node.children[self.max_width..];
        if let Some(&pv) = rest.iter().find(|&&c| self.tree.node(c).pv) {
            shown.push(pv);
        }
        if node.pruned() > 0
            && let Some(&last) = rest.last()
            && !shown.contains(&last)
        {
            shown.push(last);
        }
        shown
    }

    /// Visits and stub nodes of the subtree of `id`.
    fn subtree(&self, id: NodeId) -> (u64, usize) {
        let node = self.tree.node(id);
        let own = (node.visits.len() as u64, usize::from(node.pruned() > 0));
        node.children.iter().fold(own, |(v, s), &c| {
            let (cv, cs) = self.subtree(c);
            (v + cv, s + cs)
        })
    }

    /// `12. Nf3` or `12… Nf6`: the move into `node`, in SAN (`self.pos` is
    /// the node's parent position here).
    fn move_text(&self, node: &TreeNode) -> String {
        let Some(m) = node.mv else {
            return String::new();
        };
        let board = self.pos.board();
        let number = board.fullmoves();
        let san = SanPlus::from_move(board.clone(), m);
        match board.turn() {
            Color::White => format!("{number}. {san}"),
            Color::Black => format!("{number}… {san}"),
        }
    }
}

/// Move, value and window of a node, from the root's side to move: the
/// search's own (negamax) value at a MAX level, turned round at a MIN level.
fn lines(node: &TreeNode, move_text: String) -> [String; 3] {
    let mut first = move_text;
    if node.visits.len() > 1 {
        first.push_str(&format!("  ×{}", node.visits.len()));
    }
    match node.kind {
        NodeKind::Draw => first.push_str("  draw"),
        NodeKind::Checkmate => first.push_str("  mated"),
        NodeKind::Stalemate => first.push_str("  stalemate"),
        _ => {}
    }
    // MIN levels (odd plies) have the opponent of the root to move.
    let flip = !Picture::is_max(node.ply);
    let sign = |v: i32| if flip { -v } else { v };
    let Some(last) = node.last_visit() else {
        return [first, String::new(), String::new()];
    };
    let value = match node.memory {
        Some((lower, upper)) if lower != upper => {
            let (lo, hi) = if flip {
                (-upper, -lower)
            } else {
                (lower, upper)
            };
            format!("{} … {}", text::value(lo), text::value(hi))
        }
        Some((lower, _)) => text::bounded(sign(lower), Bound::Exact),
        None => {
            let bound = if flip {
                last.bound.flipped()
            } else {
                last.bound
            };
            text::bounded(sign(last.value), bound)
        }
    };
    let (alpha, beta) = if flip {
        (-last.beta, -last.alpha)
    } else {
        (last.alpha, last.beta)
    };
    let window = if node.visits.len() > 1 {
        format!("last window {}", text::window(alpha, beta))
    } else {
        format!("window {}", text::window(alpha, beta))
    };
    [first, value, window]
}

/// `β-cut · shallow` for a stub's cut-off.
pub fn cut_label(cut: Option<Cut>) -> String {
    let Some(cut) = cut else {
        return "pruned".to_owned();
    };
    let side = match cut.side {
        CutSide::Beta => "β-cut",
        CutSide::Alpha => "α-cut",
    };
    let depth = match cut.depth {
        CutDepth::Shallow => "shallow",
        CutDepth::Deep => "deep",
        CutDepth::Test => "test bound",
    };
    format!("{side} · {depth}")
}
