//! The command line and engine.toml, through the built binary.

use std::io::Write;
use std::process::{Command, Output, Stdio};

#[path = "../../tests/common/tables.rs"]
mod tables;

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
fn explicit_config_path_is_used_and_a_missing_one_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("other.toml"),
        "[options]\n\"Move Overhead\" = 7\n",
    )
    .unwrap();
    let out = shears(dir.path(), &["--config", "other.toml"], "uci\n");
    assert!(text(&out.stdout).contains("default 7 min 0"));
    // UCI mode starts with the built-in defaults and says why.
    let out = shears(dir.path(), &["--config", "absent.toml"], "uci\nquit\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let errors = errors_after_uciok(&text(&out.stdout));
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].contains("absent.toml: cannot read")
            && errors[0].contains("started with the built-in defaults"),
        "{errors:?}"
    );
    // A command-line tool refuses it.
    let out = shears(dir.path(), &["--config", "absent.toml", "perft", "1"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("absent.toml"),
        "{}",
        text(&out.stderr)
    );
    assert!(out.stdout.is_empty());
}

/// The `info string error:` lines of a UCI session's output, checking that
/// they all come right after the first `uciok` (and nowhere else).
fn errors_after_uciok(stdout: &str) -> Vec<String> {
    let lines: Vec<&str> = stdout.lines().collect();
    let uciok = lines
        .iter()
        .position(|l| *l == "uciok")
        .unwrap_or_else(|| panic!("no uciok in {stdout}"));
    let errors: Vec<String> = lines[uciok + 1..]
        .iter()
        .take_while(|l| l.starts_with("info string error: "))
        .map(|l| (*l).to_owned())
        .collect();
    let everywhere = lines
        .iter()
        .filter(|l| l.starts_with("info string error: "))
        .count();
    assert_eq!(everywhere, errors.len(), "errors elsewhere: {stdout}");
    errors
}

/// `content` as engine.toml is refused by a command-line tool (exit 2, a
/// message naming the file and `needles`), and in UCI mode reported the
/// same way after `uciok`, the engine serving with the defaults.
fn assert_config_refused(content: &str, needles: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("engine.toml"), content).unwrap();
    let out = shears(dir.path(), &["perft", "1"], "");
    assert_eq!(out.status.code(), Some(2), "{content}");
    assert!(out.stdout.is_empty(), "nothing is run with a bad config");
    let err = text(&out.stderr);
    assert!(err.contains("engine.toml"), "{err}");
    for n in needles {
        assert!(err.contains(n), "{content}: {err} lacks {n}");
    }
    assert!(!err.contains("panicked"));

    let out = shears(dir.path(), &[], "uci\nisready\nuci\nquit\n");
    assert!(out.status.success(), "{content}: {}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let errors = errors_after_uciok(&stdout);
    assert_eq!(errors.len(), 1, "{content}: {errors:?}");
    assert!(errors[0].starts_with("info string error: engine.toml: "));
    for n in needles {
        assert!(errors[0].contains(n), "{content}: {errors:?} lacks {n}");
    }
    // Reported once: the second `uci` is answered without it.
    assert_eq!(stdout.matches("uciok").count(), 2, "{stdout}");
    assert!(stdout.contains("readyok"), "{stdout}");
}

