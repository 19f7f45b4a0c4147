//! A search at a limited strength (`UCI_LimitStrength`), as the engine runs
//! it on its job thread: the level's search (its node budget, its candidate
//! lines, its evaluation handicap, one thread), the move chosen among the
//! candidates, and the wait before `bestmove` that makes its time look like
//! a person's. What a level is, and the choices themselves, are in
//! `strength.rs`.
//!
//! **Reports.** The search runs with `max(MultiPV, level.lines)` lines; the
//! GUI sees only the first `MultiPV` of them, as always. When the move
//! played is not the first line's, its line is sent once more as `multipv
//! 1` before `bestmove`, so that the last `multipv 1` line is always the
//! one `bestmove` and `ponder` come from.
//!
//! **Time.** Only a `go` that asks for a move of a game waits: one with a
//! clock (`wtime`/`btime`) or `movetime`, and without `depth`, `nodes`,
//! `mate`, `infinite` or `searchmoves` (those are analysis: they answer as
//! soon as the level's search is done, `infinite` at `stop`). It waits
//! until [`think_share`] of the soft limit its full-strength self would
//! plan (the time manager's, `search::time`) has passed since `go`, never
//! past that search's hard limit. After `go ponder` the wait starts when
//! the pondering search hands its move over (at `ponderhit`). `stop`,
//! `quit`, `ucinewgame` and a new `go` end the wait at once (they stop the
//! job); `isready` is answered by the UCI thread meanwhile, as during any
//! search.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use shakmaty::Position as _;

use super::strength::{Level, choose, think_share};
use crate::chess::Position;
use crate::chess::random::Rng;
use crate::search::time::TimeLimits;
use crate::search::{
    Score, SearchInfo, SearchLimits, SearchReport, SearchSettings, Searcher, Signals,
};
use crate::tb::Tablebases;

/// The random state of limited play: the generator that `StrengthSeed`
/// seeds, and the seed of the current game's evaluation errors (drawn from
/// it at the start and at every `ucinewgame`).
#[derive(Debug, Clone)]
pub(super) struct StrengthSeeds {
    rng: Rng,
    noise: u64,
}

impl StrengthSeeds {
    /// Seeded from `seed`; 0 takes a seed from the clock.
    pub fn new(seed: u64) -> StrengthSeeds {
        let mut rng = Rng::seeded_or_clock(seed);
        let noise = rng.next_u64();
        StrengthSeeds { rng, noise }
    }

    /// A new game: new evaluation errors.
    pub fn new_game(&mut self) {
        self.noise = self.rng.next_u64();
    }

    /// The seed of this game's evaluation errors.
    pub fn noise(&self) -> u64 {
        self.noise
    }

    /// The seed of the next move's random choices.
    pub fn next_move(&mut self) -> u64 {
        self.rng.next_u64()
    }
}

/// Longest sleep between two looks at the stop flag while waiting.
const WAIT_POLL: Duration = Duration::from_millis(2);

/// One `go` at a limited strength: the level, the search settings it
/// gives, and the seed of the move's random choices.
#[derive(Clone)]
pub(super) struct LimitedGo {
    /// The level.
    pub level: Level,
    /// `MultiPV` as the GUI set it: the lines it sees.
    pub shown_lines: usize,
    /// The level's search settings (see [`LimitedGo::new`]).
    pub settings: SearchSettings,
    /// The Syzygy tables, if any.
    pub tables: Option<Arc<Tablebases>>,
    /// Seed of this move's random choices (the move, then the think time).
    pub seed: u64,
}

impl LimitedGo {
    /// A `go` at `level` for an engine whose options give `settings`: one
    /// thread (a node budget is only exact, and the play only repeatable,
    /// on one), the level's candidate lines (at least `MultiPV`), and its
    /// evaluation handicap with errors drawn from `noise_seed`.
    pub fn new(
        level: Level,
        mut settings: SearchSettings,
        tables: Option<Arc<Tablebases>>,
        noise_seed: u64,
        seed: u64,
    ) -> LimitedGo {
        let shown_lines = settings.multipv;
        settings.threads = 1;
        settings.multipv = shown_lines.max(level.lines);
        settings.handicap = level.handicap(noise_seed);
        LimitedGo {
            level,
            shown_lines,
            settings,
            tables,
            seed,
        }
    }

    /// The limits of the level's search: `go`'s, with the node budget.
    pub fn limits(&self, limits: &SearchLimits) -> SearchLimits {
        let mut limited = limits.clone();
        limited.nodes = Some(
            limits
                .nodes
                .map_or(self.level.nodes, |n| n.min(self.level.nodes)),
        );
        limited
    }

