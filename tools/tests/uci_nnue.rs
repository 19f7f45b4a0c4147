//! The net in the engine, through the real binary: `Use NNUE` and
//! `EvalFile` are listed; with the net every kind of `go` answers with a
//! legal move (depth, nodes, movetime, mate, two threads with three lines,
//! Syzygy tables); a missing, truncated, corrupt or wrong-architecture net
//! file is refused with `info string error` naming the file and why, and
//! the engine goes on with the net it had; `eval` shows the net's score
//! and its value of each piece as a board, and ends with the evaluation
//! that plays; `d` says which evaluation plays; a net is named in an
//! `info string` when loaded and when it first plays; switching `Use NNUE` on and off
//! mid-session plays the other evaluation and back; the strength levels
//! keep the hand-crafted evaluation; `bench` honours the options;
//! engine.toml sets both options; `shears datagen` plays with the net
//! unless `--hce` (or engine.toml's `Use NNUE = false`) says otherwise.

mod common;

use std::path::{Path, PathBuf};

use common::tables::syzygy_or_skip;
use common::{Engine, Score, go_answered, parse_info, run_cli, text};
use shakmaty::{File, Rank, Square};
use shears::chess::Position;
use shears::eval::nnue::{HEADER_LEN, file_len};
use shears::eval::{LoadedNet, ScoreModel, evaluate_white, piece_values};
use shears_tools::data::stats::sha256_file;

const MIDDLEGAME_FEN: &str = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9";
/// White mates in two (Nf6+ and Bxe7#, among others).
const MATE_IN_TWO_FEN: &str = "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 0";

/// The built-in net's file.
fn net_bytes() -> Vec<u8> {
    LoadedNet::built_in()
        .expect("the built-in net loads")
        .net()
        .to_bytes()
}

/// The `Evaluation:` line of `d` (its first line).
fn evaluation_line(e: &mut Engine) -> String {
    e.send("d");
    let lines = e.read_until(|l| l.starts_with("Checkers:"));
    lines
        .into_iter()
        .find(|l| l.starts_with("Evaluation: "))
        .expect("d says which evaluation plays")
}

/// The nodes of a fresh search (`ucinewgame`) of the middlegame to depth 7.
fn fresh_nodes(e: &mut Engine) -> u64 {
    e.send("ucinewgame");
    e.set_position(&format!("position fen {MIDDLEGAME_FEN}"));
    e.send("go depth 7");
    let lines = e.read_until_bestmove();
    let last = lines
        .iter()
        .rev()
        .find(|l| l.contains(" nodes "))
        .expect("an info line with nodes");
    parse_info(last).unwrap().nodes.unwrap()
}

#[test]
fn the_options_are_listed_with_their_defaults() {
    let mut e = Engine::spawn();
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    for expected in [
        "option name Use NNUE type check default true",
        "option name EvalFile type string default <default>",
    ] {
        assert!(lines.iter().any(|l| l == expected), "{expected}: {lines:?}");
    }
    assert_eq!(
        evaluation_line(&mut e),
        "Evaluation: net <default> (Use NNUE true)"
    );
    assert!(e.shutdown().is_empty());
}

#[test]
fn with_the_net_every_go_plays_a_legal_move() {
    let mut e = Engine::spawn();
    e.send("setoption name Use NNUE value true");
    assert!(e.sync().is_empty());
    assert_eq!(
        evaluation_line(&mut e),
        "Evaluation: net <default> (Use NNUE true)"
    );
    let middlegame = Position::from_fen(MIDDLEGAME_FEN, false).unwrap();
    e.set_position(&format!("position fen {MIDDLEGAME_FEN}"));
    for go in ["go depth 8", "go nodes 20000", "go movetime 200"] {
        go_answered(&mut e, &middlegame, go, &[]);
    }
    // Two threads, three lines.
    e.send("setoption name Threads value 2");
    e.send("setoption name MultiPV value 3");
    let lines = go_answered(&mut e, &middlegame, "go depth 8", &[]);
    let lines_of_depth_8: Vec<u64> = lines
        .iter()
        .filter(|l| l.starts_with("info depth 8 "))
        .filter_map(|l| parse_info(l).ok()?.multipv)
        .collect();
    for k in 1..=3 {
        assert!(lines_of_depth_8.contains(&k), "multipv {k}: {lines:?}");
    }
    // go mate finds the mate with the net.
    e.send("setoption name MultiPV value 1");
    e.send("setoption name Threads value 1");
    let mate = Position::from_fen(MATE_IN_TWO_FEN, false).unwrap();
    e.set_position(&format!("position fen {MATE_IN_TWO_FEN}"));
    let lines = go_answered(&mut e, &mate, "go mate 2", &[]);
    let last = lines.iter().rev().find(|l| l.contains(" score ")).unwrap();
    assert_eq!(
        parse_info(last).unwrap().score,
        Some(Score::Mate(2)),
        "{lines:?}"
    );
    assert!(e.shutdown().is_empty());
}