#[test]
fn unknown_config_key_is_refused() {
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
fn bad_config_value_is_refused() {
    assert_config_refused(
        "[options]\n\"Move Overhead\" = 100000\n",
        &["options.Move Overhead", "100000", "0 to 5000"],
    );
    assert_config_refused(
        "[options]\nUCI_Chess960 = \"yes\"\n",
        &["UCI_Chess960", "\"yes\"", "true or false"],
    );
    assert_config_refused("[options]\n\"Move Overhead\" = 1.5\n", &["1.5", "integer"]);
    assert_config_refused("[options\n", &["invalid TOML", "line 1"]);
}

#[test]
fn keys_that_differ_only_in_case_are_refused_not_the_last_one_wins() {
    assert_config_refused(
        "[options]\nHash = 32\nhash = 64\n",
        &["\"options.Hash\", \"options.hash\"", "same option"],
    );
    // In UCI mode neither value is used.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("engine.toml"),
        "[options]\n\"move overhead\" = 30\n\"Move Overhead\" = 40\n",
    )
    .unwrap();
    let out = shears(dir.path(), &[], "uci\nquit\n");
    assert!(
        text(&out.stdout).contains("option name Move Overhead type spin default 10 min 0"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn a_bad_engine_toml_keeps_every_valid_key_in_uci_mode() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("engine.toml"),
        "[options]\n\"Move Overhead\" = 123\nHashh = 16\nUCI_ShowWDL = \"yes\"\n\
         UCI_Chess960 = true\nBookFile = \"missing.bin\"\nSyzygyPath = \"no-tables\"\n\
         [engine]\nlog_file = \"uci.log\"\n",
    )
    .unwrap();
    let out = shears(
        dir.path(),
        &[],
        "uci\nposition fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\ngo perft 1\nquit\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    // The valid keys are kept, the refused ones have their defaults.
    for line in [
        "option name Move Overhead type spin default 123 min 0 max 5000",
        "option name UCI_Chess960 type check default true",
        "option name UCI_ShowWDL type check default false",
        "option name BookFile type string default <empty>",
        "option name SyzygyPath type string default <empty>",
    ] {
        assert!(stdout.lines().any(|l| l == line), "{line}: {stdout}");
    }
    assert!(stdout.contains("e1h1: 1"), "Chess960 castling: {stdout}");
    let errors = errors_after_uciok(&stdout);
    assert_eq!(errors.len(), 4, "{errors:?}");
    for (error, needles) in errors.iter().zip([
        &["options.Hashh", "the key is ignored"][..],
        &[
            "options.UCI_ShowWDL",
            "\"yes\"",
            "started with the default for it",
        ],
        &["BookFile", "missing.bin", "started with the default"],
        &["SyzygyPath", "no-tables", "started with the default"],
    ]) {
        for n in needles {
            assert!(error.contains(n), "{error} lacks {n}");
        }
    }
    // The log, a valid key, logs the whole conversation, errors included.
    let log = std::fs::read_to_string(dir.path().join("uci.log")).unwrap();
    assert!(
        log.contains("<< info string error: engine.toml: unknown key \"options.Hashh\""),
        "{log}"
    );
}

#[test]
fn a_log_file_that_cannot_be_opened_is_named_with_its_setting() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("logs")).unwrap();
    for file in ["logs", "no/such/folder/uci.log"] {
        std::fs::write(
            dir.path().join("engine.toml"),
            format!("[options]\n\"Move Overhead\" = 55\n[engine]\nlog_file = \"{file}\"\n"),
        )
        .unwrap();
        let out = shears(dir.path(), &[], "uci\nisready\nquit\n");
        assert!(out.status.success(), "{}", text(&out.stderr));
        let stdout = text(&out.stdout);
        assert!(stdout.contains("default 55 min 0"), "{stdout}");
        assert!(stdout.contains("readyok"), "{stdout}");
        let errors = errors_after_uciok(&stdout);
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(
            errors[0].contains("engine.toml: key \"engine.log_file\"")
                && errors[0].contains(&format!("\"{file}\""))
                && errors[0].contains("not logged"),
            "{errors:?}"
        );
    }
}

#[test]
fn a_hash_too_large_for_the_machine_starts_uci_with_the_default() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("engine.toml"), "[options]\nHash = 8192\n").unwrap();
    let out = limited(
        dir.path(),
        &[],
        "uci\nisready\nposition startpos\ngo depth 3\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("option name Hash type spin default 16 min 1"),
        "{stdout}"
    );
    let errors = errors_after_uciok(&stdout);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].contains("engine.toml: option \"Hash\": cannot apply \"8192\"")
            && errors[0].contains("started with the default, \"16\""),
        "{errors:?}"
    );
    assert!(stdout.contains("bestmove "), "{stdout}");
}

/// Every command that takes `--hash` refuses a size the machine cannot
/// give, with a message and exit code 2 (not an allocation abort).
#[test]
fn every_hash_argument_refuses_an_unallocatable_size_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("one.epd"),
        "4k3/8/8/8/8/8/8/R3K3 w - - bm Ra8#; id \"mate\";\n",
    )
    .unwrap();
    let syzygy = tables::syzygy_or_skip("tb-play --hash");
    let syzygy = syzygy.as_ref().map(|d| d.display().to_string());
    let mut commands: Vec<Vec<&str>> = vec![
        vec!["perft", "1", "--hash", "8192"],
        vec!["epd", "one.epd", "--depth", "1", "--hash", "8192"],
    ];
    if let Some(syzygy) = &syzygy {
        commands.push(vec![
            "tb-play", "--epd", "one.epd", "--syzygy", syzygy, "--depth", "1", "--hash", "8192",
        ]);
    }
    for args in &commands {
        let out = limited(dir.path(), args, "");
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("8192 MB"), "{args:?}: {err}");
        assert!(!err.contains("memory allocation"), "{args:?}: {err}");
    }
}

/// The engine run with its address space limited to 3 GiB (`ulimit -v` in
/// `sh`): a table of several GB cannot be allocated on any machine.
fn limited(dir: &std::path::Path, args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new("sh")
        .args(["-c", "ulimit -v 3145728 && exec \"$0\" \"$@\""])
        .arg(env!("CARGO_BIN_EXE_shears"))
        .args(args)
        .current_dir(dir)
        .env_remove("RUST_BACKTRACE")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh starts");
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().unwrap()
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
fn bench_takes_its_depth_as_a_word_too() {
    let dir = tempfile::tempdir().unwrap();
    let nodes = |args: &[&str]| {
        let out = shears(dir.path(), args, "");
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        text(&out.stdout)
            .lines()
            .last()
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .to_owned()
    };
    assert_eq!(nodes(&["bench", "2"]), nodes(&["bench", "--depth", "2"]));
    assert_ne!(nodes(&["bench", "2"]), nodes(&["bench", "3"]));
    for bad in [
        &["bench", "2", "--depth", "3"][..],
        &["bench", "0"],
        &["bench", "x"],
    ] {
        let out = shears(dir.path(), bad, "");
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(out.stdout.is_empty(), "{bad:?}");
    }
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
