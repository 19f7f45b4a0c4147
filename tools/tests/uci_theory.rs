//! The UCI option `SearchAlgorithm` through the real binary: every
//! teaching search plays legal games, answers `go infinite` only after
//! `stop`, and the default is the engine's own search.

mod common;

use common::{Engine, parse_bestmove, play_line};
use shakmaty::{Position as _, Role};
use shears::chess::Position;

/// Plies each algorithm plays in the game test.
const PLIES: usize = 12;

/// Every non-default value of the option.
const ALGORITHMS: &[&str] = &[
    "Minimax",
    "AlphaBeta",
    "AlphaBetaOrdered",
    "NegaScout",
    "SSS",
    "MTDf",
];

/// Plays `PLIES` plies of a game from `start` with `algorithm` for both
/// sides, checking every move; returns the final position.
fn play_game(e: &mut Engine, algorithm: &str, start: &str, go: &str) -> Position {
    e.send(&format!("setoption name SearchAlgorithm value {algorithm}"));
    e.send("ucinewgame");
    let mut moves: Vec<String> = Vec::new();
    let root = Position::from_fen(start, false).unwrap();
    for ply in 0..PLIES {
        let pos = play_line(&root, &moves, false).unwrap();
        if pos.board().legal_moves().is_empty() {
            return pos;
        }
        e.send(&format!("position fen {start} moves {}", moves.join(" ")));
        e.send(go);
        let lines = e.read_until_bestmove();
        let (best, ponder) = parse_bestmove(lines.last().unwrap()).unwrap();
        assert!(
            pos.parse_move(&best, false).is_ok(),
            "{algorithm}, ply {ply}: illegal bestmove {best} in {}\n{lines:?}",
            pos.fen()
        );
        assert!(
            lines.iter().any(|l| l.starts_with("info depth")),
            "{algorithm}: no info line\n{lines:?}"
        );
        if let Some(p) = ponder {
            let mut after = pos.clone();
            after.play(pos.parse_move(&best, false).unwrap());
            assert!(
                after.parse_move(&p, false).is_ok(),
                "{algorithm}: ponder {p}"
            );
        }
        moves.push(best);
    }
    play_line(&root, &moves, false).unwrap()
}

#[test]
fn every_teaching_search_plays_legal_games() {
    let mut e = Engine::spawn();
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    assert!(
        lines.iter().any(|l| l.starts_with(
            "option name SearchAlgorithm type combo default Engine var Engine var Minimax"
        )),
        "{lines:?}"
    );
    let start = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3";
    for algorithm in ALGORITHMS {
        // Depth 2 by go depth, and the default depth under a clock.
        play_game(&mut e, algorithm, start, "go depth 2");
        let go = "go wtime 20000 btime 20000 winc 100 binc 100";
        play_game(&mut e, algorithm, shears::chess::START_FEN, go);
    }
    // Scholar's mate: every one of them takes the mate in one.
    for algorithm in ALGORITHMS {
        e.send(&format!("setoption name SearchAlgorithm value {algorithm}"));
        e.send(&format!("position fen {start}"));
        e.send("go depth 3");
        let lines = e.read_until_bestmove();
        assert_eq!(
            lines
                .last()
                .map(String::as_str)
                .and_then(|l| l.split(' ').nth(1)),
            Some("f3f7"),
            "{algorithm}: {lines:?}"
        );
        assert!(
            lines.iter().any(|l| l.contains("score mate 1")),
            "{algorithm}: {lines:?}"
        );
    }
    e.shutdown();
}

#[test]
fn teaching_searches_wait_for_stop_and_handle_endings() {
    let mut e = Engine::spawn();
    e.send("setoption name SearchAlgorithm value NegaScout");
    e.send("position startpos");
    e.send("go infinite");
    let early = e.collect_for(std::time::Duration::from_millis(300));
    e.assert_no_bestmove(&early, "go infinite before stop");
    e.send("stop");
    let lines = e.read_until_bestmove();
    let (best, _) = parse_bestmove(lines.last().unwrap()).unwrap();
    assert!(Position::startpos().parse_move(&best, false).is_ok());
    // Stalemated: no move.
    e.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    e.send("setoption name SearchAlgorithm value SSS");
    e.send("go depth 3");
    let lines = e.read_until_bestmove();
    assert_eq!(lines.last().unwrap(), "bestmove 0000", "{lines:?}");
    // A promotion in an endgame, with go nodes.
    e.send("setoption name SearchAlgorithm value MTDf");
    e.send("position fen 8/4P3/8/8/8/2k5/8/4K3 w - - 0 1");
    e.send("go depth 3");
    let lines = e.read_until_bestmove();
    let (best, _) = parse_bestmove(lines.last().unwrap()).unwrap();
    let pos = Position::from_fen("8/4P3/8/8/8/2k5/8/4K3 w - - 0 1", false).unwrap();
    let m = pos.parse_move(&best, false).unwrap();
    assert_eq!(m.promotion(), Some(Role::Queen), "{lines:?}");
    e.send("go nodes 500");
    let lines = e.read_until_bestmove();
    assert!(parse_bestmove(lines.last().unwrap()).is_some());
    // Back to the engine.
    e.send("setoption name SearchAlgorithm value Engine");
    e.send("position startpos");
    e.send("go depth 8");
    let lines = e.read_until_bestmove();
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 8")),
        "{lines:?}"
    );
    e.shutdown();
}
