//! One UCI line → our validated [`Command`] (or a [`UciError`]).
//!
//! vampirc-uci 0.11.1 recognises the simple commands (`uci`, `debug`,
//! `isready`, `setoption` with spaces in names and values, `register`,
//! `ucinewgame`, `stop`, `ponderhit`, `quit`). It has measured defects on
//! `position` and `go` (panics on trailing blanks and numbers over 255, cuts
//! move lists, drops `ponder` and `movetime`, clamps depth to 100, refuses
//! Shredder-FEN and short FENs), so those two and our extra commands are
//! parsed here, before it, and every call into it is guarded so that a panic
//! inside it becomes an error. Its types stay in this file.

use std::cell::Cell;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

use vampirc_uci::{UciMessage, parse_one};

use crate::error::{GoWarning, UciError};
use crate::search::SearchLimits;

/// Largest `go perft` depth we accept (deeper would run for days).
pub const MAX_PERFT_DEPTH: u32 = 15;

/// Where a `position` command starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StartPos {
    /// `startpos`.
    Start,
    /// `fen …` (the FEN fields joined by spaces).
    Fen(String),
}

/// A recognised UCI line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `uci`.
    Uci,
    /// `debug on|off`.
    Debug(bool),
    /// `isready`.
    IsReady,
    /// `setoption name N [value V]`.
    SetOption {
        /// Option name.
        name: String,
        /// Option value, if any.
        value: Option<String>,
    },
    /// `register …` (accepted; Shears needs no registration).
    Register,
    /// `ucinewgame`.
    UciNewGame,
    /// `position startpos|fen … [moves …]`.
    Position {
        /// Start position.
        start: StartPos,
        /// Moves as text.
        moves: Vec<String>,
    },
    /// `go …`: the limits, with `searchmoves` still as text (they are
    /// checked against the position when the command runs).
    Go {
        /// Everything but the moves.
        limits: SearchLimits,
        /// `searchmoves`, as written.
        searchmoves: Vec<String>,
        /// What could not be honoured as written (the search goes on
        /// within the rest).
        warnings: Vec<GoWarning>,
    },
    /// `go perft N` (Stockfish's extension; other `go` parameters on the
    /// line are ignored).
    Perft(u32),
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`.
    Quit,
    /// `d`: show the board.
    Display,
    /// `bench [depth]`.
    Bench(Option<u32>),
    /// `eval`: the evaluation trace.
    Eval,
}

/// The words a command line starts with (in any case), as [`parse_line`]
/// reads them.
pub const COMMAND_WORDS: [&str; 14] = [
    "uci",
    "debug",
    "isready",
    "setoption",
    "register",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "d",
    "eval",
    "bench",
];

/// Whether `word` starts a command line this engine reads.
pub fn is_command_word(word: &str) -> bool {
    COMMAND_WORDS.iter().any(|c| c.eq_ignore_ascii_case(word))
}

/// Parses one line. `Ok(None)` for an empty or blank line (ignored, as
/// Stockfish does).
///
/// # Errors
///
/// [`UciError`] naming what is wrong with the line.
pub fn parse_line(line: &str) -> Result<Option<Command>, UciError> {
    let line = line.trim();
    let mut tokens = line.split_whitespace();
    let Some(first) = tokens.next() else {
        return Ok(None);
    };
    let rest: Vec<&str> = tokens.collect();
    let command = match first.to_ascii_lowercase().as_str() {
        "position" => parse_position(&rest)?,
        "go" => parse_go(&rest)?,
        "d" => no_args("d", &rest, Command::Display)?,
        "eval" => no_args("eval", &rest, Command::Eval)?,
        "bench" => Command::Bench(parse_bench(&rest)?),
        "uci" | "debug" | "isready" | "setoption" | "register" | "ucinewgame" | "stop"
        | "ponderhit" | "quit" => parse_simple(line)?,
        _ => return Err(UciError::UnknownCommand(first.to_owned())),
    };
    Ok(Some(command))
}

fn no_args(command: &'static str, rest: &[&str], cmd: Command) -> Result<Command, UciError> {
    match rest.first() {
        None => Ok(cmd),
        Some(extra) => Err(UciError::BadArguments {
            command,
            reason: format!("unexpected argument \"{}\"", crate::error::echo(extra)),
        }),
    }
}

fn parse_bench(rest: &[&str]) -> Result<Option<u32>, UciError> {
    match rest {
        [] => Ok(None),
        [depth] => match depth.parse::<u32>() {
            Ok(d) if (1..=64).contains(&d) => Ok(Some(d)),
            _ => Err(UciError::BadArguments {
                command: "bench",
                reason: format!(
                    "depth \"{}\" is not an integer from 1 to 64",
                    crate::error::echo(depth)
                ),
            }),
        },
        _ => Err(UciError::BadArguments {
            command: "bench",
            reason: "expected at most one argument, the depth".to_owned(),
        }),
    }
}

fn parse_position(rest: &[&str]) -> Result<Command, UciError> {
    let bad = |reason: String| UciError::BadArguments {
        command: "position",
        reason,
    };
    let moves_at = rest.iter().position(|t| t.eq_ignore_ascii_case("moves"));
    let (head, moves) = match moves_at {
        Some(i) => (
            &rest[..i],
            rest[i + 1..].iter().map(|s| (*s).to_owned()).collect(),
        ),
        None => (rest, Vec::new()),
    };
    let start = match head.split_first() {
        None => return Err(bad("expected \"startpos\" or \"fen <FEN>\"".to_owned())),
        Some((kind, args)) if kind.eq_ignore_ascii_case("startpos") => {
            if let Some(extra) = args.first() {
                return Err(bad(format!(
                    "unexpected \"{}\" after startpos (moves must follow \"moves\")",
                    crate::error::echo(extra)
                )));
            }
            StartPos::Start
        }
        Some((kind, args)) if kind.eq_ignore_ascii_case("fen") => {
            if args.is_empty() {
                return Err(bad("\"fen\" needs a FEN".to_owned()));
            }
            StartPos::Fen(args.join(" "))
        }
        Some((kind, _)) => {
            return Err(bad(format!(
                "expected \"startpos\" or \"fen\", found \"{}\"",
                crate::error::echo(kind)
            )));
        }
    };
    Ok(Command::Position { start, moves })
}

const GO_KEYWORDS: &[&str] = &[
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];

fn parse_go(rest: &[&str]) -> Result<Command, UciError> {
    let mut limits = SearchLimits::default();
    let mut searchmoves = Vec::new();
    let mut warnings = Vec::new();
    let mut perft = None;
    let clamp = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
    let is_keyword = |t: &str| GO_KEYWORDS.contains(&t.to_ascii_lowercase().as_str());
    let mut i = 0;
    while i < rest.len() {
        let keyword = rest[i].to_ascii_lowercase();
        i += 1;
        match keyword.as_str() {
            "ponder" => limits.ponder = true,
            "infinite" => limits.infinite = true,
            "searchmoves" => {
                let start = i;
                while i < rest.len() && !is_keyword(rest[i]) {
                    searchmoves.push(rest[i].to_owned());
                    i += 1;
                }
                if i == start {
                    warnings.push(GoWarning::NoSearchMoves);
                }
            }
            "perft" => {
                let bad = |reason: String| UciError::BadGo {
                    param: keyword.clone(),
                    reason,
                };
                let Some(text) = rest.get(i) else {
                    return Err(bad("needs a number".to_owned()));
                };
                i += 1;
                perft = match text.parse::<u32>() {
                    Ok(d) if (1..=MAX_PERFT_DEPTH).contains(&d) => Some(d),
                    _ => {
                        return Err(bad(format!(
                            "\"{}\" is not a depth from 1 to {MAX_PERFT_DEPTH}",
                            crate::error::echo(text)
                        )));
                    }
                }
            }
            "wtime" | "btime" | "winc" | "binc" | "movestogo" | "depth" | "nodes" | "mate"
            | "movetime" => {
                // A missing number: the next word is another parameter (or
                // there is none), which is then read as such.
                let text = match rest.get(i) {
                    Some(text) if !is_keyword(text) => {
                        i += 1;
                        *text
                    }
                    _ => {
                        warnings.push(GoWarning::MissingNumber { param: keyword });
                        continue;
                    }
                };
                // Depth 0 or below: answered at once, from depth 1.
                if keyword == "depth" && is_at_most_zero(text) {
                    warnings.push(GoWarning::DepthBelowOne {
                        value: text.to_owned(),
                    });
                    limits.depth = Some(1);
                    continue;
                }
                let is_time = matches!(
                    keyword.as_str(),
                    "wtime" | "btime" | "winc" | "binc" | "movetime"
                );
                let value = match read_count(&keyword, text, is_time) {
                    (value, Some(warning)) => {
                        warnings.push(warning);
                        match value {
                            Some(v) => v,
                            None => continue,
                        }
                    }
                    (Some(v), None) => v,
                    (None, None) => continue,
                };
                if keyword == "movestogo" && value == 0 {
                    warnings.push(GoWarning::NoMovesToGo {
                        value: text.to_owned(),
                    });
                    continue;
                }
                let clock = &mut limits.clock;
                match keyword.as_str() {
                    "wtime" => clock.wtime = Some(value),
                    "btime" => clock.btime = Some(value),
                    "winc" => clock.winc = Some(value),
                    "binc" => clock.binc = Some(value),
                    "movestogo" => clock.movestogo = Some(value),
                    "movetime" => clock.movetime = Some(value),
                    "depth" => limits.depth = Some(clamp(value)),
                    "nodes" => limits.nodes = Some(value),
                    _ => limits.mate = Some(clamp(value)),
                }
            }
            _ => warnings.push(GoWarning::Unknown(rest[i - 1].to_owned())),
        }
    }
    Ok(match perft {
        Some(depth) => Command::Perft(depth),
        None => Command::Go {
            limits,
            searchmoves,
            warnings,
        },
    })
}

/// Whether `text` is an integer of 0 or less (`0`, `-0`, `-12`, however
/// many digits).
fn is_at_most_zero(text: &str) -> bool {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(digits) => (true, digits),
        None => (false, text),
    };
    !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (negative || digits.bytes().all(|b| b == b'0'))
}

/// A `go` number as GUIs send them: a time below zero (a clock that ran
/// out) is 0, a count below zero is left out, one of 2^64 or more is the
/// largest; anything else that is not a number is left out. Each of these
/// comes with its warning.
fn read_count(param: &str, text: &str, is_time: bool) -> (Option<u64>, Option<GoWarning>) {
    let owned = || (param.to_owned(), text.to_owned());
    let digits = text.strip_prefix('-').unwrap_or(text);
    let numeric = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    if !numeric {
        let (param, value) = owned();
        return (None, Some(GoWarning::NotANumber { param, value }));
    }
    if text.starts_with('-') {
        let (param, value) = owned();
        // "-0" is zero, whatever the sign.
        if digits.bytes().all(|b| b == b'0') {
            return (Some(0), None);
        }
        return if is_time {
            (Some(0), Some(GoWarning::NegativeTime { param, value }))
        } else {
            (None, Some(GoWarning::NegativeCount { param, value }))
        };
    }
    match text.parse::<u64>() {
        Ok(v) => (Some(v), None),
        Err(_) => {
            let (param, value) = owned();
            (Some(u64::MAX), Some(GoWarning::TooLarge { param, value }))
        }
    }
}

thread_local! {
    /// Set while vampirc-uci runs, so the panic hook stays quiet for it.
    static IN_GUARDED_PARSER: Cell<bool> = const { Cell::new(false) };
}

fn install_quiet_hook() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let default = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !IN_GUARDED_PARSER.with(Cell::get) {
                default(info);
            }
        }));
    });
}

/// The simple commands, through vampirc-uci, with a panic guard.
fn parse_simple(line: &str) -> Result<Command, UciError> {
    install_quiet_hook();
    IN_GUARDED_PARSER.with(|f| f.set(true));
    let parsed = panic::catch_unwind(AssertUnwindSafe(|| parse_one(line)));
    IN_GUARDED_PARSER.with(|f| f.set(false));
    let message = parsed.map_err(|_| UciError::Parser {
        line: line.to_owned(),
        reason: "the UCI parser failed on this line".to_owned(),
    })?;
    let first = line
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    let usage = |command: &'static str, usage: &str| UciError::BadArguments {
        command,
        reason: format!("expected \"{usage}\""),
    };
    Ok(match message {
        UciMessage::Uci => Command::Uci,
        UciMessage::Debug(on) => Command::Debug(on),
        UciMessage::IsReady => Command::IsReady,
        UciMessage::SetOption { name, value } => Command::SetOption { name, value },
        UciMessage::Register { .. } => Command::Register,
        UciMessage::UciNewGame => Command::UciNewGame,
        UciMessage::Stop => Command::Stop,
        UciMessage::PonderHit => Command::PonderHit,
        UciMessage::Quit => Command::Quit,
        _ => {
            return Err(match first.as_str() {
                "debug" => usage("debug", "debug on|off"),
                "setoption" => usage("setoption", "setoption name <name> [value <value>]"),
                "register" => usage(
                    "register",
                    "register later | register name <name> code <code>",
                ),
                "uci" => usage("uci", "uci"),
                "isready" => usage("isready", "isready"),
                "ucinewgame" => usage("ucinewgame", "ucinewgame"),
                "stop" => usage("stop", "stop"),
                "ponderhit" => usage("ponderhit", "ponderhit"),
                "quit" => usage("quit", "quit"),
                _ => UciError::UnknownCommand(first),
            });
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The limits and the `searchmoves` of a `go` line.
    fn go(line: &str) -> (SearchLimits, Vec<String>) {
        match parse_line(line) {
            Ok(Some(Command::Go {
                limits,
                searchmoves,
                ..
            })) => (limits, searchmoves),
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn go_keeps_what_vampirc_loses() {
        assert!(go("go infinite ").0.infinite);
        assert!(go("go infinite\t").0.infinite);
        assert_eq!(go("go depth 300").0.depth, Some(300));
        assert_eq!(go("go depth 1000").0.depth, Some(1000));
        assert_eq!(go("go mate 300").0.mate, Some(300));
        assert_eq!(
            go("go movestogo 300 wtime 1 btime 1").0.clock.movestogo,
            Some(300)
        );
        let (g, _) = go("go ponder wtime 1000 btime 2000 winc 10 binc 20");
        assert!(g.ponder);
        let c = g.clock;
        assert_eq!(
            (c.wtime, c.btime, c.winc, c.binc),
            (Some(1000), Some(2000), Some(10), Some(20))
        );
        let (g, _) = go("go wtime 1000 btime 1000 movetime 500");
        assert_eq!(g.clock.movetime, Some(500));
        assert_eq!(
            go("go searchmoves e2e4 d2d4 depth 3").1,
            vec!["e2e4", "d2d4"]
        );
        assert_eq!(
            parse_line("go perft 3 depth 5"),
            Ok(Some(Command::Perft(3)))
        );
    }

    /// The limits and the warnings of a `go` line.
    fn go_warned(line: &str) -> (SearchLimits, Vec<GoWarning>) {
        match parse_line(line) {
            Ok(Some(Command::Go {
                limits, warnings, ..
            })) => (limits, warnings),
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn go_reads_what_guis_send_and_warns() {
        // A clock that ran out: 0, with a warning.
        let (g, w) = go_warned("go wtime 165661 btime -170671 winc 2000 binc -5");
        assert_eq!((g.clock.btime, g.clock.binc), (Some(0), Some(0)));
        assert_eq!(g.clock.wtime, Some(165_661));
        assert_eq!(w.len(), 2);
        assert!(
            w[0].to_string()
                .contains("btime -170671 is negative, read as 0")
        );
        // Negative counts are left out; a depth of 0 or less is 1.
        let (g, w) = go_warned("go depth -1 movestogo -3 nodes -7 mate -2 movetime 100");
        assert_eq!(
            (g.depth, g.nodes, g.mate, g.clock.movestogo),
            (Some(1), None, None, None)
        );
        assert_eq!(g.clock.movetime, Some(100));
        assert_eq!(w.len(), 4);
        assert!(matches!(w[0], GoWarning::DepthBelowOne { .. }));
        for depth in ["0", "-0", "-1", "-99999999999999999999999"] {
            let (g, w) = go_warned(&format!("go depth {depth}"));
            assert_eq!(g.depth, Some(1), "{depth}");
            assert_eq!(
                w[..],
                [GoWarning::DepthBelowOne {
                    value: depth.to_owned()
                }]
            );
        }
        // movestogo 0: no moves to go, ignored.
        let (g, w) = go_warned("go wtime 10000 btime 10000 movestogo 0");
        assert_eq!((g.clock.movestogo, g.clock.wtime), (None, Some(10_000)));
        assert!(
            w[0].to_string()
                .contains("movestogo 0 is no number of moves")
        );
        assert_eq!(
            go_warned("go movestogo 1 wtime 5").0.clock.movestogo,
            Some(1)
        );
        // 2^64 and more: the largest number.
        let (g, w) = go_warned("go wtime 99999999999999999999999 depth 3");
        assert_eq!((g.clock.wtime, g.depth), (Some(u64::MAX), Some(3)));
        assert!(matches!(w[..], [GoWarning::TooLarge { .. }]));
        // Missing numbers, words that are not numbers, unknown words.
        let (g, w) = go_warned("go depth infinite");
        assert!(g.infinite && g.depth.is_none());
        assert!(matches!(w[..], [GoWarning::MissingNumber { .. }]));
        let (g, w) = go_warned("go nodes x fast depth 2 wtime");
        assert_eq!((g.nodes, g.depth), (None, Some(2)));
        assert!(matches!(
            w[..],
            [
                GoWarning::NotANumber { .. },
                GoWarning::Unknown(_),
                GoWarning::MissingNumber { .. }
            ]
        ));
        let (_, w) = go_warned("go searchmoves depth 1");
        assert!(matches!(w[..], [GoWarning::NoSearchMoves]));
        assert!(go_warned("go wtime -0 depth 2").1.is_empty());
    }

    #[test]
    fn go_perft_out_of_range_is_refused() {
        for bad in ["go perft 0", "go perft 99", "go perft", "go perft x"] {
            assert!(parse_line(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn position_keeps_every_move() {
        let Ok(Some(Command::Position { moves, .. })) =
            parse_line("position startpos moves  e2e4 0000 d2d4")
        else {
            panic!()
        };
        assert_eq!(moves, vec!["e2e4", "0000", "d2d4"]);
        let Ok(Some(Command::Position { start, .. })) =
            parse_line("position fen 8/8/8/8/8/8/8/K6k w - -")
        else {
            panic!()
        };
        assert_eq!(start, StartPos::Fen("8/8/8/8/8/8/8/K6k w - -".to_owned()));
    }

    #[test]
    fn simple_commands_go_through_vampirc() {
        assert_eq!(parse_line("isready").unwrap(), Some(Command::IsReady));
        assert_eq!(
            parse_line("setoption name Move Overhead value 100").unwrap(),
            Some(Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("100".into())
            })
        );
        assert_eq!(parse_line("   ").unwrap(), None);
        assert!(matches!(
            parse_line("xyzzy"),
            Err(UciError::UnknownCommand(_))
        ));
        assert!(parse_line("setoption").is_err());
    }
}
