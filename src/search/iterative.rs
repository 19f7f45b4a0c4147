//! Iterative deepening: the main thread searches depth 1, 2, 3 … with
//! aspiration windows around the last score, reports every iteration,
//! keeps the lines of the last completed one and decides when to stop; helper threads (Lazy SMP) deepen on their own and
//! only share the transposition table.

use std::time::Duration;

use super::limits::SearchLimits;
use super::node::{NodeFlags, Root, Window};
use super::params::{ASPIRATION_DELTA, ASPIRATION_MIN_DEPTH};
use super::report::{Counters, PvLine, ScoreBound, SearchInfo, SearchReport};
use super::score::{INFINITE, MATE, Score, is_decisive, is_mate};
use super::time::soft_scale;
use super::worker::Worker;

/// Bound lines (`lowerbound`/`upperbound`) are reported only after this long.
const BOUND_REPORT_AFTER: Duration = Duration::from_secs(1);

/// A thread's best line: of its last completed iteration, or proven
/// better in one cut short.
#[derive(Debug, Clone)]
pub(super) struct Completed {
    /// The search's score of the line (the line's own score is the one to
    /// show, the tables' verdict when they ranked the root).
    pub score: i32,
    /// The line.
    pub line: PvLine,
}

/// What the main thread's deepening leaves behind.
#[derive(Debug, Clone, Default)]
pub(super) struct Deepening {
    /// The best line found, if any iteration finished.
    pub completed: Option<Completed>,
    /// Every MultiPV line of the last completed iteration, best first.
    pub lines: Vec<PvLine>,
    /// Where the search stood when those lines were found.
    pub lines_counters: Counters,
    /// `(depth, nodes so far)` after each completed iteration.
    pub iterations: Vec<(u32, u64)>,
}

/// The main thread's iterative deepening, to `max_depth` at most:
/// reports each iteration and decides when to stop.
pub(super) fn main_thread(
    main: &mut Worker<'_>,
    limits: &SearchLimits,
    multipv: usize,
    max_depth: u32,
) -> Deepening {
    let mut result = Deepening::default();
    // Time management: iterations the best move has stayed the same, and
    // the last score.
    let (mut stable, mut last): (usize, Option<(shakmaty::Move, i32)>) = (0, None);
    for depth in 1..=max_depth {
        if !iterate(main, depth, multipv) {
            // A move that beat the previous best before time ran out is
            // better at this depth than anything the last full iteration saw.
            if let Some(rm) = main.root.unfinished_best.take() {
                result.completed = Some(Completed {
                    score: rm.score,
                    line: PvLine {
                        depth,
                        seldepth: main.seldepth as u32,
                        score: rm.shown_score(rm.score),
                        tb_proven: rm.tb_score.is_some(),
                        bound: Some(ScoreBound::Lower),
                        pv: rm.pv,
                    },
                });
            }
            break;
        }
        // The iteration's lines: the result so far, and its report.
        let lines = multipv.clamp(1, main.root.moves.len().max(1));
        result.lines = (0..lines).map(|k| main.line(k, None)).collect();
        result.lines_counters = main.counters();
        for (k, line) in result.lines.iter().enumerate() {
            let info = SearchInfo::new(line, k as u32 + 1, &result.lines_counters);
            main.send(SearchReport::Iteration(info));
        }
        let nodes = main.total_nodes();
        result.iterations.push((depth, nodes));
        let best = &main.root.moves[0];
        result.completed = Some(Completed {
            score: best.score,
            line: result.lines[0].clone(),
        });

        if main.stopped() || limits.nodes.is_some_and(|n| nodes >= n) {
            break;
        }
        // go mate: a mate in at most the moves asked for is the answer
        // (either way: being mated that soon is as much the answer).
        if let (Some(m), Score::Mate(n)) = (limits.mate, Score::from_internal(best.score))
            && n.unsigned_abs() <= m
        {
            break;
        }
        let settled = mate_settled(best.score, depth, limits);
        // Soft limit, scaled by how settled the search is: an iteration
        // started now would likely not finish, or not change the move.
        let (best_move, score) = (best.mv, best.score);
        stable = match last {
            Some((m, _)) if m == best_move => stable + 1,
            _ => 0,
        };
        let drop = last.map_or(0, |(_, previous)| previous - score);
        last = Some((best_move, score));
        let share = best.nodes as f64 / main.nodes.max(1) as f64;
        let scale = soft_scale(stable, share, drop);
        let out_of_time = main
            .soft_limit(scale)
            .is_some_and(|soft| main.start.elapsed() >= soft);
        if settled || out_of_time || main.stop_on_ponderhit {
            // While pondering the search goes on (the GUI waits for our
            // move only after ponderhit), and stops at ponderhit.
            if !main.pondering() {
                break;
            }
            main.stop_on_ponderhit = true;
        }
    }
    result
}

/// Iterations past twice a mate's distance (in plies) plus this many
/// before the mate counts as settled.
const MATE_SETTLED_MARGIN: u32 = 4;

