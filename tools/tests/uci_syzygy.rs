//! The Syzygy options and commands through the real binary: the options
//! `uci` lists, `SyzygyPath` good, bad (refused, the previous tables kept)
//! and `<empty>`, engine.toml, `tbhits` and tablebase scores in `info`
//! lines, `d`, broken tables reported once, and the `tb`, `tb-play` and
//! `tb-gen` commands. Skipped, with a message, without the tables of
//! `../shared/syzygy` (see `common/tables.rs`).

mod common;

use std::path::Path;
use std::process::Command;

use common::tables::syzygy_or_skip;
use common::{Engine, NET_NEWS, Score, parse_bestmove, parse_info};

/// The `Tablebases …` lines of `d`.
fn d_tablebase_lines(engine: &mut Engine) -> Vec<String> {
    engine.send("d");
    engine
        .sync()
        .into_iter()
        .filter(|l| l.starts_with("Tablebases"))
        .collect()
}

/// The search's info lines and best move.
fn go(engine: &mut Engine, go: &str) -> (Vec<common::Info>, String, Vec<String>) {
    engine.send(go);
    let lines = engine.read_until_bestmove();
    let (best, _) = parse_bestmove(lines.last().unwrap()).expect("a bestmove line");
    let infos = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .map(|l| parse_info(l).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    // Besides the name of the net the first search plays with.
    let strings = lines
        .iter()
        .filter(|l| l.starts_with("info string") && !l.starts_with(NET_NEWS))
        .cloned()
        .collect();
    (infos, best, strings)
}

#[test]
fn uci_lists_the_syzygy_options() {
    let mut engine = Engine::spawn();
    engine.send("uci");
    let lines = engine.read_until(|l| l == "uciok");
    for expected in [
        "option name SyzygyPath type string default <empty>",
        "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
        "option name Syzygy50MoveRule type check default true",
        "option name SyzygyProbeLimit type spin default 7 min 0 max 7",
    ] {
        assert!(lines.iter().any(|l| l == expected), "{expected}: {lines:?}");
    }
    engine.shutdown();
}

#[test]
fn a_bad_syzygy_path_is_refused_and_the_previous_tables_kept() {
    let Some(dir) = syzygy_or_skip("a_bad_syzygy_path_is_refused") else {
        return;
    };
    let mut engine = Engine::spawn();
    engine.set_position("position fen 8/8/8/8/8/2k5/8/K6R w - - 0 1");
    assert!(d_tablebase_lines(&mut engine).is_empty());
    engine.send(&format!(
        "setoption name SyzygyPath value {}",
        dir.display()
    ));
    assert!(engine.sync().is_empty());
    let with_tables = d_tablebase_lines(&mut engine);
    assert_eq!(
        with_tables,
        [
            "Tablebases WDL: win",
            "Tablebases DTZ: 27 (rounded: or one ply more)"
        ]
    );
    let empty = tempfile::tempdir().unwrap();
    for bad in ["/no/such/folder", empty.path().to_str().unwrap()] {
        engine.send(&format!("setoption name SyzygyPath value {bad}"));
        let answer = engine.sync();
        assert_eq!(answer.len(), 1, "{answer:?}");
        assert!(
            answer[0].starts_with("info string error: ") && answer[0].contains(bad),
            "{answer:?}"
        );
        assert_eq!(d_tablebase_lines(&mut engine), with_tables, "kept");
    }
    engine.send("setoption name SyzygyPath value <empty>");
    assert!(engine.sync().is_empty());
    assert!(d_tablebase_lines(&mut engine).is_empty());
    engine.shutdown();
}

#[test]
fn info_lines_carry_tbhits_and_tablebase_scores() {
    let Some(dir) = syzygy_or_skip("info_lines_carry_tbhits_and_tablebase_scores") else {
        return;
    };
    let mut engine = Engine::spawn();
    // Without tables: no tbhits.
    engine.set_position("position fen 4k2r/8/8/8/b7/8/8/RR4K1 w - - 0 1");
    let (infos, _, _) = go(&mut engine, "go depth 5");
    assert!(infos.iter().all(|i| i.tbhits.is_none()));
    engine.send(&format!(
        "setoption name SyzygyPath value {}",
        dir.display()
    ));
    assert!(engine.sync().is_empty());
    // Rxa4 wins by the tables: cp 20000 - 1, found by probes in the search.
    let (infos, best, _) = go(&mut engine, "go depth 5");
    assert_eq!(best, "a1a4");
    let last = infos.last().unwrap();
    assert_eq!(last.score, Some(Score::Cp(19_999)));
    assert!(last.tbhits.is_some_and(|n| n > 0), "{last:?}");
    // In the tables at the root: every line keeps the win, a win at the
    // root itself (cp 20000, as Stockfish shows it).
    engine.set_position("position fen 8/8/8/8/8/8/2k5/K2R4 w - - 0 1");
    let (infos, best, _) = go(&mut engine, "go depth 6");
    assert!(best.starts_with("d1") && !["d1d2", "d1d3", "d1c1"].contains(&best.as_str()));
    assert!(
        infos
            .iter()
            .all(|i| i.score == Some(Score::Cp(20_000)) && i.tbhits == Some(14)),
        "{infos:?}"
    );
    // Syzygy50MoveRule false: the cursed win is a win.
    engine.set_position("position fen 8/3B4/8/1R6/5r2/8/3K4/5k2 w - - 0 1");
    let (infos, best, _) = go(&mut engine, "go depth 4");
    assert_eq!(
        (best.as_str(), infos.last().unwrap().score),
        ("d2e3", Some(Score::Cp(0)))
    );
    engine.send("setoption name Syzygy50MoveRule value false");
    assert!(engine.sync().is_empty());
    let (infos, best, _) = go(&mut engine, "go depth 4");
    assert_eq!(
        (best.as_str(), infos.last().unwrap().score),
        ("d2e3", Some(Score::Cp(20_000)))
    );
    engine.shutdown();
}

/// A folder with the KRvK tables, the WDL one cut to 80 bytes (a size a
/// table can have, so only reading finds it broken).
fn truncated_krvk(dir: &Path) -> tempfile::TempDir {
    let out = tempfile::tempdir().unwrap();
    let wdl = std::fs::read(dir.join("KRvK.rtbw")).unwrap();
    std::fs::write(out.path().join("KRvK.rtbw"), &wdl[..80]).unwrap();
    std::fs::copy(dir.join("KRvK.rtbz"), out.path().join("KRvK.rtbz")).unwrap();
    out
}

#[test]
fn a_broken_table_is_reported_once_and_never_stops_the_engine() {
    let Some(dir) = syzygy_or_skip("a_broken_table_is_reported_once") else {
        return;
    };
    let broken = truncated_krvk(&dir);
    let mut engine = Engine::spawn();
    engine.send(&format!(
        "setoption name SyzygyPath value {}",
        broken.path().display()
    ));
    assert!(engine.sync().is_empty(), "the size looks right");
    engine.set_position("position fen 8/8/8/8/8/2k5/8/K6R w - - 0 1");
    let (_, best, strings) = go(&mut engine, "go depth 4");
    assert!(!best.is_empty());
    assert_eq!(strings.len(), 1, "{strings:?}");
    assert!(
        strings[0].starts_with("info string error: syzygy table ")
            && strings[0].contains("KRvK.rtbw")
            && strings[0].contains("treated as missing"),
        "{strings:?}"
    );
    let (infos, _, strings) = go(&mut engine, "go depth 4");
    assert!(strings.is_empty(), "reported once: {strings:?}");
    assert!(
        infos.iter().all(|i| i.score != Some(Score::Cp(19_999))),
        "no answer from the broken table"
    );
    // A table with an impossible size: skipped at once, reported after
    // the setoption line; the other tables are used.
    let mixed = tempfile::tempdir().unwrap();
    std::fs::write(mixed.path().join("KRvK.rtbw"), [0u8; 100]).unwrap();
    std::fs::copy(dir.join("KQvK.rtbw"), mixed.path().join("KQvK.rtbw")).unwrap();
    engine.send(&format!(
        "setoption name SyzygyPath value {}",
        mixed.path().display()
    ));
    let answer = engine.sync();
    assert_eq!(answer.len(), 1, "{answer:?}");
    assert!(answer[0].contains("KRvK.rtbw") && answer[0].contains("skipped"));
    engine.set_position("position fen 8/8/8/8/8/2k5/8/K6Q w - - 0 1");
    assert_eq!(d_tablebase_lines(&mut engine)[0], "Tablebases WDL: win");
    engine.shutdown();
}

#[test]
fn engine_toml_sets_the_syzygy_options() {
    let Some(dir) = syzygy_or_skip("engine_toml_sets_the_syzygy_options") else {
        return;
    };
    let toml = format!(
        "[options]\nSyzygyPath = \"{}\"\nSyzygyProbeLimit = 5\nSyzygy50MoveRule = false\n",
        dir.display()
    );
    let mut engine = Engine::spawn_with_config(&toml);
    engine.send("uci");
    let lines = engine.read_until(|l| l == "uciok");
    let path_line = format!(
        "option name SyzygyPath type string default {}",
        dir.display()
    );
    assert!(lines.contains(&path_line), "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l == "option name Syzygy50MoveRule type check default false")
    );
    engine.set_position("position fen 8/8/8/8/8/2k5/8/K6R w - - 0 1");
    assert_eq!(d_tablebase_lines(&mut engine)[0], "Tablebases WDL: win");
    engine.shutdown();

    // A folder that does not exist: the engine starts without tables and
    // names the file and the folder after `uciok`.
    let mut engine = Engine::spawn_with_config("[options]\nSyzygyPath = \"/no/such/tables\"\n");
    engine.send("uci");
    let lines = engine.read_until(|l| l == "uciok");
    assert!(
        lines.contains(&"option name SyzygyPath type string default <empty>".to_owned()),
        "{lines:?}"
    );
    let answer = engine.sync();
    assert_eq!(answer.len(), 1, "{answer:?}");
    assert!(
        answer[0].starts_with("info string error: engine.toml: option \"SyzygyPath\"")
            && answer[0].contains("/no/such/tables"),
        "{answer:?}"
    );
    engine.set_position("position fen 8/8/8/8/8/2k5/8/K6R w - - 0 1");
    assert!(d_tablebase_lines(&mut engine).is_empty());
    engine.shutdown();
}

fn shears(args: &[&str]) -> (Option<i32>, String, String) {
    let work = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_shears"))
        .args(args)
        .current_dir(work.path())
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_tb_command_prints_wdl_dtz_and_the_moves() {
    let Some(dir) = syzygy_or_skip("the_tb_command_prints_wdl_dtz_and_the_moves") else {
        return;
    };
    let dir = dir.to_str().unwrap();
    let (code, out, err) = shears(&[
        "tb",
        "--syzygy",
        dir,
        "4k3/8/4K3/4P3/8/8/8/8",
        "w",
        "-",
        "-",
        "0",
        "1",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[1], "Tablebases WDL: win", "{out}");
    assert!(lines[2].starts_with("Tablebases DTZ: 3"), "{out}");
    // Moves best first: the two that keep the opposition win.
    let moves: Vec<&str> = lines
        .iter()
        .skip_while(|l| !l.starts_with("move"))
        .skip(1)
        .copied()
        .collect();
    assert_eq!(moves.len(), 4, "{out}");
    assert!(moves[..2].iter().all(|l| l.contains(" win ")), "{out}");
    assert!(moves[2..].iter().all(|l| l.contains(" draw ")), "{out}");
    // Bad input: exit 2 with a message.
    let (code, _, err) = shears(&["tb", "--syzygy", dir, "not-a-fen"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("not-a-fen"), "{err}");
    let (code, _, err) = shears(&["tb", "--syzygy", "/no/such", "8/8/8/8/8/2k5/8/K6R", "w"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("/no/such"), "{err}");
}

/// The move lines of `shears tb`: move, result, DTZ.
fn tb_moves(dir: &Path, fen: &str) -> Vec<(String, String, i32)> {
    let (code, out, err) = shears(&["tb", "--syzygy", dir.to_str().unwrap(), fen]);
    assert_eq!(code, Some(0), "{err}");
    out.lines()
        .skip_while(|l| !l.starts_with("move "))
        .skip(1)
        .map(|l| {
            let (mv, rest) = l.split_once(' ').unwrap();
            let (result, dtz) = rest.trim().rsplit_once(' ').unwrap();
            (
                mv.to_owned(),
                result.trim().to_owned(),
                dtz.parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn the_tb_command_lists_the_quickest_win_and_the_longest_defence_first() {
    let Some(dir) = syzygy_or_skip("the_tb_command_lists_the_quickest_win") else {
        return;
    };
    let rank = |result: &str| match result {
        "win" => 0,
        "cursed win" => 1,
        "draw" => 2,
        "blessed loss" => 3,
        "loss" => 4,
        other => panic!("{other}"),
    };
    // KQvK, White to move: h1c6 wins quickest (DTZ 13), the two queen
    // moves into the king's reach draw.
    let moves = tb_moves(&dir, "8/8/8/4k3/8/8/8/4K2Q w - - 0 1");
    assert_eq!(moves.len(), 21, "{moves:?}");
    assert_eq!(moves[0], ("h1c6".to_owned(), "win".to_owned(), 13));
    // Black to move loses: the longest resistance first (DTZ -18).
    let defences = tb_moves(&dir, "8/8/8/4k3/8/8/8/4K2Q b - - 0 1");
    assert_eq!(defences[0], ("e5d6".to_owned(), "loss".to_owned(), -18));
    for list in [&moves, &defences] {
        // By result, then by DTZ: ascending is quickest first for a win
        // and longest first for a loss (negative).
        let keys: Vec<(i32, i32)> = list.iter().map(|(_, r, d)| (rank(r), *d)).collect();
        assert!(keys.windows(2).all(|w| w[0] <= w[1]), "{list:?}");
    }
    let draws: Vec<&str> = moves[19..].iter().map(|(m, _, _)| m.as_str()).collect();
    assert_eq!(draws, ["h1e4", "h1d5"], "{moves:?}");
}

#[test]
fn tb_play_converts_wins_and_holds_draws_on_a_few_positions() {
    let Some(dir) = syzygy_or_skip("tb_play_converts_wins_and_holds_draws") else {
        return;
    };
    let epd = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/endgames/tb45.epd");
    let (code, out, err) = shears(&[
        "tb-play",
        "--epd",
        epd.to_str().unwrap(),
        "--nodes",
        "20000",
        "--limit",
        "4",
        "--syzygy",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    let games: Vec<&str> = out.lines().filter(|l| l.contains(" result: ")).collect();
    assert_eq!(games.len(), 4, "{out}");
    assert!(games.iter().all(|g| g.starts_with("ok ")), "{out}");
    let summary = out.lines().last().unwrap();
    assert!(
        summary.starts_with("wins converted 2/2") && summary.contains("draws held 2/2, failures 0"),
        "{summary}"
    );
}

#[test]
fn tb_play_skips_positions_not_in_the_tables_without_playing_them() {
    let Some(dir) = syzygy_or_skip("tb_play_skips_positions_not_in_the_tables") else {
        return;
    };
    let work = tempfile::tempdir().unwrap();
    let epd = work.path().join("mixed.epd");
    std::fs::write(
        &epd,
        "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - id \"pawns\";\n\
         8/8/8/8/8/2k5/8/K6R w - - id \"krk\";\n\
         r3k3/8/8/8/8/8/8/4K3 b q - id \"castling\";\n",
    )
    .unwrap();
    let (code, out, err) = shears(&[
        "tb-play",
        "--epd",
        epd.to_str().unwrap(),
        "--nodes",
        "2000",
        "--syzygy",
        dir.to_str().unwrap(),
        "--moves",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let line = |id: &str| {
        out.lines()
            .find(|l| l.contains(&format!(" {id}: ")))
            .unwrap_or_else(|| panic!("{id}: {out}"))
    };
    // Not in the tables (18 pieces; castling rights): listed, not played.
    for id in ["pawns", "castling"] {
        assert!(
            line(id).starts_with("-    ")
                && line(id).ends_with("tables: not in the tables  result: not played"),
            "{out}"
        );
    }
    assert!(
        line("krk").starts_with("ok ") && line("krk").contains("mate by white"),
        "{out}"
    );
    // Only the game played lists its moves.
    assert_eq!(out.matches("     moves: ").count(), 1, "{out}");
    let summary = out.lines().last().unwrap();
    assert!(
        summary.starts_with("wins converted 1/1")
            && summary.contains("not in the tables (not played) 2"),
        "{summary}"
    );
}

#[test]
fn tb_gen_reproduces_the_committed_endgames() {
    let Some(dir) = syzygy_or_skip("tb_gen_reproduces_the_committed_endgames") else {
        return;
    };
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("tb45.epd");
    let (code, _, err) = shears(&[
        "tb-gen",
        "--syzygy",
        dir.to_str().unwrap(),
        "--count",
        "100",
        "--seed",
        "1",
        "--pieces",
        "4,5",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/endgames/tb45.epd");
    assert_eq!(
        std::fs::read_to_string(out).unwrap(),
        std::fs::read_to_string(committed).unwrap(),
        "regenerate with: shears tb-gen --count 100 --seed 1 --pieces 4,5 -o tests/data/endgames/tb45.epd"
    );
}

#[test]
fn a_tablebase_win_is_not_played_into_a_threefold_repetition() {
    let Some(dir) = syzygy_or_skip("a_tablebase_win_is_not_played_into_a_threefold_repetition")
    else {
        return;
    };
    let mut engine = Engine::spawn();
    engine.send(&format!(
        "setoption name SyzygyPath value {}",
        dir.display()
    ));
    assert!(engine.sync().is_empty());
    // KRvK, the kings walking to and fro (issue 35 saw a KRPvKR win drawn
    // so): Kg4, the quickest win by the tables, lets Black answer Kh6, the
    // start position a third time.
    let start = "8/8/7k/8/6K1/R7/8/8 w - - 0 1";
    let moves = ["g4f3", "h6h7", "f3g4", "h7h6", "g4f3", "h6h7"];
    engine.set_position(&format!("position fen {start} moves {}", moves.join(" ")));
    let (infos, best, _) = go(&mut engine, "go depth 12");
    assert_ne!(best, "f3g4");
    let score = infos.last().and_then(|i| i.score);
    assert!(
        matches!(score, Some(Score::Cp(20_000) | Score::Mate(1..))),
        "{score:?}"
    );
    // The move keeps the win, and no reply repeats a position thrice.
    let tables = shears::tb::Tablebases::open(dir.to_str().unwrap()).unwrap();
    let mut pos = shears::chess::Position::from_fen(start, false).unwrap();
    for m in moves.iter().chain([&best.as_str()]) {
        let m = pos.parse_move(m, false).unwrap();
        pos.play(m);
    }
    assert_eq!(tables.probe_wdl(pos.board()), Some(shears::tb::Wdl::Loss));
    for reply in shakmaty::Position::legal_moves(pos.board()) {
        pos.play(reply);
        assert!(pos.repetitions() < 2, "{best} allows a threefold");
        pos.undo();
    }
    engine.shutdown();
}
