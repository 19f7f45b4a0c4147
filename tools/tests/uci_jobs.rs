//! `go perft`, `bench` and `genfens` (a tool's command) run like a search,
//! off the UCI thread: `isready` is answered while they run, `stop` ends
//! them with what they have so far, said to be partial, and `quit` ends
//! the engine at once. Through the real binary.

mod common;

use std::time::{Duration, Instant};

use common::Engine;

/// `isready` is answered within this while a job keeps both cores busy.
const READY_WITHIN: Duration = Duration::from_millis(50);

/// Sends `isready` while a job runs and returns how long `readyok` took;
/// nothing but `readyok` may come back in the meantime (the job's own
/// output comes at its end).
fn ready_latency(e: &mut Engine) -> Duration {
    let start = Instant::now();
    e.send("isready");
    let line = e.recv();
    let took = start.elapsed();
    assert_eq!(line, "readyok", "isready during a job");
    took
}

/// The best of three `isready` round trips a tenth of a second apart: one
/// slow answer can be the machine (the test binaries run side by side),
/// three in a row are the engine.
fn best_latency(e: &mut Engine) -> Duration {
    (0..3)
        .map(|_| {
            std::thread::sleep(Duration::from_millis(100));
            ready_latency(e)
        })
        .min()
        .expect("three measurements")
}

#[test]
fn isready_is_answered_during_perft_and_stop_ends_it() {
    let mut e = Engine::spawn();
    e.send("go perft 7");
    let latency = best_latency(&mut e);
    eprintln!("isready during go perft 7: {latency:?}");
    assert!(latency < READY_WITHIN, "readyok took {latency:?}");
    e.send("stop");
    let lines = e.read_until(|l| l.starts_with("Nodes searched: "));
    assert_eq!(
        lines[0], "info string perft stopped: the counts below are partial",
        "{lines:?}"
    );
    let total: u64 = lines
        .last()
        .and_then(|l| l.strip_prefix("Nodes searched: "))
        .and_then(|n| n.parse().ok())
        .expect("a total");
    assert!(
        total < 3_195_901_860,
        "perft 7 cannot have finished: {total}"
    );
    let divide = &lines[1..lines.len() - 2];
    assert_eq!(divide.len(), 20, "one line per root move: {lines:?}");
    let sum: u64 = divide
        .iter()
        .map(|l| l.split_once(": ").unwrap().1.parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, total);
    // The engine goes on as before.
    assert_eq!(e.perft(2).1, 400);
    assert!(e.shutdown().is_empty());
}

#[test]
fn isready_is_answered_during_bench_and_stop_ends_it() {
    let mut e = Engine::spawn();
    // Depth 40 runs for minutes: it is still running when stop comes.
    e.send("bench 40");
    let latency = best_latency(&mut e);
    eprintln!("isready during bench: {latency:?}");
    assert!(latency < READY_WITHIN, "readyok took {latency:?}");
    e.send("stop");
    let lines = e.read_until(|l| l.ends_with(" nps"));
    let stopped = lines
        .iter()
        .find(|l| l.starts_with("info string bench stopped: "))
        .unwrap_or_else(|| panic!("no stop notice in {lines:?}"));
    assert!(stopped.contains("position(s)"), "{stopped}");
    let last = lines.last().unwrap();
    let mut words = last.split(' ');
    let nodes: u64 = words.next().unwrap().parse().expect("a node count");
    assert!(nodes > 0 && words.next() == Some("nodes"), "{last}");
    // A bench run to its end afterwards is the same as ever.
    e.send("bench 2");
    let lines = e.read_until(|l| l.ends_with(" nps"));
    assert!(!lines.iter().any(|l| l.contains("stopped")), "{lines:?}");
    assert!(e.shutdown().is_empty());
}

#[test]
fn end_of_input_lets_a_piped_perft_finish() {
    let mut e = Engine::spawn();
    e.send("go perft 4");
    e.close_stdin();
    let (status, lines, _) = e.wait_exit();
    assert!(status.success());
    assert_eq!(
        lines.last().map(String::as_str),
        Some("Nodes searched: 197281")
    );
    assert!(!lines.iter().any(|l| l.contains("stopped")), "{lines:?}");
}

/// The `info string genfens` FENs among `lines`.
fn genfens_fens(lines: &[String]) -> Vec<&str> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("info string genfens "))
        .collect()
}

#[test]
fn genfens_typed_on_stdin_leaves_isready_stop_and_quit_answered_at_once() {
    let mut e = Engine::spawn();
    // Far more positions than the test waits for: still running at `stop`.
    e.send("genfens 100000 seed 1 book None");
    let mut first = Vec::new();
    let mut latencies = Vec::new();
    for _ in 0..3 {
        std::thread::sleep(Duration::from_millis(100));
        let start = Instant::now();
        e.send("isready");
        let lines = e.read_until(|l| l == "readyok");
        latencies.push(start.elapsed());
        let others = &lines[..lines.len() - 1];
        assert_eq!(genfens_fens(others).len(), others.len(), "{others:?}");
        first.extend(genfens_fens(others).iter().map(|f| f.to_string()));
    }
    let latency = latencies.into_iter().min().unwrap();
    eprintln!("isready during genfens: {latency:?}");
    assert!(latency < READY_WITHIN, "readyok took {latency:?}");
    e.send("stop");
    let lines = e.read_until(|l| l.starts_with("info string stopped: genfens gave "));
    let given: u64 = lines
        .last()
        .and_then(|l| l.strip_prefix("info string stopped: genfens gave "))
        .and_then(|l| l.strip_suffix(" of 100000 positions"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{lines:?}"));
    assert!(given > 0 && given < 100_000, "{given}");
    first.extend(genfens_fens(&lines).iter().map(|f| f.to_string()));
    assert_eq!(first.len() as u64, given);
    // The engine goes on: a genfens to its end, the same openings as the
    // start of the stopped one.
    e.send("genfens 3 seed 1 book None");
    let seen = std::cell::Cell::new(0);
    let lines = e.read_until(|l| {
        seen.set(seen.get() + usize::from(l.starts_with("info string genfens ")));
        seen.get() == 3
    });
    assert_eq!(genfens_fens(&lines), first[..3.min(first.len())]);
    let after = e.sync();
    assert!(!after.iter().any(|l| l.contains("stopped")), "{after:?}");
    assert_eq!(e.perft(2).1, 400);

    // `quit` in the middle of a long genfens ends the engine at once.
    e.send("genfens 100000 seed 2 book None");
    e.read_until(|l| l.starts_with("info string genfens "));
    let start = Instant::now();
    e.send("quit");
    let (status, rest, stderr) = e.wait_exit();
    assert!(status.success(), "{stderr}");
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    assert!(genfens_fens(&rest).len() < 99_999);
}

#[test]
fn quit_during_bench_or_perft_ends_the_engine_at_once() {
    for command in ["bench 40", "go perft 8"] {
        let mut e = Engine::spawn();
        e.send(command);
        std::thread::sleep(Duration::from_millis(200));
        let start = Instant::now();
        e.send("quit");
        let (status, _, stderr) = e.wait_exit();
        assert!(status.success(), "{command}: {stderr}");
        assert!(
            start.elapsed() < Duration::from_secs(2),
            "{command}: {:?}",
            start.elapsed()
        );
    }
}
