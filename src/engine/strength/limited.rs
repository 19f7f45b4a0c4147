//! A `go` at a limited strength (`UCI_LimitStrength`): the level's search
//! (its node budget, its candidate lines, its evaluation handicap, one
//! thread), the move chosen among the candidates, and the wait before
//! `bestmove` that makes its time look like a person's. What a level is,
//! and the choices themselves, are in `level.rs`; the answer that runs
//! all this is `answer.rs`.
//!
//! **Lines.** The search runs with `max(MultiPV, level.lines)` lines; the
//! GUI sees only the first `MultiPV` of them, as always. When the move
//! played is not the first line's, its line is sent once more as `multipv
//! 1` before `bestmove` (unless it is the `multipv 1` line the GUI saw
//! last), so that the last `multipv 1` line is always the one `bestmove`
//! and `ponder` come from.
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

use std::time::{Duration, Instant};

use shakmaty::Position as _;

use super::level::{Level, choice_value, choose, think_share};
use crate::chess::Position;
use crate::chess::random::Rng;
use crate::search::time::TimeLimits;
use crate::search::{PvLine, SearchLimits, SearchOutcome, SearchSettings, Signals};

/// The random state of limited play: the generator that `StrengthSeed`
/// seeds, and the seed of the current game's evaluation errors (drawn from
/// it at the start and at every `ucinewgame`).
#[derive(Debug, Clone)]
pub(in crate::engine) struct StrengthSeeds {
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

/// The search settings of a level for an engine whose options give
/// `settings`: one thread (a node budget is only exact, and the play only
/// repeatable, on one) and the level's candidate lines (at least
/// `MultiPV`). Its evaluation handicap is [`Level::handicap`].
pub(in crate::engine) fn level_settings(
    level: &Level,
    mut settings: SearchSettings,
) -> SearchSettings {
    settings.threads = 1;
    settings.multipv = settings.multipv.max(level.lines);
    settings
}

/// The limits of a level's search: `go`'s, with the level's node budget.
pub(in crate::engine) fn level_limits(level: &Level, limits: &SearchLimits) -> SearchLimits {
    let mut limited = limits.clone();
    limited.nodes = Some(limits.nodes.map_or(level.nodes, |n| n.min(level.nodes)));
    limited
}

/// How a limited strength chooses its move: the level, the lines the GUI
/// sees, and the seed of this move's random choices.
#[derive(Debug, Clone)]
pub(in crate::engine) struct LevelChoice {
    /// The level.
    pub level: Level,
    /// `MultiPV` as the GUI set it: the lines it sees.
    pub shown_lines: usize,
    /// Seed of this move's random choices (the move, then the think time).
    pub seed: u64,
}

/// The line a level plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::engine) enum Played<'a> {
    /// The search's own best line.
    Best,
    /// Another line of the last completed iteration.
    Other {
        /// The line.
        line: &'a PvLine,
        /// Its place among the iteration's lines, from 1.
        multipv: usize,
    },
}

impl LevelChoice {
    /// The level's move of a `go` on `position` under `limits`: the line it
    /// plays from the search's `outcome`, returned once its think time has
    /// passed (see the module docs; `signals` cut the wait short). The one
    /// call the answer makes (`engine/answer.rs`).
    pub fn play<'a>(
        &self,
        outcome: &'a SearchOutcome,
        position: &Position,
        limits: &SearchLimits,
        signals: &Signals,
    ) -> Played<'a> {
        let legal = position.board().legal_moves().len();
        let (played, share) = self.choose(outcome, legal);
        if let Some(wait) = think_time(limits, position, share) {
            // After go ponder the clock runs from ponderhit, which is when
            // the wait for it ended, just now.
            let start = match limits.received {
                Some(received) if !limits.ponder => received,
                _ => Instant::now(),
            };
            wait_until(start + wait, signals);
        }
        played
    }

    /// The line the level plays from the search's `outcome`, and the
    /// think-time share (see [`think_share`]); `legal` is the number of
    /// root moves. Draws from the seed in a fixed order: the move, then
    /// the share.
    fn choose<'a>(&self, outcome: &'a SearchOutcome, legal: usize) -> (Played<'a>, f64) {
        let candidates = candidates(outcome);
        let scores: Vec<i32> = candidates
            .iter()
            .map(|(line, _)| choice_value(line.score))
            .collect();
        let mut rng = Rng::new(self.seed);
        let index = choose(&scores, &self.level, &mut rng);
        let share = think_share(&scores, legal, &mut rng);
        let played = match candidates.get(index) {
            Some(&(line, Some(k))) if index > 0 && !line.pv.is_empty() => Played::Other {
                line,
                multipv: k + 1,
            },
            _ => Played::Best,
        };
        (played, share)
    }
}

/// The candidates, best first, each with its place among the iteration's
/// lines (`None`: the search's own line): the last completed iteration's
/// lines, led by the line the search plays when that is another (a move
/// proven better in an iteration cut short, a helper's deeper line).
fn candidates(outcome: &SearchOutcome) -> Vec<(&PvLine, Option<usize>)> {
    let lines = outcome.lines.iter().enumerate().map(|(k, l)| (l, Some(k)));
    match outcome.line.as_ref() {
        Some(best) if !best.pv.is_empty() => {
            let first = best.pv[0];
            std::iter::once((best, None))
                .chain(lines.filter(|(l, _)| l.pv.first() != Some(&first)))
                .collect()
        }
        _ => lines.collect(),
    }
}

