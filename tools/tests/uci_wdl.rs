//! `UCI_ShowWDL` through the real binary: the option is listed, off by
//! default (no `wdl` token), settable by `setoption` and engine.toml, and
//! when on every `info … score` line carries `wdl W D L` right after the
//! score, adding up to 1000 and moving the right way with the score.

mod common;

use common::{Engine, Info, Score, is_bestmove, parse_info};
use shears::chess::values::material_points as wdl_material;
use shears::eval::{LoadedNet, ScoreModel};
use shears::search::Score as EngineScore;
use shears::uci::wdl::Wdl;

/// White to move mates at once (Ra8#).
const MATE_IN_ONE_FEN: &str = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
/// Black to move is mated next move whatever it plays (Kb8, Rh8#).
const MATED_IN_ONE_FEN: &str = "k7/8/1K6/8/8/8/8/7R b - - 0 1";
/// Black is checkmated: no legal move.
const MATED_FEN: &str = "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1";
/// Black is stalemated: no legal move.
const STALEMATE_FEN: &str = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
/// A middlegame with varied root moves, for MultiPV.
const MIDDLEGAME_FEN: &str = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9";

/// The scored `info` lines of a search of `position` with `go`.
fn search(e: &mut Engine, position: &str, go: &str) -> Vec<Info> {
    e.send(position);
    e.send(go);
    e.read_until_bestmove()
        .iter()
        .filter(|l| !is_bestmove(l) && l.contains(" score "))
        .map(|l| parse_info(l).unwrap_or_else(|err| panic!("{err}")))
        .collect()
}

fn material_of(fen: &str) -> u32 {
    let pos = shears::chess::Position::from_fen(fen, false).expect("a legal FEN");
    wdl_material(shakmaty::Position::board(pos.board()))
}

fn engine_score(score: Score) -> EngineScore {
    match score {
        Score::Cp(cp) => EngineScore::Cp(cp as i32),
        Score::Mate(n) => EngineScore::Mate(n as i32),
    }
}

/// The chances `model` gives a line shown with `score`: the search's own
/// score is the shown one, or (normalised) one of those that show as it.
fn model_chances(model: &ScoreModel, score: Score, material: u32) -> Vec<[u64; 3]> {
    let own: Vec<EngineScore> = match score {
        Score::Cp(shown) if model.normalised => {
            let pawn = model.pawn();
            let low = ((shown as f64 - 1.0) * pawn / 100.0).floor() as i32;
            let high = ((shown as f64 + 1.0) * pawn / 100.0).ceil() as i32;
            (low..=high)
                .filter(|&cp| i64::from(model.shown_cp(cp)) == shown)
                .map(EngineScore::Cp)
                .collect()
        }
        _ => vec![engine_score(score)],
    };
    own.into_iter()
        .map(|x| {
            let w = Wdl::of(model, x, material);
            [u64::from(w.win), u64::from(w.draw), u64::from(w.loss)]
        })
        .collect()
}

#[test]
fn the_option_is_listed_and_off_by_default() {
    let mut e = Engine::spawn();
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    assert!(
        lines.contains(&"option name UCI_ShowWDL type check default false".to_owned()),
        "{lines:?}"
    );
    let infos = search(&mut e, "position startpos", "go depth 5");
    assert!(!infos.is_empty());
    assert!(infos.iter().all(|i| i.wdl.is_none()), "{infos:?}");
    e.send("setoption name UCI_ShowWDL value true");
    e.send("setoption name UCI_ShowWDL value false");
    let infos = search(&mut e, "position startpos", "go depth 4");
    assert!(infos.iter().all(|i| i.wdl.is_none()), "{infos:?}");
    assert!(e.sync().is_empty(), "setoption answers nothing");
}

#[test]
fn every_score_comes_with_the_models_chances_adding_up_to_1000() {
    let net = *LoadedNet::built_in()
        .unwrap()
        .score_model()
        .expect("the built-in net has its score model");
    for (use_nnue, model) in [("true", net), ("false", ScoreModel::HAND_CRAFTED)] {
        every_score_comes_with_its_models_chances(use_nnue, &model);
    }
}

