//! Tests of the formatting of reports (`output.rs`): info lines, scores
//! by their model, wdl, the net's news, the answer to a `go`.

use super::*;
use crate::search::{Counters, MATE, PvLine};
use std::time::Duration;

/// The scores of a hand-crafted search with `material`.
fn hce(material: u32) -> ScoreContext {
    ScoreContext {
        material,
        model: Some(ScoreModel::HAND_CRAFTED),
    }
}

#[test]
fn no_move_report_is_depth_0_and_the_null_move() {
    let mated = PvLine {
        depth: 0,
        seldepth: 0,
        score: -MATE,
        tb_proven: false,
        bound: None,
        pv: vec![],
    };
    let info = SearchInfo::new(&mated, 1, &Counters::default());
    let lines = format_answer(Some(&info), None, None, Style::default(), hce(78));
    assert_eq!(lines, vec!["info depth 0 score mate 0", "bestmove 0000"]);
}

#[test]
fn wdl_follows_the_score_and_its_bound_only_when_asked() {
    let line = PvLine {
        depth: 5,
        seldepth: 7,
        score: 40,
        tb_proven: false,
        bound: Some(ScoreBound::Lower),
        pv: vec![],
    };
    let counters = Counters {
        nodes: 1000,
        hashfull: 0,
        tbhits: None,
        time: Duration::from_millis(10),
    };
    let report = SearchReport::Iteration(SearchInfo::new(&line, 1, &counters));
    let plain = format_search(&report, Style::default(), hce(30));
    assert_eq!(
        plain,
        vec![
            "info depth 5 seldepth 7 multipv 1 score cp 40 lowerbound nodes 1000 nps 100000 hashfull 0 time 10"
        ]
    );
    let style = Style {
        show_wdl: true,
        ..Style::default()
    };
    let wdl = Wdl::from_score(Score::Cp(40), 30);
    assert_eq!(
        format_search(&report, style, hce(30)),
        vec![format!(
            "info depth 5 seldepth 7 multipv 1 score cp 40 lowerbound wdl {wdl} nodes 1000 nps 100000 hashfull 0 time 10"
        )]
    );
    assert!(wdl.win > wdl.loss);
    let SearchReport::Iteration(mut info) = report else {
        unreachable!()
    };
    info.counters.tbhits = Some(12);
    assert_eq!(
        format_search(&SearchReport::Iteration(info), style, hce(30)),
        vec![format!(
            "info depth 5 seldepth 7 multipv 1 score cp 40 lowerbound wdl {wdl} nodes 1000 nps 100000 hashfull 0 tbhits 12 time 10"
        )]
    );
}

#[test]
fn a_normalised_model_shows_normalised_centipawns_and_leaves_decisive_scores() {
    let model = ScoreModel {
        normalised: true,
        ..ScoreModel::HAND_CRAFTED
    };
    let info = |score| {
        let line = PvLine {
            depth: 5,
            seldepth: 7,
            score,
            tb_proven: false,
            bound: None,
            pv: vec![],
        };
        SearchInfo::new(&line, 1, &Counters::default())
    };
    let pawn = model.pawn();
    let normalised = Some(&model);
    assert_eq!(
        shown_score(&info(pawn.round() as i32), normalised),
        Score::Cp(100)
    );
    assert_eq!(
        shown_score(&info(-(2.0 * pawn).round() as i32), normalised),
        Score::Cp(-200)
    );
    assert_eq!(shown_score(&info(MATE - 3), normalised), Score::Mate(2));
    let tb = crate::search::TB_WIN - 7;
    assert_eq!(shown_score(&info(tb), normalised), Score::Cp(19_993));
    // The hand-crafted evaluation's as they are, and a net's without a
    // model raw.
    let hand_crafted = Some(&ScoreModel::HAND_CRAFTED);
    assert_eq!(shown_score(&info(37), hand_crafted), Score::Cp(37));
    assert_eq!(shown_score(&info(37), None), Score::Cp(37));
    assert_eq!(shown_score(&info(MATE - 3), None), Score::Mate(2));
}

#[test]
fn a_net_without_a_score_model_shows_raw_centipawns_and_no_chances() {
    let line = PvLine {
        depth: 5,
        seldepth: 7,
        score: 240,
        tb_proven: false,
        bound: None,
        pv: vec![],
    };
    let report = SearchReport::Iteration(SearchInfo::new(&line, 1, &Counters::default()));
    let style = Style {
        show_wdl: true,
        ..Style::default()
    };
    let raw = ScoreContext {
        material: 40,
        model: None,
    };
    let text = format_search(&report, style, raw).join("\n");
    assert!(text.contains(" score cp 240 nodes "), "{text}");
    assert!(!text.contains("wdl"), "{text}");
    // With a model: normalised, with its chances.
    let model = ScoreModel::net([0.0, 0.0, 0.0, 120.0], [0.0, 0.0, 0.0, 60.0]).unwrap();
    let own = ScoreContext {
        material: 40,
        model: Some(model),
    };
    let wdl = Wdl::of(&model, Score::Cp(240), 40);
    let text = format_search(&report, style, own).join("\n");
    assert!(
        text.contains(&format!(" score cp 200 wdl {wdl} nodes ")),
        "{text}"
    );
    // A proven score keeps its certain chances either way.
    let proven = PvLine {
        tb_proven: true,
        score: crate::search::TB_WIN - 7,
        ..line
    };
    let report = SearchReport::Iteration(SearchInfo::new(&proven, 1, &Counters::default()));
    let text = format_search(&report, style, raw).join("\n");
    assert!(text.contains("wdl 1000 0 0"), "{text}");
}

#[test]
fn a_nets_news_names_its_score_model_or_its_lack() {
    let mut news = NetNews {
        source: "x.nnue".to_owned(),
        width: 64,
        layout: "plain",
        sha256: "0123456789abcdef".to_owned(),
        model: Some(ScoreModel::net([0.0, 0.0, 0.0, 120.0], [0.0, 0.0, 0.0, 60.0]).unwrap()),
        idle: None,
    };
    assert_eq!(
        format_net_news(&news),
        "info string NNUE evaluation using net x.nnue (width 64, plain inputs, sha256 \
         0123456789ab, its own model: a pawn is 120.0 cp)"
    );
    news.model = None;
    news.idle = Some("Use NNUE false");
    assert_eq!(
        format_net_news(&news),
        "info string NNUE net x.nnue (width 64, plain inputs, sha256 0123456789ab, no model: \
         raw centipawns, no wdl) loaded; the hand-crafted evaluation plays (Use NNUE false)"
    );
}

#[test]
fn a_line_reported_already_is_not_repeated_before_bestmove() {
    let m = shakmaty::Move::Normal {
        role: shakmaty::Role::Pawn,
        from: shakmaty::Square::E2,
        capture: None,
        to: shakmaty::Square::E4,
        promotion: None,
    };
    let lines = format_answer(None, Some(m), None, Style::default(), hce(78));
    assert_eq!(lines, vec!["bestmove e2e4"]);
}

#[test]
fn a_failed_search_says_so_on_one_line_and_still_moves() {
    let m = shakmaty::Move::Normal {
        role: shakmaty::Role::Pawn,
        from: shakmaty::Square::E2,
        capture: None,
        to: shakmaty::Square::E4,
        promotion: None,
    };
    let failed = Report::SearchFailed {
        reason: "index out of bounds\nat line 3".to_owned(),
        best: Some(m),
    };
    let lines = format_report(&failed, Style::default());
    assert_eq!(
        lines,
        vec![
            "info string error: search failed: index out of bounds at line 3",
            "bestmove e2e4"
        ]
    );
}
