//! UCI integration tests for the options that choose and report root moves,
//! `MultiPV` and `go searchmoves`, through the real `shears` binary.
//!
//! Every search here has a depth limit, so each test runs to its end by
//! itself; the only time bound is the 10 s liveness timeout on each read.
//!
//! The output shape checked (see `src/search/iterative.rs`, `iterate`, and
//! `src/search/searcher.rs`, `finish`): every completed iteration prints one
//! exact line per reported root move, `multipv 1` to `multipv k`, best
//! first; lines with `lowerbound`/`upperbound` (aspiration re-searches, only
//! after the first second) and `currmove` lines may come between them. The
//! last iteration's lines are not repeated before `bestmove`, which is the
//! first move of its `multipv 1` line.

mod common;

use std::collections::BTreeSet;

use common::{Engine, Info, NET_NEWS, SETTLE, Score, parse_bestmove, parse_info, play_line};
use shakmaty::Position as _;
use shears::chess::{Position, move_to_uci};

/// White king on a1 in check from the rook on h1: only Ka2 and Kb2.
const TWO_MOVES_FEN: &str = "k7/8/8/8/8/8/8/K6r w - - 0 1";

/// White's rook on d2 can take the undefended queen on d5.
const FREE_QUEEN_FEN: &str = "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1";

/// A score as a key that sorts worst to best for the side to move: being
/// mated (sooner is worse), then centipawns, then mating (sooner is better).
fn score_key(score: Score) -> (u8, i64) {
    match score {
        Score::Mate(n) if n > 0 => (2, -n),
        Score::Cp(cp) => (1, cp),
        Score::Mate(n) => (0, -n),
    }
}

/// One finished search: its exact iteration lines, the last info line and
/// the `bestmove` answer.
struct Finished {
    /// Exact (unbounded) lines with a score, in order.
    exact: Vec<Info>,
    /// The last line with a score, just before `bestmove`.
    last: Info,
    /// The `bestmove` move.
    best: String,
    /// The `ponder` move, if any.
    ponder: Option<String>,
}

/// Sends `go`, reads up to `bestmove`, checks that every line is a
/// well-formed `info` line whose pv is legal from `pos`, and sorts the lines.
fn run_go(e: &mut Engine, pos: &Position, go: &str) -> Finished {
    e.send(go);
    let mut lines = e.read_until_bestmove();
    let bestmove = lines.pop().expect("read_until_bestmove ends with it");
    let (best, ponder) =
        parse_bestmove(&bestmove).unwrap_or_else(|| panic!("{go}: bad line {bestmove:?}"));
    let mut scored = Vec::new();
    for line in &lines {
        let info = parse_info(line).unwrap_or_else(|err| panic!("{go}: {err}"));
        if info.score.is_none() {
            // currmove lines (after the first second).
            continue;
        }
        assert!(info.is_progress(), "{go}: incomplete info line {line:?}");
        if let Err(err) = play_line(pos, &info.pv, false) {
            panic!("{go}: pv of {line:?}: {err}");
        }
        scored.push(info);
    }
    let last = scored
        .last()
        .cloned()
        .unwrap_or_else(|| panic!("{go}: no info line"));
    assert_eq!(
        lines.last().and_then(|l| parse_info(l).ok()).as_ref(),
        Some(&last),
        "{go}: the last info line comes just before bestmove"
    );
    assert_eq!(last.bound, None, "{go}: the final score is exact");
    let exact = scored.into_iter().filter(|i| i.bound.is_none()).collect();
    Finished {
        exact,
        last,
        best,
        ponder,
    }
}

/// The exact lines grouped by iteration: for each depth 1..=`depth`, the
/// lines `multipv 1..=lines` in that order, none missing, none extra.
fn by_iteration(found: &Finished, depth: u64, lines: u64, context: &str) -> Vec<Vec<Info>> {
    let shape: Vec<(u64, u64)> = found
        .exact
        .iter()
        .map(|i| (i.depth.unwrap_or(0), i.multipv.unwrap_or(0)))
        .collect();
    let expected: Vec<(u64, u64)> = (1..=depth)
        .flat_map(|d| (1..=lines).map(move |k| (d, k)))
        .collect();
    assert_eq!(
        shape, expected,
        "{context}: (depth, multipv) of the exact info lines"
    );
    found
        .exact
        .chunks(lines as usize)
        .map(<[Info]>::to_vec)
        .collect()
}

