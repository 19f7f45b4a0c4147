//! `shears compare`: the algorithms side by side on the same positions and
//! depths. Per algorithm: nodes, leaves, time, effective branching factor,
//! first-move fail-high rate, memory and value (the same in every row:
//! they all compute the minimax value), with the two textbook lines for
//! the positions' branching factor `b`: the full tree `b^d` and Knuth and
//! Moore's minimal tree `b^⌈d/2⌉ + b^⌊d/2⌋ - 1` (both count leaves). The
//! engine's real search is measured beside them, for reference.
//!
//! `b` of a position is measured, not assumed: `perft(k)^(1/k)` with
//! `k = min(d, 4)`, the average number of legal moves along the tree.

use std::time::{Duration, Instant};

use shears::chess::Position;
use shears::chess::perft::perft;
use shears::search::theory::{
    Algorithm, Leaf, MoveOrdering, TheoryConfig, TheoryLimits, TheoryStats, search,
};
use shears::search::{SearchLimits, SearchRequest, SearchSettings, Searcher};

/// Deepest perft used to measure a position's branching factor.
const MAX_PERFT_DEPTH: u32 = 4;
/// Hash size of the engine's reference search, MB.
const ENGINE_HASH_MB: usize = 16;

/// What to compare.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CompareConfig {
    /// The ordering of every algorithm but the unordered alpha-beta row.
    pub ordering: MoveOrdering,
    /// Horizon values.
    pub leaf: Leaf,
    /// Largest node count of one row (all positions together); a row past
    /// it is "over budget".
    pub max_nodes: u64,
    /// Measure the engine's real search too.
    pub engine: bool,
}

/// The rows compared: minimax, alpha-beta without ordering, then every
/// other algorithm with `ordering`.
pub fn row_configs(ordering: MoveOrdering, leaf: Leaf) -> Vec<TheoryConfig> {
    let mut rows = vec![
        TheoryConfig {
            algorithm: Algorithm::Minimax,
            ordering: MoveOrdering::None,
            leaf,
        },
        TheoryConfig {
            algorithm: Algorithm::AlphaBeta,
            ordering: MoveOrdering::None,
            leaf,
        },
    ];
    for algorithm in [
        Algorithm::AlphaBeta,
        Algorithm::NegaScout,
        Algorithm::Sss,
        Algorithm::Mtdf,
    ] {
        if algorithm != Algorithm::AlphaBeta || ordering != MoveOrdering::None {
            rows.push(TheoryConfig {
                algorithm,
                ordering,
                leaf,
            });
        }
    }
    rows
}

/// One algorithm over all positions at one depth.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// What ran (`None`: the engine's real search).
    pub config: Option<TheoryConfig>,
    /// Counters summed over the positions (memory: the largest).
    pub stats: TheoryStats,
    /// Wall time over the positions.
    pub time: Duration,
    /// The value of each position; `None` when a search went over budget.
    pub values: Option<Vec<i32>>,
}

impl Row {
    /// The row's name.
    pub fn name(&self) -> String {
        match self.config {
            None => "engine (real search)".to_owned(),
            Some(c) if c.algorithm == Algorithm::Minimax => c.algorithm.title().to_owned(),
            Some(c) => format!("{} ({})", c.algorithm.title(), c.ordering.name()),
        }
    }

    /// Whether it completed within the budget.
    pub fn completed(&self) -> bool {
        self.values.is_some()
    }
}

/// Everything measured at one depth.
#[derive(Debug, Clone, PartialEq)]
pub struct DepthResult {
    /// The depth.
    pub depth: u32,
    /// One row per algorithm, the engine last.
    pub rows: Vec<Row>,
    /// `Σ b^d` over the positions.
    pub full_tree: f64,
    /// `Σ (b^⌈d/2⌉ + b^⌊d/2⌋ - 1)` over the positions.
    pub minimal_tree: f64,
    /// The branching factor of the positions together: the `b` whose `b^d`
    /// is the mean full tree.
    pub branching: f64,
    /// Positions.
    pub positions: usize,
}