#[test]
fn with_the_net_the_tables_still_decide_won_endings() {
    let Some(dir) = syzygy_or_skip("with_the_net_the_tables_still_decide_won_endings") else {
        return;
    };
    let mut e = Engine::spawn();
    e.send("setoption name Use NNUE value true");
    e.send(&format!(
        "setoption name SyzygyPath value {}",
        dir.display()
    ));
    assert!(e.sync().is_empty());
    let fen = "4k2r/8/8/8/b7/8/8/RR4K1 w - - 0 1";
    e.set_position(&format!("position fen {fen}"));
    let pos = Position::from_fen(fen, false).unwrap();
    let lines = go_answered(&mut e, &pos, "go depth 5", &[]);
    let last = parse_info(lines.iter().rev().find(|l| l.contains(" score ")).unwrap()).unwrap();
    assert_eq!(last.score, Some(Score::Cp(19_999)), "{lines:?}");
    assert!(last.tbhits.is_some_and(|n| n > 0), "{last:?}");
    assert!(
        lines.last().unwrap().starts_with("bestmove a1a4"),
        "{lines:?}"
    );
    assert!(e.shutdown().is_empty());
}

/// The bad net files of the test, in `dir`: name, file (or none), and a
/// word of the reason the engine must give.
fn bad_nets(dir: &Path) -> Vec<(&'static str, PathBuf, &'static str)> {
    let good = net_bytes();
    let write = |name: &str, bytes: &[u8]| {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    };
    let mut corrupt = good.clone();
    corrupt[HEADER_LEN + 1000] ^= 0x40;
    // A width the engine does not play (the header's checksum is checked
    // only after the width).
    let mut odd_width = good.clone();
    odd_width[16..20].copy_from_slice(&100u32.to_le_bytes());
    vec![
        ("missing", dir.join("missing.nnue"), "cannot read"),
        (
            "truncated",
            write("truncated.nnue", &good[..file_len(256) / 2]),
            "truncated",
        ),
        ("corrupt", write("corrupt.nnue", &corrupt), "checksum"),
        (
            "unsupported width",
            write("odd.nnue", &odd_width),
            "net file of hidden width 100: this engine plays nets of 32, 64, 128, 256 or 512",
        ),
        (
            "not a net",
            write("text.nnue", b"hello\n"),
            "not a Shears net",
        ),
    ]
}

#[test]
fn a_bad_eval_file_is_refused_and_the_previous_net_kept() {
    let dir = tempfile::tempdir().unwrap();
    let own = dir.path().join("own.nnue");
    std::fs::write(&own, net_bytes()).unwrap();
    let mut e = Engine::spawn();
    e.send("setoption name Use NNUE value true");
    e.send(&format!("setoption name EvalFile value {}", own.display()));
    let said = e.sync();
    assert!(
        said.len() == 1 && said[0].starts_with("info string NNUE evaluation using net "),
        "{said:?}"
    );
    let playing = format!("Evaluation: net {} (Use NNUE true)", own.display());
    assert_eq!(evaluation_line(&mut e), playing);
    let before = fresh_nodes(&mut e);
    let middlegame = Position::from_fen(MIDDLEGAME_FEN, false).unwrap();
    for (what, path, reason) in bad_nets(dir.path()) {
        e.send(&format!("setoption name EvalFile value {}", path.display()));
        let said = e.sync();
        assert_eq!(said.len(), 1, "{what}: {said:?}");
        let line = &said[0];
        assert!(
            line.starts_with("info string error: ")
                && line.contains(&path.display().to_string())
                && line.contains(reason),
            "{what}: {line}"
        );
        assert_eq!(evaluation_line(&mut e), playing, "{what}");
        assert_eq!(fresh_nodes(&mut e), before, "{what}: the same net plays");
        go_answered(&mut e, &middlegame, "go depth 6", &[]);
    }
    // The built-in net by its name, and the hand-crafted evaluation.
    e.send("setoption name EvalFile value <default>");
    let said = e.sync();
    assert!(
        said.len() == 1 && said[0].starts_with("info string NNUE evaluation using net <default> "),
        "{said:?}"
    );
    assert_eq!(
        evaluation_line(&mut e),
        "Evaluation: net <default> (Use NNUE true)"
    );
    assert_eq!(fresh_nodes(&mut e), before, "the same weights");
    assert!(e.shutdown().is_empty());
}

