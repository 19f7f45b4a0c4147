//! EPD suites: easy positions solved through the library, and the `epd`
//! subcommand's output and exit codes through the built binary; a point
//! suite (STS style) with known points, through both.

use std::process::{Command, Output};

use shears::eval::{Evaluation, LoadedNet};
use shears::search::SearchLimits;
use shears_tools::suites::epd::{parse_epd, run_suite, solved_count, theme_scores};

/// Positions any engine solves at depth 4.
const EASY: &str = "\
# mate in one on the back rank
6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id \"back rank\";
# the rook takes a free queen
4k3/8/8/3q4/8/8/3R4/4K3 w - - bm Rxd5; id \"free queen\"; c0 \"Rxd5 wins the queen\";
# Nxe5 loses the knight to Nxe5 (for a pawn)
r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - am Nxe5; id \"no knight sacrifice\";
# mate in one, written in UCI
k7/8/1K6/8/8/8/8/7R w - - bm h1h8;
";

/// The engine's default evaluation: the built-in net.
fn net() -> Evaluation {
    Evaluation::Net(LoadedNet::built_in().unwrap())
}

#[test]
fn easy_suite_is_solved_at_depth_4() {
    let (entries, errors) = parse_epd(EASY);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(entries.len(), 4);
    assert_eq!(entries[3].id, "line 8");
    let limits = SearchLimits {
        depth: Some(4),
        ..SearchLimits::default()
    };
    let done = std::sync::atomic::AtomicUsize::new(0);
    let results = run_suite(&entries, &limits, &net(), 1, 2, &|_| {
        done.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    })
    .unwrap();
    assert_eq!(done.into_inner(), 4);
    let ids: Vec<&str> = results.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(
        ids,
        ["back rank", "free queen", "no knight sacrifice", "line 8"]
    );
    for r in &results {
        assert!(r.solved, "{r} ({r:?})");
    }
    assert_eq!(solved_count(&results), 4);
    assert_eq!(results[0].found_san, "Ra8#");
    assert_eq!(results[1].found_san, "Rxd5");
    assert_eq!(results[3].found_san, "Rh8#");
}

#[test]
fn a_wrong_move_is_a_failure_with_both_moves_named() {
    // The mate is Ra8#; pretend the suite wanted a king move.
    let (entries, errors) = parse_epd("6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Kf1; id \"wrong\";");
    assert!(errors.is_empty(), "{errors:?}");
    let limits = SearchLimits {
        depth: Some(4),
        ..SearchLimits::default()
    };
    let results = run_suite(&entries, &limits, &net(), 1, 1, &|_| {}).unwrap();
    assert!(!results[0].solved);
    assert_eq!(
        results[0].to_string(),
        "fail wrong: expected bm Kf1 found Ra8#"
    );
}

fn shears_epd(dir: &std::path::Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shears"))
        .arg("epd")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the binary starts")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn good_file_exits_0_with_solved_last() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("easy.epd");
    std::fs::write(&path, EASY).unwrap();
    let out = shears_epd(
        dir.path(),
        &[path.to_str().unwrap(), "--depth", "4", "--threads", "2"],
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert_eq!(stdout.lines().last(), Some("solved 4/4"), "{stdout}");
}

#[test]
fn failures_are_listed_but_the_exit_code_is_0() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("wrong.epd");
    std::fs::write(
        &path,
        "6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Kf1 Kh1; id \"wrong\";\n\
         4k3/8/8/3q4/8/8/3R4/4K3 w - - bm Rxd5;\n",
    )
    .unwrap();
    let out = shears_epd(dir.path(), &[path.to_str().unwrap(), "--nodes", "20000"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines,
        ["fail wrong: expected bm Kf1 Kh1 found Ra8#", "solved 1/2"]
    );
}

#[test]
fn malformed_lines_exit_2_and_the_rest_still_run() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.epd");
    std::fs::write(
        &path,
        "4k3/8/8/3q4/8/8/3R4/4K3 w - - bm Rxd5;\n\
         \n\
         4k3/8/8/3q4/8/8/3R4/4K3 w - - bm Rxd7;\n\
         not a fen at all; bm e4\n",
    )
    .unwrap();
    let out = shears_epd(
        dir.path(),
        &[path.to_str().unwrap(), "--movetime", "50", "--threads", "1"],
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{stdout}{}", text(&out.stderr));
    let name = path.display().to_string();
    assert!(
        stdout.contains(&format!("{name}: line 3: bm: illegal move \"Rxd7\"")),
        "{stdout}"
    );
    assert!(stdout.contains(&format!("{name}: line 4: ")), "{stdout}");
    assert_eq!(stdout.lines().last(), Some("solved 1/1"), "{stdout}");
}

/// `tests/data/points/small.epd`, whose points are known (see its head).
fn points_suite() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/points/small.epd")
}

