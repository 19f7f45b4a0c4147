//! Property test: over ten thousand generated bad (and some good) lines go
//! through the real `shears` binary, a few long-lived processes, one line at
//! a time.
//!
//! The lines: random tokens, blank and whitespace-only lines, mutated FENs,
//! move lists with a bad move, `go` with a negative, huge, missing or
//! non-numeric value, `setoption` with unknown names and out-of-range or
//! mistyped values, raw bytes that are not UTF-8, and lines of a megabyte.
//!
//! What each line must get is decided by the library's own
//! `Session::apply_line`, run in this process on a mirror session fed the
//! same lines (the binary is that session plus a stdin loop):
//!
//! * a refused line: exactly one line, `info string error: <the error>`,
//!   before the `readyok` of the following `isready`, and the position (the
//!   `Fen:` of `d`) exactly as before;
//! * an accepted line: the warnings the mirror printed (a FEN whose
//!   impossible castling rights were dropped), else no output at all (only
//!   silent commands are sent), and the position the mirror has;
//! * a `go` (followed by `stop`): the warnings the mirror printed for it
//!   (negative clocks, huge numbers, bad `searchmoves`…), the error of a
//!   `go` after a refused `position`, and exactly one `bestmove`: legal in
//!   the mirror's position, or `0000` when it has no legal move or the last
//!   `position` was refused.
//!
//! Lines that would start other work or change the output format (`go
//! perft` that the mirror accepts, `quit`, `bench`, `uci`, `isready`, `d`,
//! `eval`, `debug`) are not sent; nor is a `Hash` large enough to cost real
//! memory. After
//! each run of lines, `go depth 1` must give a legal `bestmove` with the
//! mirror's `MultiPV` count of lines, and the castling notation must follow
//! the mirror's `UCI_Chess960`: the options stayed what the mirror says.
//!
//! The random sequence is seeded, so a failure reproduces; proptest then
//! shrinks it to a short list of lines.

mod common;

use std::collections::BTreeSet;
use std::io::Write;
use std::sync::{Arc, Mutex};

use common::{Engine, count_bestmoves, parse_bestmove, parse_info};
use proptest::prelude::*;
use proptest::test_runner::{Config as RunnerConfig, RngAlgorithm, TestRng, TestRunner};
use shakmaty::Position as _;
use shears::chess::{Position, move_to_uci};
use shears::engine::config::Config;
use shears::uci::command::{Command, parse_line};
use shears::uci::output::Output;
use shears::uci::{Outcome, Session};

/// Runs (one engine process each) and lines per run.
const RUNS: u32 = 22;
const LINES_PER_RUN: usize = 480;
/// Lines that must actually reach the engine over all runs.
const MIN_LINES_SENT: usize = 10_000;

const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1",
    "kBQQQQQQ/BR5Q/Q6Q/Q6Q/Q5bQ/Q6Q/Q6Q/KQQQQQQQ b - - 0 1",
];

const CASTLING_FEN: &str = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";

/// Words the random lines are made of: commands and keywords in the wrong
/// places, numbers of every size, and junk.
const WORDS: &[&str] = &[
    "position",
    "startpos",
    "fen",
    "moves",
    "go",
    "setoption",
    "name",
    "value",
    "Hash",
    "Threads",
    "MultiPV",
    "depth",
    "nodes",
    "wtime",
    "movetime",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
    "stop",
    "ponderhit",
    "register",
    "ucinewgame",
    "e2e4",
    "e7e5",
    "0000",
    "e1g1",
    "a7a8q",
    "h9h1",
    "-1",
    "0",
    "1",
    "255",
    "256",
    "65537",
    "18446744073709551616",
    "-9223372036854775809",
    "1e9",
    "0x10",
    "NaN",
    "∞",
    "é",
    "\u{0}",
    "\t",
    "\u{a0}",
    "\u{feff}",
    "8/8/8",
    "KQkq",
    "-",
    "w",
    "b",
    "??",
    "\\",
];

/// `[ \t]*`: blank and whitespace-only lines (including `\r` and Unicode
/// spaces, which the engine trims like ASCII ones).
fn blank() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop::sample::select(vec![
            " ", "\t", "\r", "\u{a0}", "\u{2003}", "\u{b}", "\u{c}",
        ]),
        0..8,
    )
    .prop_map(|parts| parts.concat().into_bytes())
}