/// The built-in net's score model, from its file.
fn built_in_model() -> ScoreModel {
    *LoadedNet::built_in()
        .unwrap()
        .score_model()
        .expect("the built-in net has its score model")
}

/// The box row of `rank` on `eval`'s board of the net's piece values of
/// `pos`, from the library: each piece's letter, or its value in pawns as
/// `score cp` shows them (kings and empty squares blank).
fn piece_row(pos: &Position, rank: Rank, values: bool) -> String {
    let net = LoadedNet::built_in().unwrap();
    let pieces = piece_values(&net, pos.board());
    let model = built_in_model();
    let mut row = String::from("|");
    for file in File::ALL {
        let cell = match pieces.at(Square::from_coords(file, rank)) {
            Some((piece, _)) if !values => piece.char().to_string(),
            Some((_, Some(v))) => {
                let pawns = f64::from(model.shown_cp(v)) / 100.0;
                assert!(pawns.abs() < 9.995, "{pawns}: two decimals");
                format!("{pawns:+.2}")
            }
            _ => String::new(),
        };
        row.push_str(&format!("{cell:^7}|"));
    }
    row
}

#[test]
fn eval_shows_the_net_beside_the_trace_and_ends_with_the_evaluation_that_plays() {
    let mut e = Engine::spawn();
    // The trace and the net's scores whichever plays: first the
    // hand-crafted evaluation, then the net (the default).
    e.send("setoption name Use NNUE value false");
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    e.set_position(&format!("position fen {fen}"));
    let net = LoadedNet::built_in().unwrap();
    let model = built_in_model();
    for black_to_move in [false, true] {
        let pos = if black_to_move {
            e.set_position(&format!("position fen {fen} moves f1b5"));
            let mut pos = Position::from_fen(fen, false).unwrap();
            pos.play_uci_moves(["f1b5"], false).unwrap();
            pos
        } else {
            Position::from_fen(fen, false).unwrap()
        };
        e.send("eval");
        let lines = e.read_until(|l| l.starts_with("Final evaluation: "));
        let white_view = |stm: i32| if black_to_move { -stm } else { stm };
        let white = white_view(net.evaluate(pos.board()));
        let hand_crafted = evaluate_white(pos.board());
        let n = lines.len();
        // Each line names its scale; the net's score is also shown as
        // `score cp` shows it with the net (normalised), and last comes the
        // evaluation that plays.
        assert_eq!(
            lines[n - 33],
            format!(
                "Hand-crafted evaluation: {hand_crafted} (white side; its own centipawns, which \
                 score cp shows as they are)"
            ),
            "{lines:#?}"
        );
        assert_eq!(lines[n - 32], "");
        assert!(
            lines[n - 31]
                .starts_with("NNUE piece values (pawns as score cp shows them, white side"),
            "{lines:#?}"
        );
        // The board: rank 8 at the top, three lines a rank.
        let board = &lines[n - 30..n - 5];
        let rule = format!("{}+", "+-------".repeat(8));
        for (k, rank) in Rank::ALL.into_iter().rev().enumerate() {
            assert_eq!(board[3 * k], rule);
            assert_eq!(board[3 * k + 1], piece_row(&pos, rank, false), "{board:#?}");
            assert_eq!(board[3 * k + 2], piece_row(&pos, rank, true), "{board:#?}");
        }
        assert_eq!(board[24], rule);
        assert_eq!(
            board[1],
            "|   r   |       |   b   |   q   |   k   |   b   |   n   |   r   |"
        );
        assert_eq!(lines[n - 5], "");
        assert_eq!(
            lines[n - 4],
            format!(
                "NNUE evaluation: {white} (white side; the net's own centipawns), net <default>"
            )
        );
        let pawn = model.pawn();
        let shown = model.shown_cp(white);
        assert_eq!(
            lines[n - 3],
            format!(
                "NNUE evaluation as score cp shows it: {shown} (white side; normalised by the \
                 net's own score model: 100 is an even chance of a win with the material of the \
                 game's middle, {pawn:.1} of the net's centipawns)"
            )
        );
        assert_eq!(
            lines[n - 2],
            "Evaluation: hand-crafted evaluation (Use NNUE false)"
        );
        assert_eq!(
            lines[n - 1],
            format!(
                "Final evaluation: {hand_crafted} (white side; the hand-crafted evaluation, \
                 which plays, as score cp shows it)"
            )
        );
    }
    // With the net playing, the net's score is the last line.
    e.send("setoption name Use NNUE value true");
    e.send("eval");
    let lines = e.read_until(|l| l.starts_with("Final evaluation: "));
    let mut pos = Position::from_fen(fen, false).unwrap();
    pos.play_uci_moves(["f1b5"], false).unwrap();
    let white = -net.evaluate(pos.board());
    let n = lines.len();
    assert_eq!(lines[n - 2], "Evaluation: net <default> (Use NNUE true)");
    assert_eq!(
        lines[n - 1],
        format!(
            "Final evaluation: {} (white side; the net, which plays, as score cp shows it, \
             normalised by its own score model; {white} of its own centipawns)",
            model.shown_cp(white)
        )
    );
    assert!(e.shutdown().is_empty());
}

