//! The one place that answers a `go`. Whatever plays (the engine's search,
//! a teaching search, a limited strength, the opening book, or nothing
//! when the last `position` was refused), the answer runs as one job and
//! does, in this order and only here:
//!
//! 1. the thinker: a search that reports progress and returns its
//!    [`SearchOutcome`] (or none, when the move is known or there is no
//!    position);
//! 2. the wait of `go infinite` and `go ponder`, which answer only after
//!    `stop` (or `ponderhit`);
//! 3. the choice of the move: the best line, the book's move, or a limited
//!    level's choice among the lines and its pacing (its think time), in
//!    one call to `strength/limited.rs`;
//! 4. the final `info` line, unless the GUI has just seen it, and the
//!    move: one [`Report::Answer`], the job's last report.
//!
//! The thinkers never wait for the GUI and never decide what it sees last;
//! the answer keeps track of what it was shown ([`Seen`]) to send the line
//! of the move once, as Stockfish does.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use shakmaty::{Move, Position as _};

use super::opening::BookChoice;
use super::report::{NetNews, Report, ScoreContext};
use super::strength::Handicap;
use super::strength::limited::{LevelChoice, Played};
use crate::chess::Position;
use crate::chess::values::material_points;
use crate::eval::{Evaluation, ScoreModel};
use crate::search::theory::{self, TheoryConfig};
use crate::search::{
    Counters, EvalHandicap, MATE, PvLine, SearchInfo, SearchLimits, SearchOutcome, SearchReport,
    SearchRequest, SearchSettings, Searcher, Signals,
};
use crate::tb::Tablebases;

/// The engine's search of one `go` (at full strength or a level's), with
/// the limits and settings of this search (a level's node budget and lines
/// included).
pub(super) struct EngineSearch {
    /// The searcher, held while it searches.
    pub searcher: Arc<Mutex<Searcher>>,
    /// The search's limits.
    pub limits: SearchLimits,
    /// The search's settings.
    pub settings: SearchSettings,
    /// The Syzygy tables, if any.
    pub tables: Option<Arc<Tablebases>>,
    /// A level's evaluation handicap (`None`: the full evaluation).
    pub handicap: Option<Handicap>,
    /// The evaluation to play with (a level's is the hand-crafted one).
    pub evaluation: Evaluation,
}

/// What thinks about the move of a `go`.
pub(super) enum Thinker {
    /// The engine's search.
    Search(Box<EngineSearch>),
    /// A teaching search (`SearchAlgorithm`) under `go`'s limits.
    Theory(TheoryConfig),
    /// Nothing to think about: the move is the book's, or there is no
    /// position to search.
    Nothing,
}

/// How the move is chosen.
pub(super) enum Choice {
    /// The thinker's best line (none without a thinker: `bestmove 0000`).
    Best,
    /// A limited strength's choice among the lines, paced.
    Level(LevelChoice),
    /// The opening book's move.
    Book(BookChoice),
}

/// One `go`, as the engine planned it: what to search, who thinks, how the
/// move is chosen.
pub(super) struct Go {
    /// The position of `go`.
    pub position: Position,
    /// `go`'s limits as the GUI sent them.
    pub limits: SearchLimits,
    /// Who thinks.
    pub thinker: Thinker,
    /// How the move is chosen.
    pub choice: Choice,
    /// Say first that `OwnBook` has no book to use (once a game).
    pub no_book_note: bool,
    /// Name first the net the search plays with (the first time it plays).
    pub net_news: Option<NetNews>,
}

/// Longest sleep between two looks at the signals while `go infinite` or
/// `go ponder` waits.
const RELEASE_POLL: Duration = Duration::from_millis(1);

impl Go {
    /// Whether the answer is known at once (the book's move).
    pub fn is_instant(&self) -> bool {
        matches!(self.choice, Choice::Book(_))
    }

    /// The move to play should the answer fail (a bug): the book's, else
    /// a legal one when a search would have run.
    pub fn fallback(&self) -> Option<Move> {
        match (&self.choice, &self.thinker) {
            (Choice::Book(book), _) => Some(book.book_move.mv),
            (_, Thinker::Nothing) => None,
            _ => self.position.board().legal_moves().first().copied(),
        }
    }