fn junk_token() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(WORDS).prop_map(str::to_owned),
        "[a-zA-Z0-9_+.=/-]{1,12}",
        "\\PC{1,6}",
    ]
}

fn random_tokens() -> impl Strategy<Value = Vec<u8>> {
    (
        prop::collection::vec(junk_token(), 1..10),
        prop::sample::select(vec![" ", "  ", "\t", " \t "]),
    )
        .prop_map(|(tokens, sep)| tokens.join(sep).into_bytes())
}

/// A FEN with one to four random edits: a character replaced, dropped or
/// inserted, or a field dropped or doubled.
fn mutated_fen() -> impl Strategy<Value = String> {
    let edit = (
        0..5u8,
        any::<prop::sample::Index>(),
        prop::sample::select(
            "pnbrqkPNBRQK0123456789/ -wbKQkqAHahx"
                .chars()
                .collect::<Vec<_>>(),
        ),
    );
    (
        prop::sample::select(FENS),
        prop::collection::vec(edit, 1..5),
    )
        .prop_map(|(fen, edits)| {
            let mut chars: Vec<char> = fen.chars().collect();
            for (kind, at, c) in edits {
                let i = at.index(chars.len().max(1));
                match kind {
                    0 if !chars.is_empty() => chars[i] = c,
                    1 if !chars.is_empty() => {
                        chars.remove(i);
                    }
                    2 => chars.insert(i.min(chars.len()), c),
                    _ => {
                        let text: String = chars.iter().collect();
                        let mut fields: Vec<&str> = text.split(' ').collect();
                        let f = at.index(fields.len());
                        if kind == 3 {
                            fields.remove(f);
                        } else {
                            fields.insert(f, fields[f]);
                        }
                        chars = fields.join(" ").chars().collect();
                    }
                }
            }
            chars.into_iter().collect()
        })
}

fn fen_line() -> impl Strategy<Value = Vec<u8>> {
    (
        mutated_fen(),
        prop::option::of(prop::sample::select(vec!["e2e4", "e1g1", "a7a8q", "zz"])),
    )
        .prop_map(|(fen, mv)| match mv {
            Some(m) => format!("position fen {fen} moves {m}").into_bytes(),
            None => format!("position fen {fen}").into_bytes(),
        })
}

/// A legal opening from the start position, then one bad move (and maybe
/// more moves after it).
fn move_list_line() -> impl Strategy<Value = Vec<u8>> {
    (
        any::<u64>(),
        0..12usize,
        prop::sample::select(vec![
            "e2e5", "e9e4", "0000", "e1g1", "E2E4", "e2e4q", "a1a1", "x",
        ]),
        prop::option::of(prop::sample::select(vec!["e7e5", "g8f6"])),
    )
        .prop_map(|(seed, plies, bad, after)| {
            let mut pos = Position::startpos();
            let mut text = "position startpos moves".to_owned();
            let mut s = seed;
            for _ in 0..plies {
                let legal = pos.board().legal_moves();
                if legal.is_empty() {
                    break;
                }
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let m = legal[(s >> 33) as usize % legal.len()];
                text.push(' ');
                text.push_str(&move_to_uci(m, false));
                pos.play(m);
            }
            text.push(' ');
            text.push_str(bad);
            if let Some(a) = after {
                text.push(' ');
                text.push_str(a);
            }
            text.into_bytes()
        })
}

/// A number `go` must refuse: negative, 2^64 or more, not digits, or absent.
fn bad_count() -> impl Strategy<Value = String> {
    prop_oneof![
        "-[0-9]{1,25}",
        "[1-9][0-9]{20,40}",
        "[a-z+.]{1,5}|1\\.5|\\+3|0x1f|1e6",
    ]
}