    /// Runs the `go` on the job's thread: the level's search of `position`
    /// under `limits` (holding `searcher` only while it searches), the
    /// choice of the move, the wait (until `signals` stop it), and the
    /// final report. Every report goes to `send`.
    pub fn run(
        self,
        searcher: &Mutex<Searcher>,
        position: &Position,
        limits: &SearchLimits,
        signals: &Signals,
        send: &(dyn Fn(SearchReport) + Sync),
    ) {
        let collector = Mutex::new(Collector::default());
        {
            let mut searcher = searcher.lock().unwrap_or_else(PoisonError::into_inner);
            searcher.set_settings(self.settings);
            searcher.set_tablebases(self.tables.clone());
            searcher.think_with(position, &self.limits(limits), signals, &|report| {
                let shown = lock(&collector).take(report, self.shown_lines);
                if let Some(report) = shown {
                    send(report);
                }
            });
        }
        let legal = position.board().legal_moves().len();
        let collector = collector
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        let (report, share) = collector.finish(&self.level, legal, &mut Rng::new(self.seed));
        let overhead = self.settings.move_overhead_ms;
        if let Some(wait) = think_time(limits, position, overhead, share) {
            // After go ponder the clock runs from ponderhit, which is
            // when the search above returned.
            let start = match limits.received {
                Some(received) if !limits.ponder => received,
                _ => Instant::now(),
            };
            wait_until(start + wait, signals);
        }
        if let Some(report) = report {
            send(report);
        }
    }
}

/// The lines of the last completed iteration, as the search reports them,
/// and the final report held back.
#[derive(Debug, Default)]
pub(super) struct Collector {
    lines: Vec<SearchInfo>,
    /// The last `multipv 1` line the GUI was sent.
    shown_first: Option<SearchInfo>,
    finished: Option<SearchReport>,
}

impl Collector {
    /// Takes in one report of the level's search; returns what the GUI
    /// is to see of it now (`None`: nothing). Iterations are kept as
    /// candidates (the completed ones) and passed on up to `shown` lines;
    /// the final report is held back for [`Collector::finish`].
    pub fn take(&mut self, report: SearchReport, shown: usize) -> Option<SearchReport> {
        match report {
            SearchReport::Iteration(info) => {
                if info.bound.is_none() {
                    if info.multipv == 1 {
                        self.lines.clear();
                    }
                    self.lines.push(info.clone());
                }
                if info.multipv == 1 {
                    self.shown_first = Some(info.clone());
                }
                (info.multipv as usize <= shown).then_some(SearchReport::Iteration(info))
            }
            SearchReport::Finished { .. } => {
                self.finished = Some(report);
                None
            }
            other => Some(other),
        }
    }

    /// The candidates, best first: the last completed iteration's lines,
    /// led by the search's final line when that is a move proven better
    /// in an iteration cut short (or the same line again).
    fn candidates(&self) -> Vec<SearchInfo> {
        let mut lines = self.lines.clone();
        if let Some(SearchReport::Finished {
            info: Some(last), ..
        }) = &self.finished
            && let Some(&first) = last.pv.first()
        {
            lines.retain(|l| l.pv.first() != Some(&first));
            lines.insert(0, last.clone());
        }
        lines
    }

    /// The final report with the level's move, and the think-time share
    /// (see [`think_share`]); `legal` is the number of root moves. Draws
    /// from `rng` in a fixed order: the move, then the share.
    pub fn finish(self, level: &Level, legal: usize, rng: &mut Rng) -> (Option<SearchReport>, f64) {
        let candidates = self.candidates();
        let scores: Vec<i32> = candidates.iter().map(|l| choice_value(l.score)).collect();
        let index = choose(&scores, level, rng);
        let share = think_share(&scores, legal, rng);
        let (info, best, ponder) = match self.finished {
            Some(SearchReport::Finished { info, best, ponder }) => (info, best, ponder),
            other => return (other, share),
        };
        let played = candidates.get(index).filter(|l| !l.pv.is_empty());
        let report = match played {
            Some(line) if index > 0 => SearchReport::Finished {
                // Sent again as line 1, unless it is the line 1 the GUI
                // saw last (the search's own final line was another).
                info: (self.shown_first.as_ref() != Some(line)).then(|| SearchInfo {
                    multipv: 1,
                    ..line.clone()
                }),
                best: line.pv.first().copied(),
                ponder: line.pv.get(1).copied(),
            },
            _ => SearchReport::Finished { info, best, ponder },
        };
        (Some(report), share)
    }
}

