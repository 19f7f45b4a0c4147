//! What the engine tells its listener, on the thread of the job that runs:
//! a search's progress and the answer to its `go` (the final line and the
//! move, from one place: `answer.rs`), the result of a perft, the progress
//! and result of a bench, or the failure of a job; and what the quick
//! answers hold (`eval`, the news of a net). The UCI layer formats these.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use shakmaty::Move;

use super::bench::{BenchPosition, BenchResult};
use crate::eval::{EvalKind, PieceValues, ScoreModel};
use crate::search::{SearchInfo, SearchReport};

/// Receives the engine's reports, each with the [`Style`] to write it in.
pub type Listener = Arc<dyn Fn(Report, Style) + Send + Sync>;

/// How reports are written: the castling notation and whether scores come
/// with win/draw/loss chances (the options `UCI_Chess960` and
/// `UCI_ShowWDL`), and whether `debug on` asked for more.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Style {
    /// Castling as king takes rook.
    pub chess960: bool,
    /// `UCI_ShowWDL`: `wdl W D L` after every score.
    pub show_wdl: bool,
    /// `debug on`: timings of perft and bench too.
    pub debug: bool,
}

/// The one source of the [`Style`]: the engine sets it (from its options
/// and `debug`), its jobs read it as they send each report.
#[derive(Debug, Default)]
pub(super) struct StyleCell(Mutex<Style>);

impl StyleCell {
    /// The style now.
    pub fn get(&self) -> Style {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Changes the style.
    pub fn set(&self, style: Style) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = style;
    }
}

/// What the scores of a search's reports are read against: the material
/// of its root position (see
/// [`material_points`](crate::chess::values::material_points)), for the
/// win/draw/loss chances, and the score model of the evaluation it played
/// with, whose centipawns they are.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScoreContext {
    /// The material of the root position.
    pub material: u32,
    /// The score model of the evaluation the search played with: the
    /// hand-crafted evaluation's, or the net's own; `None` for a net whose
    /// file has none (its raw centipawns are shown, without chances).
    pub model: Option<ScoreModel>,
}

/// One report of a running job.
#[derive(Debug, Clone, PartialEq)]
pub enum Report {
    /// The progress of a search (`go`).
    Progress {
        /// What the search reports.
        report: SearchReport,
        /// What its scores are read against.
        scores: ScoreContext,
    },
    /// `go` is answered from the opening book: this move, then the
    /// [`Report::Answer`] that plays it.
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
    /// The net this search plays with, the first time it plays (a net
    /// loaded since, or switched to, is named again).
    Net(NetNews),
    /// A problem met on the way that the GUI should hear of (a tablebase
    /// file found broken, now treated as missing).
    Problem(String),
    /// The answer to a `go`, its last report: the line the move comes
    /// from, unless the GUI has seen it last already, then the move.
    Answer {
        /// The line to show before the move (`None`: none); depth 0 when
        /// the root has no legal move.
        info: Option<SearchInfo>,
        /// The move to play; `None` when there is none (no legal move, or
        /// no position to search).
        best: Option<Move>,
        /// The expected reply, when the line has one.
        ponder: Option<Move>,
        /// What its score is read against, as for [`Report::Progress`].
        scores: ScoreContext,
    },
    /// The search of a `go` failed (a bug in the engine, caught so that
    /// the GUI is never left waiting): the reason, and a legal move played
    /// anyway (`None` when there is none). Its last report.
    SearchFailed {
        /// What went wrong (the panic message).
        reason: String,
        /// A legal move to play anyway.
        best: Option<Move>,
    },
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
    /// A tool's command ([`Engine::run_tool`](super::Engine::run_tool))
    /// is done; it wrote its own lines, so there is nothing to show.
    ToolDone,
    /// A perft, bench or tool job failed (a bug, caught).
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
            Report::Progress { .. }
            | Report::Book { .. }
            | Report::NoBook
            | Report::Net(_)
            | Report::Problem(_)
            | Report::BenchPosition(_) => false,
            Report::Answer { .. }
            | Report::SearchFailed { .. }
            | Report::Perft { .. }
            | Report::Bench(_)
            | Report::ToolDone
            | Report::Failed { .. } => true,
        }
    }
}

/// What `eval` shows ([`Engine::eval_trace`](super::Engine::eval_trace)),
/// each evaluation in its own centipawns, White's view.
#[derive(Debug, Clone, PartialEq)]
pub struct EvalTrace {
    /// The hand-crafted evaluation term by term, its evaluation last (a
    /// line that names its scale).
    pub hand_crafted: String,
    /// The net's evaluation and its value of each piece, or why there is
    /// no net.
    pub net: Result<NetEval, String>,
    /// Which evaluation plays, and why (`Evaluation: …`).
    pub in_play: String,
    /// The evaluation that plays and its value of the position: `eval`'s
    /// last line.
    pub playing: PlayingEval,
}

/// The evaluation that plays and its value of a position (`eval`'s last
/// line).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlayingEval {
    /// Which evaluation.
    pub kind: EvalKind,
    /// Its score model (`None`: a net whose file has none).
    pub model: Option<ScoreModel>,
    /// Its value of the position, its own centipawns, White's view.
    pub white: i32,
}

/// The net's part of `eval`: its own centipawns, White's view.
#[derive(Debug, Clone, PartialEq)]
pub struct NetEval {
    /// Its evaluation of the position.
    pub white: i32,
    /// The net's name (`<default>` or the file).
    pub source: String,
    /// Its value of each piece ([`crate::eval::piece_values`]).
    pub pieces: PieceValues,
    /// The net's own score model, from its file (`None`: the file has
    /// none).
    pub model: Option<ScoreModel>,
}

/// A net to name in an `info string`: one `EvalFile` has just loaded, or
/// one about to play for the first time (the built-in net at the first
/// `go`, a net `Use NNUE` has switched on).
#[derive(Debug, Clone, PartialEq)]
pub struct NetNews {
    /// The net's name (`<default>` or the file).
    pub source: String,
    /// Its hidden neurons a perspective.
    pub width: usize,
    /// Its input layout's name (`plain`, `king-mirrored`).
    pub layout: &'static str,
    /// The sha256 of its file, lowercase hex.
    pub sha256: String,
    /// Its own score model, from its file (`None`: none, its scores are
    /// shown in its raw centipawns).
    pub model: Option<ScoreModel>,
    /// `None` when it plays; else why the hand-crafted evaluation plays
    /// instead (a net loaded while `Use NNUE` is false).
    pub idle: Option<&'static str>,
}
