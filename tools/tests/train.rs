//! `shears datagen` and `shears tune` through the built binary: the data
//! format with scores, books, resuming, `--lambda`, `--scale`, held-out
//! games, `--positions`, and bad input.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::data::run_datagen;
use common::{run_cli, text};
use shears_tools::data::format::text::parse_line;

fn data(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/datagen")
        .join(name)
        .display()
        .to_string()
}

/// A short datagen run into `file` in `dir` (400 nodes a move, one
/// thread), whatever its exit code.
fn datagen(dir: &Path, file: &str, games: &str, extra: &[&str]) -> Output {
    run_datagen(dir, file, games, "400", "1", extra)
}

/// A short datagen run into the game file `name.games` in `dir`, then
/// its kept positions as the text file `name.txt` (`data convert`).
fn datagen_text(dir: &Path, name: &str, games: &str, extra: &[&str]) -> Output {
    let out = datagen(dir, &format!("{name}.games"), games, extra);
    if out.status.success() {
        convert(dir, name, "txt");
    }
    out
}

/// `shears data convert name.games name.ext`.
fn convert(dir: &Path, name: &str, ext: &str) {
    let _ = std::fs::remove_file(dir.join(format!("{name}.{ext}")));
    let games = format!("{name}.games");
    let out = run_cli(dir, &["data", "convert", &games, &format!("{name}.{ext}")]);
    assert!(out.status.success(), "{}", text(&out.stderr));
}

/// The settings `data stats` shows for `file`.
fn settings(dir: &Path, file: &str) -> String {
    let out = run_cli(dir, &["data", "stats", file]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout)
}

fn positions(text: &str) -> Vec<&str> {
    text.lines().filter(|l| !l.starts_with('#')).collect()
}

#[test]
fn datagen_from_a_book_is_seeded_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let book = data("openings.pgn");
    let out = datagen_text(dir.path(), "a", "3", &["--book", &book, "--seed", "5"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("wrote 3 games"),
        "{}",
        text(&out.stdout)
    );
    assert!(text(&out.stdout).contains("positions/h"));
    let a = std::fs::read_to_string(dir.path().join("a.txt")).unwrap();
    let stats = settings(dir.path(), "a.games");
    assert!(
        stats.contains(
            "  seed = 5\n  nodes = 400\n  random_plies = 2\n  min_ply = 16\n  \
             book = \"openings.pgn (6 lines)\"\n"
        ),
        "{stats}"
    );
    assert!(!positions(&a).is_empty());
    for line in positions(&a) {
        let parsed = parse_line(line).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert!(parsed.score.is_some(), "{line}");
        // Book lines are 16 plies: every kept position is past them.
        let fullmove: u32 = parsed
            .fen
            .split_whitespace()
            .nth(5)
            .unwrap()
            .parse()
            .unwrap();
        assert!(fullmove > 8, "{line}");
    }

    // The same seed in two runs (the second one resumed halfway) gives the
    // same file; another seed gives other games.
    let out = datagen(
        dir.path(),
        "b.games",
        "1",
        &["--book", &book, "--seed", "5"],
    );
    assert!(out.status.success());
    let out = datagen_text(dir.path(), "b", "3", &["--book", &book, "--seed", "5"]);
    assert!(out.status.success());
    assert!(
        text(&out.stderr).contains("1 games"),
        "{}",
        text(&out.stderr)
    );
    let b = std::fs::read_to_string(dir.path().join("b.txt")).unwrap();
    assert_eq!(positions(&a), positions(&b));
    let out = datagen_text(dir.path(), "c", "3", &["--book", &book, "--seed", "6"]);
    assert!(out.status.success());
    let c = std::fs::read_to_string(dir.path().join("c.txt")).unwrap();
    assert_ne!(positions(&a), positions(&c));
}

