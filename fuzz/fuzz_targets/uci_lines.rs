//! Fuzzes the UCI line handler: the input is cut into lines at `\n` and
//! decoded as the binary's stdin reader does (bad UTF-8 replaced), and each
//! line goes through `Session::apply_line`, the code `handle_line` runs for
//! every line the binary reads (parse, check, apply). Output goes nowhere.
//!
//! Nothing may panic, and:
//!
//! * a refused line leaves the position (FEN, key, history) and every option
//!   exactly as they were, and its error message stays short (user text is
//!   echoed shortened);
//! * `go` runs a real search of the current position on its own thread, as
//!   the engine does, but bounded (depth ≤ 3, ≤ 2000 nodes, no `infinite`
//!   or `ponder`, one thread); its reports and its answer are formatted as
//!   `info` and `bestmove` lines, and its best move and PV must be legal
//!   (and in `searchmoves` if given);
//! * `go perft N` runs divide to depth ≤ 2 and must agree with plain perft.
//!
//! Harness limits, not engine rules: `Hash` values over 8 MB are skipped
//! (a large table is a real allocation, not a bug) and `bench` is not run
//! (its positions are fixed; only its argument parsing is fuzzed).

#![no_main]

use std::sync::{Arc, Mutex, OnceLock};

use libfuzzer_sys::fuzz_target;
use shakmaty::Position as _;
use shears::chess::Position;
use shears::chess::perft;
use shears::chess::values::material_points;
use shears::engine::{Engine, Style};
use shears::engine::config::Config;
use shears::search::theory;
use shears::search::{
    SEARCH_STACK_BYTES, SearchInfo, SearchLimits, SearchReport, SearchRequest, Searcher, Signals,
};
use shears::uci::command::{Command, parse_line};
use shears::uci::output::{Output, format_answer, format_search};
use shears::uci::{Outcome, Session};

/// Longest error message accepted (user text is echoed cut to 80 chars).
const MAX_ERROR_LEN: usize = 1000;
/// Largest `Hash` the harness lets through, MB.
const MAX_FUZZ_HASH_MB: i64 = 8;

fuzz_target!(|data: &[u8]| {
    let mut config = Config::default();
    config
        .options
        .set("Hash", Some("1"))
        .expect("1 MB is a valid Hash");
    let output = Arc::new(Output::to_writer(Box::new(std::io::sink())));
    let mut session = Session::new(&config, output).expect("a 1 MB table");
    for raw in data.split_inclusive(|&b| b == b'\n') {
        let line = String::from_utf8_lossy(raw);
        if skipped(&line) {
            continue;
        }
        let before = snapshot(session.engine());
        match session.apply_line(&line) {
            Err(e) => {
                let message = e.to_string();
                assert!(
                    message.len() <= MAX_ERROR_LEN,
                    "error of {} bytes: {}…",
                    message.len(),
                    &message[..message.floor_char_boundary(200)]
                );
                assert_eq!(
                    snapshot(session.engine()),
                    before,
                    "refused line {line:?} ({message}) changed the state"
                );
            }
            Ok(Outcome::Quit) => break,
            Ok(Outcome::Search(limits)) => bounded_search(session.engine(), limits),
            Ok(Outcome::Perft(depth)) => {
                let pos = session.engine().position();
                let depth = depth.min(2);
                let divided: u64 = perft::divide(pos, depth, None).iter().map(|(_, n)| n).sum();
                assert_eq!(divided, perft::perft(pos, depth), "{}", pos.fen());
            }
            Ok(Outcome::Done | Outcome::Bench(_)) => {}
        }
    }
});

/// What a refused line must not change.
fn snapshot(engine: &Engine) -> (String, u64, Vec<u64>, shears::engine::options::Options) {
    let pos = engine.position();
    (
        pos.fen(),
        pos.key(),
        pos.history().to_vec(),
        engine.options().clone(),
    )
}

/// Lines the harness does not run: a large `Hash` (see the module docs).
fn skipped(line: &str) -> bool {
    match parse_line(line) {
        Ok(Some(Command::SetOption {
            name,
            value: Some(value),
        })) => {
            name.trim().eq_ignore_ascii_case("hash")
                && value
                    .trim()
                    .parse::<i64>()
                    .is_ok_and(|mb| mb > MAX_FUZZ_HASH_MB)
        }
        _ => false,
    }
}

/// One searcher (1 MB table) for all searches, emptied before each (so
/// runs reproduce).
fn searcher() -> &'static Mutex<Searcher> {
    static SEARCHER: OnceLock<Mutex<Searcher>> = OnceLock::new();
    SEARCHER.get_or_init(|| Mutex::new(Searcher::new(1).expect("a 1 MB table")))
}

/// The engine's search, bounded, on a thread with the engine's stack size.
fn bounded_search(engine: &Engine, mut limits: SearchLimits) {
    limits.depth = Some(limits.depth.unwrap_or(3).min(3));
    limits.nodes = Some(limits.nodes.unwrap_or(2000).min(2000));
    limits.infinite = false;
    limits.ponder = false;
    let pos = engine.position().clone();
    let mut settings = engine.settings();
    settings.threads = 1;
    // The lines as the session would write them (UCI_ShowWDL as set).
    let style = Style {
        debug: false,
        ..engine.style()
    };
    let material = material_points(pos.board().board());
    let mut searcher = searcher().lock().unwrap_or_else(|p| p.into_inner());
    searcher.new_game();
    let signals = Signals::new(false);
    let report = |r: SearchReport| {
        for line in format_search(&r, style, material) {
            assert!(line.starts_with("info "), "{line}");
        }
        if let SearchReport::Iteration(info) = &r {
            check_line(&pos, &info.pv);
        }
    };
    let teaching = engine.options().search_algorithm();
    let outcome = std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(SEARCH_STACK_BYTES)
            .spawn_scoped(s, {
                let searcher = &mut *searcher;
                || match teaching {
                    // SearchAlgorithm: a textbook search plays instead.
                    Some(config) => theory::think(&pos, &limits, config, 0, &signals, &report),
                    None => {
                        let request = SearchRequest::new(&pos, &limits, settings);
                        searcher.search(&request, &signals, &report)
                    }
                }
            })
            .expect("spawning the search thread")
            .join()
            .expect("the search does not panic")
    });
    let best = outcome.best;
    let ponder = outcome.line.as_ref().and_then(|l| l.pv.get(1).copied());
    let legal = pos.board().legal_moves();
    match best {
        None => assert!(legal.is_empty(), "no best move in {}", pos.fen()),
        Some(m) => {
            assert!(
                legal.contains(&m),
                "illegal best move {m:?} in {}",
                pos.fen()
            );
            if !limits.searchmoves.is_empty() {
                assert!(
                    limits.searchmoves.contains(&m),
                    "best move outside searchmoves"
                );
            }
            check_line(
                &pos,
                &[Some(m), ponder].into_iter().flatten().collect::<Vec<_>>(),
            );
        }
    }
    if let Some(line) = &outcome.line {
        check_line(&pos, &line.pv);
        let info = SearchInfo::new(line, 1, &outcome.counters);
        for text in format_answer(Some(&info), best, ponder, style, material) {
            assert!(
                text.starts_with("info ") || text.starts_with("bestmove "),
                "{text}"
            );
        }
    }
}

/// Every move of `line` is legal in turn from `pos`.
fn check_line(pos: &Position, line: &[shakmaty::Move]) {
    let mut board = pos.board().clone();
    for &m in line {
        assert!(
            board.is_legal(m),
            "illegal move {m:?} in a line from {}",
            pos.fen()
        );
        board.play_unchecked(m);
    }
}