    /// Answers the `go` on the job's thread: every report goes to `send`,
    /// the last one a [`Report::Answer`]; `signals` carry `stop` and
    /// `ponderhit`.
    pub fn answer(self, signals: &Signals, send: &(dyn Fn(Report) + Sync)) {
        let scores = ScoreContext {
            material: material_points(self.position.board().board()),
            model: match &self.thinker {
                Thinker::Search(search) => search.evaluation.score_model(),
                // The teaching searches play with the hand-crafted evaluation.
                Thinker::Theory(_) | Thinker::Nothing => Some(ScoreModel::HAND_CRAFTED),
            },
        };
        if let Some(news) = &self.net_news {
            send(Report::Net(news.clone()));
        }
        if self.no_book_note {
            send(Report::NoBook);
        }
        if let Choice::Book(book) = &self.choice {
            send(Report::Book {
                mv: book.book_move.mv,
                weight: book.book_move.weight,
                total: book.total,
            });
        }
        let shown = match &self.choice {
            Choice::Level(level) => level.shown_lines,
            _ => usize::MAX,
        };
        let seen = Mutex::new(Seen::default());
        let progress = |report: SearchReport| {
            seen.lock()
                .unwrap_or_else(PoisonError::into_inner)
                .note(&report);
            let passes = match &report {
                SearchReport::Iteration(info) => info.multipv as usize <= shown,
                SearchReport::CurrMove { .. } => true,
            };
            if passes {
                send(Report::Progress { report, scores });
            }
        };
        let outcome = self.think(signals, &progress);
        // go infinite and go ponder never answer before stop (or
        // ponderhit), however soon the thinker is done.
        while !signals.stopped() && (self.limits.infinite || signals.pondering()) {
            std::thread::sleep(RELEASE_POLL);
        }
        for problem in outcome.iter().flat_map(|o| &o.problems) {
            send(Report::Problem(problem.clone()));
        }
        let seen = seen.into_inner().unwrap_or_else(PoisonError::into_inner);
        let (info, best, ponder) = match (&self.choice, &outcome) {
            (Choice::Book(book), _) => (None, Some(book.book_move.mv), None),
            (Choice::Level(level), Some(outcome)) => {
                self.level_answer(level, outcome, &seen, signals)
            }
            (_, outcome) => best_answer(&self.position, outcome.as_ref(), &seen),
        };
        send(Report::Answer {
            info,
            best,
            ponder,
            scores,
        });
    }

    /// The thinker's outcome (`None` without one), its progress going to
    /// `progress`.
    fn think(
        &self,
        signals: &Signals,
        progress: &(dyn Fn(SearchReport) + Sync),
    ) -> Option<SearchOutcome> {
        match &self.thinker {
            Thinker::Search(search) => {
                let handicap = search.handicap.as_ref().map(|h| h as &dyn EvalHandicap);
                let request = SearchRequest::new(&self.position, &search.limits, search.settings)
                    .with_tables(search.tables.as_deref())
                    .with_handicap(handicap)
                    .with_evaluation(&search.evaluation);
                let mut searcher = search
                    .searcher
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner);
                Some(searcher.search(&request, signals, progress))
            }
            Thinker::Theory(config) => Some(theory::think(
                &self.position,
                &self.limits,
                *config,
                signals,
                progress,
            )),
            Thinker::Nothing => None,
        }
    }

    /// A limited level's answer: its choice among the lines of `outcome`,
    /// after its think time (which `signals` can cut short).
    fn level_answer(
        &self,
        level: &LevelChoice,
        outcome: &SearchOutcome,
        seen: &Seen,
        signals: &Signals,
    ) -> (Option<SearchInfo>, Option<Move>, Option<Move>) {
        match level.play(outcome, &self.position, &self.limits, signals) {
            Played::Best => best_answer(&self.position, Some(outcome), seen),
            Played::Other { line, multipv } => {
                // Sent again as line 1, unless it is the line 1 the GUI
                // saw last.
                let shown_last =
                    multipv == 1 && seen.first.as_ref().is_some_and(|f| f.line == *line);
                let info = (!shown_last).then(|| SearchInfo::new(line, 1, &outcome.lines_counters));
                (info, line.pv.first().copied(), line.pv.get(1).copied())
            }
        }
    }
}

/// What the GUI was shown of a search: the last `multipv 1` line, and
/// whether a bound line (of any MultiPV line) came after it.
#[derive(Debug, Default)]
struct Seen {
    first: Option<SearchInfo>,
    bound_after: bool,
}

