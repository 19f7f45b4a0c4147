//! Proof tests of the teaching searches (`search::theory`): every
//! algorithm, with every move ordering, returns the minimax value.
//!
//! * On at least [`MIN_CASES`] positions (short reproducible random games
//!   from varied start positions, their history kept so that repetitions
//!   count, plus positions at the edge of the 50-move rule), at depths 1
//!   to 4, with static-evaluation leaves: alpha-beta, NegaScout, SSS* and
//!   MTD(f), each with no ordering, MVV-LVA and full ordering, return the
//!   theory minimax value.
//! * That minimax is the engine's: at depths 1 to 3 it equals the engine's
//!   plain alpha-beta (`SearchConfig::plain()`), which `search_proof.rs`
//!   proves equal to an independent minimax.
//! * With quiescence leaves, depths 1 to 3, on a third of the positions.
//! * The recorded tree agrees with the counters.
//!
//! Depth 4 of full-width minimax costs seconds on a middlegame position,
//! so the positions are drawn from a larger pool of random games and kept
//! when their depth-3 perft is at most [`MAX_PERFT3`]: endgames, positions
//! in check, positions with few moves. `theory_values_on_middlegames` (run
//! with `--ignored`) does the middlegames too.

use rayon::prelude::*;
use shakmaty::{Move, Position as _};
use shears::chess::perft::perft;
use shears::chess::random::RandomGame;
use shears::chess::{Position, START_FEN, move_to_uci};
use shears::search::params::SearchConfig;
use shears::search::theory::{
    Algorithm, Leaf, MoveOrdering, SearchTree, TheoryConfig, TheoryLimits, search,
};
use shears::search::{SearchLimits, SearchRequest, SearchSettings, Searcher};

/// Start positions of the random games.
const START_FENS: &[&str] = &[
    START_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1",
    "8/8/4k3/8/8/3QK3/8/8 w - - 94 120",
    "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 90 80",
    "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",
    "8/8/3k4/8/8/3K4/3R4/3r4 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "4k3/8/8/8/1b6/8/8/R3K2R w KQ - 0 1",
    "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
    "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3",
    "8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1",
    "r5k1/5ppp/8/8/8/8/5PPP/2R3K1 w - - 0 1",
    "8/8/1p1k4/1P6/1K6/8/8/8 w - - 0 1",
    "4r1k1/5ppp/8/8/8/8/2Q2PPP/6K1 w - - 0 1",
];

/// Positions used as they are: mates and the 50-move rule at its edge.
const FIXED_FENS: &[&str] = &[
    "6k1/8/6K1/8/8/8/8/R7 w - - 99 100",
    "6k1/8/6K1/8/8/8/8/R7 w - - 98 100",
    "7k/8/5K2/8/8/8/8/Q7 w - - 99 100",
    "kbK5/pp6/1P6/8/8/8/8/R7 w - - 99 100",
    "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
];

/// Random games in the pool.
const POOL: usize = 560;
/// Positions kept when their depth-3 perft is at most this.
const MAX_PERFT3: u64 = 6_000;
/// At least this many positions must be kept.
const MIN_CASES: usize = 300;

/// A test position and how it was reached.
struct Case {
    pos: Position,
    describe: String,
}

/// Case `i`: a random game of 2–40 plies from `START_FENS[i % len]`; every
/// other game likes to move a piece straight back (repetitions).
fn make_case(i: usize) -> Case {
    let start = START_FENS[i % START_FENS.len()];
    let pos = Position::from_fen(start, false).expect("valid start FEN");
    let mut game = RandomGame::new(pos, 1000 + i as u64);
    let plies = 2 + game.rng().below(39);
    let shuffle = i % 2 == 1;
    for _ in 0..plies {
        let own_last = game.moves().iter().rev().nth(1).copied();
        let going = game.step_with(|pos, legal, rng| {
            let mut choice = rng.pick(legal)?;
            if shuffle
                && let Some(last) = own_last
                && rng.below(3) != 0
                && let Some(back) = legal.iter().find(|m| {
                    !m.is_capture() && m.from() == Some(last.to()) && last.from() == Some(m.to())
                })
            {
                choice = *back;
            }
            let mut after = pos.board().clone();
            after.play_unchecked(choice);
            (!after.legal_moves().is_empty()).then_some(choice)
        });
        if !going {
            break;
        }
    }
    let moves: Vec<String> = game
        .moves()
        .iter()
        .map(|&m| move_to_uci(m, false))
        .collect();
    Case {
        describe: format!(
            "fen {}\n  reached by: position fen {start} moves {}",
            game.position().fen(),
            moves.join(" ")
        ),
        pos: game.position().clone(),
    }
}

/// The kept positions (cheap enough for depth-4 minimax) or, with
/// `cheap == false`, the others.
fn cases(cheap: bool) -> Vec<Case> {
    let mut all: Vec<Case> = (0..POOL).into_par_iter().map(make_case).collect();
    all.extend(FIXED_FENS.iter().map(|&fen| Case {
        pos: Position::from_fen(fen, false).expect("valid FEN"),
        describe: format!("fen {fen}"),
    }));
    all.into_par_iter()
        .filter(|c| (perft(&c.pos, 3) <= MAX_PERFT3) == cheap)
        .collect()
}