/// A reported score as one number to compare: centipawns, and mates
/// beyond every centipawn score (a quicker mate higher, a later loss
/// higher), so that [`DECISIVE`](super::strength::DECISIVE) and beyond
/// are the mates and tablebase results.
pub fn choice_value(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => 30_000 - n,
        Score::Mate(n) => -30_000 - n,
    }
}

/// Whether `go` asks for a move of a game, which waits (module docs).
pub fn is_paced(limits: &SearchLimits) -> bool {
    let clock = &limits.clock;
    let timed = clock.wtime.is_some() || clock.btime.is_some() || clock.movetime.is_some();
    timed
        && !limits.infinite
        && limits.searchmoves.is_empty()
        && limits.mate.is_none()
        && limits.depth.is_none()
        && limits.nodes.is_none()
}

/// How long after `go` (after the pondering search handed over, for `go
/// ponder`) the move is sent: `share` of the soft limit the time manager
/// plans for `pos` under `limits` with `overhead_ms`, at most its hard
/// limit; `None` when `go` does not pace its answer.
pub fn think_time(
    limits: &SearchLimits,
    pos: &Position,
    overhead_ms: u64,
    share: f64,
) -> Option<Duration> {
    if !is_paced(limits) {
        return None;
    }
    let plan = TimeLimits::new(&limits.clock, pos.board().turn(), overhead_ms);
    let (soft, hard) = (plan.soft?, plan.hard?);
    Some(soft.mul_f64(share.max(0.0)).min(hard))
}

/// Sleeps until `deadline` or until the job is stopped, whichever comes
/// first.
pub fn wait_until(deadline: Instant, signals: &Signals) {
    while !signals.stopped() {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return;
        }
        std::thread::sleep(left.min(WAIT_POLL));
    }
}

