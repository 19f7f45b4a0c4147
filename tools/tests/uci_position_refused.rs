//! Every refused `position`, whatever the reason (its form, its FEN, a
//! move), leaves no position until a good one arrives: each `go` meanwhile
//! is answered `bestmove 0000`, never with a move of the position before
//! (the GUI is somewhere else). Through the real binary.

mod common;

use common::{Engine, go_answered, startpos_after};
use shears::chess::Position;

/// Lines refused for their form, their FEN or a move.
const REFUSED: &[&str] = &[
    "position startpos movse e2e4",
    "position",
    "position fen",
    "position foo",
    "position startpos e2e4",
    "position fen nonsense",
    "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
    "position startpos moves e2e4 e2e4",
    "position startpos moves e2e4 zz",
    "position startpos moves e2e4 0000",
];

/// Sends `line`, which must be refused with one error line.
fn refuse(e: &mut Engine, line: &str) {
    e.send(line);
    let said = e.sync();
    assert!(
        said.len() == 1 && said[0].starts_with("info string error: position"),
        "{line:?}: {said:?}"
    );
}

/// `go`, answered with the error naming the refusal and `bestmove 0000`.
fn answered_0000(e: &mut Engine, go: &str, context: &str) {
    e.send(go);
    let lines = e.read_until_bestmove();
    assert_eq!(lines.len(), 2, "{context}, {go}: {lines:?}");
    assert!(
        lines[0].starts_with("info string error: go: no position to search"),
        "{context}, {go}: {lines:?}"
    );
    assert_eq!(lines[1], "bestmove 0000", "{context}, {go}");
    assert!(
        e.sync().is_empty(),
        "{context}, {go}: output after bestmove"
    );
}

#[test]
fn after_any_refused_position_go_answers_0000_until_a_good_one() {
    let mut e = Engine::spawn();
    // Black to move: a move of White's would be the old position's.
    let after_e4 = Position::from_fen(&startpos_after(&["e2e4", "e7e5", "g1f3"]), false)
        .expect("a legal position");
    for line in REFUSED {
        e.set_position("position startpos moves e2e4 e7e5 g1f3");
        refuse(&mut e, line);
        answered_0000(&mut e, "go depth 3", line);
        answered_0000(&mut e, "go wtime 1000 btime 1000", line);
        // Still none: a second go, then a good position ends it.
        answered_0000(&mut e, "go movetime 50", line);
        e.set_position("position startpos moves e2e4 e7e5 g1f3");
        go_answered(&mut e, &after_e4, "go depth 3", &[]);
    }
    assert!(e.shutdown().is_empty());
}

#[test]
fn go_infinite_and_go_ponder_after_a_refused_position_wait_for_their_release() {
    let mut e = Engine::spawn();
    e.set_position("position startpos moves e2e4");
    refuse(&mut e, "position startpos movse e2e4");
    for (go, release) in [
        ("go infinite", "stop"),
        ("go ponder wtime 1000 btime 1000", "ponderhit"),
    ] {
        e.send(go);
        let early = e.collect_for(common::SETTLE);
        e.assert_no_bestmove(&early, go);
        e.send(release);
        let mut lines = early;
        lines.extend(e.read_until_bestmove());
        assert_eq!(
            lines.last().map(String::as_str),
            Some("bestmove 0000"),
            "{go}: {lines:?}"
        );
        assert!(e.sync().is_empty(), "{go}: output after bestmove");
    }
    assert!(e.shutdown().is_empty());
}