fn go_line() -> impl Strategy<Value = Vec<u8>> {
    let keyword = prop::sample::select(vec![
        "wtime",
        "btime",
        "winc",
        "binc",
        "movestogo",
        "depth",
        "nodes",
        "mate",
        "movetime",
        "perft",
    ]);
    let good = prop::sample::select(vec![
        "depth 3",
        "nodes 100",
        "wtime 1000 btime 1000",
        "infinite",
        "ponder",
        "searchmoves e2e4 d2d4",
        "movetime 50",
    ]);
    let bad = prop_oneof![
        (keyword.clone(), bad_count()).prop_map(|(k, v)| format!("{k} {v}")),
        keyword.prop_map(|k| k.to_owned()),
        "[a-z]{1,8}".prop_map(|k| k),
        prop::sample::select(vec![
            "perft 0",
            "perft 16",
            "perft 4294967296",
            "searchmoves e2e5"
        ])
        .prop_map(str::to_owned),
        Just("searchmoves".to_owned()),
    ];
    (
        prop::collection::vec(good, 0..3),
        bad,
        any::<prop::sample::Index>(),
    )
        .prop_map(|(parts, bad, at)| {
            let mut parts: Vec<&str> = parts;
            let at = at.index(parts.len() + 1);
            parts.insert(at, bad.as_str());
            format!("go {}", parts.join(" ")).into_bytes()
        })
}

fn setoption_line() -> impl Strategy<Value = Vec<u8>> {
    let out_of_range = |min: i64, max: i64| {
        prop_oneof![
            (1..1_000_000i64).prop_map(move |k| (min - k).to_string()),
            (1..1_000_000i64).prop_map(move |k| (max + k).to_string()),
            Just("100000000".to_owned()),
            "[1-9][0-9]{19,30}",
            "-[1-9][0-9]{19,30}",
            "[a-z]{1,6}|1\\.5|0x10| ",
        ]
    };
    prop_oneof![
        out_of_range(1, 65_536).prop_map(|v| format!("setoption name Hash value {v}")),
        out_of_range(1, 256).prop_map(|v| format!("setoption name Threads value {v}")),
        out_of_range(1, 256).prop_map(|v| format!("setoption name MultiPV value {v}")),
        out_of_range(0, 5000).prop_map(|v| format!("setoption name Move Overhead value {v}")),
        "[a-z0-9]{0,6}".prop_map(|v| format!("setoption name UCI_Chess960 value {v}")),
        "[a-z0-9]{1,6}".prop_map(|v| format!("setoption name Clear Hash value {v}")),
        "[A-Za-z ]{1,16}".prop_map(|n| format!("setoption name x{n} value 1")),
        prop::sample::select(vec![
            "setoption",
            "setoption name",
            "setoption value 3",
            "setoption Hash 3",
            "setoption name Hash value",
            "setoption name NullMove value 2",
        ])
        .prop_map(str::to_owned),
        // Good values too: the options must then follow them.
        prop::sample::select(vec![
            "setoption name MultiPV value 1",
            "setoption name MultiPV value 3",
            "setoption name uci_chess960 value TRUE",
            "setoption name UCI_Chess960 value false",
            "setoption name Threads value 2",
            "setoption name Threads value 1",
            "setoption name Move Overhead value 0",
            "setoption name Clear Hash",
        ])
        .prop_map(str::to_owned),
    ]
    .prop_map(String::into_bytes)
}

/// Bytes that are not UTF-8 (never a newline), alone or after a command.
fn raw_bytes() -> impl Strategy<Value = Vec<u8>> {
    (
        prop::sample::select(vec![
            "",
            "position startpos moves e2e4 ",
            "go ",
            "setoption name ",
            "isready",
        ]),
        prop::collection::vec(
            any::<u8>().prop_filter("no newline", |b| *b != b'\n'),
            1..64,
        ),
    )
        .prop_map(|(prefix, bytes)| [prefix.as_bytes(), &bytes].concat())
}

/// A line of a megabyte: one pattern repeated.
fn megabyte_line() -> impl Strategy<Value = Vec<u8>> {
    prop::sample::select(vec![
        ("", "zq9#%&"),
        ("position fen ", "8/"),
        ("go searchmoves ", "e2e5 "),
        ("setoption name Hash value ", "9"),
        ("position startpos moves ", "g1f3 g8f6 f3g1 f6g8 "),
        ("", " "),
    ])
    .prop_map(|(head, pattern)| {
        let mut line = head.as_bytes().to_vec();
        while line.len() < 1 << 20 {
            line.extend_from_slice(pattern.as_bytes());
        }
        line
    })
}

fn line() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        40 => blank(),
        120 => random_tokens(),
        120 => fen_line(),
        60 => move_list_line(),
        100 => go_line(),
        100 => setoption_line(),
        50 => raw_bytes(),
        // One line in about 600: some 17 megabyte lines over the whole run.
        1 => megabyte_line(),
    ]
}

