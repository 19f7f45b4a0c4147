//! What the engine tells its listener, on the thread of the job that runs:
//! a search's reports, the result of a perft, the progress and result of a
//! bench, or the failure of a job; and, on the caller's thread, the move of
//! the opening book. The UCI layer formats these.

use std::sync::Arc;
use std::time::Duration;

use shakmaty::Move;

use super::bench::{BenchPosition, BenchResult};
use crate::search::SearchReport;

/// Receives the engine's reports.
pub type Listener = Arc<dyn Fn(Report) + Send + Sync>;

/// One report of a running job.
#[derive(Debug, Clone, PartialEq)]
pub enum Report {
    /// From a search (`go`); it ends with `Finished` or `Failed`.
    Search {
        /// What the search reports.
        report: SearchReport,
        /// The material of the root position (see
        /// [`wdl_material`](crate::search::wdl_material)), for the
        /// win/draw/loss chances of its scores.
        material: u32,
    },
    /// `go` is answered from the opening book: this move, then a
    /// `Search(Finished)` playing it.
    Book {
        /// The move.
        mv: Move,
        /// Its weight in the book.
        weight: u16,
        /// The total weight of the position's legal book moves.
        total: u64,
    },
    /// `OwnBook` is on but no `BookFile` is loaded, so a game move came
    /// from the search (said once a game).
    NoBook,
    /// `go perft` is done (or was stopped).
    Perft {
        /// Leaf count below each root move, in legal-move order.
        moves: Vec<(Move, u64)>,
        /// How long it took.
        time: Duration,
        /// It was stopped: the counts are partial.
        stopped: bool,
    },
    /// `bench` finished a position.
    BenchPosition(BenchPosition),
    /// `bench` is done (or was stopped: see [`BenchResult::stopped`]).
    Bench(BenchResult),
    /// A perft or bench job failed (a bug in the engine, caught).
    Failed {
        /// Which job.
        job: &'static str,
        /// What went wrong.
        reason: String,
    },
}

impl Report {
    /// Whether this is the last report of its job (`bestmove` for a
    /// search).
    pub fn is_final(&self) -> bool {
        match self {
            Report::Search { report, .. } => matches!(
                report,
                SearchReport::Finished { .. } | SearchReport::Failed { .. }
            ),
            Report::BenchPosition(_) | Report::Book { .. } | Report::NoBook => false,
            Report::Perft { .. } | Report::Bench(_) | Report::Failed { .. } => true,
        }
    }
}