/// Checks one iteration's lines: distinct first moves, scores best first.
/// Returns the first moves.
fn check_iteration(iteration: &[Info], context: &str) -> Vec<String> {
    let firsts: Vec<String> = iteration.iter().map(|i| i.pv[0].clone()).collect();
    let distinct: BTreeSet<&String> = firsts.iter().collect();
    assert_eq!(
        distinct.len(),
        firsts.len(),
        "{context}: first moves {firsts:?} repeat"
    );
    for pair in iteration.windows(2) {
        let (a, b) = (pair[0].score.unwrap(), pair[1].score.unwrap());
        assert!(
            score_key(a) >= score_key(b),
            "{context}: multipv {} scores {a:?}, multipv {} scores {b:?}",
            pair[0].multipv.unwrap(),
            pair[1].multipv.unwrap()
        );
    }
    firsts
}

/// The last info line is the last iteration's last line (sent once, not
/// repeated as a final report), and `bestmove` (with its `ponder` move) is
/// the start of that iteration's best line.
fn check_answer(found: &Finished, last_iteration: &[Info], context: &str) {
    let best_line = &last_iteration[0];
    assert_eq!(Some(&found.last), last_iteration.last(), "{context}");
    assert_eq!(best_line.multipv, Some(1), "{context}");
    assert_eq!(found.best, best_line.pv[0], "{context}: bestmove");
    assert_eq!(
        found.ponder.as_ref(),
        best_line.pv.get(1),
        "{context}: ponder move"
    );
}

/// After a `bestmove`, nothing else.
fn assert_quiet(e: &mut Engine) {
    let mut late = e.collect_for(SETTLE);
    late.extend(e.sync());
    assert!(late.is_empty(), "unexpected output: {late:?}");
}

fn legal_uci(pos: &Position) -> BTreeSet<String> {
    pos.board()
        .legal_moves()
        .iter()
        .map(|m| move_to_uci(*m, false))
        .collect()
}

// MultiPV ────────────────────────────────────────────────────────────────────

#[test]
fn multipv_3_reports_three_distinct_lines_best_first_at_every_depth() {
    let mut e = Engine::spawn();
    e.send("setoption name MultiPV value 3");
    e.set_position("position startpos");
    let pos = Position::startpos();
    let found = run_go(&mut e, &pos, "go depth 6");
    let iterations = by_iteration(&found, 6, 3, "MultiPV 3, go depth 6");
    for (d, iteration) in iterations.iter().enumerate() {
        check_iteration(iteration, &format!("depth {}", d + 1));
    }
    check_answer(&found, iterations.last().unwrap(), "MultiPV 3, go depth 6");
    assert_quiet(&mut e);
    assert!(e.shutdown().is_empty());
}

#[test]
fn multipv_beyond_the_legal_moves_reports_each_move_once() {
    let mut e = Engine::spawn();
    e.send("setoption name MultiPV value 3");
    e.set_position(&format!("position fen {TWO_MOVES_FEN}"));
    let pos = Position::from_fen(TWO_MOVES_FEN, false).unwrap();
    let legal = legal_uci(&pos);
    assert_eq!(legal.len(), 2, "{legal:?}");
    let found = run_go(&mut e, &pos, "go depth 5");
    let iterations = by_iteration(&found, 5, 2, "two legal moves, MultiPV 3");
    for (d, iteration) in iterations.iter().enumerate() {
        let firsts = check_iteration(iteration, &format!("depth {}", d + 1));
        assert_eq!(firsts.into_iter().collect::<BTreeSet<_>>(), legal);
    }
    check_answer(&found, iterations.last().unwrap(), "two legal moves");
    assert_quiet(&mut e);
    assert!(e.shutdown().is_empty());
}

#[test]
fn multipv_beyond_searchmoves_reports_each_allowed_move_once() {
    let mut e = Engine::spawn();
    e.send("setoption name MultiPV value 3");
    let pos = Position::startpos();
    let allowed: BTreeSet<String> = ["e2e4", "d2d4"].map(String::from).into();
    let found = run_go(&mut e, &pos, "go depth 4 searchmoves e2e4 d2d4");
    let iterations = by_iteration(&found, 4, 2, "MultiPV 3, two searchmoves");
    for (d, iteration) in iterations.iter().enumerate() {
        let firsts = check_iteration(iteration, &format!("depth {}", d + 1));
        assert_eq!(firsts.into_iter().collect::<BTreeSet<_>>(), allowed);
    }
    check_answer(&found, iterations.last().unwrap(), "MultiPV 3, searchmoves");
    assert_quiet(&mut e);
    assert!(e.shutdown().is_empty());
}

