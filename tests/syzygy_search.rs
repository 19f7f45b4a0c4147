//! The search with Syzygy tables, through the library: root moves ranked
//! by DTZ (the move played keeps the best outcome, also under `searchmoves`
//! and MultiPV), the scores shown (`cp 20000 - ply` for a tablebase win, a
//! cursed win as a draw under the 50-move rule), probes inside the search
//! (`tbhits`), and the options that limit them. Expected values were
//! checked with python-chess. Skipped, with a message, without the tables
//! of `../shared/syzygy` (see `common/tables.rs`).

mod common;

use std::sync::{Arc, Mutex};

use shakmaty::Position as _;
use shears::chess::{Position, move_to_uci};
use shears::search::{
    Score, SearchInfo, SearchLimits, SearchReport, SearchRequest, SearchSettings, Searcher,
    Signals, TbSettings,
};
use shears::tb::Tablebases;

use common::tables::syzygy_or_skip;

/// The tables, or `None` (test skipped).
fn tables(test: &str) -> Option<Arc<Tablebases>> {
    let dir = syzygy_or_skip(test)?;
    Some(Arc::new(
        Tablebases::open(dir.to_str()?).expect("the test tables open"),
    ))
}

/// What a search reported: every iteration line and the final one.
struct Run {
    best: String,
    lines: Vec<SearchInfo>,
}

impl Run {
    /// The last line of MultiPV line `k` (1-based) at the deepest depth.
    fn last(&self, k: u32) -> &SearchInfo {
        self.lines
            .iter()
            .rev()
            .find(|i| i.multipv == k && i.line.bound.is_none())
            .expect("a line was reported")
    }
}

fn search(
    tables: Option<Arc<Tablebases>>,
    fen: &str,
    limits: SearchLimits,
    settings: SearchSettings,
) -> Run {
    let pos = Position::from_fen(fen, false).unwrap();
    let mut searcher = Searcher::new(16).unwrap();
    let request = SearchRequest::new(&pos, &limits, settings).with_tables(tables.as_deref());
    let lines = Mutex::new(Vec::new());
    let outcome = searcher.search(&request, &Signals::new(false), &|r| {
        if let SearchReport::Iteration(info) = r {
            lines.lock().unwrap().push(info);
        }
    });
    assert!(
        outcome.problems.is_empty(),
        "unexpected problem: {:?}",
        outcome.problems
    );
    let mut lines = lines.into_inner().unwrap();
    // The final line, as the engine sends it: the line the move comes
    // from, unless it was the last line 1 reported.
    if let Some(line) = &outcome.line
        && !lines
            .iter()
            .rev()
            .find(|i| i.multipv == 1)
            .is_some_and(|i| i.line == *line)
    {
        lines.push(SearchInfo::new(line, 1, &outcome.counters));
    }
    Run {
        best: move_to_uci(outcome.best().expect("a move"), false),
        lines,
    }
}

fn depth(d: u32) -> SearchLimits {
    SearchLimits::depth(d)
}

#[test]
fn the_root_keeps_the_win_and_shows_a_tablebase_score() {
    let Some(tb) = tables("the_root_keeps_the_win_and_shows_a_tablebase_score") else {
        return;
    };
    // The rook is attacked; only rook moves to safe squares keep the win.
    let winning = [
        "d1d8", "d1d7", "d1d6", "d1d5", "d1d4", "d1h1", "d1g1", "d1f1", "d1e1", "d1b1",
    ];
    let fen = "8/8/8/8/8/8/2k5/K2R4 w - - 0 1";
    let run = search(Some(tb), fen, depth(8), SearchSettings::default());
    assert!(winning.contains(&run.best.as_str()), "{}", run.best);
    let last = run.last(1);
    assert_eq!(last.score(), Score::Cp(20_000), "a win at the root: 20000");
    // The root's probes (one per move) are the hits: with DTZ at the root
    // the search itself does not probe.
    assert_eq!(last.counters.tbhits, Some(14));
}