/// Each evaluation's lines carry its own model's chances (the net by
/// default, the hand-crafted evaluation with `Use NNUE` false).
fn every_score_comes_with_its_models_chances(use_nnue: &str, model: &ScoreModel) {
    let mut e = Engine::spawn();
    e.send(&format!("setoption name Use NNUE value {use_nnue}"));
    e.send("setoption name UCI_ShowWDL value true");
    e.send("setoption name MultiPV value 4");
    for fen in [
        MIDDLEGAME_FEN,
        "8/5k2/8/3K4/8/8/4P3/8 w - - 0 1",
        "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
    ] {
        let infos = search(&mut e, &format!("position fen {fen}"), "go depth 7");
        let material = material_of(fen);
        assert!(infos.len() >= 4, "{fen}: {infos:?}");
        for info in &infos {
            let score = info.score.expect("scored line");
            let [w, d, l] = info.wdl.unwrap_or_else(|| panic!("no wdl: {info:?}"));
            assert_eq!(w + d + l, 1000, "{info:?}");
            // Exactly the model's numbers for the root's material.
            let expected = model_chances(model, score, material);
            assert!(
                expected.contains(&[w, d, l]),
                "{use_nnue} {fen}: {info:?}, expected one of {expected:?}"
            );
        }
        // Across the lines of one search (one material), a higher score
        // never has a lower win or a higher loss chance.
        let mut by_score: Vec<(i64, [u64; 3])> = infos
            .iter()
            .filter_map(|i| match i.score {
                Some(Score::Cp(cp)) => Some((cp, i.wdl.unwrap())),
                _ => None,
            })
            .collect();
        by_score.sort();
        for pair in by_score.windows(2) {
            let ([w0, _, l0], [w1, _, l1]) = (pair[0].1, pair[1].1);
            assert!(w1 >= w0 && l1 <= l0, "{fen}: {pair:?}");
        }
    }
    // A queen up wins, almost surely.
    let infos = search(
        &mut e,
        "position fen 4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
        "go depth 6",
    );
    let [w, _, _] = infos.last().unwrap().wdl.unwrap();
    assert!(w > 900, "{infos:?}");
}

#[test]
fn mate_scores_and_finished_games_are_certain() {
    let mut e = Engine::spawn();
    e.send("setoption name uci_showwdl value TRUE");
    let infos = search(
        &mut e,
        &format!("position fen {MATE_IN_ONE_FEN}"),
        "go depth 4",
    );
    let last = infos.last().unwrap();
    assert_eq!(last.score, Some(Score::Mate(1)), "{infos:?}");
    assert_eq!(last.wdl, Some([1000, 0, 0]));
    let infos = search(
        &mut e,
        &format!("position fen {MATED_IN_ONE_FEN}"),
        "go depth 4",
    );
    let last = infos.last().unwrap();
    assert_eq!(last.score, Some(Score::Mate(-1)), "{infos:?}");
    assert_eq!(last.wdl, Some([0, 0, 1000]));
    for (fen, line) in [
        (MATED_FEN, "info depth 0 score mate 0 wdl 0 0 1000"),
        (STALEMATE_FEN, "info depth 0 score cp 0 wdl 0 1000 0"),
    ] {
        e.send(&format!("position fen {fen}"));
        e.send("go depth 3");
        let lines = e.read_until_bestmove();
        assert_eq!(lines, vec![line, "bestmove 0000"]);
    }
}

#[test]
fn engine_toml_turns_it_on_and_bad_values_are_refused() {
    let mut e = Engine::spawn_with_config("[options]\nUCI_ShowWDL = true\n");
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    assert!(
        lines.contains(&"option name UCI_ShowWDL type check default true".to_owned()),
        "{lines:?}"
    );
    let infos = search(&mut e, "position startpos moves e2e4", "go depth 5");
    assert!(infos.iter().all(|i| i.wdl.is_some()), "{infos:?}");
    e.send("setoption name UCI_ShowWDL value 1");
    let answer = e.sync();
    assert_eq!(answer.len(), 1, "{answer:?}");
    assert!(
        answer[0].starts_with("info string error:") && answer[0].contains("UCI_ShowWDL"),
        "{answer:?}"
    );
    // The refused value left the option on.
    let infos = search(&mut e, "position startpos", "go depth 3");
    assert!(infos.iter().all(|i| i.wdl.is_some()), "{infos:?}");
}