/// Every algorithm with every ordering (minimax once: ordering changes
/// nothing for it).
fn configs(leaf: Leaf) -> Vec<TheoryConfig> {
    let mut out = Vec::new();
    for algorithm in Algorithm::ALL {
        for ordering in MoveOrdering::ALL {
            if algorithm == Algorithm::Minimax && ordering != MoveOrdering::None {
                continue;
            }
            out.push(TheoryConfig {
                algorithm,
                ordering,
                leaf,
            });
        }
    }
    out
}

fn value(pos: &Position, depth: u32, config: TheoryConfig) -> i32 {
    search(pos, depth, config, TheoryLimits::default(), None)
        .value
        .expect("an unlimited search completes")
}

/// Every mismatch with minimax over `cases` at `depths`.
fn mismatches(cases: &[Case], depths: std::ops::RangeInclusive<u32>, leaf: Leaf) -> Vec<String> {
    let configs = configs(leaf);
    cases
        .par_iter()
        .flat_map_iter(|c| {
            let mut out = Vec::new();
            for depth in depths.clone() {
                let expected = value(&c.pos, depth, configs[0]);
                for &config in &configs[1..] {
                    let got = value(&c.pos, depth, config);
                    if got != expected {
                        out.push(format!(
                            "depth {depth}: minimax {expected}, {config} {got}\n  {}",
                            c.describe
                        ));
                    }
                }
            }
            out
        })
        .collect()
}

#[test]
fn every_algorithm_returns_the_minimax_value() {
    let cases = cases(true);
    assert!(
        cases.len() >= MIN_CASES,
        "only {} positions have a depth-3 perft of at most {MAX_PERFT3}",
        cases.len()
    );
    let start = std::time::Instant::now();
    let failures = mismatches(&cases, 1..=4, Leaf::Eval);
    println!(
        "{} positions, depths 1-4, in {:.1?}",
        cases.len(),
        start.elapsed()
    );
    assert!(
        failures.is_empty(),
        "{} mismatches on {} positions:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn with_quiescence_leaves_too() {
    let cases: Vec<Case> = cases(true).into_iter().step_by(3).collect();
    let failures = mismatches(&cases, 1..=3, Leaf::Qsearch);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
#[ignore = "minutes: full-width depth 4 on middlegame positions"]
fn theory_values_on_middlegames() {
    let cases: Vec<Case> = cases(false).into_iter().take(200).collect();
    let failures = mismatches(&cases, 1..=4, Leaf::Eval);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn theory_minimax_is_the_engines_plain_alpha_beta() {
    let cases = cases(true);
    let failures: Vec<String> = cases
        .par_iter()
        .flat_map_iter(|c| {
            let mut searcher = Searcher::new(1).expect("table");
            let settings = SearchSettings::single(SearchConfig::plain());
            (1..=3)
                .filter_map(|depth| {
                    let limits = SearchLimits::depth(depth);
                    let request = SearchRequest::new(&c.pos, &limits, settings);
                    let engine = searcher.think(&request).score()?;
                    let theory = value(&c.pos, depth, configs(Leaf::Eval)[0]);
                    (engine != theory).then(|| {
                        format!(
                            "depth {depth}: engine {engine}, theory {theory}\n  {}",
                            c.describe
                        )
                    })
                })
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn recorded_trees_agree_with_the_counters() {
    let kiwipete = Position::from_fen(START_FENS[1], false).unwrap();
    for config in configs(Leaf::Eval) {
        let mut tree = SearchTree::new(1 << 20);
        let r = search(
            &kiwipete,
            3,
            config,
            TheoryLimits::default(),
            Some(&mut tree),
        );
        assert_eq!(tree.visits(), r.stats.nodes, "{config}");
        if matches!(config.algorithm, Algorithm::Minimax | Algorithm::AlphaBeta) {
            assert_eq!(tree.pruned_nodes() as u64, r.stats.cutoffs, "{config}");
        }
        // The principal variation is marked from the root down.
        let marked: Vec<Move> = tree
            .nodes()
            .iter()
            .filter(|n| n.pv)
            .filter_map(|n| n.mv)
            .collect();
        assert_eq!(marked, r.pv, "{config}");
        assert!(kiwipete.board().is_legal(r.best.unwrap()));
    }
}

/// Stockman's theorem: with the same static move order, SSS* never values
/// a leaf that alpha-beta skips, so it values at most as many (each once:
/// its memory keeps the value).
#[test]
fn sss_values_no_more_leaves_than_alpha_beta() {
    let cases = cases(true);
    let leaves = |pos: &Position, depth, algorithm, ordering| {
        let config = TheoryConfig::new(algorithm, ordering);
        search(pos, depth, config, TheoryLimits::default(), None)
            .stats
            .leaves
    };
    let failures: Vec<String> = cases
        .par_iter()
        .flat_map_iter(|c| {
            let mut out = Vec::new();
            for ordering in [MoveOrdering::None, MoveOrdering::MvvLva] {
                for depth in 1..=4 {
                    let ab = leaves(&c.pos, depth, Algorithm::AlphaBeta, ordering);
                    let sss = leaves(&c.pos, depth, Algorithm::Sss, ordering);
                    if sss > ab {
                        out.push(format!(
                            "depth {depth}, {}: SSS* {sss} leaves, alpha-beta {ab}\n  {}",
                            ordering.name(),
                            c.describe
                        ));
                    }
                }
            }
            out
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