/// The `info string` of a net: `using` when it plays, else `loaded`, with
/// the net's width, input layout and the first 12 hex digits of its
/// file's sha256 (computed here by the tools' own hasher).
fn news(source: &str, file: &Path, plays: bool) -> String {
    let net = LoadedNet::load(file).unwrap();
    let sha = sha256_file(file).unwrap();
    let model = match net.score_model() {
        Some(m) => format!("its own model: a pawn is {:.1} cp", m.pawn()),
        None => "no model: raw centipawns, no wdl".to_owned(),
    };
    let what = format!(
        "net {source} (width {}, {} inputs, sha256 {}, {model})",
        net.net().hidden(),
        net.net().layout().name(),
        &sha[..12]
    );
    if plays {
        format!("info string NNUE evaluation using {what}")
    } else {
        format!(
            "info string NNUE {what} loaded; the hand-crafted evaluation plays (Use NNUE false)"
        )
    }
}

/// The `info string` lines of a `go depth 1`.
fn go_said(e: &mut Engine) -> Vec<String> {
    e.send("go depth 1");
    let lines = e.read_until_bestmove();
    lines
        .into_iter()
        .filter(|l| l.starts_with("info string "))
        .collect()
}

#[test]
fn a_net_is_named_when_it_first_plays_and_when_it_is_loaded() {
    let built_in = Path::new(env!("CARGO_MANIFEST_DIR")).join("../nets/default.nnue");
    let dir = tempfile::tempdir().unwrap();
    let own = dir.path().join("own.nnue");
    std::fs::copy(&built_in, &own).unwrap();
    let own_name = own.display().to_string();
    let mut e = Engine::spawn();
    // The built-in net: named before its first search, once.
    e.set_position("position startpos");
    assert_eq!(go_said(&mut e), [news("<default>", &built_in, true)]);
    assert!(go_said(&mut e).is_empty());
    // Use NNUE true again changes nothing; off, nothing plays a net.
    e.send("setoption name Use NNUE value true");
    assert!(e.sync().is_empty());
    e.send("setoption name Use NNUE value false");
    assert!(e.sync().is_empty());
    assert!(go_said(&mut e).is_empty());
    // A net loaded while the hand-crafted evaluation plays: named, idle;
    // switched on: named as the one that plays, and not again at its
    // first search.
    e.send(&format!("setoption name EvalFile value {own_name}"));
    assert_eq!(e.sync(), [news(&own_name, &own, false)]);
    e.send("setoption name Use NNUE value true");
    assert_eq!(e.sync(), [news(&own_name, &own, true)]);
    assert!(go_said(&mut e).is_empty());
    // Loaded again while it plays: named again; a file refused: only the
    // error.
    e.send(&format!("setoption name EvalFile value {own_name}"));
    assert_eq!(e.sync(), [news(&own_name, &own, true)]);
    e.send("setoption name EvalFile value missing.nnue");
    let said = e.sync();
    assert!(
        said.len() == 1 && said[0].starts_with("info string error: "),
        "{said:?}"
    );
    // At a strength level the hand-crafted evaluation plays: no net named.
    e.send("setoption name EvalFile value <default>");
    assert_eq!(e.sync(), [news("<default>", &built_in, true)]);
    e.send("setoption name UCI_LimitStrength value true");
    assert!(go_said(&mut e).is_empty());
    assert!(e.shutdown().is_empty());
}

