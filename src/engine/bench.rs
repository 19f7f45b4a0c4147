//! `bench`: a fixed list of positions searched to a fixed depth on one
//! thread with a fresh table. The total node count identifies the engine's
//! search behaviour; the last line is `<nodes> nodes <nps> nps`.
//!
//! Before it, bench prints what the theory of alpha-beta predicts we should
//! measure: the effective branching factor per iteration, the share of beta
//! cutoffs made by the first move searched (move-ordering quality) and the
//! transposition-table hit rate.

use std::fmt;
use std::time::{Duration, Instant};

use crate::chess::Position;
use crate::eval::{Evaluation, HAND_CRAFTED};
use crate::search::params::SearchConfig;
use crate::search::{SearchLimits, SearchRequest, SearchSettings, Searcher, Signals, Stats};

/// Depth used when none is given: 11 keeps a run at 2–5 s, as OpenBench
/// and speed claims want (depth 14, 18.7M nodes, had grown to 12 s).
pub const DEFAULT_DEPTH: u32 = 11;
/// Hash size of the bench, MB.
pub const BENCH_HASH_MB: usize = 16;

/// The positions, one FEN per line; `#` lines are comments (where the
/// positions come from).
pub const BENCH_FENS: &str = include_str!("bench.fens");

/// The FENs of [`BENCH_FENS`], in order.
pub fn bench_fens() -> impl Iterator<Item = &'static str> {
    BENCH_FENS
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
}

/// Totals of a bench run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BenchResult {
    /// Nodes over all positions.
    pub nodes: u64,
    /// Wall time of the searches.
    pub time: Duration,
    /// Ordering and TT counters over all positions.
    pub stats: Stats,
    /// Nodes of each completed iteration depth, summed over positions
    /// (index 0 is depth 1).
    pub nodes_by_depth: Vec<u64>,
    /// Positions searched (all of them, unless the run was stopped).
    pub positions: usize,
    /// The run was stopped before its end: the totals cover the positions
    /// searched, the last of them perhaps only in part.
    pub stopped: bool,
}

/// One position of a bench run, done.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BenchPosition {
    /// Its number, from 1.
    pub number: usize,
    /// Nodes searched.
    pub nodes: u64,
    /// The position.
    pub fen: String,
}

impl fmt::Display for BenchPosition {
    /// `position  N:      nodes nodes  FEN`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "position {:>2}: {:>10} nodes  {}",
            self.number, self.nodes, self.fen
        )
    }
}

impl BenchResult {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as u128 * 1_000_000_000 / self.time.as_nanos().max(1)) as u64
    }

    /// OpenBench's last line: `<nodes> nodes <nps> nps`.
    pub fn summary(&self) -> String {
        format!("{} nodes {} nps", self.nodes, self.nps())
    }

    /// The effective branching factor of each iteration: nodes to finish
    /// depth d divided by nodes to finish depth d-1.
    pub fn branching_factors(&self) -> Vec<(u32, f64)> {
        self.nodes_by_depth
            .windows(2)
            .enumerate()
            .filter(|(_, w)| w[0] > 0)
            .map(|(i, w)| (i as u32 + 2, w[1] as f64 / w[0] as f64))
            .collect()
    }

    /// The measurement lines printed before the summary.
    pub fn report(&self) -> Vec<String> {
        let s = &self.stats;
        let pct = |a: u64, b: u64| {
            if b == 0 {
                0.0
            } else {
                100.0 * a as f64 / b as f64
            }
        };
        let ebf: Vec<String> = self
            .branching_factors()
            .iter()
            .map(|(d, f)| format!("{d}:{f:.2}"))
            .collect();
        vec![
            format!("effective branching factor by depth: {}", ebf.join(" ")),
            format!(
                "first-move cutoffs: {:.1}% of {} beta cutoffs",
                pct(s.first_move_cutoffs, s.cutoffs),
                s.cutoffs
            ),
            format!(
                "tt hit rate: {:.1}% of {} probes",
                pct(s.tt_hits, s.tt_probes),
                s.tt_probes
            ),
            format!("time: {} ms", self.time.as_millis()),
        ]
    }
}

/// Searches every bench position to `depth` with `config` and
/// `evaluation`, telling `progress` about each one as it is done;
/// `signals` can stop the run.
pub fn run_with(
    depth: u32,
    config: SearchConfig,
    evaluation: &Evaluation,
    signals: &Signals,
    progress: &mut dyn FnMut(&BenchPosition),
) -> BenchResult {
    let mut total = BenchResult::default();
    let mut searcher = Searcher::new(BENCH_HASH_MB).expect("the bench table is small");
    let settings = SearchSettings::single(config);
    let limits = SearchLimits::depth(depth);
    for (i, fen) in bench_fens().enumerate() {
        if signals.stopped() {
            total.stopped = true;
            break;
        }
        let pos = Position::from_fen(fen, false).expect("bench FENs are valid (checked by a test)");
        // Every position starts with an empty table and fresh histories; the
        // pawn cache, which cannot change a search, is kept as between the
        // moves of a game.
        searcher.new_game();
        let start = Instant::now();
        let request = SearchRequest::new(&pos, &limits, settings).with_evaluation(evaluation);
        let outcome = searcher.search(&request, signals, &|_| {});
        total.time += start.elapsed();
        total.nodes += outcome.counters.nodes;
        total.positions += 1;
        total.stats.add(&outcome.stats);
        for (d, nodes) in outcome.iterations {
            let idx = d as usize - 1;
            if total.nodes_by_depth.len() <= idx {
                total.nodes_by_depth.resize(idx + 1, 0);
            }
            total.nodes_by_depth[idx] += nodes;
        }
        progress(&BenchPosition {
            number: i + 1,
            nodes: outcome.counters.nodes,
            fen: fen.to_owned(),
        });
    }
    total.stopped |= signals.stopped();
    total
}

/// [`run_with`] with the engine's real configuration and the hand-crafted
/// evaluation, to its end.
pub fn run(depth: u32, progress: &mut dyn FnMut(&BenchPosition)) -> BenchResult {
    run_with(
        depth,
        SearchConfig::default(),
        &HAND_CRAFTED,
        &Signals::new(false),
        progress,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_has_fifty_distinct_legal_positions_from_no_scored_suite() {
        let fens: Vec<&str> = bench_fens().collect();
        assert_eq!(fens.len(), 50);
        // Board, side, castling and en passant: the position, whatever the
        // move counters say.
        let key = |fen: &str| fen.split_whitespace().take(4).collect::<Vec<_>>().join(" ");
        let mut seen = std::collections::BTreeSet::new();
        for fen in &fens {
            let pos = Position::from_fen(fen, false).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert!(pos.outcome().is_none(), "{fen}: the game is over");
            assert!(seen.insert(key(fen)), "{fen} twice");
        }
        let suites = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/suites");
        let mut files = 0;
        for entry in std::fs::read_dir(&suites).expect("tests/data/suites") {
            let path = entry.expect("a directory entry").path();
            if path.extension().is_none_or(|e| e != "epd") {
                continue;
            }
            files += 1;
            let text = std::fs::read_to_string(&path).expect("a readable suite");
            for line in text.lines() {
                assert!(
                    !seen.contains(&key(line)),
                    "bench position {} is in {}",
                    key(line),
                    path.display()
                );
            }
        }
        assert!(files >= 6, "the scored suites are missing from {suites:?}");
    }

    #[test]
    fn bench_is_deterministic() {
        let a = run(5, &mut |_| {});
        let b = run(5, &mut |_| {});
        assert_eq!(a.nodes, b.nodes);
        assert!(a.nodes > 0);
    }
}