/// Whether a line may be sent, given the mirror (see the module docs). A
/// `go` is tried on the mirror, which only checks it.
fn sendable(mirror: &mut Session, text: &str) -> bool {
    match parse_line(text) {
        Err(_) | Ok(None) => true,
        // Every go is answered (see `answer_go`); a perft only when refused.
        Ok(Some(Command::Go { .. })) => true,
        Ok(Some(Command::Perft(_))) => mirror.apply_line(text).is_err(),
        Ok(Some(Command::SetOption { name, value })) => {
            // Accepted sizes over 64 MB would allocate for real; larger
            // numbers are refused by the range check and are sent.
            let big_hash = name.trim().eq_ignore_ascii_case("hash")
                && value
                    .as_deref()
                    .and_then(|v| v.trim().parse::<i64>().ok())
                    .is_some_and(|mb| (65..=65_536).contains(&mb));
            !big_hash
        }
        Ok(Some(
            Command::Position { .. }
            | Command::Register
            | Command::UciNewGame
            | Command::Stop
            | Command::PonderHit,
        )) => true,
        Ok(Some(_)) => false,
    }
}

/// Lines sent: refused, accepted, and those of a megabyte.
#[derive(Debug, Default, Clone, Copy)]
struct Sent {
    refused: usize,
    accepted: usize,
    megabyte: usize,
    /// `go` lines answered with a `bestmove`.
    answered_go: usize,
}

/// A writer that keeps what the mirror session prints (its warnings).
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Captured {
    /// The lines printed since the last call.
    fn take_lines(&self) -> Vec<String> {
        let bytes = std::mem::take(&mut *self.0.lock().unwrap());
        String::from_utf8_lossy(&bytes)
            .lines()
            .map(str::to_owned)
            .collect()
    }
}

/// Sends the lines; returns what was sent.
fn run_lines(lines: &[Vec<u8>]) -> Sent {
    let captured = Captured::default();
    let output = Arc::new(Output::to_writer(Box::new(captured.clone())));
    let mut mirror = Session::new(&Config::default(), output).expect("a 16 MB table");
    let mut e = Engine::spawn();
    let mut sent = Sent::default();
    let mut fen = e.fen();
    for bytes in lines {
        let mut with_newline = bytes.clone();
        with_newline.push(b'\n');
        // The engine's stdin reader keeps the newline and replaces bad UTF-8.
        let text = String::from_utf8_lossy(&with_newline).into_owned();
        if !sendable(&mut mirror, &text) {
            continue;
        }
        let shown = &text[..text.floor_char_boundary(120)];
        let expected: Vec<String> = match mirror.apply_line(&text) {
            Ok(Outcome::Done) => captured.take_lines(),
            Ok(Outcome::Search(_)) => {
                let said = captured.take_lines();
                answer_go(&mut e, &mirror, &with_newline, &said, shown);
                sent.answered_go += 1;
                continue;
            }
            Ok(other) => panic!("a sendable line gave {other:?}: {text:?}"),
            Err(err) => {
                captured.take_lines();
                vec![format!(
                    "info string error: {}",
                    err.to_string().replace('\n', " ")
                )]
            }
        };
        e.send_bytes(&with_newline);
        if expected
            .iter()
            .any(|l| l.starts_with("info string error: "))
        {
            sent.refused += 1;
        } else {
            sent.accepted += 1;
        }
        if bytes.len() >= 1 << 20 {
            sent.megabyte += 1;
        }
        let answer = e.sync();
        assert_eq!(answer, expected, "answer to {shown:?}");
        let now = e.fen();
        if expected
            .iter()
            .all(|l| !l.starts_with("info string error: "))
        {
            assert_eq!(now, mirror.engine().position().fen(), "after {shown:?}");
        } else {
            assert_eq!(now, fen, "the refused line {shown:?} changed the position");
        }
        fen = now;
    }
    check_options(&mut e, &mirror);
    assert!(e.shutdown().is_empty());
    sent
}