#[test]
fn searchmoves_and_multipv_follow_the_ranking() {
    let Some(tb) = tables("searchmoves_and_multipv_follow_the_ranking") else {
        return;
    };
    let fen = "8/8/8/8/8/8/2k5/K2R4 w - - 0 1";
    let pos = Position::from_fen(fen, false).unwrap();
    // Only drawing moves allowed: one of them is played, shown as a draw.
    let mut limits = depth(6);
    for m in ["a1a2", "d1c1"] {
        limits.searchmoves.push(pos.parse_move(m, false).unwrap());
    }
    let run = search(Some(tb.clone()), fen, limits, SearchSettings::default());
    assert!(["a1a2", "d1c1"].contains(&run.best.as_str()));
    assert_eq!(run.last(1).score(), Score::Cp(0));
    assert_eq!(run.last(1).counters.tbhits, Some(2));
    // All fourteen lines: the ten winning moves first, then the draws.
    let settings = SearchSettings {
        multipv: 14,
        ..SearchSettings::default()
    };
    let run = search(Some(tb), fen, depth(4), settings);
    let scores: Vec<Score> = (1..=14).map(|k| run.last(k).score()).collect();
    assert!(
        scores[..10].iter().all(|s| *s == Score::Cp(20_000)),
        "{scores:?}"
    );
    assert!(
        scores[10..].iter().all(|s| *s == Score::Cp(0)),
        "{scores:?}"
    );
    let firsts: Vec<String> = (1..=14)
        .map(|k| move_to_uci(run.last(k).line.pv[0], false))
        .collect();
    assert!(
        ["a1a2", "d1c1", "d1d2", "d1d3"]
            .iter()
            .all(|m| firsts[10..].contains(&(*m).to_owned())),
        "{firsts:?}"
    );
}

#[test]
fn the_fifty_move_rule_decides_cursed_wins_and_late_wins() {
    let Some(tb) = tables("the_fifty_move_rule_decides_cursed_wins_and_late_wins") else {
        return;
    };
    // A cursed win: Ke3 keeps it, everything else draws. Under the 50-move
    // rule it is a draw; without it, a win.
    let cursed = "8/3B4/8/1R6/5r2/8/3K4/5k2 w - - 0 1";
    let run = search(
        Some(tb.clone()),
        cursed,
        depth(6),
        SearchSettings::default(),
    );
    assert_eq!(
        (run.best.as_str(), run.last(1).score()),
        ("d2e3", Score::Cp(0))
    );
    let no_rule = SearchSettings {
        tb: TbSettings {
            rule50: false,
            ..TbSettings::default()
        },
        ..SearchSettings::default()
    };
    let run = search(Some(tb.clone()), cursed, depth(6), no_rule);
    assert_eq!(
        (run.best.as_str(), run.last(1).score()),
        ("d2e3", Score::Cp(20_000))
    );
    // 73 halfmoves on the clock: only the two DTZ-optimal moves still win.
    let late = "8/8/8/8/8/2k5/8/K6R w - - 73 1";
    let run = search(Some(tb.clone()), late, depth(8), SearchSettings::default());
    assert!(
        ["h1d1", "h1h4"].contains(&run.best.as_str()),
        "{}",
        run.best
    );
    // KPvK: only the king moves that keep the opposition win.
    let kpk = "4k3/8/4K3/4P3/8/8/8/8 w - - 0 1";
    let run = search(Some(tb), kpk, depth(10), SearchSettings::default());
    assert!(
        ["e6d6", "e6f6"].contains(&run.best.as_str()),
        "{}",
        run.best
    );
}

#[test]
fn the_search_probes_after_captures_and_the_limit_turns_it_off() {
    let Some(tb) = tables("the_search_probes_after_captures_and_the_limit_turns_it_off") else {
        return;
    };
    // Six pieces: not in the tables, but Rxa4 leads into a won KRRvKR.
    let fen = "4k2r/8/8/8/b7/8/8/RR4K1 w - - 0 1";
    let run = search(Some(tb.clone()), fen, depth(6), SearchSettings::default());
    assert_eq!(run.best, "a1a4");
    let last = run.last(1);
    assert_eq!(last.score(), Score::Cp(19_999), "the win is found at ply 1");
    assert!(last.counters.tbhits.is_some_and(|n| n > 0), "{last:?}");
    // SyzygyProbeLimit 0: the tables are not used (tbhits shown, zero).
    let off = SearchSettings {
        tb: TbSettings {
            probe_limit: 0,
            ..TbSettings::default()
        },
        ..SearchSettings::default()
    };
    let run = search(Some(tb.clone()), fen, depth(6), off);
    let last = run.last(1);
    assert_eq!(last.counters.tbhits, Some(0));
    assert!(
        matches!(last.score(), Score::Cp(cp) if cp < 5_000),
        "{last:?}"
    );
    // SyzygyProbeLimit 4: the five-piece position after Rxa4 is not
    // probed (four-piece ones further down are).
    let four = SearchSettings {
        tb: TbSettings {
            probe_limit: 4,
            ..TbSettings::default()
        },
        ..SearchSettings::default()
    };
    let run = search(Some(tb), fen, depth(6), four);
    assert_ne!(run.last(1).score(), Score::Cp(19_999));
    // Without tables the line has no tbhits at all.
    let run = search(None, fen, depth(6), SearchSettings::default());
    assert_eq!(run.last(1).counters.tbhits, None);
}

