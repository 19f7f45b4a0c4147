//! UCI integration tests: the real `shears` binary driven over pipes.
//!
//! Each test starts its own engine in an empty temporary directory (built-in
//! option defaults). Every read has a 10 s liveness timeout; the other time
//! spans are short quiet periods in which something must *not* happen (a
//! `bestmove` before `stop`), which a slow machine cannot make fail. One
//! exception: `Move Overhead` can only be observed through search time, so
//! `rejected_move_overhead_values_keep_the_previous_value` also checks that a
//! 1 ms budget ends within 2.5 s (a wrong overhead would take 5 s).

mod common;

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use common::{
    Engine, Info, NET_NEWS, SETTLE, Score, count_bestmoves, is_bestmove, parse_bestmove,
    parse_info, play_line, startpos_after,
};
use shakmaty::Position as _;
use shears::chess::{Position, START_FEN, move_to_uci};

/// How long a search that must wait for `stop`/`ponderhit` is watched for a
/// premature `bestmove`.
const QUIET: Duration = Duration::from_millis(300);

const MATED_FEN: &str = "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1";
const STALEMATE_FEN: &str = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
const CASTLING_FEN: &str = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
const SHREDDER_FEN: &str = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";

/// Checks that `line` is `bestmove M [ponder P]` with M legal in `pos` and P
/// legal after it; returns M.
fn assert_legal_bestmove(pos: &Position, line: &str, chess960: bool) -> String {
    let (best, ponder) =
        parse_bestmove(line).unwrap_or_else(|| panic!("not a bestmove line: {line:?}"));
    let mut line_moves = vec![best.clone()];
    line_moves.extend(ponder);
    if let Err(e) = play_line(pos, &line_moves, chess960) {
        panic!("{line:?}: {e}");
    }
    best
}

/// Sends `command`, checks that the answer (before `readyok`) is exactly one
/// `info string error: …` line containing every fragment, and returns it.
fn assert_one_error(e: &mut Engine, command: &str, fragments: &[&str]) -> String {
    e.send(command);
    let lines = e.sync();
    assert_eq!(
        lines.len(),
        1,
        "{command:?} should give exactly one line, got {lines:?}"
    );
    let line = &lines[0];
    assert!(
        line.starts_with("info string error: "),
        "{command:?}: expected an error line, got {line:?}"
    );
    for fragment in fragments {
        assert!(
            line.contains(fragment),
            "{command:?}: error {line:?} lacks {fragment:?}"
        );
    }
    line.clone()
}

/// Sends a `go` (with `debug on` already set) and returns its debug line,
/// which must be the first thing the engine answers.
fn go_debug_line(e: &mut Engine, go: &str) -> String {
    e.send(go);
    let line = e.recv();
    assert!(
        line.starts_with("info string debug go: "),
        "{go:?}: expected the debug go line first, got {line:?}"
    );
    line
}

/// After a `bestmove`, nothing else: no second `bestmove`, no stray lines.
fn assert_quiet_after_bestmove(e: &mut Engine) {
    let mut late = e.collect_for(SETTLE);
    late.extend(e.sync());
    assert!(
        late.is_empty(),
        "unexpected output after bestmove: {late:?}"
    );
}

// 1 ─────────────────────────────────────────────────────────────────────────

#[test]
fn handshake_lists_id_and_options_then_uciok_and_isready_gets_readyok() {
    let mut e = Engine::spawn();
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    let non_empty: Vec<&str> = lines
        .iter()
        .map(String::as_str)
        .filter(|l| !l.is_empty())
        .collect();
    assert_eq!(
        non_empty[0],
        format!("id name Shears {}", env!("CARGO_PKG_VERSION")),
        "{lines:?}"
    );
    assert!(
        non_empty[1].starts_with("id author ") && non_empty[1].len() > "id author ".len(),
        "{lines:?}"
    );
    assert_eq!(non_empty.last(), Some(&"uciok"));
    let options = &non_empty[2..non_empty.len() - 1];
    assert!(
        options.iter().all(|l| l.starts_with("option name ")),
        "only option lines between id and uciok: {lines:?}"
    );
    for expected in [
        "option name Move Overhead type spin default 10 min 0 max 5000",
        "option name UCI_Chess960 type check default false",
    ] {
        assert_eq!(
            options.iter().filter(|l| **l == expected).count(),
            1,
            "{expected:?} once in {lines:?}"
        );
    }
    assert_eq!(
        e.sync(),
        Vec::<String>::new(),
        "isready must be answered by readyok alone"
    );
    assert!(e.shutdown().is_empty());
}

