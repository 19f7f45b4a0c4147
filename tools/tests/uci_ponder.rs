//! Pondering through the real binary: after `ponderhit` the search goes on
//! under its clock counted from `go` (as Stockfish counts it), so a ponder
//! that outlasted the move's time answers at once; `stop` during a ponder
//! and a `ponderhit` right after `go ponder` each get one legal `bestmove`.

mod common;

use std::time::{Duration, Instant};

use common::{Engine, count_bestmoves, parse_bestmove, parse_info, play_line, startpos_after};
use shears::chess::Position;

/// How long the engine ponders before `ponderhit` in the timing test:
/// longer than the hard limit of each `go` there, so the move's time has
/// run out when `ponderhit` comes.
const PONDER_FOR: Duration = Duration::from_millis(1300);

/// How soon after `ponderhit` the move must come. Counting the clock from
/// `ponderhit` instead, the engine would think at least 990 ms more after
/// `go ponder movetime 1000` (its soft and hard limit, less the default
/// 10 ms Move Overhead), and up to its 1,052 ms hard limit after the
/// issue's `go ponder … btime 5000 binc 50`; counted from `go`, it stops at
/// its next look at the clock (every 1,024 nodes). The bound is not a
/// speed limit: it sits just under the least time the clock counted from
/// `ponderhit` could take after `go ponder movetime 1000` (990 ms), so it
/// separates the two behaviours there and nothing else, with all the
/// room a loaded machine needs (the better of two tries is taken).
const ANSWER_WITHIN: Duration = Duration::from_millis(900);

/// The position of the repro: Black to move.
const MOVES: [&str; 3] = ["e2e4", "e7e5", "g1f3"];

fn position() -> Position {
    Position::from_fen(&startpos_after(&MOVES), false).expect("a legal position")
}

/// Checks that `lines` end with one legal `bestmove` (and legal `ponder`
/// move) for the repro's position.
fn assert_one_legal_answer(lines: &[String], context: &str) {
    assert_eq!(count_bestmoves(lines), 1, "{context}: {lines:?}");
    let (best, ponder) =
        parse_bestmove(lines.last().expect("a line")).expect("a well-formed bestmove");
    let mut played = vec![best];
    played.extend(ponder);
    if let Err(err) = play_line(&position(), &played, false) {
        panic!("{context}: {err}: {lines:?}");
    }
}

/// Sends `go`, ponders for [`PONDER_FOR`], sends `ponderhit`; returns how
/// long the move took after it.
fn answer_after_ponderhit(e: &mut Engine, go: &str) -> Duration {
    e.set_position(&format!("position startpos moves {}", MOVES.join(" ")));
    e.send(go);
    let before = e.collect_for(PONDER_FOR);
    e.assert_no_bestmove(&before, &format!("{go} before ponderhit"));
    let hit = Instant::now();
    e.send("ponderhit");
    let lines = e.read_until_bestmove();
    let took = hit.elapsed();
    assert_one_legal_answer(&lines, go);
    // The time shown counts from go too (half of the ponder at least: the
    // engine may have read go a moment after it was sent).
    // (`info depth N currmove …` lines carry no time: only lines with a score.)
    let scored = |l: &&String| l.starts_with("info depth") && l.contains(" score ");
    for line in lines.iter().filter(scored) {
        let info = parse_info(line).expect("a well-formed info line");
        let time = Duration::from_millis(info.time.expect("info time"));
        assert!(
            time >= PONDER_FOR / 2,
            "{go}: {line:?} after {PONDER_FOR:?}"
        );
    }
    took
}

#[test]
fn a_ponderhit_after_the_time_ran_out_answers_at_once() {
    let mut e = Engine::spawn();
    for go in [
        "go ponder movetime 1000",
        "go ponder wtime 5000 btime 5000 winc 50 binc 50",
    ] {
        let took = (0..2)
            .map(|_| answer_after_ponderhit(&mut e, go))
            .min()
            .expect("two tries");
        eprintln!("{go}: bestmove {took:?} after ponderhit");
        assert!(
            took < ANSWER_WITHIN,
            "{go}: bestmove {took:?} after ponderhit"
        );
    }
    assert!(e.sync().is_empty(), "output after the last bestmove");
    e.shutdown();
}

#[test]
fn stop_during_a_ponder_answers_once_and_a_late_ponderhit_is_ignored() {
    let mut e = Engine::spawn();
    e.set_position(&format!("position startpos moves {}", MOVES.join(" ")));
    e.send("go ponder wtime 5000 btime 5000 winc 50 binc 50");
    let before = e.collect_for(Duration::from_millis(200));
    e.assert_no_bestmove(&before, "go ponder before stop");
    e.send("stop");
    let lines = e.read_until_bestmove();
    assert_one_legal_answer(&lines, "stop during go ponder");
    // A GUI may send ponderhit after all (the opponent played the move):
    // nothing runs, nothing is said.
    e.send("ponderhit");
    assert!(e.sync().is_empty(), "output after a late ponderhit");
    e.shutdown();
}

#[test]
fn a_ponderhit_right_after_go_ponder_is_a_timed_search() {
    let mut e = Engine::spawn();
    for go in [
        "go ponder wtime 5000 btime 5000 winc 50 binc 50",
        "go ponder movetime 300",
        // Finished before ponderhit: the move waits for it, then comes.
        "go ponder depth 3",
    ] {
        e.set_position(&format!("position startpos moves {}", MOVES.join(" ")));
        e.send(&format!("{go}\nponderhit"));
        let lines = e.read_until_bestmove();
        assert_one_legal_answer(&lines, go);
        assert!(e.sync().is_empty(), "{go}: output after bestmove");
    }
    e.shutdown();
}
