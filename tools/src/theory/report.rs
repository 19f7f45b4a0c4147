//! The text of `shears compare`: one table per depth.

use std::fmt::Write as _;

use super::compare::{DepthResult, Row};
use super::text::{bytes, count, value};

/// The effective branching factor of `nodes` over `positions` positions at
/// `depth`: the `depth`-th root of the nodes per position.
pub fn effective_branching(nodes: u64, positions: usize, depth: u32) -> f64 {
    (nodes as f64 / positions.max(1) as f64).powf(1.0 / f64::from(depth))
}

/// The table of one depth.
pub fn table(result: &DepthResult) -> String {
    let mut out = String::new();
    let n = result.positions;
    let value_head = if n == 1 { "value" } else { "Σ value" };
    let _ = writeln!(
        out,
        "depth {} · {n} position{} · b = {:.2}",
        result.depth,
        if n == 1 { "" } else { "s" },
        result.branching
    );
    let _ = writeln!(
        out,
        "{:<26} {:>14} {:>13} {:>10} {:>6} {:>9} {:>10} {:>9}",
        "algorithm", "nodes", "leaves", "time ms", "EBF", "1st cut", "memory", value_head
    );
    for row in &result.rows {
        let _ = writeln!(out, "{}", line(row, result));
    }
    let d = result.depth;
    let _ = writeln!(
        out,
        "{:<26} {:>14} {:>13}   b = {:.2}, leaves of the full tree",
        "b^d",
        "",
        count(result.full_tree.round() as u64),
        result.branching
    );
    let _ = writeln!(
        out,
        "{:<26} {:>14} {:>13}   leaves of the minimal tree (Knuth-Moore)",
        format!("b^{} + b^{} - 1", d.div_ceil(2), d / 2),
        "",
        count(result.minimal_tree.round() as u64)
    );
    for row in result
        .rows
        .iter()
        .filter(|r| r.completed() && r.stats.passes > 0)
    {
        let _ = writeln!(
            out,
            "{}: {:.1} passes per position, {} nodes more to find the PV",
            row.name(),
            row.stats.passes as f64 / n.max(1) as f64,
            count(row.stats.pv_nodes)
        );
    }
    let theory: Vec<&Row> = result.rows.iter().filter(|r| r.config.is_some()).collect();
    let done: Vec<&Vec<i32>> = theory.iter().filter_map(|r| r.values.as_ref()).collect();
    if done.windows(2).all(|w| w[0] == w[1]) {
        let _ = writeln!(
            out,
            "every completed algorithm returned the same value on every position"
        );
    } else {
        let _ = writeln!(out, "VALUES DISAGREE: a bug in an algorithm");
    }
    out
}

fn line(row: &Row, result: &DepthResult) -> String {
    let name = row.name();
    let Some(values) = &row.values else {
        return format!("{name:<26} {:>14}", "over budget");
    };
    let s = &row.stats;
    let leaves = if row.config.is_some() {
        count(s.leaves)
    } else {
        "-".to_owned()
    };
    let cut = s
        .first_move_rate()
        .map_or("-".to_owned(), |r| format!("{:.1}%", 100.0 * r));
    let memory = if s.memory() > 0 {
        bytes(s.memory())
    } else {
        "-".to_owned()
    };
    let total: i64 = values.iter().map(|&v| i64::from(v)).sum();
    let shown = if values.len() == 1 {
        value(values[0])
    } else {
        format!("{total:+}")
    };
    format!(
        "{name:<26} {:>14} {leaves:>13} {:>10} {:>6.2} {cut:>9} {memory:>10} {shown:>9}",
        count(s.nodes + s.qnodes),
        row.time.as_millis(),
        effective_branching(s.nodes + s.qnodes, result.positions, result.depth),
    )
}
