//! The search: iterative deepening with aspiration windows over a negamax
//! alpha-beta with principal variation search, MultiPV and Lazy SMP, on a
//! stack of frames and node kinds. Search never prints and never answers
//! the GUI: it reports progress through a callback and returns its result
//! (every line of the last completed iteration) as a [`SearchOutcome`];
//! the engine layer chooses and announces the move, the UCI layer formats.
//!
//! | file | what it owns |
//! |---|---|
//! | `searcher.rs` | [`Searcher`]: the table and thread states; one search per [`SearchRequest`] |
//! | `iterative.rs` | iterative deepening, aspiration windows, helper threads |
//! | `worker.rs` | one thread's state: position, stack, counters, stop checks |
//! | `alphabeta.rs` | `negamax` for every node kind, the re-search ladder, the best-score update |
//! | `prologue.rs` | what every node does first: visit, TT probe, corrected static evaluation |
//! | `pruning.rs` | reverse futility, null move, futility, late move, SEE pruning; LMR |
//! | `qsearch.rs` | the quiescence search (its prologue shared with `negamax`) |
//! | `root.rs` | the root moves and their bookkeeping (tablebase ranks included) |
//! | `tablebase/` | the Syzygy tables in a search: root ranking and setup; the probe in the search |
//! | `node.rs`, `stack.rs` | node kinds and the window; the per-ply frames |
//! | `score.rs` | mate scores, score bounds, the reported [`Score`] |
//! | `limits.rs`, `report.rs`, `signals.rs`, `threads.rs` | what goes in (the request) and out (progress, the outcome) |
//! | `params/` | the tunables together: every one named, what a tunable is, tunables by name (the `spsa` build's options), the LMR table, the technique switches |
//! | `tt/`, `time.rs`, `ordering/` | the transposition table, time limits, move ordering |
//! | `theory/` | the textbook algorithms (minimax … MTD(f)) for teaching, with a tree recorder |

mod alphabeta;
mod correction;
mod iterative;
mod limits;
mod node;
pub(crate) mod ordering;
pub mod params;
mod prologue;
mod pruning;
mod qsearch;
mod report;
mod root;
pub(crate) mod score;
mod searcher;
mod signals;
mod stack;
mod tablebase;
pub mod theory;
mod threads;
pub mod time;
pub mod tt;
mod worker;

#[cfg(test)]
mod eval_tests;

pub use limits::{EvalHandicap, SearchLimits, SearchRequest, SearchSettings, TbSettings};
pub use ordering::OrderingStep;
pub use params::{TUNABLE_AT_RUN_TIME, find_tunable, set_tunable, tunable_specs};
pub use report::{
    Counters, PvLine, Reporter, ScoreBound, SearchInfo, SearchOutcome, SearchReport, Stats,
};
pub use score::{
    INFINITE, MATE, MATE_BOUND, MAX_DEPTH, MAX_PLY, Score, TB_CP, TB_WIN, TB_WIN_BOUND,
};
pub use searcher::Searcher;
pub use signals::Signals;
pub use threads::{SEARCH_STACK_BYTES, ThreadState, thread_pool};
pub use time::Clock;
