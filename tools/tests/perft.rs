//! Every perft suite in perft/, at the depths whose expected count keeps
//! `cargo test` short; the deep lines run with `shears perft-suite` (see
//! perft/README.md) or the ignored test below.

use std::path::Path;

use shears::chess::Position;
use shears::chess::perft::{PerftTable, divide, perft_from};
use shears_tools::suites::perft::{check_suite, parse_suite};

/// Largest expected count checked in the normal test run.
const QUICK_NODE_LIMIT: u64 = 300_000;

fn check_file(name: &str, max_nodes: Option<u64>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../perft")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("suite file is in the repo");
    let (entries, errors) = parse_suite(&text);
    assert!(errors.is_empty(), "{name}: malformed lines: {errors:?}");
    assert!(!entries.is_empty());
    let checked: usize = entries
        .iter()
        .map(|e| {
            e.expected
                .iter()
                .filter(|(_, n)| max_nodes.is_none_or(|m| *n <= m))
                .count()
        })
        .sum();
    assert!(
        checked >= entries.len(),
        "{name}: every position is checked at least once"
    );
    let mismatches = check_suite(&entries, None, max_nodes, &|| {});
    assert!(
        mismatches.is_empty(),
        "{name}: {}",
        mismatches
            .iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn standard_perft_suite_matches() {
    check_file("perftsuite.epd", Some(QUICK_NODE_LIMIT));
}

#[test]
fn chess_programming_wiki_positions_match() {
    check_file("cpw_perft.epd", Some(QUICK_NODE_LIMIT * 10));
}

#[test]
fn chess960_suite_matches() {
    check_file("fischer960_perft.epd", Some(QUICK_NODE_LIMIT));
}

#[test]
fn perft_table_and_threads_agree_with_plain_perft() {
    let pos = Position::from_fen(
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        false,
    )
    .unwrap();
    let plain = perft_from(pos.board(), pos.key(), 4, None);
    assert_eq!(plain, 422_333);
    let table = PerftTable::new(4).expect("a 4 MB table");
    let split: u64 = shears::chess::perft::with_threads(2, || divide(&pos, 4, Some(&table)))
        .iter()
        .map(|(_, n)| n)
        .sum();
    assert_eq!(split, plain);
}

/// The full suites at every depth: minutes on 2 cores.
#[test]
#[ignore]
fn all_suites_at_full_depth() {
    for name in ["cpw_perft.epd", "perftsuite.epd", "fischer960_perft.epd"] {
        check_file(name, None);
    }
}