#[test]
fn use_nnue_switches_on_and_off_mid_session() {
    let mut e = Engine::spawn();
    // The net by default, the hand-crafted evaluation when it is off.
    let default = fresh_nodes(&mut e);
    e.send("setoption name Use NNUE value false");
    let hand_crafted = fresh_nodes(&mut e);
    assert_ne!(
        default, hand_crafted,
        "off: the hand-crafted evaluation plays"
    );
    // Switched on, the net is named again.
    let switch_on = |e: &mut Engine| {
        e.send("setoption name Use NNUE value true");
        let said = e.sync();
        assert!(
            said.len() == 1
                && said[0].starts_with("info string NNUE evaluation using net <default> "),
            "{said:?}"
        );
    };
    switch_on(&mut e);
    let net = fresh_nodes(&mut e);
    assert_eq!(net, default, "on again: the net plays, as by default");
    // Off again, then on again: each evaluation's own search, as fresh.
    e.send("setoption name Use NNUE value false");
    assert_eq!(fresh_nodes(&mut e), hand_crafted);
    switch_on(&mut e);
    assert_eq!(fresh_nodes(&mut e), net);
    // Without ucinewgame, mid-game: still a legal move each way.
    e.set_position("position startpos moves e2e4 e7e5 g1f3");
    let pos =
        Position::from_fen(&common::startpos_after(&["e2e4", "e7e5", "g1f3"]), false).unwrap();
    for on in ["false", "true", "false"] {
        e.send(&format!("setoption name Use NNUE value {on}"));
        go_answered(&mut e, &pos, "go depth 7", &[]);
    }
    assert!(e.shutdown().is_empty());
}

#[test]
fn the_strength_levels_keep_the_hand_crafted_evaluation() {
    let mut e = Engine::spawn();
    e.send("setoption name Use NNUE value true");
    e.send("setoption name UCI_LimitStrength value true");
    e.send("setoption name UCI_Elo value 2000");
    assert!(e.sync().is_empty());
    assert_eq!(
        evaluation_line(&mut e),
        "Evaluation: hand-crafted evaluation (UCI_LimitStrength plays with it, whatever Use NNUE says)"
    );
    let pos = Position::startpos();
    e.set_position("position startpos");
    go_answered(&mut e, &pos, "go nodes 2000", &[]);
    e.send("setoption name UCI_LimitStrength value false");
    assert_eq!(
        evaluation_line(&mut e),
        "Evaluation: net <default> (Use NNUE true)"
    );
    assert!(e.shutdown().is_empty());
}

/// The node count of `bench 4` after `setup`, in a fresh engine.
fn uci_bench(setup: &[&str]) -> String {
    let mut e = Engine::spawn();
    for line in setup {
        e.send(line);
    }
    e.send("bench 4");
    let lines = e.read_until(|l| l.ends_with(" nps"));
    assert!(e.shutdown().is_empty());
    lines.last().unwrap().split(' ').next().unwrap().to_owned()
}

