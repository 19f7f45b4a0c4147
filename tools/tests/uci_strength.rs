//! Playing at a chosen strength (`UCI_LimitStrength`, `UCI_Elo`,
//! `StrengthSeed`) through the real binary: the options are listed and
//! refuse bad values keeping the old ones; with a seed the play repeats
//! exactly; a limited engine answers `isready`, `stop`, `ponderhit` and
//! `quit` while it waits before its move, and every `bestmove` is legal and
//! the first move of the last `multipv 1` line; with the option off the
//! search is what it was; a low level plays other moves than full
//! strength, and a high one never gives material away.
//!
//! Searches are bounded by `go depth` (the level's node budget binds
//! first) or by small clocks, so they are repeatable; there are no timing
//! assertions, only the 10 s liveness timeout on every read.

mod common;

use common::{Engine, Info, Score, is_bestmove, parse_bestmove, parse_info, play_line};
use shears::chess::Position;

/// Middlegame and endgame positions with several reasonable moves.
const POSITIONS: &str = include_str!("../../tests/data/strength/positions.fen");
/// Positions where some natural moves lose material.
const TACTICS: &str = include_str!("../../tests/data/strength/tactics.fen");

fn fens(text: &str) -> Vec<&str> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

/// An engine at `elo` with `seed` (0: no seed given).
fn limited(elo: u32, seed: u32) -> Engine {
    let mut e = Engine::spawn();
    e.send("setoption name UCI_LimitStrength value true");
    e.send(&format!("setoption name UCI_Elo value {elo}"));
    if seed != 0 {
        e.send(&format!("setoption name StrengthSeed value {seed}"));
    }
    assert!(e.sync().is_empty(), "the options are accepted silently");
    e
}

/// One search: the `info` lines with a score and the `bestmove` line's
/// moves, after checking that the move is legal in `position` (a
/// `position` command) and comes from the last `multipv 1` line.
fn go(e: &mut Engine, position: &str, go: &str) -> (Vec<Info>, String, Option<String>) {
    e.send(position);
    e.send(go);
    let mut lines = e.read_until_bestmove();
    let last = lines.pop().expect("the bestmove line");
    let (best, ponder) = parse_bestmove(&last).unwrap_or_else(|| panic!("bad {last:?}"));
    let infos: Vec<Info> = lines
        .iter()
        .filter(|l| l.contains(" score "))
        .map(|l| parse_info(l).unwrap_or_else(|err| panic!("{err}")))
        .collect();
    let root = root_of(position);
    play_line(&root, std::slice::from_ref(&best), false)
        .unwrap_or_else(|err| panic!("{position} {go}: {err}"));
    let line = infos
        .iter()
        .rev()
        .find(|i| i.multipv == Some(1))
        .unwrap_or_else(|| panic!("{position} {go}: no multipv 1 line"));
    assert_eq!(line.pv.first(), Some(&best), "{position} {go}: {infos:?}");
    assert_eq!(line.pv.get(1), ponder.as_ref(), "{position} {go}");
    (infos, best, ponder)
}

/// The root of a `position fen … [moves …]` or `position startpos …`
/// command.
fn root_of(position: &str) -> Position {
    let (start, moves) = match position.split_once(" moves ") {
        Some((s, m)) => (s, m.split(' ').map(str::to_owned).collect()),
        None => (position, Vec::new()),
    };
    let root = match start.strip_prefix("position fen ") {
        Some(fen) => Position::from_fen(fen, false).expect("a test FEN"),
        None => Position::startpos(),
    };
    play_line(&root, &moves, false).expect("test moves are legal")
}

/// The `go` of repeatable games: the level's node budget ends the search
/// (a clock could cut it short on a loaded machine).
const GO_BUDGET: &str = "go depth 30";
/// The `go` of a game with a clock: the engine waits a share of the
/// clock's soft limit (tens of milliseconds here) before its move.
const GO_CLOCK: &str = "go wtime 1500 btime 1500 winc 10 binc 10";