/// The branching factor of `pos` measured by perft to `min(depth, 4)`.
pub fn branching_factor(pos: &Position, depth: u32) -> f64 {
    let k = depth.clamp(1, MAX_PERFT_DEPTH);
    (perft(pos, k) as f64).powf(1.0 / f64::from(k))
}

/// The leaves of the full tree and of the minimal tree of depth `d` with
/// branching factor `b`.
pub fn textbook_leaves(b: f64, d: u32) -> (f64, f64) {
    let (up, down) = (d.div_ceil(2), d / 2);
    (
        b.powi(d as i32),
        b.powi(up as i32) + b.powi(down as i32) - 1.0,
    )
}

/// Runs every row on `positions` at each depth of `depths`; a row that went
/// over budget at one depth is not run deeper. `progress` hears about each
/// finished row.
pub fn compare(
    positions: &[Position],
    depths: impl IntoIterator<Item = u32>,
    config: &CompareConfig,
    progress: &mut dyn FnMut(u32, &Row),
) -> Vec<DepthResult> {
    let configs = row_configs(config.ordering, config.leaf);
    let mut over: Vec<bool> = vec![false; configs.len() + 1];
    let branching: Vec<Vec<f64>> = positions
        .iter()
        .map(|p| {
            (1..=MAX_PERFT_DEPTH)
                .map(|d| branching_factor(p, d))
                .collect()
        })
        .collect();
    let mut results = Vec::new();
    for depth in depths {
        let mut rows = Vec::new();
        for (i, &c) in configs.iter().enumerate() {
            let row = if over[i] {
                skipped(Some(c))
            } else {
                run_theory(positions, depth, c, config.max_nodes)
            };
            over[i] = !row.completed();
            progress(depth, &row);
            rows.push(row);
        }
        if config.engine {
            let row = run_engine(positions, depth);
            progress(depth, &row);
            rows.push(row);
        }
        let (mut full, mut minimal) = (0.0, 0.0);
        for b in &branching {
            let b = b[(depth.clamp(1, MAX_PERFT_DEPTH) - 1) as usize];
            let (f, m) = textbook_leaves(b, depth);
            full += f;
            minimal += m;
        }
        let n = positions.len().max(1) as f64;
        results.push(DepthResult {
            depth,
            rows,
            full_tree: full,
            minimal_tree: minimal,
            branching: (full / n).powf(1.0 / f64::from(depth)),
            positions: positions.len(),
        });
    }
    results
}

fn skipped(config: Option<TheoryConfig>) -> Row {
    Row {
        config,
        stats: TheoryStats::default(),
        time: Duration::ZERO,
        values: None,
    }
}

fn run_theory(positions: &[Position], depth: u32, config: TheoryConfig, max_nodes: u64) -> Row {
    let mut row = skipped(Some(config));
    let mut values = Vec::new();
    let start = Instant::now();
    for pos in positions {
        let spent = row.stats.nodes + row.stats.qnodes + row.stats.pv_nodes;
        let limits = TheoryLimits {
            max_nodes: Some(max_nodes.saturating_sub(spent)),
            ..TheoryLimits::default()
        };
        let result = search(pos, depth, config, limits, None);
        row.stats.add(&result.stats);
        match result.value {
            Some(v) => values.push(v),
            None => {
                row.time = start.elapsed();
                return row;
            }
        }
    }
    row.time = start.elapsed();
    row.values = Some(values);
    row
}

/// The engine's real search to `depth` on each position, fresh tables.
fn run_engine(positions: &[Position], depth: u32) -> Row {
    let mut row = skipped(None);
    let mut values = Vec::new();
    let start = Instant::now();
    for pos in positions {
        let Ok(mut searcher) = Searcher::new(ENGINE_HASH_MB) else {
            return row;
        };
        let limits = SearchLimits::depth(depth);
        let out = searcher.think(&SearchRequest::new(pos, &limits, SearchSettings::default()));
        row.stats.nodes += out.counters.nodes;
        row.stats.fail_highs += out.stats.cutoffs;
        row.stats.first_move_fail_highs += out.stats.first_move_cutoffs;
        values.push(out.score().unwrap_or(0));
    }
    row.time = start.elapsed();
    row.stats.memory_bytes = (ENGINE_HASH_MB as u64) << 20;
    row.values = Some(values);
    row
}
