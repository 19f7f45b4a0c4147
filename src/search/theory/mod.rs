//! The theory, live: the textbook game-tree searches, written plainly, on
//! real chess positions. Minimax, alpha-beta (with or without move
//! ordering), NegaScout/PVS, SSS* (as MT-SSS*) and MTD(f), each a
//! fixed-depth search that returns exactly the minimax value (tested on
//! hundreds of positions), with a recorder of the tree it visits for
//! pictures, and the counters the textbooks talk about.
//!
//! These are teaching and debugging tools, not the engine's search: no
//! transposition table, no pruning beyond what each algorithm is, no
//! extensions. The engine plays with them only when the UCI option
//! `SearchAlgorithm` asks for one ([`think`]).
//!
//! | file | what it owns |
//! |---|---|
//! | `config.rs` | [`Algorithm`], [`MoveOrdering`], [`Leaf`], [`TheoryConfig`] |
//! | `run.rs` | [`search`]: one search from the root |
//! | `minimax.rs`, `alphabeta.rs`, `negascout.rs` | the depth-first algorithms |
//! | `memory.rs`, `mt.rs`, `mtd.rs` | the memory of the tree, the MT test, SSS* and MTD(f) |
//! | `context.rs`, `window.rs` | what every node needs; the α/β window with its origins |
//! | `ordering.rs`, `leaf.rs` | move order; the static evaluation or quiescence at the horizon |
//! | `tree.rs` | [`SearchTree`]: the recorder of the visited tree |
//! | `limits.rs`, `outcome.rs` | stop conditions; [`TheoryResult`] and [`TheoryStats`] |
//! | `play.rs` | [`think`]: playing a game with one of them |
//!
//! ```
//! use shears::chess::Position;
//! use shears::search::theory::{Algorithm, MoveOrdering, TheoryConfig, TheoryLimits, search};
//! let pos = Position::startpos();
//! let value = |algorithm| {
//!     let config = TheoryConfig::new(algorithm, MoveOrdering::MvvLva);
//!     search(&pos, 2, config, TheoryLimits::default(), None).value
//! };
//! assert_eq!(value(Algorithm::Minimax), value(Algorithm::Sss));
//! ```

mod alphabeta;
mod config;
mod context;
mod leaf;
mod limits;
mod memory;
mod minimax;
mod mt;
mod mtd;
mod negascout;
mod ordering;
mod outcome;
mod play;
mod run;
mod tree;
mod window;

pub use config::{Algorithm, Leaf, MoveOrdering, TheoryConfig};
pub use limits::{DEFAULT_MEMORY_ENTRIES, TheoryLimits};
pub use outcome::{TheoryResult, TheoryStats};
pub use play::{MAX_PLAY_DEPTH, MINIMAX_PLAY_DEPTH, PLAY_DEPTH, default_depth, think};
pub use run::search;
pub use tree::{Bound, Cut, CutDepth, CutSide, NodeId, NodeKind, SearchTree, TreeNode, Visit};