#[test]
fn point_suite_prints_points_per_theme_and_the_total() {
    let dir = tempfile::tempdir().unwrap();
    let suite = points_suite();
    let out = shears_epd(
        dir.path(),
        &[suite.to_str().unwrap(), "--depth", "4", "--threads", "2"],
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines,
        [
            "fail Material.2: expected bm Kf1 found Ra8# (4/10)",
            "Mates     20/20  100.0%  2 positions",
            "Material  14/20   70.0%  2 positions",
            "total: 34/40 (85.0%)",
            "solved 4/5",
        ]
    );
}

#[test]
fn point_suite_through_the_library_scores_each_position() {
    let text = std::fs::read_to_string(points_suite()).unwrap();
    let (entries, errors) = parse_epd(&text);
    assert!(errors.is_empty(), "{errors:?}");
    let limits = SearchLimits {
        depth: Some(4),
        ..SearchLimits::default()
    };
    let results = run_suite(&entries, &limits, &net(), 1, 2, &|_| {}).unwrap();
    let scores: Vec<Option<(u32, u32)>> = results
        .iter()
        .map(|r| r.points.map(|p| (p.got, p.max)))
        .collect();
    assert_eq!(
        scores,
        [
            Some((10, 10)),
            Some((10, 10)),
            Some((10, 10)),
            Some((4, 10)),
            None
        ]
    );
    let themes = theme_scores(&results);
    let totals: Vec<(&str, u64, u64)> = themes
        .iter()
        .map(|t| (t.theme.as_str(), t.got, t.max))
        .collect();
    assert_eq!(totals, [("Mates", 20, 20), ("Material", 14, 20)]);
}

#[test]
fn bad_point_lines_are_named_and_the_rest_is_scored() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("points.epd");
    std::fs::write(
        &path,
        "6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id \"T.1\"; c0 \"Ra8#=10, Rb9=2\";\n\
         6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id \"T.2\"; c8 \"10 3\"; c9 \"a1a8 a1a7\";\n\
         6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id \"T.3\"; c8 \"10 3\"; c9 \"a1a8\";\n",
    )
    .unwrap();
    let out = shears_epd(dir.path(), &[path.to_str().unwrap(), "--depth", "3"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{stdout}{}", text(&out.stderr));
    let name = path.display().to_string();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines,
        [
            format!("{name}: line 1: c0: cannot read move \"Rb9\"").as_str(),
            format!("{name}: line 3: c8/c9: c8 has 2 entries, c9 has 1").as_str(),
            "T  10/10  100.0%  1 position",
            "total: 10/10 (100.0%)",
            "solved 1/1",
        ]
    );
}

#[test]
fn unreadable_file_and_two_limits_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = shears_epd(dir.path(), &["missing.epd"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("missing.epd: cannot read"));

    std::fs::write(dir.path().join("a.epd"), EASY).unwrap();
    let out = shears_epd(dir.path(), &["a.epd", "--depth", "3", "--nodes", "100"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("cannot be used with"));
}