/// Locks `collector`, whatever a panicking holder left.
fn lock(collector: &Mutex<Collector>) -> MutexGuard<'_, Collector> {
    collector.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::time::Clock;
    use shakmaty::Move;

    /// A line from the start position.
    fn info(multipv: u32, score: i32, pv: &[&str]) -> SearchInfo {
        let mut pos = Position::startpos();
        let mut line: Vec<Move> = Vec::new();
        for m in pv {
            let mv = pos.parse_move(m, false).expect("a legal test move");
            pos.play(mv);
            line.push(mv);
        }
        let pv = line;
        SearchInfo {
            depth: 3,
            seldepth: 3,
            multipv,
            score: Score::Cp(score),
            bound: None,
            nodes: 100,
            hashfull: 0,
            tbhits: None,
            tb_proven: false,
            time: Duration::ZERO,
            pv,
        }
    }

    #[test]
    fn the_gui_sees_its_own_lines_and_the_final_report_waits() {
        let mut c = Collector::default();
        for k in 1..=3 {
            let shown = c.take(SearchReport::Iteration(info(k, 10, &["e2e4"])), 1);
            assert_eq!(shown.is_some(), k == 1);
        }
        let finished = SearchReport::Finished {
            info: None,
            best: None,
            ponder: None,
        };
        assert_eq!(c.take(finished, 1), None);
        let problem = SearchReport::Problem("x".to_owned());
        assert_eq!(c.take(problem.clone(), 1), Some(problem));
    }

    #[test]
    fn a_candidate_other_than_the_first_is_sent_again_as_line_one() {
        // The top level never strays: to force a second choice, give the
        // second line a far better score than the first (a mate).
        let mut c = Collector::default();
        c.take(SearchReport::Iteration(info(1, 10, &["e2e4", "e7e5"])), 1);
        let mut mate = info(2, 0, &["d2d4", "d7d5"]);
        mate.score = Score::Mate(3);
        c.take(SearchReport::Iteration(mate), 1);
        let best = c.lines[0].pv[0];
        c.take(
            SearchReport::Finished {
                info: None,
                best: Some(best),
                ponder: None,
            },
            1,
        );
        // Candidates keep the search's order; a won mate is only played
        // when it is first, so here the first line (10 cp) competes with
        // a line the choice sees as far better.
        let level = Level::from_elo(crate::engine::strength::ELO_MIN);
        let (report, share) = c.finish(&level, 20, &mut Rng::new(1));
        let Some(SearchReport::Finished {
            info: Some(line),
            best: Some(played),
            ponder: Some(reply),
        }) = report
        else {
            panic!("the second line must be re-sent: {report:?}");
        };
        assert_eq!(line.multipv, 1);
        assert_eq!((played, reply), (line.pv[0], line.pv[1]));
        assert_eq!(line.score, Score::Mate(3));
        assert!(share > 0.0);
    }

    #[test]
    fn the_line_one_the_gui_saw_last_is_not_sent_again() {
        // The search's final line (a move proven better at a depth cut
        // short) leads the candidates; a sure choice of the old line 1
        // needs no new line: it is the last multipv 1 line already.
        let mut c = Collector::default();
        let mut first = info(1, 10, &["e2e4", "e7e5"]);
        first.score = Score::Mate(2);
        c.take(SearchReport::Iteration(first.clone()), 1);
        c.take(SearchReport::Iteration(info(2, 5, &["d2d4"])), 1);
        let deeper = info(1, -20, &["g1f3", "g8f6"]);
        c.take(
            SearchReport::Finished {
                info: Some(deeper.clone()),
                best: Some(deeper.pv[0]),
                ponder: Some(deeper.pv[1]),
            },
            1,
        );
        let level = Level::from_elo(crate::engine::strength::ELO_MIN);
        let (report, _) = c.finish(&level, 20, &mut Rng::new(1));
        assert_eq!(
            report,
            Some(SearchReport::Finished {
                info: None,
                best: Some(first.pv[0]),
                ponder: Some(first.pv[1]),
            })
        );
    }

    #[test]
    fn a_move_proven_better_in_a_cut_iteration_leads_the_candidates() {
        let mut c = Collector::default();
        c.take(SearchReport::Iteration(info(1, 10, &["e2e4"])), 1);
        c.take(SearchReport::Iteration(info(2, 5, &["d2d4"])), 1);
        let deeper = info(1, 40, &["d2d4", "d7d5"]);
        c.take(
            SearchReport::Finished {
                info: Some(deeper.clone()),
                best: Some(deeper.pv[0]),
                ponder: Some(deeper.pv[1]),
            },
            1,
        );
        let candidates = c.candidates();
        assert_eq!(candidates.len(), 2);
        assert_eq!(candidates[0], deeper);
        assert_eq!(candidates[1].score, Score::Cp(10));
    }

    #[test]
    fn mates_compare_beyond_every_centipawn_score() {
        assert!(choice_value(Score::Mate(1)) > choice_value(Score::Mate(2)));
        assert!(choice_value(Score::Mate(9)) > choice_value(Score::Cp(20_000)));
        assert!(choice_value(Score::Mate(-9)) > choice_value(Score::Mate(-1)));
        assert!(choice_value(Score::Mate(0)) < choice_value(Score::Cp(-20_000)));
    }

    #[test]
    fn only_game_moves_wait_and_never_past_the_hard_limit() {
        let pos = Position::startpos();
        let clock = Clock {
            wtime: Some(60_000),
            btime: Some(60_000),
            ..Clock::default()
        };
        let game = SearchLimits {
            clock,
            ..SearchLimits::default()
        };
        let plan = TimeLimits::new(&clock, shakmaty::Color::White, 10);
        let (soft, hard) = (plan.soft.unwrap(), plan.hard.unwrap());
        assert_eq!(think_time(&game, &pos, 10, 1.0), Some(soft));
        assert_eq!(think_time(&game, &pos, 10, 0.5), Some(soft / 2));
        assert_eq!(think_time(&game, &pos, 10, 1000.0), Some(hard));
        let ponder = SearchLimits {
            ponder: true,
            ..game.clone()
        };
        assert!(is_paced(&ponder));
        for analysis in [
            SearchLimits::default(),
            SearchLimits::depth(5),
            SearchLimits {
                infinite: true,
                ..game.clone()
            },
            SearchLimits {
                nodes: Some(1000),
                ..game.clone()
            },
        ] {
            assert_eq!(think_time(&analysis, &pos, 10, 1.0), None, "{analysis:?}");
        }
    }

    #[test]
    fn the_level_searches_one_thread_its_lines_and_its_budget() {
        let base = SearchSettings {
            threads: 2,
            ..SearchSettings::default()
        };
        let go = LimitedGo::new(Level::from_elo(1200), base, None, 9, 0);
        let s = go.settings;
        assert_eq!((s.threads, s.multipv), (1, go.level.lines));
        assert_eq!(go.shown_lines, 1);
        assert_eq!(s.handicap.map(|h| h.seed), Some(9));
        assert_eq!(
            go.limits(&SearchLimits::default()).nodes,
            Some(go.level.nodes)
        );
        assert_eq!(go.limits(&SearchLimits::nodes(7)).nodes, Some(7));
    }
}