/// Whether `go` asks for a move of a game, which waits (module docs).
fn is_paced(limits: &SearchLimits) -> bool {
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
/// plans for `pos` under `limits` (`Move Overhead` kept back), at most its
/// hard limit; `None` when `go` does not pace its answer.
fn think_time(limits: &SearchLimits, pos: &Position, share: f64) -> Option<Duration> {
    if !is_paced(limits) {
        return None;
    }
    let plan = TimeLimits::new(&limits.clock, pos.board().turn());
    let (soft, hard) = (plan.soft?, plan.hard?);
    Some(soft.mul_f64(share.max(0.0)).min(hard))
}

/// Sleeps until `deadline` or until the job is stopped, whichever comes
/// first.
fn wait_until(deadline: Instant, signals: &Signals) {
    while !signals.stopped() {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return;
        }
        std::thread::sleep(left.min(WAIT_POLL));
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::search::MATE;
    use crate::search::time::Clock;
    use shakmaty::Move;

    /// A line from the start position (the answer's tests use it too).
    pub(crate) fn line(score: i32, pv: &[&str]) -> PvLine {
        let mut pos = Position::startpos();
        let mut line: Vec<Move> = Vec::new();
        for m in pv {
            let mv = pos.parse_move(m, false).expect("a legal test move");
            pos.play(mv);
            line.push(mv);
        }
        PvLine {
            depth: 3,
            seldepth: 3,
            score,
            tb_proven: false,
            bound: None,
            pv: line,
        }
    }

    /// The outcome of a search whose last iteration found `lines` and
    /// which plays `best`.
    fn outcome(lines: Vec<PvLine>, best: PvLine) -> SearchOutcome {
        SearchOutcome {
            line: Some(best),
            lines,
            ..SearchOutcome::default()
        }
    }

    fn choice() -> LevelChoice {
        LevelChoice {
            level: Level::from_elo(super::super::level::ELO_MIN),
            shown_lines: 1,
            seed: 1,
        }
    }

    #[test]
    fn a_candidate_other_than_the_first_is_played_from_its_line() {
        // The top level never strays: to force a second choice, give the
        // second line a far better score than the first (a mate). A won
        // mate is only played for sure when it is first, so here the first
        // line (10 cp) competes with a line the choice sees as far better.
        let lines = vec![
            line(10, &["e2e4", "e7e5"]),
            line(MATE - 5, &["d2d4", "d7d5"]),
        ];
        let outcome = outcome(lines.clone(), lines[0].clone());
        let (played, share) = choice().choose(&outcome, 20);
        assert_eq!(
            played,
            Played::Other {
                line: &lines[1],
                multipv: 2
            }
        );
        assert!(share > 0.0);
    }

    #[test]
    fn a_move_proven_better_in_a_cut_iteration_leads_the_candidates() {
        let lines = vec![line(10, &["e2e4"]), line(5, &["d2d4"])];
        let mut deeper = line(40, &["d2d4", "d7d5"]);
        deeper.bound = Some(crate::search::ScoreBound::Lower);
        let outcome = outcome(lines.clone(), deeper.clone());
        assert_eq!(
            candidates(&outcome),
            vec![(&deeper, None), (&lines[0], Some(0))]
        );
        // A finished iteration: its own lines, the first as the search's.
        let finished = super::tests::outcome(lines.clone(), lines[0].clone());
        assert_eq!(
            candidates(&finished),
            vec![(&lines[0], None), (&lines[1], Some(1))]
        );
    }

    #[test]
    fn the_same_seed_makes_the_same_choice() {
        let lines: Vec<PvLine> = ["e2e4", "d2d4", "g1f3", "c2c4"]
            .iter()
            .enumerate()
            .map(|(i, m)| line(20 - 5 * i as i32, &[m]))
            .collect();
        let outcome = outcome(lines.clone(), lines[0].clone());
        let mut level = choice();
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..40 {
            level.seed = seed;
            let first = level.choose(&outcome, 20);
            assert_eq!(level.choose(&outcome, 20), first);
            seen.insert(format!("{:?}", first.0));
        }
        assert!(seen.len() > 1, "forty seeds, one choice: {seen:?}");
    }

    #[test]
    fn only_game_moves_wait_and_never_past_the_hard_limit() {
        let pos = Position::startpos();
        let clock = Clock {
            wtime: Some(60_000),
            btime: Some(60_000),
            move_overhead: 10,
            ..Clock::default()
        };
        let game = SearchLimits {
            clock,
            ..SearchLimits::default()
        };
        let plan = TimeLimits::new(&clock, shakmaty::Color::White);
        let (soft, hard) = (plan.soft.unwrap(), plan.hard.unwrap());
        assert_eq!(think_time(&game, &pos, 1.0), Some(soft));
        assert_eq!(think_time(&game, &pos, 0.5), Some(soft / 2));
        assert_eq!(think_time(&game, &pos, 1000.0), Some(hard));
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
            assert_eq!(think_time(&analysis, &pos, 1.0), None, "{analysis:?}");
        }
    }

    #[test]
    fn the_level_searches_one_thread_its_lines_and_its_budget() {
        let base = SearchSettings {
            threads: 2,
            ..SearchSettings::default()
        };
        let level = Level::from_elo(1200);
        let s = level_settings(&level, base);
        assert_eq!((s.threads, s.multipv), (1, level.lines));
        assert_eq!(level.handicap(9).map(|h| h.seed), Some(9));
        assert_eq!(
            level_limits(&level, &SearchLimits::default()).nodes,
            Some(level.nodes)
        );
        assert_eq!(level_limits(&level, &SearchLimits::nodes(7)).nodes, Some(7));
    }
}