// searchmoves ────────────────────────────────────────────────────────────────

#[test]
fn searchmoves_limits_every_pv_and_the_bestmove() {
    let mut e = Engine::spawn();
    let pos = Position::startpos();
    let allowed = ["e2e4", "d2d4"];
    let found = run_go(&mut e, &pos, "go depth 5 searchmoves e2e4 d2d4");
    let iterations = by_iteration(&found, 5, 1, "searchmoves e2e4 d2d4");
    for info in found.exact.iter().chain([&found.last]) {
        assert!(allowed.contains(&info.pv[0].as_str()), "{info:?}");
    }
    check_answer(&found, iterations.last().unwrap(), "searchmoves e2e4 d2d4");
    assert_quiet(&mut e);
    assert!(e.shutdown().is_empty());
}

#[test]
fn searchmoves_plays_the_allowed_move_over_a_free_queen() {
    let mut e = Engine::spawn();
    e.set_position(&format!("position fen {FREE_QUEEN_FEN}"));
    let pos = Position::from_fen(FREE_QUEEN_FEN, false).unwrap();

    // Unrestricted, the rook takes the queen.
    let free = run_go(&mut e, &pos, "go depth 5");
    assert_eq!(free.best, "d2d5", "the position is not what the test means");
    assert_quiet(&mut e);

    // Restricted to two king moves, one of them is played, at a far worse
    // score.
    let allowed = ["e1f1", "e1e2"];
    let found = run_go(&mut e, &pos, "go depth 5 searchmoves e1f1 e1e2");
    for info in found.exact.iter().chain([&found.last]) {
        assert!(allowed.contains(&info.pv[0].as_str()), "{info:?}");
    }
    assert!(
        allowed.contains(&found.best.as_str()),
        "bestmove {}",
        found.best
    );
    let (with_queen, without) = (free.last.score.unwrap(), found.last.score.unwrap());
    assert!(
        score_key(with_queen) > score_key(without),
        "taking the queen scores {with_queen:?}, the king move {without:?}"
    );
    assert_quiet(&mut e);
    assert!(e.shutdown().is_empty());
}

#[test]
fn searchmoves_with_bad_moves_searches_only_the_good_ones() {
    // A `go` is always answered (issue 35): each searchmoves entry that
    // cannot be played here gets one `info string warning: …` and is left
    // out; the search runs over the others.
    let mut e = Engine::spawn();
    e.set_position("position startpos moves e2e4");
    let cases = [
        (
            "go depth 3 searchmoves e7e5 e7e4",
            "go: searchmoves: illegal move \"e7e4\" in position ",
        ),
        (
            "go searchmoves e7e5 e2e4 depth 3",
            "go: searchmoves: illegal move \"e2e4\" in position ",
        ),
        (
            "go depth 3 searchmoves e7e5 e7",
            "go: searchmoves: malformed move \"e7\"",
        ),
        (
            "go depth 3 searchmoves e7e5 0000",
            "go: searchmoves: null move \"0000\" is not supported",
        ),
    ];
    let mut pos = Position::startpos();
    pos.play_uci_moves(["e2e4"], false).unwrap();
    for (go, expected) in cases {
        e.send(go);
        let first = e.recv();
        assert!(
            first.starts_with(&format!("info string warning: {expected}")),
            "{go}: {first:?}"
        );
        let mut lines = e.read_until_bestmove();
        // The first search names its net; nothing else is said.
        lines.retain(|l| !l.starts_with(NET_NEWS));
        assert!(
            lines.iter().all(|l| !l.starts_with("info string")),
            "{go}: {lines:?}"
        );
        let (best, _) = parse_bestmove(&lines.pop().unwrap()).unwrap();
        assert_eq!(best, "e7e5", "{go}");
        assert_quiet(&mut e);
    }
    // The position is untouched and a good searchmoves still works.
    let mut pos = Position::startpos();
    pos.play_uci_moves(["e2e4"], false).unwrap();
    let found = run_go(&mut e, &pos, "go depth 3 searchmoves e7e5");
    assert_eq!(found.best, "e7e5");
    assert_quiet(&mut e);
    assert!(e.shutdown().is_empty());
}