/// Mate found: once the search has gone well past its distance (twice the
/// plies, plus [`MATE_SETTLED_MARGIN`]) a shorter one would have shown, so
/// a search under a clock or a node budget stops deepening rather than
/// print the same mate to depth 100. Not for `go depth` (the depth asked
/// for is searched), `go infinite` (until `stop`), nor for a `go mate` whose
/// mate is still longer than the one asked for (it is still sought).
fn mate_settled(score: i32, depth: u32, limits: &SearchLimits) -> bool {
    if !is_mate(score) || limits.depth.is_some() || limits.infinite {
        return false;
    }
    let plies = (MATE - score.abs()) as u32;
    // A mate of ours longer than go mate asked for: a shorter one is
    // still sought.
    if score > 0 && limits.mate.is_some_and(|m| plies.div_ceil(2) > m) {
        return false;
    }
    depth >= 2 * plies + MATE_SETTLED_MARGIN
}

/// A helper thread's iterative deepening: until the search stops or it has
/// completed `max_depth` (the depth `go depth` asked for, so that no helper
/// answers from deeper than that); returns its last completed line. Helper
/// `index` (from 1) leaves out some depths (see [`helper_skips`]), so that
/// the threads spread over several depths and the table fills with deeper
/// results sooner.
pub(super) fn helper_thread(
    worker: &mut Worker<'_>,
    index: usize,
    max_depth: u32,
) -> Option<Completed> {
    let mut completed = None;
    for depth in 1..=max_depth {
        if helper_skips(index, depth) {
            continue;
        }
        if !iterate(worker, depth, 1) {
            break;
        }
        completed = Some(Completed {
            score: worker.root.moves[0].score,
            line: worker.line(0, None),
        });
        if worker.stopped() {
            break;
        }
    }
    worker.publish_nodes();
    completed
}

/// Whether helper `index` (from 1) leaves out `depth`: odd helpers search
/// the odd depths, even helpers every depth but each fourth, after the
/// first two (every thread searches those).
fn helper_skips(index: usize, depth: u32) -> bool {
    depth > 2
        && if index % 2 == 1 {
            depth.is_multiple_of(2)
        } else {
            (depth as usize + index / 2).is_multiple_of(4)
        }
}

/// The line to play: the main thread's, unless a helper completed a deeper
/// iteration with a better score (or a mate), as Lazy SMP engines vote.
pub(super) fn choose_line(
    main: Option<Completed>,
    helpers: impl IntoIterator<Item = Completed>,
) -> Option<Completed> {
    helpers.into_iter().fold(main, |best, helper| match best {
        Some(b)
            if helper.line.depth > b.line.depth
                && b.line.bound.is_none()
                && (helper.score > b.score || is_decisive(helper.score)) =>
        {
            Some(helper)
        }
        None => Some(helper),
        keep => keep,
    })
}

/// One iteration at `depth`: every MultiPV line with its aspiration loop.
/// Returns false when the iteration was cut short.
fn iterate(worker: &mut Worker<'_>, depth: u32, multipv: usize) -> bool {
    worker.root.start_iteration(depth as i32);
    worker.seldepth = 0;
    let lines = multipv.clamp(1, worker.root.moves.len().max(1));
    let config = worker.config();
    for pv_index in 0..lines {
        worker.root.pv_index = pv_index;
        let previous = worker.root.moves[pv_index].previous_score;
        let mut delta = ASPIRATION_DELTA.get();
        let aspirate = config.aspiration
            && depth as i32 >= ASPIRATION_MIN_DEPTH.get()
            && !is_decisive(previous);
        let mut window = if aspirate {
            Window::new(previous - delta, previous + delta)
        } else {
            Window::FULL
        };
        loop {
            let score = worker.negamax::<Root>(depth as i32, 0, window, NodeFlags::PV);
            if worker.aborted {
                return false;
            }
            // Best first among the lines not yet fixed (stable: unsearched
            // moves keep last iteration's order).
            let len = worker.root.moves.len();
            worker.root.sort(pv_index, len);
            let (alpha, beta) = (window.alpha, window.beta);
            let bound = if score <= alpha {
                window = Window::new((score - delta).max(-INFINITE), (alpha + beta) / 2);
                // A failing line wants more time: a ponderhit no longer
                // stops it at once (its limits still do).
                worker.stop_on_ponderhit = false;
                ScoreBound::Upper
            } else if score >= beta {
                window = Window::new(alpha, (score + delta).min(INFINITE));
                ScoreBound::Lower
            } else {
                break;
            };
            if worker.report.is_some() && worker.start.elapsed() >= BOUND_REPORT_AFTER {
                let line = worker.line(pv_index, Some(bound));
                let info = SearchInfo::new(&line, pv_index as u32 + 1, &worker.counters());
                worker.send(SearchReport::Iteration(info));
            }
            delta += delta / 2;
        }
        worker.root.sort(0, pv_index + 1);
    }
    true
}