impl Seen {
    /// Takes note of a progress report.
    fn note(&mut self, report: &SearchReport) {
        if let SearchReport::Iteration(info) = report {
            if info.multipv == 1 {
                self.first = Some(info.clone());
                self.bound_after = false;
            } else if info.line.bound.is_some() {
                self.bound_after = true;
            }
        }
    }

    /// Whether the last lines the GUI saw end with `line` as line 1: then
    /// it is not sent again before `bestmove`.
    fn saw_last(&self, line: &PvLine) -> bool {
        !self.bound_after && self.first.as_ref().is_some_and(|f| f.line == *line)
    }
}

/// The answer with the thinker's best line: its line (unless the GUI saw it
/// last; a `depth 0` line when the root has no legal move), its move and
/// reply. Without a thinker, no line and no move.
fn best_answer(
    position: &Position,
    outcome: Option<&SearchOutcome>,
    seen: &Seen,
) -> (Option<SearchInfo>, Option<Move>, Option<Move>) {
    let Some(outcome) = outcome else {
        return (None, None, None);
    };
    let info = match &outcome.line {
        Some(line) if seen.saw_last(line) => None,
        Some(line) => Some(SearchInfo::new(line, 1, &outcome.counters)),
        None => Some(no_move(position, &outcome.counters)),
    };
    let ponder = outcome.line.as_ref().and_then(|l| l.pv.get(1).copied());
    (info, outcome.best(), ponder)
}

/// The `depth 0` line of a root without a legal move: mated (`mate 0`) or
/// stalemate (`cp 0`).
fn no_move(position: &Position, counters: &Counters) -> SearchInfo {
    // Mated here: mated in 0 plies.
    let score = if position.board().is_check() {
        -MATE
    } else {
        0
    };
    let line = PvLine {
        depth: 0,
        seldepth: 0,
        score,
        tb_proven: false,
        bound: None,
        pv: Vec::new(),
    };
    SearchInfo::new(&line, 1, counters)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::strength::limited::tests::line;
    use crate::search::{Score, ScoreBound};

    fn iteration(line: &PvLine, multipv: u32) -> SearchReport {
        SearchReport::Iteration(SearchInfo::new(line, multipv, &Counters::default()))
    }

    #[test]
    fn the_line_the_gui_saw_last_is_not_sent_again() {
        let (first, second) = (line(20, &["e2e4", "e7e5"]), line(10, &["d2d4"]));
        let mut seen = Seen::default();
        seen.note(&iteration(&first, 1));
        seen.note(&iteration(&second, 2));
        assert!(seen.saw_last(&first));
        assert!(!seen.saw_last(&second));
        // A bound line of any MultiPV line after it: the line is sent again.
        let mut bound = second.clone();
        bound.bound = Some(ScoreBound::Upper);
        seen.note(&iteration(&bound, 2));
        assert!(!seen.saw_last(&first));
        // The next iteration's lines: seen again.
        seen.note(&iteration(&first, 1));
        assert!(seen.saw_last(&first));
        // Counters do not matter, the line does.
        let mut deeper = first.clone();
        deeper.depth += 1;
        assert!(!seen.saw_last(&deeper));
    }

    #[test]
    fn the_best_answer_shows_its_line_unless_seen_and_depth_0_without_one() {
        let best = line(20, &["e2e4", "e7e5"]);
        let outcome = SearchOutcome {
            line: Some(best.clone()),
            counters: Counters {
                nodes: 99,
                ..Counters::default()
            },
            ..SearchOutcome::default()
        };
        let start = Position::startpos();
        let (info, mv, reply) = best_answer(&start, Some(&outcome), &Seen::default());
        let info = info.expect("a line not seen yet is sent");
        assert_eq!(
            (info.counters.nodes, info.multipv, &info.line),
            (99, 1, &best)
        );
        assert_eq!((mv, reply), (Some(best.pv[0]), Some(best.pv[1])));
        let mut seen = Seen::default();
        seen.note(&iteration(&best, 1));
        assert_eq!(best_answer(&start, Some(&outcome), &seen).0, None);
        // No thinker: no line, no move.
        assert_eq!(best_answer(&start, None, &seen), (None, None, None));
        // Mated: depth 0, mate 0, no move.
        let mated = Position::from_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", false).unwrap();
        let (info, mv, _) = best_answer(&mated, Some(&SearchOutcome::default()), &seen);
        let info = info.expect("a depth 0 line");
        assert_eq!(
            (info.line.depth, info.score(), mv),
            (0, Score::Mate(0), None)
        );
    }
}