#[test]
fn without_dtz_tables_the_root_is_ranked_by_wdl_and_the_search_probes() {
    let Some(dir) = syzygy_or_skip("without_dtz_tables_the_root_is_ranked_by_wdl") else {
        return;
    };
    // Only the WDL tables of up to four pieces.
    let wdl_only = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.ends_with(".rtbw") && name.len() <= "KRRvK.rtbw".len() {
            std::fs::copy(&path, wdl_only.path().join(&name)).unwrap();
        }
    }
    let tb = Arc::new(Tablebases::open(wdl_only.path().to_str().unwrap()).unwrap());
    // Every move wins but Rb1, which lets the pawn promote with a capture.
    let fen = "8/8/8/8/3k4/8/p7/K6R w - - 0 1";
    let pos = Position::from_fen(fen, false).unwrap();
    let moves: Vec<_> = pos.board().legal_moves().into_iter().collect();
    let ranking = shears::tb::rank_root_moves(&tb, &pos, &moves).unwrap();
    assert!(!ranking.by_dtz);
    let last = ranking.moves.last().unwrap();
    assert_eq!(move_to_uci(last.mv, false), "h1b1");
    assert_eq!(last.wdl, shears::tb::Wdl::Draw);
    let run = search(Some(tb), fen, depth(6), SearchSettings::default());
    assert_ne!(run.best, "h1b1");
    let last = run.last(1);
    assert_eq!(last.score(), Score::Cp(20_000));
    // Fifteen probes at the root, and more in the search (after Kxa2).
    assert!(last.counters.tbhits.is_some_and(|n| n > 15), "{last:?}");
}

/// The distance to zeroing of each winning root move of `fen`, by the
/// tables' ranking.
fn winning_dtz(tb: &Tablebases, fen: &str) -> Vec<(String, i32)> {
    let pos = Position::from_fen(fen, false).unwrap();
    let moves: Vec<_> = pos.board().legal_moves().into_iter().collect();
    let ranking = shears::tb::rank_root_moves(tb, &pos, &moves).expect("in the tables");
    ranking
        .moves
        .iter()
        .filter(|m| m.wdl == shears::tb::Wdl::Win)
        .map(|m| (move_to_uci(m.mv, false), m.dtz.expect("ranked by DTZ")))
        .collect()
}

#[test]
fn among_wins_the_root_plays_the_quickest_progress_unless_it_sees_a_mate() {
    let Some(tb) = tables("among_wins_the_root_plays_the_quickest_progress") else {
        return;
    };
    // KRPvKR wins from issue 35's games, at several distances to zeroing,
    // no mate in sight: the evaluation cannot tell progress from
    // shuffling, the tables can. Before, depth 10 played a move 4 to 8
    // plies slower to zeroing (Rc3: 17 plies, Re3: 9; Kc5: 27, Kc3: 23;
    // Kb7: 11, Kb5: 7).
    for fen in [
        "8/r7/8/8/7k/PK4R1/8/8 w - - 5 16",
        "1r6/7k/8/8/1K6/8/P5R1/8 w - - 20 11",
        "R7/8/P1K1k3/8/8/8/2r5/8 w - - 5 36",
    ] {
        let wins = winning_dtz(&tb, fen);
        let quickest = wins.iter().map(|&(_, d)| d).min().unwrap();
        assert!(wins.iter().any(|&(_, d)| d > quickest), "{fen}: {wins:?}");
        let run = search(Some(tb.clone()), fen, depth(10), SearchSettings::default());
        let played = wins.iter().find(|(m, _)| *m == run.best);
        assert_eq!(
            played.map(|&(_, d)| d),
            Some(quickest),
            "{fen}: {}",
            run.best
        );
        assert_eq!(run.last(1).score(), Score::Cp(20_000), "{fen}");
    }
    // A mate the search proves beats the tables' quickest zeroing: Rh8+
    // mates in two, e7 (a pawn move) zeroes at once.
    let fen = "2R5/8/4P3/6r1/8/8/8/5K1k w - - 0 1";
    let run = search(Some(tb), fen, depth(8), SearchSettings::default());
    assert_eq!(
        (run.best.as_str(), run.last(1).score()),
        ("c8h8", Score::Mate(2))
    );
}