/// Sends a `go` (and `stop` at once, for `go infinite` and `go ponder`)
/// and checks its answer: the warnings the mirror printed for it, the error
/// when the mirror's last `position` was refused, and exactly one
/// `bestmove`: legal in the mirror's position, or `0000` when it has no
/// legal move or was refused.
fn answer_go(e: &mut Engine, mirror: &Session, line: &[u8], said: &[String], shown: &str) {
    e.send_bytes(line);
    e.send("stop");
    let lines = e.read_until_bestmove();
    let notes: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string warning: ") || l.starts_with("info string error: "))
        .collect();
    let refused = mirror.engine().refused_position().is_some();
    let mut expected: Vec<&String> = said.iter().collect();
    let no_position = "info string error: go: no position to search".to_owned();
    if refused {
        expected.push(&no_position);
    }
    assert_eq!(notes.len(), expected.len(), "{shown:?}: {lines:?}");
    for (got, want) in notes.iter().zip(&expected) {
        assert!(
            got.starts_with(want.as_str()),
            "{shown:?}: {got:?} is not {want:?}"
        );
    }
    assert_eq!(count_bestmoves(&lines), 1, "{shown:?}: {lines:?}");
    let (best, _) = parse_bestmove(lines.last().unwrap()).expect("a bestmove line");
    let pos = mirror.engine().position();
    let legal: BTreeSet<String> = pos
        .board()
        .legal_moves()
        .iter()
        .map(|&m| move_to_uci(m, mirror.engine().options().chess960()))
        .collect();
    if refused || legal.is_empty() {
        assert_eq!(best, "0000", "{shown:?}");
    } else {
        assert!(
            legal.contains(&best),
            "{shown:?}: {best} not legal in {}",
            pos.fen()
        );
    }
    assert!(e.sync().is_empty(), "{shown:?}: output after bestmove");
}

/// `go depth 1` gives a legal `bestmove` and the mirror's MultiPV count of
/// lines; castling is written in the mirror's notation.
fn check_options(e: &mut Engine, mirror: &Session) {
    let pos = mirror.engine().position();
    let chess960 = mirror.engine().options().chess960();
    let legal: BTreeSet<String> = pos
        .board()
        .legal_moves()
        .iter()
        .map(|&m| move_to_uci(m, chess960))
        .collect();
    e.send("go depth 1");
    let lines = e.read_until_bestmove();
    let (last, infos) = lines.split_last().expect("at least bestmove");
    let (best, _) = parse_bestmove(last).unwrap_or_else(|| panic!("bad bestmove {last:?}"));
    if legal.is_empty() || mirror.engine().refused_position().is_some() {
        assert_eq!(best, "0000");
    } else {
        assert!(legal.contains(&best), "{best} not legal in {}", pos.fen());
        let multipv: BTreeSet<u64> = infos
            .iter()
            .filter_map(|l| parse_info(l).ok())
            .filter(|i| i.depth == Some(1))
            .filter_map(|i| i.multipv)
            .collect();
        let expected = mirror.engine().options().multipv().min(legal.len());
        assert_eq!(multipv.len(), expected, "MultiPV lines: {infos:?}");
    }
    e.send(&format!("position fen {CASTLING_FEN}"));
    let (divide, _) = e.perft(1);
    let castle = if chess960 { "e1h1" } else { "e1g1" };
    assert!(
        divide.iter().any(|(m, _)| m == castle),
        "{castle} in {divide:?}"
    );
    assert!(e.sync().is_empty());
}

#[test]
fn ten_thousand_bad_lines_each_get_their_answer_and_change_nothing() {
    let config = RunnerConfig {
        cases: RUNS,
        failure_persistence: None,
        max_shrink_iters: 300,
        ..RunnerConfig::default()
    };
    let mut runner =
        TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha));
    let total = std::cell::Cell::new(Sent::default());
    let strategy = prop::collection::vec(line(), LINES_PER_RUN);
    runner
        .run(&strategy, |lines| {
            let run = run_lines(&lines);
            let t = total.get();
            total.set(Sent {
                refused: t.refused + run.refused,
                accepted: t.accepted + run.accepted,
                megabyte: t.megabyte + run.megabyte,
                answered_go: t.answered_go + run.answered_go,
            });
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
    let total = total.get();
    eprintln!("sent over {RUNS} processes: {total:?}");
    assert!(
        total.refused + total.accepted + total.answered_go >= MIN_LINES_SENT,
        "only {total:?} lines were sent"
    );
}