#[test]
fn bench_plays_with_the_evaluation_the_options_choose() {
    let net = uci_bench(&[]);
    assert_eq!(uci_bench(&["setoption name Use NNUE value true"]), net);
    let hand_crafted = uci_bench(&["setoption name Use NNUE value false"]);
    assert_ne!(net, hand_crafted);
    let dir = tempfile::tempdir().unwrap();
    let cli = |args: &[&str]| {
        let out = run_cli(dir.path(), args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let stdout = text(&out.stdout);
        let last = stdout.lines().last().unwrap().to_owned();
        last.split(' ').next().unwrap().to_owned()
    };
    assert_eq!(cli(&["bench", "4"]), net);
    assert_eq!(cli(&["bench", "4", "--nnue"]), net);
    assert_eq!(cli(&["bench", "4", "--hce"]), hand_crafted);
    let own = dir.path().join("own.nnue");
    std::fs::write(&own, net_bytes()).unwrap();
    let own = own.display().to_string();
    assert_eq!(cli(&["bench", "4", "--nnue", "--eval-file", &own]), net);
    assert_eq!(cli(&["bench", "4", "--eval-file", &own]), net);
    let out = run_cli(dir.path(), &["bench", "4", "--hce", "--eval-file", &own]);
    assert_eq!(out.status.code(), Some(2), "--hce and a net conflict");
    let out = run_cli(
        dir.path(),
        &["bench", "4", "--nnue", "--eval-file", "nothing.nnue"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("nothing.nnue: cannot read"));
}

#[test]
fn engine_toml_sets_both_options() {
    let mut e = Engine::spawn_with_config("[options]\n\"Use NNUE\" = true\n");
    assert_eq!(
        evaluation_line(&mut e),
        "Evaluation: net <default> (Use NNUE true)"
    );
    assert!(e.shutdown().is_empty());

    // A file that cannot be used: said after uciok, the built-in net kept.
    let mut e =
        Engine::spawn_with_config("[options]\n\"Use NNUE\" = true\nEvalFile = \"missing.nnue\"\n");
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    assert!(
        lines.contains(&"option name EvalFile type string default <default>".to_owned()),
        "{lines:?}"
    );
    let said = e.sync();
    assert!(
        said.iter()
            .any(|l| l.starts_with("info string error: engine.toml: ")
                && l.contains("missing.nnue")
                && l.contains("cannot read")),
        "{said:?}"
    );
    assert_eq!(
        evaluation_line(&mut e),
        "Evaluation: net <default> (Use NNUE true)"
    );
    assert!(e.shutdown().is_empty());
}

#[test]
fn datagen_plays_with_the_net_unless_told_otherwise() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_cli(
        dir.path(),
        &[
            "datagen",
            "games.games",
            "--games",
            "1",
            "--nodes",
            "300",
            "--threads",
            "1",
            "--nnue",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    // The run's first line names the evaluation, and so does the header.
    let first = text(&out.stderr);
    assert!(first.contains(" eval net <default>)"), "{first}");
    let header_of = |file: &str| {
        let bytes = std::fs::read(dir.path().join(file)).unwrap();
        String::from_utf8_lossy(&bytes[..bytes.len().min(400)]).into_owned()
    };
    assert!(header_of("games.games").contains("eval = \"net <default>"));
    let one_game = |file: &str, flag: Option<&str>| {
        let mut args = vec![
            "datagen",
            file,
            "--games",
            "1",
            "--nodes",
            "300",
            "--threads",
            "1",
        ];
        args.extend(flag);
        let out = run_cli(dir.path(), &args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        out
    };
    // Not asked: the net, as the engine plays by default.
    let out = one_game("more.games", None);
    assert!(text(&out.stderr).contains(" eval net <default>)"));
    assert!(header_of("more.games").contains("eval = \"net <default>"));
    // --hce: the hand-crafted evaluation, no eval setting.
    let hand_crafted = |file: &str, out: &std::process::Output| {
        assert!(
            !text(&out.stderr).contains(" eval "),
            "{}",
            text(&out.stderr)
        );
        assert!(!header_of(file).contains("eval ="));
    };
    let out = one_game("hce.games", Some("--hce"));
    hand_crafted("hce.games", &out);
    // engine.toml's Use NNUE = false does it too, and --nnue overrides it.
    std::fs::write(
        dir.path().join("engine.toml"),
        "[options]\n\"Use NNUE\" = false\n",
    )
    .unwrap();
    let out = one_game("toml.games", None);
    hand_crafted("toml.games", &out);
    let out = one_game("flag.games", Some("--nnue"));
    assert!(text(&out.stderr).contains(" eval net <default>)"));
    std::fs::remove_file(dir.path().join("engine.toml")).unwrap();
    // A game file's header names the net; resuming it without the net is
    // refused as a run of other settings.
    let games = |games: &str, nnue: bool| {
        let mut args = vec!["datagen", "net.games", "--games", games, "--nodes", "300"];
        args.extend(["--threads", "1"]);
        args.push(if nnue { "--nnue" } else { "--hce" });
        run_cli(dir.path(), &args)
    };
    let out = games("1", true);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let bytes = std::fs::read(dir.path().join("net.games")).unwrap();
    let header = String::from_utf8_lossy(&bytes[..bytes.len().min(400)]).into_owned();
    assert!(
        header.contains("eval = \"net <default> (digest "),
        "{header}"
    );
    let out = games("2", false);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("eval: "),
        "{}",
        text(&out.stderr)
    );
    assert!(games("2", true).status.success(), "resumed with the net");
}
