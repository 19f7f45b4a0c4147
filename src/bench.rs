//! `bench`: a fixed list of positions searched to a fixed depth on one
//! thread with fresh state. The total node count identifies the engine's
//! search behaviour; the last line is `<nodes> nodes <nps> nps`.

use std::time::{Duration, Instant};

use crate::position::Position;
use crate::search::{SearchLimits, SearchReport, Signals, search};

/// Depth used when none is given.
pub const DEFAULT_DEPTH: u32 = 5;

/// The positions, one FEN per line.
pub const BENCH_FENS: &str = include_str!("bench.fens");

/// Totals of a bench run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BenchResult {
    /// Nodes over all positions.
    pub nodes: u64,
    /// Wall time of the searches.
    pub time: Duration,
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
}

/// Searches every bench position to `depth`, sending one progress line per
/// position to `progress`.
pub fn run(depth: u32, progress: &mut dyn FnMut(&str)) -> BenchResult {
    let mut total = BenchResult {
        nodes: 0,
        time: Duration::ZERO,
    };
    for (i, fen) in BENCH_FENS
        .lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
    {
        let pos = Position::from_fen(fen, false).expect("bench FENs are valid (checked by a test)");
        let limits = SearchLimits {
            depth: Some(depth),
            ..SearchLimits::default()
        };
        let signals = Signals::new(false);
        let mut nodes = 0;
        let start = Instant::now();
        search(&pos, &limits, 0, &signals, &mut |r| {
            if let SearchReport::Finished { info, .. } = r {
                nodes = info.nodes;
            }
        });
        total.time += start.elapsed();
        total.nodes += nodes;
        progress(&format!("position {:>2}: {nodes:>10} nodes  {fen}", i + 1));
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_is_deterministic() {
        let a = run(3, &mut |_| {});
        let b = run(3, &mut |_| {});
        assert_eq!(a.nodes, b.nodes);
        assert!(a.nodes > 0);
    }
}