// 2 ─────────────────────────────────────────────────────────────────────────

#[test]
fn go_depth_prints_well_formed_info_lines_and_one_legal_bestmove() {
    let mut e = Engine::spawn();
    e.set_position("position startpos moves e2e4 e7e5");
    let mut pos = Position::startpos();
    pos.play_uci_moves(["e2e4", "e7e5"], false).unwrap();

    e.send("go depth 3");
    let mut lines = e.read_until_bestmove();
    let bestmove = lines.pop().unwrap();
    let infos: Vec<_> = lines
        .iter()
        .map(|l| parse_info(l).unwrap_or_else(|err| panic!("{err}")))
        .collect();
    // Progress lines: one or more per iteration 1, 2, 3; the depth 3 line
    // comes just before bestmove, once (not repeated as a final report).
    let progress: Vec<(&Info, &String)> = infos
        .iter()
        .zip(&lines)
        .filter(|(i, _)| i.score.is_some())
        .collect();
    let depths: Vec<u64> = progress.iter().map(|(i, _)| i.depth.unwrap_or(0)).collect();
    assert!(depths.windows(2).all(|w| w[0] <= w[1]), "{lines:?}");
    for d in 1..=3 {
        assert!(depths.contains(&d), "no depth {d} line: {lines:?}");
    }
    assert_eq!(depths.last(), Some(&3), "{lines:?}");
    assert_eq!(
        progress.iter().filter(|(i, _)| i.depth == Some(3)).count(),
        1,
        "the last info line is sent once: {lines:?}"
    );
    let mut last_nodes = 0;
    for (info, line) in &progress {
        assert!(info.is_progress(), "incomplete info line {line:?}");
        assert_eq!(info.multipv.unwrap_or(1), 1, "{line}");
        let nodes = info.nodes.unwrap();
        assert!(nodes >= last_nodes && nodes > 0, "{line}");
        last_nodes = nodes;
        play_line(&pos, &info.pv, false).unwrap_or_else(|err| panic!("pv of {line}: {err}"));
        if let Some(Score::Mate(n)) = info.score {
            panic!("no mate within 3 plies here, got mate {n}: {line}");
        }
    }
    let (final_info, final_line) = progress.last().unwrap();
    assert_eq!(
        *final_line,
        lines.last().unwrap(),
        "the final info comes just before bestmove"
    );
    assert_eq!(
        final_info.bound, None,
        "the final score is exact: {final_line}"
    );

    let best = assert_legal_bestmove(&pos, &bestmove, false);
    let final_pv = &final_info.pv;
    assert_eq!(
        best, final_pv[0],
        "bestmove must be the first move of the final pv"
    );
    let (_, ponder) = parse_bestmove(&bestmove).unwrap();
    assert_eq!(
        ponder.as_ref(),
        final_pv.get(1),
        "ponder move must be the pv's reply"
    );
    assert_quiet_after_bestmove(&mut e);
    assert!(e.shutdown().is_empty());
}

// 3 ─────────────────────────────────────────────────────────────────────────

#[test]
fn go_infinite_answers_isready_meanwhile_and_waits_for_stop() {
    let mut e = Engine::spawn();
    e.send("go infinite");
    let early = e.collect_for(QUIET);
    e.assert_no_bestmove(&early, "go infinite before stop");
    let during = e.sync();
    e.assert_no_bestmove(&during, "go infinite, around isready");
    assert!(
        early.iter().chain(&during).all(|l| parse_info(l).is_ok()),
        "only info lines while searching: {early:?} {during:?}"
    );
    e.send("stop");
    let lines = e.read_until_bestmove();
    assert_legal_bestmove(&Position::startpos(), lines.last().unwrap(), false);
    assert_quiet_after_bestmove(&mut e);
    assert!(e.shutdown().is_empty());
}