#[test]
fn tablebase_results_show_certain_chances_a_draw_included() {
    let Some(dir) = common::tables::syzygy_or_skip("tablebase_results_show_certain_chances") else {
        return;
    };
    let mut e = Engine::spawn();
    e.send(&format!(
        "setoption name SyzygyPath value {}",
        dir.display()
    ));
    e.send("setoption name UCI_ShowWDL value true");
    e.send("setoption name MultiPV value 4");
    // KRvKR, a draw by the tables: the lines that keep it show 0 1000 0
    // (the model would say about 4% wins and 4% losses for cp 0 with this
    // material); a move that hangs the rook shows the certain loss.
    let cases = [
        ("8/8/4k3/8/8/3K4/r7/7R w - - 0 1", "draw"),
        ("8/8/8/4k3/8/8/8/4K2Q w - - 0 1", "win"),
        ("8/8/8/4k3/8/8/8/4K2Q b - - 0 1", "loss"),
    ];
    for (fen, root) in cases {
        let infos = search(&mut e, &format!("position fen {fen}"), "go depth 4");
        assert!(!infos.is_empty(), "{fen}");
        for info in &infos {
            let expected = match info.score {
                Some(Score::Cp(0)) => [0, 1000, 0],
                Some(Score::Cp(cp)) if cp > 0 => [1000, 0, 0],
                Some(Score::Cp(_)) => [0, 0, 1000],
                Some(Score::Mate(n)) if n > 0 => [1000, 0, 0],
                _ => [0, 0, 1000],
            };
            assert_eq!(info.wdl, Some(expected), "{fen}: {info:?}");
        }
        let first = infos
            .iter()
            .rfind(|i| i.multipv == Some(1))
            .and_then(|i| i.wdl)
            .unwrap();
        let expected = match root {
            "draw" => [0, 1000, 0],
            "win" => [1000, 0, 0],
            _ => [0, 0, 1000],
        };
        assert_eq!(first, expected, "{fen}: {infos:?}");
    }
}

#[test]
fn a_net_without_a_score_model_shows_its_raw_centipawns_and_no_chances() {
    // The built-in net's weights in a file without its score model: the
    // same search, node for node, its scores shown raw.
    let net = LoadedNet::built_in().unwrap();
    let model = *net.score_model().expect("the built-in net has its model");
    let dir = tempfile::tempdir().expect("a temporary folder");
    let bare = dir.path().join("bare.nnue");
    std::fs::write(&bare, net.net().to_bytes()).expect("the net is written");
    let run = |eval_file: Option<&std::path::Path>| {
        let mut e = Engine::spawn();
        e.send("setoption name UCI_ShowWDL value true");
        if let Some(path) = eval_file {
            e.send(&format!("setoption name EvalFile value {}", path.display()));
            let said = e.sync();
            assert!(
                said.len() == 1 && said[0].ends_with(", no model: raw centipawns, no wdl)"),
                "{said:?}"
            );
        }
        let infos = search(
            &mut e,
            &format!("position fen {MIDDLEGAME_FEN}"),
            "go depth 7",
        );
        assert!(e.shutdown().is_empty());
        infos
    };
    let own = run(None);
    let raw = run(Some(&bare));
    assert_eq!(own.len(), raw.len());
    assert!(raw.len() >= 5, "{raw:?}");
    for (own, raw) in own.iter().zip(&raw) {
        assert_eq!(
            (own.depth, own.nodes),
            (raw.depth, raw.nodes),
            "the same search"
        );
        assert!(raw.wdl.is_none(), "no model, no chances: {raw:?}");
        assert!(own.wdl.is_some(), "{own:?}");
        match (own.score, raw.score) {
            (Some(Score::Cp(shown)), Some(Score::Cp(cp))) => {
                assert_eq!(
                    shown,
                    i64::from(model.shown_cp(cp as i32)),
                    "{own:?} / {raw:?}"
                );
            }
            (a, b) => assert_eq!(a, b),
        }
    }
    // `eval` says so too.
    let mut e = Engine::spawn();
    e.send(&format!("setoption name EvalFile value {}", bare.display()));
    e.sync();
    e.send("eval");
    let lines = e.read_until(|l| l.starts_with("Final evaluation: "));
    let n = lines.len();
    assert!(
        lines[n - 3]
            .ends_with("(white side; the net's raw centipawns: its file has no score model)"),
        "{lines:#?}"
    );
    assert!(
        lines[n - 1].ends_with(
            "(white side; the net, which plays, in its raw centipawns as score cp shows them: its \
             file has no score model)"
        ),
        "{lines:#?}"
    );
    assert!(e.shutdown().is_empty());
}
