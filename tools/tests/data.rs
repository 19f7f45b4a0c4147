//! The game format through the built binary: `datagen` writes the same
//! bytes on any number of threads and when stopped and resumed; `shears
//! data` reads, checks and converts; a damaged file is refused with the
//! game named; `genfens` as OpenBench calls it; UCI commands given as
//! arguments; a PGN that fastchess wrote, converted.

mod common;

use std::path::{Path, PathBuf};

use common::data::{datagen, read};
use common::{run_cli, text};
use shears::chess::Position;
use shears::chess::pgn::{GameResult, PgnReader};
use shears::search::MATE_BOUND;
use shears_tools::data::{Filter, TrainingPosition, open};

#[test]
fn the_same_command_writes_the_same_file_on_any_threads_and_when_resumed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    datagen(d, "one.games", "6", "1", &[]);
    datagen(d, "two.games", "6", "2", &[]);
    let one = read(d, "one.games");
    assert_eq!(one, read(d, "two.games"), "1 and 2 threads");

    // Stopped after 2 games, then resumed.
    datagen(d, "resumed.games", "2", "2", &[]);
    let part = read(d, "resumed.games");
    assert!(one.starts_with(&part));
    datagen(d, "resumed.games", "6", "2", &[]);
    assert_eq!(read(d, "resumed.games"), one, "stopped and resumed");

    // Killed in the middle of writing a game: the cut game is played again.
    std::fs::write(d.join("killed.games"), &one[..one.len() - 9]).unwrap();
    let out = datagen(d, "killed.games", "6", "1", &[]);
    assert!(
        text(&out.stderr).contains("killed.games: 5 games"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(read(d, "killed.games"), one, "killed and resumed");

    // Other settings are refused, and nothing is written.
    let out = run_cli(
        d,
        &[
            "datagen",
            "one.games",
            "--games",
            "7",
            "--nodes",
            "301",
            "--seed",
            "11",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("made with other settings: nodes: 300 in the file, 301 now"),
        "{err}"
    );
    assert_eq!(read(d, "one.games"), one);
}

#[test]
fn a_game_file_converts_to_the_positions_the_run_kept() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = datagen(d, "g.games", "4", "2", &[]);
    // `wrote 4 games, N positions …`: the positions the games kept.
    let kept: usize = text(&out.stdout)
        .split_once("wrote 4 games, ")
        .and_then(|(_, rest)| rest.split_once(" positions"))
        .and_then(|(n, _)| n.parse().ok())
        .unwrap_or_else(|| panic!("{}", text(&out.stdout)));
    let out = run_cli(d, &["data", "convert", "g.games", "c.bin"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        read(d, "c.bin").len(),
        (kept + 4) * 32,
        "a record each, and 4 ends"
    );
    // Game files are smaller though they hold every move.
    assert!(read(d, "g.games").len() * 2 < read(d, "c.bin").len());

    let out = run_cli(d, &["data", "stats", "g.games"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stats = text(&out.stdout);
    assert!(stats.contains("format: games"), "{stats}");
    assert!(stats.contains("games: 4 ("), "{stats}");
    assert!(
        stats.contains(&format!("kept: {kept} (the quiet filter from ply 16)")),
        "{stats}"
    );
    assert!(stats.contains("  seed = 11\n  nodes = 300\n"), "{stats}");
    assert!(stats.contains("build = \"0.1.0 "), "{stats}");
    let out = run_cli(d, &["data", "stats", "c.bin"]);
    assert!(
        text(&out.stdout).contains("games: 4\n"),
        "{}",
        text(&out.stdout)
    );

    // The other way is refused, with the reason.
    let out = run_cli(d, &["data", "convert", "c.bin", "x.games"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("not the moves between them"));
    assert!(!d.join("x.games").exists());
}

#[test]
fn a_stricter_adjudication_cuts_the_games_datagen_would_have_cut() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let strict = [
        "--resign-score",
        "300",
        "--resign-plies",
        "2",
        "--draw-min-ply",
        "30",
    ];
    datagen(d, "g.games", "6", "2", &[]);
    let out = datagen(d, "s.games", "6", "2", &strict);
    assert!(
        text(&out.stderr).contains("adjudication resign at 300 cp for 2 plies"),
        "{}",
        text(&out.stderr)
    );
    let mut args = vec!["data", "convert", "g.games", "cut.bin"];
    args.extend_from_slice(&strict);
    let out = run_cli(d, &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(
        report.contains(
            "adjudication: resign at 300 cp for 2 plies, draw within 10 cp for 12 plies from \
             ply 30: "
        ) && report.contains("% fewer searches)"),
        "{report}"
    );
    let out = run_cli(d, &["data", "convert", "s.games", "played.bin"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(read(d, "cut.bin"), read(d, "played.bin"));
    // Games already over cannot be played on: a looser rule is refused.
    let out = run_cli(
        d,
        &["data", "convert", "g.games", "x.bin", "--draw-score", "5"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("looser"),
        "{}",
        text(&out.stderr)
    );
    assert!(!d.join("x.bin").exists());
}

#[test]
fn a_damaged_game_file_is_refused_with_the_game_named() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    datagen(d, "g.games", "3", "1", &[]);
    let bytes = read(d, "g.games");
    // Where each game starts.
    let mut games = open(&d.join("g.games")).unwrap().games().unwrap();
    let mut starts = Vec::new();
    while let Ok(Some((_, offset, _))) = games.next_game() {
        starts.push(offset as usize);
    }
    assert_eq!(starts.len(), 3);
    let refused = |bytes: &[u8], what: &str| {
        std::fs::write(d.join("bad.games"), bytes).unwrap();
        for command in [
            &["data", "stats", "bad.games"][..],
            &["tune", "bad.games", "--out", "w.rs"],
        ] {
            let out = run_cli(d, command);
            assert_eq!(out.status.code(), Some(2), "{command:?} {what}");
            let err = text(&out.stderr);
            assert!(err.contains(what), "{command:?}: {err}");
            assert!(!err.contains("panicked"), "{err}");
        }
    };
    refused(
        &bytes[..bytes.len() - 3],
        &format!("game 2 (byte {}): the file ends", starts[2]),
    );
    let mut illegal = bytes.clone();
    // The second game's first move: from its own to-square.
    let at = starts[1] + 32;
    let code = u16::from_le_bytes([illegal[at], illegal[at + 1]]);
    let to = (code >> 6) & 63;
    illegal[at..at + 2].copy_from_slice(&(to | (to << 6)).to_le_bytes());
    refused(
        &illegal,
        &format!("game 1 (byte {}): move 1: move ", starts[1]),
    );
    let mut board = bytes.clone();
    board[starts[0] + 24] = 5; // the side to move
    refused(
        &board,
        &format!("game 0 (byte {}): bad start position", starts[0]),
    );
    let mut header = bytes;
    header[8] = 2; // the version
    refused(&header, "game file version 2");
}

/// The `info string genfens` lines of a run with `args`.
fn genfens(dir: &Path, args: &[&str]) -> (Vec<String>, String) {
    let out = run_cli(dir, args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let fens = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("info string genfens "))
        .map(str::to_owned)
        .collect();
    (fens, stdout)
}

fn assert_legal_and_varied(fens: &[String]) {
    for fen in fens {
        let pos = Position::from_fen(fen, false).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert!(pos.outcome().is_none(), "{fen}");
        assert_eq!(fen.split_whitespace().count(), 6, "{fen}");
    }
    let mut unique = fens.to_vec();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), fens.len(), "{fens:?}");
}

#[test]
fn genfens_prints_n_legal_varied_fens_the_same_for_the_same_seed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // As OpenBench calls it: an option first, the book None, a trailing space.
    let run = |seed: &str| {
        let command = format!("genfens 12 seed {seed} book None ");
        genfens(d, &["setoption name Hash value 8", &command, "quit"])
    };
    let (a, stdout) = run("5");
    assert_eq!(a.len(), 12, "{stdout}");
    assert_legal_and_varied(&a);
    assert_eq!(run("5").0, a, "the same seed");
    assert_ne!(run("6").0, a, "another seed");

    // Books: PGN lines and EPD positions.
    let pgn = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/datagen/openings.pgn");
    let command = format!("genfens 8 seed 1 book {} extra", pgn.display());
    let (fens, stdout) = genfens(d, &[&command, "quit"]);
    assert_eq!(fens.len(), 8, "{stdout}");
    assert_legal_and_varied(&fens);
    assert!(stdout.contains("info string note: genfens does not use \"extra\""));
    std::fs::write(
        d.join("book.epd"),
        "rnbqkb1r/pppp1ppp/5n2/4p3/2B1P3/8/PPPP1PPP/RNBQK1NR w KQkq - 2 3\n\
         rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - hmvc 1; fmvn 2;\n",
    )
    .unwrap();
    let (fens, stdout) = genfens(d, &["genfens 6 seed 2 book book.epd", "quit"]);
    assert_eq!(fens.len(), 6, "{stdout}");
    assert_legal_and_varied(&fens);

    // Bad requests: an error line, no FEN, and the engine goes on.
    let (fens, stdout) = genfens(d, &["genfens 3 seed 1 book missing.epd", "isready", "quit"]);
    assert!(fens.is_empty());
    assert!(
        stdout.contains("info string error: genfens: missing.epd: "),
        "{stdout}"
    );
    assert!(stdout.contains("readyok"));
    let (_, stdout) = genfens(d, &["genfens three seed 1 book None"]);
    assert!(
        stdout.contains("info string error: genfens: count \"three\""),
        "{stdout}"
    );
}

#[test]
fn uci_commands_given_as_arguments_run_as_uci_input() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_cli(dir.path(), &["position startpos moves e2e4", "go depth 2"]);
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    assert_eq!(
        stdout
            .lines()
            .filter(|l| l.starts_with("bestmove "))
            .count(),
        1,
        "{stdout}"
    );
    let out = run_cli(dir.path(), &["position startpos moves e2e4", "d", "quit"]);
    assert!(
        text(&out.stdout)
            .contains("Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
    );
    // A subcommand stays one, and a typo is clap's.
    let out = run_cli(dir.path(), &["bench", "2"]);
    assert!(text(&out.stdout).lines().last().unwrap().ends_with(" nps"));
    let out = run_cli(dir.path(), &["bnech"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("unrecognized subcommand"));
}

/// The score a fastchess comment gives, read here independently of the
/// converter: `Some(Ok(cp))` for pawns, `Some(Err(sign))` for a mate,
/// `None` for a book move.
fn expected_score(comment: &str) -> Option<Result<i32, i32>> {
    let token = comment.split_whitespace().next()?;
    let value = token.split('/').next()?;
    if value == "book" {
        return None;
    }
    if let Some(rest) = value.strip_prefix("+M").or_else(|| value.strip_prefix("M")) {
        assert!(rest.parse::<u32>().is_ok(), "{comment}");
        return Some(Err(1));
    }
    if value.starts_with("-M") {
        return Some(Err(-1));
    }
    let pawns: f64 = value.parse().unwrap_or_else(|_| panic!("{comment}"));
    Some(Ok((pawns * 100.0).round() as i32))
}

#[test]
fn a_pgn_fastchess_wrote_converts_with_its_scores_and_results() {
    let pgn =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/fastchess/selfplay.pgn");
    let dir = tempfile::tempdir().unwrap();
    let out = run_cli(
        dir.path(),
        &["data", "from-pgn", "fc.games", &pgn.display().to_string()],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("wrote 8 games to fc.games"), "{stdout}");
    assert!(
        stdout.contains("skipped: 0 unfinished, 1 forfeits"),
        "{stdout}"
    );
    assert!(text(&out.stderr).contains("Termination \"time forfeit\""));

    let got: Vec<TrainingPosition> = open(&dir.path().join("fc.games"))
        .unwrap()
        .positions_with(Filter::All)
        .map(Result::unwrap)
        .collect();
    // The PGN read again: every game but the forfeit, every move.
    let games = PgnReader::new(std::fs::File::open(&pgn).unwrap()).map(Result::unwrap);
    let mut at = 0;
    let mut converted = 0;
    let mut mates = 0;
    for game in games {
        if game.tag("Termination") == Some("time forfeit") {
            continue;
        }
        let result = match game.result() {
            GameResult::WhiteWins => 1.0,
            GameResult::BlackWins => 0.0,
            GameResult::Draw => 0.5,
            GameResult::Unknown => panic!("fastchess wrote an unfinished game"),
        };
        let (start, moves) = game.mainline(usize::MAX).unwrap();
        let mut board = start;
        for (m, san) in moves.iter().zip(&game.moves) {
            let p = &got[at];
            assert_eq!(p.board, board, "game {} ply {}", game.number, at);
            assert_eq!(p.game, converted);
            assert_eq!(p.result, result);
            match expected_score(san.comment.as_deref().unwrap_or("")) {
                None => assert_eq!(p.stm_score(), None, "{:?}", san.comment),
                Some(Ok(cp)) => assert_eq!(p.stm_score(), Some(cp), "{:?}", san.comment),
                Some(Err(sign)) => {
                    mates += 1;
                    let s = p.stm_score().unwrap();
                    assert!(
                        s.signum() == sign && s.abs() >= MATE_BOUND,
                        "{s} {:?}",
                        san.comment
                    );
                }
            }
            shakmaty::Position::play_unchecked(&mut board, *m);
            at += 1;
        }
        converted += 1;
    }
    assert_eq!((converted, at), (8, got.len()));
    assert!(mates > 0, "the PGN has mate scores");
    // The training positions: scored, quiet, not mates, from ply 16.
    let kept: Vec<TrainingPosition> = open(&dir.path().join("fc.games"))
        .unwrap()
        .positions()
        .map(Result::unwrap)
        .collect();
    assert!(!kept.is_empty() && kept.len() < got.len());
    for p in &kept {
        assert!(p.score.is_some_and(|s| s.abs() < MATE_BOUND) && p.ply >= 16);
        assert!(!shakmaty::Position::is_check(&p.board));
    }
}

#[test]
fn numbers_that_do_not_fit_are_too_large_and_negative_values_reach_the_check() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (fens, stdout) = genfens(
        d,
        &["genfens 18446744073709551616 seed 1 book None", "quit"],
    );
    assert!(fens.is_empty());
    assert!(
        stdout
            .contains("count \"18446744073709551616\" is too large (at most 18446744073709551615)"),
        "{stdout}"
    );
    let (_, stdout) = genfens(
        d,
        &["genfens 2 seed -99999999999999999999 book None", "quit"],
    );
    assert!(
        stdout.contains("is too large (a seed has 64 bits)"),
        "{stdout}"
    );
    let (_, stdout) = genfens(d, &["genfens two seed 1 book None", "quit"]);
    assert!(
        stdout.contains("count \"two\" is not a whole number"),
        "{stdout}"
    );
    // `--lr -1` with a space: the option's own message, not clap's
    // "unexpected argument".
    for (args, expected) in [
        (
            &["train", "x.bin", "--lr", "-1"][..],
            "`-1` is not a number above 0",
        ),
        (
            &["train", "x.bin", "--wd", "-0.5"],
            "`-0.5` is not a number from 0 up",
        ),
        (
            &["tune", "x.txt", "--lambda", "-1"],
            "`-1` is not a number from 0 to 1",
        ),
        (
            &["datagen", "x.games", "--games", "-3"],
            "invalid value '-3' for '--games",
        ),
    ] {
        let out = run_cli(d, args);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(!err.contains("unexpected argument"), "{args:?}: {err}");
    }
}