#[test]
fn go_ponder_waits_for_ponderhit_or_stop() {
    let mut e = Engine::spawn();
    let pos = {
        let mut p = Position::startpos();
        p.play_uci_moves(["d2d4"], false).unwrap();
        p
    };
    e.set_position("position startpos moves d2d4");

    // Without ponder, 1 s on the clock would give a ~30 ms search.
    e.send("go ponder wtime 1000 btime 1000");
    let early = e.collect_for(QUIET);
    e.assert_no_bestmove(&early, "go ponder before stop");
    assert!(e.sync().iter().all(|l| !is_bestmove(l)));
    e.send("stop");
    let lines = e.read_until_bestmove();
    assert_legal_bestmove(&pos, lines.last().unwrap(), false);
    assert_quiet_after_bestmove(&mut e);

    // depth 4 finishes in milliseconds; the answer must still wait for
    // ponderhit.
    e.send("go ponder wtime 1000 btime 1000 depth 4");
    let early = e.collect_for(QUIET);
    e.assert_no_bestmove(&early, "go ponder depth 4 before ponderhit");
    e.send("ponderhit");
    let lines = e.read_until_bestmove();
    assert_legal_bestmove(&pos, lines.last().unwrap(), false);
    assert_quiet_after_bestmove(&mut e);
    assert!(e.shutdown().is_empty());
}

// 4 ─────────────────────────────────────────────────────────────────────────

#[test]
fn end_of_input_exits_with_code_zero_even_during_go_infinite() {
    let e = Engine::spawn();
    assert!(
        e.shutdown().is_empty(),
        "an idle engine prints nothing at end of input"
    );

    let mut e = Engine::spawn();
    e.send("go infinite");
    let early = e.collect_for(Duration::from_millis(100));
    let rest = e.shutdown();
    let all: Vec<String> = early.into_iter().chain(rest).collect();
    assert_eq!(
        count_bestmoves(&all),
        1,
        "the stopped search still answers: {all:?}"
    );
    assert!(
        is_bestmove(all.last().unwrap()),
        "bestmove is the last line: {all:?}"
    );
    assert_legal_bestmove(&Position::startpos(), all.last().unwrap(), false);
}