/// A short game from the start position, the engine playing both sides
/// with `go_command`: the moves.
fn play_game(e: &mut Engine, plies: usize, go_command: &str) -> Vec<String> {
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..plies {
        let position = if moves.is_empty() {
            "position startpos".to_owned()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        let (_, best, _) = go(e, &position, go_command);
        moves.push(best);
    }
    moves
}

#[test]
fn the_options_are_listed_and_bad_values_keep_the_old_ones() {
    let mut e = Engine::spawn();
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    for option in [
        "option name UCI_LimitStrength type check default false",
        "option name UCI_Elo type spin default 1500 min 1000 max 3400",
        "option name StrengthSeed type spin default 0 min 0 max 2147483647",
    ] {
        assert!(lines.contains(&option.to_owned()), "{option}: {lines:?}");
    }
    // The same game with bad values sent between the moves: refused one
    // by one, nothing changed, the same moves.
    let mut clean = limited(1300, 77);
    let expected = play_game(&mut clean, 6, GO_BUDGET);
    let mut noisy = limited(1300, 77);
    for bad in [
        "setoption name UCI_Elo value 999",
        "setoption name UCI_Elo value 3401",
        "setoption name UCI_Elo value strong",
        "setoption name UCI_Elo value",
        "setoption name UCI_LimitStrength value maybe",
        "setoption name StrengthSeed value -1",
        "setoption name StrengthSeed value 2147483648",
    ] {
        noisy.send(bad);
        let answer = noisy.sync();
        assert!(
            answer.len() == 1 && answer[0].starts_with("info string error: "),
            "{bad}: {answer:?}"
        );
    }
    assert_eq!(play_game(&mut noisy, 6, GO_BUDGET), expected);
}

#[test]
fn a_seed_repeats_the_play_and_another_seed_changes_it() {
    let game = |seed| play_game(&mut limited(1100, seed), 12, GO_BUDGET);
    let first = game(5);
    assert_eq!(game(5), first);
    // The level's lines stay inside: the GUI sees multipv 1 only.
    let mut e = limited(1100, 5);
    let (infos, _, _) = go(&mut e, "position startpos", "go depth 30");
    assert!(infos.iter().all(|i| i.multipv == Some(1)), "{infos:?}");
    // Another seed: another game (not guaranteed for any pair of seeds,
    // but for three of them one differs).
    assert!(
        [6, 7, 8].iter().any(|&s| game(s) != first),
        "three other seeds all played {first:?}"
    );
    // StrengthSeed set again restarts the choices: the same game again.
    let mut e = limited(1100, 5);
    play_game(&mut e, 4, GO_BUDGET);
    e.send("setoption name StrengthSeed value 5");
    e.send("ucinewgame");
    // ucinewgame draws the next game's errors from the generator, so a
    // fresh engine is matched after its own ucinewgame.
    let mut fresh = limited(1100, 5);
    fresh.send("ucinewgame");
    assert_eq!(
        play_game(&mut e, 6, GO_BUDGET),
        play_game(&mut fresh, 6, GO_BUDGET)
    );
}

#[test]
fn a_waiting_engine_answers_isready_stop_ponderhit_and_quit() {
    // An hour on the clock: the level would think for about a minute
    // (a share of full strength's soft limit) before moving.
    let long = "go wtime 3600000 btime 3600000";
    let mut e = limited(1500, 3);
    e.send("position startpos moves e2e4");
    e.send(long);
    let lines = e.sync();
    e.assert_no_bestmove(&lines, "isready while waiting");
    let lines = e.collect_for(std::time::Duration::from_millis(300));
    e.assert_no_bestmove(&lines, "the move is not sent at once");
    e.send("stop");
    let lines = e.read_until_bestmove();
    let (best, _) = parse_bestmove(lines.last().unwrap()).expect("a bestmove");
    play_line(&root_of("position startpos moves e2e4"), &[best], false).expect("legal");

    // go ponder: nothing before ponderhit, then the move (after its wait,
    // ended here by stop).
    e.send("position startpos moves e2e4 e7e5");
    e.send(&format!("go ponder {}", &long[3..]));
    let lines = e.sync();
    e.assert_no_bestmove(&lines, "pondering");
    e.send("ponderhit");
    assert!(e.sync().iter().all(|l| !is_bestmove(l)));
    e.send("stop");
    e.read_until_bestmove();

    // go infinite: the level's search ends at its budget, the answer at
    // stop.
    e.send("go infinite");
    let lines = e.collect_for(std::time::Duration::from_millis(200));
    e.assert_no_bestmove(&lines, "go infinite");
    e.send("stop");
    e.read_until_bestmove();

    // A new go during the wait: the first move is sent, then the second.
    e.send(long);
    e.send("go depth 3");
    let lines = e.read_until_bestmove();
    assert_eq!(common::count_bestmoves(&lines), 1);
    let lines = e.read_until_bestmove();
    assert_eq!(common::count_bestmoves(&lines), 1);

    // quit during the wait ends the process cleanly, with its move.
    e.send(long);
    e.sync();
    e.send("quit");
    let (status, rest, _) = e.wait_exit();
    assert_eq!(status.code(), Some(0));
    assert_eq!(common::count_bestmoves(&rest), 1, "{rest:?}");
}

#[test]
fn with_the_option_off_the_search_is_unchanged() {
    let strip = |lines: Vec<String>| -> Vec<String> {
        lines
            .into_iter()
            .map(|l| {
                let mut out = Vec::new();
                let mut tokens = l.split(' ');
                while let Some(t) = tokens.next() {
                    if t == "nps" || t == "time" {
                        tokens.next();
                    } else {
                        out.push(t);
                    }
                }
                out.join(" ")
            })
            .collect()
    };
    let position = format!("position fen {}", fens(POSITIONS)[0]);
    let mut plain = Engine::spawn();
    plain.send(&position);
    plain.send("go depth 9");
    let expected = strip(plain.read_until_bestmove());
    // Limited play, then the option off (and UCI_Elo changed while off):
    // the table and histories the level left are cleared.
    let mut e = limited(1200, 9);
    play_game(&mut e, 3, GO_CLOCK);
    e.send("setoption name UCI_LimitStrength value false");
    e.send("setoption name UCI_Elo value 2000");
    e.send(&position);
    e.send("go depth 9");
    assert_eq!(strip(e.read_until_bestmove()), expected);
}

/// Full strength's choices, and the score of any move, by a fixed-depth
/// search.
struct Judge {
    engine: Engine,
}

impl Judge {
    const DEPTH: u32 = 10;

    fn new() -> Judge {
        Judge {
            engine: Engine::spawn(),
        }
    }

    /// The best move and its score in centipawns (mates as ±10000).
    fn best(&mut self, fen: &str) -> (String, i64) {
        self.search(fen, "")
    }

    /// The score of `mv` in centipawns.
    fn score_of(&mut self, fen: &str, mv: &str) -> i64 {
        self.search(fen, &format!(" searchmoves {mv}")).1
    }

    fn search(&mut self, fen: &str, extra: &str) -> (String, i64) {
        self.engine.send("ucinewgame");
        let (infos, best, _) = go(
            &mut self.engine,
            &format!("position fen {fen}"),
            &format!("go depth {}{extra}", Self::DEPTH),
        );
        let score = match infos.last().and_then(|i| i.score) {
            Some(Score::Cp(cp)) => cp,
            Some(Score::Mate(n)) if n > 0 => 10_000,
            _ => -10_000,
        };
        (best, score)
    }
}

#[test]
fn a_low_level_plays_other_moves_than_full_strength() {
    let mut judge = Judge::new();
    let mut e = limited(1000, 21);
    let mut differ = 0;
    let positions = fens(POSITIONS);
    for fen in &positions {
        let (_, chosen, _) = go(&mut e, &format!("position fen {fen}"), "go depth 30");
        let (best, _) = judge.best(fen);
        differ += usize::from(chosen != best);
    }
    assert!(
        differ * 3 >= positions.len(),
        "only {differ} of {} moves differ at 1000",
        positions.len()
    );
}

#[test]
fn a_high_level_never_gives_material_away() {
    let mut judge = Judge::new();
    // (2400 rather than the top levels: their budgets of a million nodes
    // and more take seconds on a loaded machine.)
    for elo in [2000, 2400] {
        for seed in [1, 2] {
            let mut e = limited(elo, seed);
            for fen in fens(TACTICS) {
                let (_, chosen, _) = go(&mut e, &format!("position fen {fen}"), "go depth 30");
                let (best, best_score) = judge.best(fen);
                if chosen == best {
                    continue;
                }
                let score = judge.score_of(fen, &chosen);
                assert!(
                    best_score - score < 150,
                    "{elo} (seed {seed}) played {chosen} in {fen}: {score} cp \
                     against {best_score} for {best}"
                );
            }
        }
    }
}