#[test]
fn datagen_at_a_fixed_depth_without_a_book() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_cli(
        dir.path(),
        &[
            "datagen",
            "d.games",
            "--games",
            "1",
            "--depth",
            "3",
            "--threads",
            "1",
            "--hce",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stats = settings(dir.path(), "d.games");
    assert!(
        stats.contains("  seed = 1\n  depth = 3\n  random_plies = 8\n  min_ply = 16\ngames: 1 ("),
        "{stats}"
    );
}

#[test]
fn a_bad_book_is_refused_with_the_file_and_game_named() {
    let dir = tempfile::tempdir().unwrap();
    let bad = data("bad_book.pgn");
    let out = datagen(dir.path(), "x.games", "2", &["--book", &bad]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("bad_book.pgn: game 2 (line 7): ply 3 \"Ke3\" (line 9)"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    assert!(!dir.path().join("x.games").exists(), "nothing written");

    let out = datagen(dir.path(), "x.games", "2", &["--book", "missing.pgn"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("missing.pgn: "));
    std::fs::write(dir.path().join("empty.pgn"), "% nothing here\n").unwrap();
    let out = datagen(dir.path(), "x.games", "2", &["--book", "empty.pgn"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("empty.pgn: no games"),
        "{}",
        text(&out.stderr)
    );
}

/// Runs `tune` on `files` with `extra`; returns stdout and the weights
/// written.
fn tune(dir: &Path, files: &[&str], extra: &[&str]) -> (Output, String) {
    let mut args = vec!["tune"];
    args.extend_from_slice(files);
    args.extend_from_slice(&["--epochs", "5", "--threads", "1", "--out", "w.rs"]);
    args.extend_from_slice(extra);
    let out = run_cli(dir, &args);
    let weights = std::fs::read_to_string(dir.join("w.rs")).unwrap_or_default();
    let _ = std::fs::remove_file(dir.join("w.rs"));
    (out, weights)
}

/// The loss lines of a tune run (not the timing line).
fn losses(out: &Output) -> Vec<String> {
    text(&out.stdout)
        .lines()
        .filter(|l| l.contains("loss"))
        .map(str::to_owned)
        .collect()
}

#[test]
fn tune_blends_scores_with_lambda_and_lambda_zero_is_the_old_tuning() {
    let dir = tempfile::tempdir().unwrap();
    let out = datagen_text(dir.path(), "new", "4", &["--seed", "3"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // The same positions without their scores: a file of the old format.
    let new = std::fs::read_to_string(dir.path().join("new.txt")).unwrap();
    let old: String = new
        .lines()
        .map(|l| match l.rsplit_once(" | ") {
            Some((head, _)) if !l.starts_with('#') => format!("{head}\n"),
            _ => format!("{l}\n"),
        })
        .collect();
    std::fs::write(dir.path().join("old.txt"), &old).unwrap();

    // λ 0 with one K: the scores take no part, so a file without them
    // tunes exactly the same.
    let k = ["--lambda", "0", "--scale", "110"];
    let (zero, zero_w) = tune(dir.path(), &["new.txt"], &k);
    assert!(zero.status.success(), "{}", text(&zero.stderr));
    let (old_zero, old_w) = tune(dir.path(), &["old.txt"], &k);
    assert_eq!(losses(&zero), losses(&old_zero));
    assert_eq!(zero_w, old_w, "old files tune exactly as before");
    assert!(!zero_w.is_empty());
    assert!(text(&zero.stdout).contains("K = 110.0 cp (given)"));
    // The default is λ 1 (as train's) with K fitted on the scores; a file
    // without scores then stops, naming the first line without one, and
    // with λ 0 fits K on the evaluation.
    let (plain, plain_w) = tune(dir.path(), &["new.txt"], &[]);
    let (one, one_w) = tune(dir.path(), &["new.txt"], &["--lambda", "1"]);
    assert_eq!(losses(&plain), losses(&one));
    assert_eq!(plain_w, one_w);
    assert!(
        text(&plain.stdout).contains("(fitted: the scores' best fit to the results)"),
        "{}",
        text(&plain.stdout)
    );
    let (out, _) = tune(dir.path(), &["old.txt"], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no search score"));
    let (out, _) = tune(dir.path(), &["old.txt"], &["--lambda", "0"]);
    assert!(
        text(&out.stdout).contains("fitted: the evaluation's best fit to the results"),
        "{}",
        text(&out.stdout)
    );

    // Whole games held out, as train holds them out.
    let half_args = ["--lambda", "0.5", "--val-every-games", "2"];
    let (half, half_w) = tune(dir.path(), &["new.txt"], &half_args);
    assert!(half.status.success(), "{}", text(&half.stderr));
    let stdout = text(&half.stdout);
    for expected in [
        "0.50 * result + 0.50 * sigmoid(score / K)",
        " held out (2 games, --val-every-games 2)",
        "held-out loss against the results alone",
    ] {
        assert!(stdout.contains(expected), "{expected}: {stdout}");
    }
    // The first 50 positions only.
    let (first, _) = tune(dir.path(), &["new.txt"], &["--positions", "50"]);
    let stdout = text(&first.stdout);
    assert!(
        stdout.contains("the first 50 positions of the data (--positions 50)"),
        "{stdout}"
    );
    let loaded: usize = stdout
        .lines()
        .find_map(|l| l.split_once(" quiet positions loaded"))
        .and_then(|(n, _)| n.parse().ok())
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(loaded > 0 && loaded <= 50, "{stdout}");
    assert_ne!(losses(&half), losses(&plain));
    assert_ne!(half_w, plain_w);
    let (zero_fitted, _) = tune(dir.path(), &["new.txt"], &["--lambda", "0"]);
    assert_ne!(losses(&zero_fitted), losses(&half));

    // Scores needed and missing: an error naming the file and line.
    let (out, w) = tune(dir.path(), &["new.txt", "old.txt"], &["--lambda", "0.5"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    // The first position `tune` keeps (its quiescence leaf not in check),
    // which depends on the games the evaluation played: a line of old.txt
    // that holds a position and no score.
    let line: usize = err
        .split_once("old.txt:")
        .and_then(|(_, rest)| rest.split_once(": no search score"))
        .and_then(|(n, _)| n.parse().ok())
        .unwrap_or_else(|| panic!("no old.txt line named: {err}"));
    let named = old.lines().nth(line - 1).expect("the named line exists");
    assert!(!named.starts_with('#'), "{named}");
    assert_eq!(named.matches(" | ").count(), 1, "{named}");
    assert!(w.is_empty(), "no weights written");
    let (out, _) = tune(dir.path(), &["new.txt"], &["--lambda", "1.5"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("1.5"));
}

#[test]
fn tune_names_bad_lines_and_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let lines = format!(
        "{start} | 0.5 | 10\n{start} | 0.5 | mate\n{start} | 2.0 | 0\nnot a fen | 1.0 | 0\n\
         {start} | 1.0 | 20 | 30\n{start} | 0.0 | -31950\n"
    );
    std::fs::write(dir.path().join("bad.txt"), lines).unwrap();
    let (out, _) = tune(dir.path(), &["bad.txt"], &["--val-percent", "0"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    for (line, what) in [
        (2, "bad score `mate`"),
        (3, "result 2 is not"),
        (4, "(skipped)"),
        (5, "too many"),
        (6, "mate or tablebase score"),
    ] {
        assert!(err.contains(&format!("bad.txt:{line}: ")), "{err}");
        assert!(err.contains(what), "{what}: {err}");
    }
    assert!(!err.contains("panicked"), "{err}");
    assert!(text(&out.stdout).starts_with("1 quiet positions loaded"));
}

#[test]
fn tune_on_only_bad_lines_names_the_first_one() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("empty.txt"), "# nothing but a comment\n").unwrap();
    std::fs::write(
        dir.path().join("bad.txt"),
        "# a comment\n\nnot a fen | 1.0 | 0\nstill not | 0.5 | 3\n",
    )
    .unwrap();
    let (out, w) = tune(dir.path(), &["empty.txt", "bad.txt"], &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("no usable positions in the data (2 bad lines, the first bad.txt:3: "),
        "{err}"
    );
    assert!(w.is_empty(), "no weights written");
    // No bad line at all: nothing to name.
    let (out, _) = tune(dir.path(), &["empty.txt"], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr)
            .trim_end()
            .ends_with("no usable positions in the data"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn packed_and_game_files_tune_exactly_as_their_text_twin() {
    let dir = tempfile::tempdir().unwrap();
    let out = datagen(dir.path(), "d.games", "3", &["--seed", "9"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    convert(dir.path(), "d", "txt");
    convert(dir.path(), "d", "bin");
    let txt = std::fs::metadata(dir.path().join("d.txt")).unwrap().len();
    let bin = std::fs::metadata(dir.path().join("d.bin")).unwrap().len();
    assert_eq!(bin % 32, 0);
    assert!(3 * bin < 2 * txt, "packed {bin} bytes, text {txt}");
    for lambda in ["0", "0.5"] {
        let (a, wa) = tune(dir.path(), &["d.txt"], &["--lambda", lambda]);
        for twin in ["d.bin", "d.games"] {
            let (b, wb) = tune(dir.path(), &[twin], &["--lambda", lambda]);
            assert!(b.status.success(), "{twin}: {}", text(&b.stderr));
            assert_eq!(losses(&a), losses(&b), "{twin}");
            assert_eq!(wa, wb, "{twin}");
        }
    }
}