#[test]
fn quit_exits_with_code_zero_even_during_go_infinite() {
    let mut e = Engine::spawn();
    e.send("quit");
    let (status, rest, stderr) = e.wait_exit();
    assert_eq!(status.code(), Some(0), "stderr: {stderr}");
    assert!(rest.is_empty(), "{rest:?}");

    let mut e = Engine::spawn();
    e.send("go infinite");
    let early = e.collect_for(Duration::from_millis(100));
    e.send("quit");
    let (status, rest, stderr) = e.wait_exit();
    assert_eq!(status.code(), Some(0), "stderr: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let all: Vec<String> = early.into_iter().chain(rest).collect();
    assert_eq!(count_bestmoves(&all), 1, "{all:?}");
    assert_legal_bestmove(&Position::startpos(), all.last().unwrap(), false);
}

// 5 ─────────────────────────────────────────────────────────────────────────

#[test]
fn root_without_legal_moves_answers_depth_0_and_bestmove_0000() {
    let mut e = Engine::spawn();
    e.set_position(&format!("position fen {MATED_FEN}"));
    e.send("go depth 3");
    // The first search names its net first.
    let lines = e.read_until_bestmove();
    assert!(lines[0].starts_with(NET_NEWS), "{lines:?}");
    assert_eq!(lines[1..], ["info depth 0 score mate 0", "bestmove 0000"]);
    assert_quiet_after_bestmove(&mut e);

    e.set_position(&format!("position fen {STALEMATE_FEN}"));
    e.send("go depth 3");
    assert_eq!(
        e.read_until_bestmove(),
        ["info depth 0 score cp 0", "bestmove 0000"]
    );
    assert_quiet_after_bestmove(&mut e);

    // Even with no move to play, go infinite waits for stop.
    e.set_position(&format!("position fen {MATED_FEN}"));
    e.send("go infinite");
    let early = e.collect_for(QUIET);
    assert!(early.is_empty(), "{early:?}");
    e.send("stop");
    assert_eq!(
        e.read_until_bestmove(),
        ["info depth 0 score mate 0", "bestmove 0000"]
    );
    assert_quiet_after_bestmove(&mut e);
    assert!(e.shutdown().is_empty());
}

// 6 ─────────────────────────────────────────────────────────────────────────

#[test]
fn bad_input_gets_one_error_line_and_keeps_the_position() {
    let mut e = Engine::spawn();
    e.set_position("position startpos moves e2e4");
    let known = startpos_after(&["e2e4"]);
    assert_eq!(e.fen(), known);

    let missing_king = "8/8/8/8/8/8/8/K7 w - - 0 1";
    let cases: &[(&str, &[&str])] = &[
        (
            "position fen nonsense",
            &["position: invalid FEN \"nonsense\""],
        ),
        (
            &format!("position fen {missing_king}"),
            &["position: illegal position", "missing king"],
        ),
        (
            "position startpos moves e2e4 e7e5 e1e8",
            &["position: move 3 of the list: illegal move \"e1e8\""],
        ),
        (
            "position startpos moves e2e4 zz",
            &["position: move 2 of the list: malformed move \"zz\""],
        ),
        (
            "position",
            &["position: expected \"startpos\" or \"fen <FEN>\""],
        ),
        ("position fen", &["position: \"fen\" needs a FEN"]),
        (
            "position startpos e2e4",
            &["position: unexpected \"e2e4\" after startpos"],
        ),
        (
            // Chess960 castling rights while UCI_Chess960 is off.
            &format!("position fen {SHREDDER_FEN}"),
            &["position: illegal position", "UCI_Chess960"],
        ),
        ("foo", &["unknown command \"foo\""]),
        (
            "setoption",
            &["setoption: expected \"setoption name <name> [value <value>]\""],
        ),
        (
            "setoption name Nope value 1",
            &["setoption: unknown option \"Nope\""],
        ),
        (
            "setoption name Move Overhead value 99999",
            &[
                "option \"Move Overhead\": bad value \"99999\"",
                "from 0 to 5000",
            ],
        ),
        (
            "setoption name Move Overhead value ten",
            &["option \"Move Overhead\": bad value \"ten\""],
        ),
        (
            "setoption name UCI_Chess960 value maybe",
            &[
                "option \"UCI_Chess960\": bad value \"maybe\"",
                "true or false",
            ],
        ),
        (
            "go perft 0",
            &["go: perft \"0\" is not a depth from 1 to 15"],
        ),
        ("debug maybe", &["debug: expected \"debug on|off\""]),
        ("d now", &["d: unexpected argument \"now\""]),
        (
            "bench 0",
            &["bench: depth \"0\" is not an integer from 1 to 64"],
        ),
    ];
    for (command, fragments) in cases {
        assert_one_error(&mut e, command, fragments);
        assert_eq!(e.fen(), known, "{command:?} changed the position");
    }
    // No rejected line started a search, and the position is still the one
    // set (d and perft show it).
    let late = e.collect_for(SETTLE);
    assert!(late.is_empty(), "{late:?}");
    assert_eq!(e.perft(1).1, 20, "black has 20 replies to 1. e4");
    // Option errors left the options alone: castling is still written the
    // standard way.
    e.set_position(&format!("position fen {CASTLING_FEN}"));
    let (divide, _) = e.perft(1);
    assert!(divide.iter().any(|(m, _)| m == "e1g1"), "{divide:?}");
    assert!(e.shutdown().is_empty());
}

#[test]
fn rejected_move_overhead_values_keep_the_previous_value() {
    // Move Overhead is only observable through the time it takes from a
    // `go movetime`: with overhead 0 a `go movetime 5000` searches for 5 s,
    // with overhead 5000 it gets a 1 ms budget.
    let bad_values = ["99999", "5001", "-1", "ten", "1e3", " "];
    let mut e = Engine::spawn();
    e.send("debug on");
    e.send("setoption name Move Overhead value 0");
    assert_eq!(e.recv(), "info string Move Overhead set to 0");
    for v in bad_values {
        let shown = v.trim();
        assert_one_error(
            &mut e,
            &format!("setoption name Move Overhead value {v}"),
            &[&format!("option \"Move Overhead\": bad value \"{shown}\"")],
        );
    }
    assert_one_error(&mut e, "setoption name Move Overhead", &["bad value \"\""]);
    // Still 0: the search is not over after 300 ms (none of the bad values
    // was taken as, or clamped to, a large overhead).
    go_debug_line(&mut e, "go movetime 5000");
    let early = e.collect_for(QUIET);
    e.assert_no_bestmove(&early, "go movetime 5000 with Move Overhead 0");
    e.send("stop");
    e.read_until_bestmove();
    assert_quiet_after_bestmove(&mut e);

    e.send("setoption name Move Overhead value 5000");
    assert_eq!(e.recv(), "info string Move Overhead set to 5000");
    for v in bad_values {
        assert_one_error(
            &mut e,
            &format!("setoption name Move Overhead value {v}"),
            &["bad value"],
        );
    }
    // Still 5000: the 1 ms budget ends the search at once. (Were the
    // overhead back at 10 or 0, it would run for about 5 s; the bound below
    // leaves a slow machine thousands of times the work needed.)
    let start = Instant::now();
    go_debug_line(&mut e, "go movetime 5000");
    e.read_until_bestmove();
    let took = start.elapsed();
    assert!(
        took < Duration::from_millis(2500),
        "go movetime 5000 took {took:?}: Move Overhead is no longer 5000"
    );
    assert_quiet_after_bestmove(&mut e);
    // A valid value is still taken.
    e.send("setoption name move overhead value 10");
    assert_eq!(e.recv(), "info string Move Overhead set to 10");
    assert!(e.shutdown().is_empty());
}

// 7 ─────────────────────────────────────────────────────────────────────────

#[test]
fn go_infinite_with_trailing_blank_searches_until_stop() {
    let mut e = Engine::spawn();
    e.send("debug on");
    for go in ["go infinite ", "go infinite\t", "go infinite \t "] {
        let debug = go_debug_line(&mut e, go);
        assert!(
            debug.contains("depth - nodes - mate - infinite true ponder false "),
            "{go:?}: {debug}"
        );
        assert!(debug.ends_with(" searchmoves [] legal 20"), "{debug}");
        let early = e.collect_for(QUIET);
        e.assert_no_bestmove(&early, go);
        assert!(early.iter().all(|l| parse_info(l).is_ok()), "{early:?}");
        e.send("stop");
        let lines = e.read_until_bestmove();
        assert_legal_bestmove(&Position::startpos(), lines.last().unwrap(), false);
        assert_quiet_after_bestmove(&mut e);
    }
    assert!(e.shutdown().is_empty());
}

#[test]
fn go_keeps_numbers_over_255_and_over_100() {
    let mut e = Engine::spawn();
    e.send("debug on");
    let cases = [
        (
            "go depth 300",
            "depth 300 nodes - mate - infinite false ponder false ",
        ),
        (
            "go mate 300",
            "depth - nodes - mate 300 infinite false ponder false ",
        ),
        (
            "go wtime 1000 btime 1000 movestogo 300",
            "wtime 1000 btime 1000 winc - binc - movestogo 300 movetime -",
        ),
        (
            "go depth 1000",
            "depth 1000 nodes - mate - infinite false ponder false ",
        ),
    ];
    for (go, expected) in cases {
        let debug = go_debug_line(&mut e, go);
        assert!(debug.contains(expected), "{go:?}: {debug}");
        // (The movestogo search may already be over; stop is harmless then.)
        e.send("stop");
        let lines = e.read_until_bestmove();
        assert_legal_bestmove(&Position::startpos(), lines.last().unwrap(), false);
        assert_quiet_after_bestmove(&mut e);
    }
    assert!(e.shutdown().is_empty());
}

#[test]
fn position_move_lists_are_all_or_nothing_and_keep_every_move() {
    let mut e = Engine::spawn();
    e.set_position("position startpos moves g1f3");
    let before = startpos_after(&["g1f3"]);
    assert_eq!(e.fen(), before);

    assert_one_error(
        &mut e,
        "position startpos moves e2e4 0000 d2d4",
        &["move 2 of the list: null move \"0000\""],
    );
    assert_eq!(e.fen(), before, "not cut to e2e4, not changed at all");

    assert_one_error(
        &mut e,
        "position startpos moves e2e4 xx d2d4",
        &["move 2 of the list: malformed move \"xx\""],
    );
    assert_eq!(e.fen(), before);

    e.set_position("position startpos moves  e2e4 e7e5");
    assert_eq!(
        e.fen(),
        startpos_after(&["e2e4", "e7e5"]),
        "both moves played"
    );

    e.set_position("position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6");
    assert_eq!(
        e.fen(),
        startpos_after(&["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"]),
        "a long list is played to the end"
    );
    assert!(e.shutdown().is_empty());
}

#[test]
fn go_keeps_ponder_and_movetime() {
    let mut e = Engine::spawn();
    e.send("debug on");
    let debug = go_debug_line(&mut e, "go ponder wtime 1000 btime 1000");
    assert!(debug.contains(" infinite false ponder true "), "{debug}");
    assert!(debug.contains(" wtime 1000 btime 1000 "), "{debug}");
    let early = e.collect_for(QUIET);
    e.assert_no_bestmove(&early, "go ponder before ponderhit");
    e.send("ponderhit");
    e.send("stop");
    let lines = e.read_until_bestmove();
    assert_legal_bestmove(&Position::startpos(), lines.last().unwrap(), false);
    assert_quiet_after_bestmove(&mut e);

    let debug = go_debug_line(&mut e, "go wtime 100000 btime 100000 movetime 200");
    assert!(debug.contains(" ponder false "), "{debug}");
    assert!(
        debug.contains("wtime 100000 btime 100000 winc - binc - movestogo - movetime 200"),
        "{debug}"
    );
    // It ends by itself, without stop.
    let lines = e.read_until_bestmove();
    assert_legal_bestmove(&Position::startpos(), lines.last().unwrap(), false);
    assert_quiet_after_bestmove(&mut e);
    assert!(e.shutdown().is_empty());
}

#[test]
fn shredder_fen_and_fen_without_clocks_load() {
    let mut e = Engine::spawn();
    e.send("setoption name UCI_Chess960 value true");
    e.set_position(&format!("position fen {SHREDDER_FEN}"));
    let pos = Position::from_fen(SHREDDER_FEN, true).unwrap();
    let expected = shears::chess::perft::perft(&pos, 1);
    assert_eq!(expected, 21);
    let (divide, total) = e.perft(1);
    assert_eq!(total, expected);
    let mut got: Vec<String> = divide.iter().map(|(m, _)| m.clone()).collect();
    let mut want: Vec<String> = pos
        .board()
        .legal_moves()
        .iter()
        .map(|m| move_to_uci(*m, true))
        .collect();
    got.sort();
    want.sort();
    assert_eq!(got, want);
    assert!(divide.iter().all(|(_, n)| *n == 1));

    e.send("setoption name UCI_Chess960 value false");
    e.set_position("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -");
    assert_eq!(e.perft(1).1, 20);
    assert_eq!(e.fen(), START_FEN);
    assert!(e.shutdown().is_empty());
}

// 8 ─────────────────────────────────────────────────────────────────────────

#[test]
fn castling_is_read_in_both_notations_and_written_in_the_active_one() {
    let mut e = Engine::spawn();
    let castled = {
        let mut p = Position::from_fen(CASTLING_FEN, false).unwrap();
        p.play_uci_moves(["e1g1"], false).unwrap();
        p.fen()
    };
    assert_eq!(castled, "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    for chess960 in [false, true] {
        e.send(&format!("setoption name UCI_Chess960 value {chess960}"));
        for notation in ["e1g1", "e1h1"] {
            e.set_position(&format!("position fen {CASTLING_FEN} moves {notation}"));
            assert_eq!(e.fen(), castled, "{notation} with UCI_Chess960 {chess960}");
        }
        e.set_position(&format!("position fen {CASTLING_FEN}"));
        let (divide, total) = e.perft(1);
        assert_eq!(total, 26);
        let listed = |m: &str| divide.iter().any(|(d, n)| d == m && *n == 1);
        let (short, long, not_short, not_long) = if chess960 {
            ("e1h1", "e1a1", "e1g1", "e1c1")
        } else {
            ("e1g1", "e1c1", "e1h1", "e1a1")
        };
        assert!(
            listed(short) && listed(long),
            "UCI_Chess960 {chess960}: {divide:?}"
        );
        assert!(
            !listed(not_short) && !listed(not_long),
            "UCI_Chess960 {chess960}: {divide:?}"
        );

        // searchmoves takes either notation; bestmove uses the active one.
        for notation in ["e1g1", "e1h1"] {
            e.send(&format!("go depth 1 searchmoves {notation}"));
            let lines = e.read_until_bestmove();
            let (best, _) = parse_bestmove(lines.last().unwrap()).unwrap();
            assert_eq!(
                best, short,
                "searchmoves {notation}, UCI_Chess960 {chess960}"
            );
            assert_quiet_after_bestmove(&mut e);
        }
    }
    assert!(e.shutdown().is_empty());
}

// 9 ─────────────────────────────────────────────────────────────────────────

#[test]
fn perft_2_from_startpos_divides_into_20_moves_and_400_nodes() {
    let mut e = Engine::spawn();
    e.send("go perft 2");
    let lines = e.read_until(|l| l.starts_with("Nodes searched: "));
    assert_eq!(
        lines.len(),
        22,
        "20 divide lines, a blank line, the total: {lines:?}"
    );
    assert_eq!(lines[20], "");
    assert_eq!(lines[21], "Nodes searched: 400");
    let want: BTreeMap<String, u64> = shears::chess::perft::divide(&Position::startpos(), 2, None)
        .into_iter()
        .map(|(m, n)| (move_to_uci(m, false), n))
        .collect();
    let mut got = BTreeMap::new();
    for line in &lines[..20] {
        let (m, n) = line.split_once(": ").unwrap_or_else(|| panic!("{line:?}"));
        assert_eq!(n, "20", "{line:?}");
        assert!(got.insert(m.to_owned(), 20).is_none(), "{m} listed twice");
    }
    assert_eq!(got, want);
    assert!(e.sync().is_empty());
    assert!(e.shutdown().is_empty());
}

// 10 ────────────────────────────────────────────────────────────────────────

#[test]
fn d_prints_the_evaluation_diagram_fen_key_and_checkers() {
    let mut e = Engine::spawn();
    e.send("d");
    let lines = e.read_until(|l| l.starts_with("Checkers:"));
    let sep = " +---+---+---+---+---+---+---+---+";
    let expected: Vec<String> = [
        "Evaluation: net <default> (Use NNUE true)",
        sep,
        " | r | n | b | q | k | b | n | r | 8",
        sep,
        " | p | p | p | p | p | p | p | p | 7",
        sep,
        " |   |   |   |   |   |   |   |   | 6",
        sep,
        " |   |   |   |   |   |   |   |   | 5",
        sep,
        " |   |   |   |   |   |   |   |   | 4",
        sep,
        " |   |   |   |   |   |   |   |   | 3",
        sep,
        " | P | P | P | P | P | P | P | P | 2",
        sep,
        " | R | N | B | Q | K | B | N | R | 1",
        sep,
        "   a   b   c   d   e   f   g   h",
        "",
        &format!("Fen: {START_FEN}"),
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    assert_eq!(lines[..21], expected[..]);
    let key = lines[21].strip_prefix("Key: ").expect("a Key line");
    assert!(
        key.len() == 16 && key.chars().all(|c| c.is_ascii_hexdigit()),
        "{key:?}"
    );
    assert_eq!(key, format!("{:016X}", Position::startpos().key()));
    assert_eq!(lines[22].trim_end(), "Checkers:");
    assert_eq!(lines.len(), 23);

    // A check: the key follows the position and the checker is named.
    e.set_position("position startpos moves e2e4 f7f6 d1h5");
    e.send("d");
    let lines = e.read_until(|l| l.starts_with("Checkers:"));
    let mut pos = Position::startpos();
    pos.play_uci_moves(["e2e4", "f7f6", "d1h5"], false).unwrap();
    assert!(lines.contains(&format!("Fen: {}", pos.fen())), "{lines:?}");
    assert!(
        lines.contains(&format!("Key: {:016X}", pos.key())),
        "{lines:?}"
    );
    assert_eq!(lines.last().unwrap(), "Checkers: h5");
    assert!(e.sync().is_empty());
    assert!(e.shutdown().is_empty());
}

// 11 ────────────────────────────────────────────────────────────────────────

#[test]
fn invalid_utf8_and_megabyte_lines_get_one_short_error() {
    let mut e = Engine::spawn();
    e.set_position("position startpos moves e2e4");
    let known = startpos_after(&["e2e4"]);

    e.send_bytes(b"\xff\xfe go\n");
    let lines = e.sync();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("info string error: unknown command"),
        "{lines:?}"
    );

    e.send_bytes(b"position startpos moves d2d4 \xff\n");
    let lines = e.sync();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("info string error: position: move 2 of the list"),
        "{lines:?}"
    );
    assert_eq!(e.fen(), known);

    let garbage: Vec<u8> = b"zq9#%&"
        .iter()
        .copied()
        .cycle()
        .take(1 << 20)
        .chain([b'\n'])
        .collect();
    e.send_bytes(&garbage);
    let lines = e.sync();
    assert_eq!(lines.len(), 1, "one line for a 1 MiB line");
    assert!(
        lines[0].starts_with("info string error: "),
        "{}",
        &lines[0][..100.min(lines[0].len())]
    );
    assert!(
        lines[0].len() < 300,
        "error line of {} bytes",
        lines[0].len()
    );
    assert!(lines[0].contains("(1048576 bytes)"), "{}", lines[0]);

    // A megabyte searchmoves list: one short warning, then the search.
    e.set_position("position startpos moves e2e4");
    let mut long_go = b"go searchmoves ".to_vec();
    long_go.extend(std::iter::repeat_n(b'x', 1 << 20));
    long_go.extend(b" depth 2\n");
    e.send_bytes(&long_go);
    let lines = e.read_until_bestmove();
    let said: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string") && !l.starts_with(NET_NEWS))
        .collect();
    assert_eq!(said.len(), 2, "{said:?}");
    assert!(
        said[0].starts_with("info string warning: go: searchmoves"),
        "{}",
        &said[0][..100.min(said[0].len())]
    );
    assert!(said.iter().all(|l| l.len() < 300), "long warning lines");
    assert_eq!(count_bestmoves(&lines), 1);
    assert_legal_bestmove(
        &Position::from_fen(&known, false).unwrap(),
        lines.last().unwrap(),
        false,
    );

    assert_eq!(e.fen(), known);
    assert!(e.shutdown().is_empty());
}

