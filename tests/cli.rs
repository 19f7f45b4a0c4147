//! The command line and engine.toml, through the built binary.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn shears(dir: &std::path::Path, args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_shears"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    // The engine may already have exited (a bad config): a broken pipe here
    // is part of the behaviour under test, not a failure.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn missing_config_means_built_in_defaults() {
    let dir = tempfile::tempdir().unwrap();
    let out = shears(dir.path(), &[], "uci\nquit\n");
    assert!(out.status.success());
    assert!(
        text(&out.stdout).contains("option name Move Overhead type spin default 10 min 0 max 5000")
    );
}

#[test]
fn good_config_sets_option_defaults_and_log_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("engine.toml"),
        "[options]\n\"move overhead\" = 123\nUCI_Chess960 = true\n[engine]\nlog_file = \"uci.log\"\n",
    )
    .unwrap();
    let out = shears(
        dir.path(),
        &[],
        "uci\nposition fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\ngo perft 1\nquit\n",
    );
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("option name Move Overhead type spin default 123 min 0 max 5000"),
        "{stdout}"
    );
    assert!(stdout.contains("option name UCI_Chess960 type check default true"));
    // Chess960 on from the file: castling is written king-takes-rook.
    assert!(stdout.contains("e1h1: 1"), "{stdout}");
    let log = std::fs::read_to_string(dir.path().join("uci.log")).unwrap();
    assert!(
        log.contains(">> go perft 1") && log.contains("<< uciok"),
        "{log}"
    );
}

#[test]
fn explicit_config_path_is_used_and_must_exist() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("other.toml"),
        "[options]\n\"Move Overhead\" = 7\n",
    )
    .unwrap();
    let out = shears(dir.path(), &["--config", "other.toml"], "uci\n");
    assert!(text(&out.stdout).contains("default 7 min 0"));
    let out = shears(dir.path(), &["--config", "absent.toml"], "uci\n");
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("absent.toml"),
        "{}",
        text(&out.stderr)
    );
    assert!(!text(&out.stdout).contains("uciok"));
}

fn assert_config_refused(content: &str, needles: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("engine.toml"), content).unwrap();
    let out = shears(dir.path(), &[], "uci\n");
    assert_eq!(out.status.code(), Some(2), "{content}");
    assert!(out.stdout.is_empty(), "nothing is served with a bad config");
    let err = text(&out.stderr);
    assert!(err.contains("engine.toml"), "{err}");
    for n in needles {
        assert!(err.contains(n), "{content}: {err} lacks {n}");
    }
    assert!(!err.contains("panicked"));
}

#[test]
fn unknown_config_key_stops_start_up() {
    assert_config_refused(
        "[options]\nHashh = 16\n",
        &["options.Hashh", "unknown key", "Move Overhead"],
    );
    assert_config_refused(
        "[engine]\nlogfile = \"x\"\n",
        &["engine.logfile", "log_file"],
    );
    assert_config_refused("speed = 3\n", &["speed"]);
}

#[test]
fn bad_config_value_stops_start_up() {
    assert_config_refused(
        "[options]\n\"Move Overhead\" = 100000\n",
        &["options.Move Overhead", "100000", "0 to 5000"],
    );
    assert_config_refused(
        "[options]\nUCI_Chess960 = \"yes\"\n",
        &["UCI_Chess960", "\"yes\"", "true or false"],
    );
    assert_config_refused("[options]\n\"Move Overhead\" = 1.5\n", &["1.5", "integer"]);
    assert_config_refused("[options\n", &["invalid TOML"]);
}

#[test]
fn bench_is_deterministic_and_ends_with_openbench_line() {
    let dir = tempfile::tempdir().unwrap();
    let a = text(&shears(dir.path(), &["bench", "--depth", "3"], "").stdout);
    let b = text(&shears(dir.path(), &["bench", "--depth", "3"], "").stdout);
    let last = |s: &str| s.lines().last().unwrap().to_owned();
    let (la, lb) = (last(&a), last(&b));
    let fields: Vec<&str> = la.split_whitespace().collect();
    assert_eq!(fields.len(), 4, "{la}");
    assert_eq!((fields[1], fields[3]), ("nodes", "nps"));
    assert_eq!(
        la.split_whitespace().next(),
        lb.split_whitespace().next(),
        "node counts differ"
    );
    assert!(fields[0].parse::<u64>().unwrap() > 0);
}

#[test]
fn a_closed_stdout_ends_a_command_quietly() {
    use std::io::BufRead;
    // `shears bench | head -1`: the reader goes away after one line while
    // bench still has 49 positions to print.
    let mut child = Command::new(env!("CARGO_BIN_EXE_shears"))
        .args(["bench", "--depth", "6"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with("position  1:"), "{first}");
    let out = child.wait_with_output().unwrap();
    // Ended as a Unix tool ends on a closed pipe (128 + SIGPIPE), without
    // a panic report.
    assert_eq!(out.status.code(), Some(141), "{}", text(&out.stderr));
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
}

#[test]
fn perft_command_prints_nodes_time_and_nps() {
    let dir = tempfile::tempdir().unwrap();
    let out = shears(
        dir.path(),
        &["perft", "4", "--threads", "2", "--divide"],
        "",
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success());
    assert!(stdout.contains("e2e4: 13160"), "{stdout}");
    let last = stdout.lines().last().unwrap();
    assert!(
        last.starts_with("nodes 197281 time ") && last.contains(" nps "),
        "{last}"
    );
    let bad = shears(dir.path(), &["perft", "3", "--fen", "not a fen"], "");
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).contains("not a fen"));
    let bad = shears(dir.path(), &["perft", "-3"], "");
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn perft_suite_exit_codes() {
    let dir = tempfile::tempdir().unwrap();
    let good = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D3 8902\n\
                bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9 ;D1 21 ;D2 528\n";
    std::fs::write(dir.path().join("good.epd"), good).unwrap();
    let out = shears(dir.path(), &["perft-suite", "good.epd"], "");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stdout).lines().last(),
        Some("passed 2/2 positions")
    );

    std::fs::write(dir.path().join("wrong.epd"), good.replace("8902", "8903")).unwrap();
    let out = shears(
        dir.path(),
        &["perft-suite", "wrong.epd", "--threads", "1"],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("line 1") && stdout.contains("depth 3 expected 8903 got 8902"),
        "{stdout}"
    );
    assert_eq!(stdout.lines().last(), Some("passed 1/2 positions"));

    std::fs::write(
        dir.path().join("bad.epd"),
        format!("{good}garbage line ;D1 1\n"),
    )
    .unwrap();
    let out = shears(dir.path(), &["perft-suite", "bad.epd"], "");
    assert_eq!(out.status.code(), Some(2));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("line 3"), "{stdout}");
    assert_eq!(stdout.lines().last(), Some("passed 2/3 positions"));

    let out = shears(dir.path(), &["perft-suite", "missing.epd"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("missing.epd"));

    let out = shears(
        dir.path(),
        &["perft-suite", "good.epd", "--max-depth", "2"],
        "",
    );
    assert_eq!(out.status.code(), Some(0));
}
