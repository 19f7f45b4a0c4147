//! `go` fields whose value means "nothing", read as Stockfish reads them,
//! each with its warning: `movestogo 0` is ignored (the clock is for the
//! rest of the game), and a depth of 0 or less answers at once with a
//! legal move (from depth 1). Through the real binary.

mod common;

use common::{Engine, go_answered, parse_info};
use shears::chess::Position;

#[test]
fn movestogo_0_is_ignored_with_a_warning() {
    let mut e = Engine::spawn();
    e.send("debug on");
    e.send("go wtime 10000 btime 10000 movestogo 0");
    let lines = e.read_until_bestmove();
    assert_eq!(
        lines[0],
        "info string warning: go: movestogo 0 is no number of moves, ignored"
    );
    // The go as understood: no movestogo.
    assert!(
        lines[1].starts_with("info string debug go: ")
            && lines[1].contains(" wtime 10000 btime 10000 ")
            && lines[1].contains(" movestogo - "),
        "{lines:?}"
    );
    assert!(e.sync().is_empty(), "output after bestmove");
    // movestogo 1 is still one move to go.
    e.send("go wtime 10000 btime 10000 movestogo 1 depth 1");
    let lines = e.read_until_bestmove();
    assert!(lines[0].contains(" movestogo 1 "), "{lines:?}");
    e.shutdown();
}

#[test]
fn a_depth_of_0_or_less_answers_at_once_from_depth_1() {
    let mut e = Engine::spawn();
    let start = Position::startpos();
    for depth in ["0", "-1", "-0", "-2147483649"] {
        let go = format!("go depth {depth}");
        let lines = go_answered(
            &mut e,
            &start,
            &go,
            &[&format!("go: depth {depth} is no search depth, read as 1")],
        );
        let depths: Vec<u64> = lines
            .iter()
            .filter(|l| l.starts_with("info depth"))
            .filter_map(|l| parse_info(l).ok()?.depth)
            .collect();
        assert_eq!(depths, [1], "{go}: {lines:?}");
    }
    // With other limits too: depth 1 is the answer.
    go_answered(
        &mut e,
        &start,
        "go depth 0 wtime 60000 btime 60000",
        &["depth 0 is no search depth"],
    );
    e.shutdown();
}
