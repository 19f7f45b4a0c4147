//! The search with either evaluation: the net's accumulators, kept move by
//! move on the search thread's stack, equal a refresh from the board at
//! every node and every evaluation of real searches (through the test hook
//! of `eval::verify`); switching the evaluation forgets the game, so that
//! the hand-crafted search after a net's is the same as a fresh one.

use std::sync::Arc;

use shakmaty::Position as _;

use super::limits::{SearchLimits, SearchRequest, SearchSettings};
use super::params::SearchConfig;
use super::searcher::Searcher;
use crate::chess::{Position, fen_needs_chess960};
use crate::eval::{Evaluation, LoadedNet, verify};

/// Positions with every kind of move: castling both ways, en passant,
/// promotions and capturing promotions, Chess960 castling (the king or the
/// rook staying on its square among them), checks and null moves.
const FENS: [&str; 8] = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "2r1kr2/8/8/8/8/8/8/1R2K1R1 w GBfc - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
];

fn net() -> Evaluation {
    Evaluation::Net(LoadedNet::built_in().expect("the built-in net loads"))
}

/// Searches every position of [`FENS`] to `nodes` with `evaluation`, the
/// test hook on (at every node, or at evaluations only); returns the
/// accumulators it checked.
fn search_checked(evaluation: &Evaluation, nodes: u64, every_node: bool) -> u64 {
    let before = verify::set(true, every_node);
    let mut searcher = Searcher::new(4).unwrap();
    for fen in FENS {
        let pos = Position::from_fen(fen, fen_needs_chess960(fen)).unwrap();
        let limits = SearchLimits::nodes(nodes);
        let settings = SearchSettings::single(SearchConfig::default());
        let request = SearchRequest::new(&pos, &limits, settings).with_evaluation(evaluation);
        let outcome = searcher.think(&request);
        assert!(outcome.best().is_some(), "{fen}");
    }
    verify::set(false, false) - before
}

#[test]
fn the_kept_accumulators_equal_a_refresh_at_every_node_of_a_search() {
    let checked = search_checked(&net(), 6_000, true);
    assert!(checked > 30_000, "only {checked} accumulators checked");
}

#[test]
fn the_lazily_updated_accumulators_equal_a_refresh_at_every_evaluation() {
    let checked = search_checked(&net(), 20_000, false);
    assert!(checked > 20_000, "only {checked} evaluations checked");
}

#[test]
fn the_hand_crafted_search_after_a_nets_is_a_fresh_one() {
    let pos = Position::from_fen(FENS[0], false).unwrap();
    let limits = SearchLimits::depth(7);
    let settings = SearchSettings::single(SearchConfig::default());
    let hand_crafted = SearchRequest::new(&pos, &limits, settings);
    let fresh = Searcher::new(4).unwrap().think(&hand_crafted);

    let mut searcher = Searcher::new(4).unwrap();
    let net = net();
    let with_net = searcher.think(&hand_crafted.with_evaluation(&net));
    let after = searcher.think(&hand_crafted);
    assert_eq!(after.counters.nodes, fresh.counters.nodes);
    assert_eq!((after.best(), after.score()), (fresh.best(), fresh.score()));
    // The net did play: another tree.
    assert_ne!(with_net.counters.nodes, fresh.counters.nodes);
    // And so does a net read from another file with the same weights
    // (its cache entries are its own, equal anyway).
    let bytes = LoadedNet::built_in().unwrap().net().to_bytes();
    let copy = Evaluation::Net(Arc::new(LoadedNet::from_bytes(&bytes, "copy").unwrap()));
    let again = Searcher::new(4)
        .unwrap()
        .think(&hand_crafted.with_evaluation(&copy));
    assert_eq!(again.counters.nodes, with_net.counters.nodes);
    assert!(pos.board().is_legal(again.best().unwrap()));
}