// 12 ────────────────────────────────────────────────────────────────────────

#[test]
fn each_go_gets_exactly_one_bestmove() {
    let mut e = Engine::spawn();
    for _ in 0..3 {
        e.send("go depth 2");
        e.send("isready");
    }
    let mut lines = Vec::new();
    let mut readyoks = 0;
    while readyoks < 3 {
        let line = e.recv();
        readyoks += usize::from(line == "readyok");
        lines.push(line);
    }
    while count_bestmoves(&lines) < 3 {
        lines.push(e.recv());
    }
    lines.extend(e.collect_for(SETTLE));
    lines.extend(e.sync());
    assert_eq!(count_bestmoves(&lines), 3, "{lines:?}");
    for b in lines.iter().filter(|l| is_bestmove(l)) {
        assert_legal_bestmove(&Position::startpos(), b, false);
    }
    assert!(e.shutdown().is_empty());
}

#[test]
fn go_during_go_infinite_stops_it_and_both_answer_once() {
    let mut e = Engine::spawn();
    e.send("go infinite");
    let early = e.collect_for(Duration::from_millis(100));
    e.assert_no_bestmove(&early, "go infinite");
    e.send("go depth 1");
    let first = e.read_until_bestmove();
    assert_legal_bestmove(&Position::startpos(), first.last().unwrap(), false);
    let second = e.read_until_bestmove();
    assert_legal_bestmove(&Position::startpos(), second.last().unwrap(), false);
    // The second answer comes from the depth-1 search, which ran to its end.
    let final_info = parse_info(&second[second.len() - 2]).unwrap();
    assert!(final_info.is_progress(), "{second:?}");
    assert_eq!(final_info.depth, Some(1), "{second:?}");
    assert_quiet_after_bestmove(&mut e);
    assert!(e.shutdown().is_empty());
}

// 13 ────────────────────────────────────────────────────────────────────────

#[test]
fn closed_stdout_ends_the_engine_quietly_with_code_zero() {
    // Output from the UCI thread (`uci`) into a closed pipe.
    let mut e = Engine::spawn_with_closed_stdout();
    let _ = e.try_send("uci");
    let _ = e.try_send("go depth 2");
    e.close_stdin();
    let (status, _, stderr) = e.wait_exit();
    assert_eq!(status.code(), Some(0), "stderr: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");

    // Output from the search thread (its first info line) into a closed
    // pipe, with stdin still open: the engine must end by itself.
    let mut e = Engine::spawn_with_closed_stdout();
    let _ = e.try_send("go infinite");
    let (status, _, stderr) = e.wait_exit();
    assert_eq!(status.code(), Some(0), "stderr: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}
