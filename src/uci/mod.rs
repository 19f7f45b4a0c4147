//! The UCI loop: stdin is read on its own thread and handed over line by
//! line; each line becomes a [`Command`] and an [`Engine`] call; searches run
//! on their own thread and report through [`Output`].
//!
//! Bad input never ends the loop: it gets one `info string error: …` line and
//! the engine's position and options stay as they were. End of input means
//! `quit`.

pub mod command;
pub mod output;

use std::io::{BufRead, BufReader, Read};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use shakmaty::Position as _;

use crate::chess::perft;
use crate::chess::{Position, move_to_uci};
use crate::engine::bench;
use crate::engine::config::Config;
use crate::engine::options::{Options, UCI_CHESS960};
use crate::engine::{Engine, Reporter};
use crate::error::{OptionError, UciError};
use crate::eval;
use crate::search::SearchLimits;
use crate::search::time::Clock;
use command::{Command, GoArgs, StartPos, parse_line};
use output::{Output, format_report};

/// The engine's name as `uci` reports it.
pub const ENGINE_NAME: &str = concat!("Shears ", env!("CARGO_PKG_VERSION"));
/// The engine's author line.
pub const ENGINE_AUTHOR: &str = "the Shears developers";

/// What the loop does after a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// Leave the loop.
    Quit,
}

/// What a line leaves to do once [`Session::apply_line`] has parsed, checked
/// and applied it: the work that takes time, or leaving the loop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Nothing more: read the next line.
    Done,
    /// `quit`: stop any search and leave the loop.
    Quit,
    /// `go`: start a search with these checked limits.
    Search(SearchLimits),
    /// `go perft N`: count the moves of the current position to depth N.
    Perft(u32),
    /// `bench [depth]`: the bench run to this depth.
    Bench(u32),
}

/// The UCI session: engine state plus output.
pub struct Session {
    engine: Engine,
    output: Arc<Output>,
    chess960: Arc<AtomicBool>,
    /// The start-up values (engine.toml), announced as defaults by `uci`.
    defaults: Options,
    debug: bool,
}

impl Session {
    /// A session with the options of `config`, writing to `output`.
    ///
    /// # Errors
    ///
    /// When the configured `Hash` cannot be allocated.
    pub fn new(config: &Config, output: Arc<Output>) -> Result<Session, OptionError> {
        let chess960 = Arc::new(AtomicBool::new(config.options.chess960()));
        let reporter: Reporter = {
            let output = Arc::clone(&output);
            let chess960 = Arc::clone(&chess960);
            Arc::new(move |report| {
                for line in format_report(&report, chess960.load(Ordering::Relaxed)) {
                    output.line(&line);
                }
            })
        };
        Ok(Session {
            engine: Engine::new(config.options.clone(), reporter)?,
            output,
            chess960,
            defaults: config.options.clone(),
            debug: false,
        })
    }

    /// The engine behind the session.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// Handles one input line: [`Session::apply_line`], then the work it
    /// returns (a search is started on its own thread; perft and bench run
    /// here). Errors become one `info string error: …` line.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        self.output.log_input(line);
        match self.apply_line(line).and_then(|outcome| self.run(outcome)) {
            Ok(flow) => flow,
            Err(e) => {
                self.output.error(&e.to_string());
                Flow::Continue
            }
        }
    }

    /// Parses, checks and applies one line, without running anything that
    /// takes time: a `go` comes back as its checked [`SearchLimits`], `go
    /// perft` and `bench` as their depth, `quit` as [`Outcome::Quit`].
    /// Position and option changes are applied, and quick answers (`uci`,
    /// `isready`, `d`, `eval`) written, as in [`Session::handle_line`], which
    /// is this plus running the outcome. The fuzz harness drives this.
    ///
    /// # Errors
    ///
    /// [`UciError`] for a line that is refused; the position and the options
    /// are then unchanged.
    pub fn apply_line(&mut self, line: &str) -> Result<Outcome, UciError> {
        match parse_line(line)? {
            None => Ok(Outcome::Done),
            Some(command) => self.execute(command),
        }
    }

    fn execute(&mut self, command: Command) -> Result<Outcome, UciError> {
        let out = &self.output;
        match command {
            Command::Uci => {
                out.line(&format!("id name {ENGINE_NAME}"));
                out.line(&format!("id author {ENGINE_AUTHOR}"));
                out.line("");
                for (spec, default) in self.defaults.iter() {
                    out.line(&spec.uci_line(default));
                }
                out.line("uciok");
            }
            Command::Debug(on) => self.debug = on,
            Command::IsReady => out.line("readyok"),
            Command::SetOption { name, value } => {
                let (spec, value) = self.engine.set_option(&name, value.as_deref())?;
                if spec.name == UCI_CHESS960 {
                    self.chess960
                        .store(self.engine.options().chess960(), Ordering::Relaxed);
                }
                if self.debug {
                    out.line(&format!("info string {} set to {value}", spec.name));
                }
            }
            Command::Register => {}
            Command::UciNewGame => self.engine.new_game(),
            Command::Position { start, moves } => {
                let chess960 = self.engine.options().chess960();
                let mut position = match start {
                    StartPos::Start => Position::startpos(),
                    StartPos::Fen(fen) => Position::from_fen(&fen, chess960)?,
                };
                position
                    .play_uci_moves(moves.iter().map(String::as_str), chess960)
                    .map_err(|(index, error)| UciError::Move {
                        index: index + 1,
                        error,
                    })?;
                self.engine.set_position(position);
            }
            Command::Go(args) => return self.check_go(args),
            Command::Stop => self.engine.stop(),
            Command::PonderHit => self.engine.ponderhit(),
            Command::Quit => return Ok(Outcome::Quit),
            Command::Display => out.line(&self.engine.position().diagram()),
            Command::Eval => out.line(&eval::trace(self.engine.position().board())),
            Command::Bench(depth) => {
                return Ok(Outcome::Bench(depth.unwrap_or(bench::DEFAULT_DEPTH)));
            }
        }
        Ok(Outcome::Done)
    }

    /// Turns `go` arguments into limits for the current position
    /// (`searchmoves` must be legal here).
    fn check_go(&self, args: GoArgs) -> Result<Outcome, UciError> {
        let received = Instant::now();
        if let Some(depth) = args.perft {
            return Ok(Outcome::Perft(depth));
        }
        let chess960 = self.engine.options().chess960();
        let position = self.engine.position();
        let mut searchmoves = Vec::with_capacity(args.searchmoves.len());
        for text in &args.searchmoves {
            let m = position
                .parse_move(text, chess960)
                .map_err(|e| UciError::BadGo {
                    param: "searchmoves".to_owned(),
                    reason: e.to_string(),
                })?;
            searchmoves.push(m);
        }
        let clamp_u32 = |v: Option<u64>| v.map(|n| u32::try_from(n).unwrap_or(u32::MAX));
        Ok(Outcome::Search(SearchLimits {
            depth: clamp_u32(args.depth),
            nodes: args.nodes,
            mate: clamp_u32(args.mate),
            infinite: args.infinite,
            ponder: args.ponder,
            clock: Clock {
                wtime: args.wtime,
                btime: args.btime,
                winc: args.winc,
                binc: args.binc,
                movestogo: args.movestogo,
                movetime: args.movetime,
            },
            searchmoves,
            received: Some(received),
        }))
    }

    /// Runs what [`Session::apply_line`] returned.
    fn run(&mut self, outcome: Outcome) -> Result<Flow, UciError> {
        match outcome {
            Outcome::Done => {}
            Outcome::Quit => {
                self.engine.stop_and_wait();
                return Ok(Flow::Quit);
            }
            Outcome::Search(limits) => {
                // The previous search (if any) answers before this go is
                // reported.
                self.engine.stop_and_wait();
                if self.debug {
                    self.debug_go(&limits);
                }
                self.engine.go(limits)?;
            }
            Outcome::Perft(depth) => self.perft(depth),
            Outcome::Bench(depth) => {
                self.engine.stop_and_wait();
                let out = &self.output;
                let result = bench::run(depth, &mut |line| out.line(line));
                out.line(&result.summary());
            }
        }
        Ok(Flow::Continue)
    }

    /// `go perft N`: Stockfish's divide output.
    fn perft(&self, depth: u32) {
        let start = Instant::now();
        let chess960 = self.engine.options().chess960();
        let counts = perft::divide(self.engine.position(), depth, None);
        for (m, n) in &counts {
            self.output
                .line(&format!("{}: {n}", move_to_uci(*m, chess960)));
        }
        let total: u64 = counts.iter().map(|(_, n)| n).sum();
        self.output.line("");
        self.output.line(&format!("Nodes searched: {total}"));
        if self.debug {
            self.output.line(&format!(
                "info string perft took {} ms",
                start.elapsed().as_millis()
            ));
        }
    }

    /// The `debug on` line describing a `go`.
    fn debug_go(&self, limits: &SearchLimits) {
        let chess960 = self.engine.options().chess960();
        let moves: Vec<String> = limits
            .searchmoves
            .iter()
            .map(|m| move_to_uci(*m, chess960))
            .collect();
        self.output.line(&format!(
            "info string debug go: depth {:?} nodes {:?} mate {:?} infinite {} ponder {} {:?} searchmoves [{}] legal {}",
            limits.depth,
            limits.nodes,
            limits.mate,
            limits.infinite,
            limits.ponder,
            limits.clock,
            moves.join(" "),
            self.engine.position().board().legal_moves().len()
        ));
    }
}

/// Reads lines from `input` on a thread of its own and sends them on; the
/// channel closes at end of input. Bytes that are not UTF-8 are replaced
/// (the line is then refused as a command, not dropped silently).
pub fn spawn_reader<R: Read + Send + 'static>(input: R) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name("stdin".to_owned())
        .spawn(move || {
            let mut reader = BufReader::new(input);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).into_owned();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        })
        .expect("spawning the stdin reader thread at start-up");
    rx
}

/// Runs the UCI loop on stdin/stdout until `quit` or end of input.
///
/// # Errors
///
/// When the log file named in the configuration cannot be opened or the
/// configured hash table cannot be allocated.
pub fn run(config: &Config) -> Result<(), String> {
    let output = Arc::new(
        Output::new(config.log_file.as_deref())
            .map_err(|e| format!("cannot open the log file: {e}"))?,
    );
    let mut session = Session::new(config, output).map_err(|e| e.to_string())?;
    let lines = spawn_reader(std::io::stdin());
    for line in lines.iter() {
        if session.handle_line(&line) == Flow::Quit {
            return Ok(());
        }
    }
    // End of input means quit.
    session.engine.stop_and_wait();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quiet_session() -> Session {
        let output = Arc::new(Output::to_writer(Box::new(std::io::sink())));
        Session::new(&Config::default(), output).expect("a 16 MB table")
    }

    #[test]
    fn apply_line_returns_the_work_and_starts_no_search() {
        let mut session = quiet_session();
        let Ok(Outcome::Search(limits)) = session.apply_line("go depth 3 searchmoves e2e4") else {
            panic!("go should come back as a search");
        };
        assert_eq!(limits.depth, Some(3));
        assert_eq!(limits.searchmoves.len(), 1);
        assert!(!session.engine().is_searching());
        assert_eq!(session.apply_line("go perft 2"), Ok(Outcome::Perft(2)));
        assert_eq!(session.apply_line("bench 3"), Ok(Outcome::Bench(3)));
        assert_eq!(session.apply_line("quit"), Ok(Outcome::Quit));
        assert_eq!(session.apply_line("  "), Ok(Outcome::Done));
    }

    #[test]
    fn apply_line_applies_positions_and_refuses_bad_ones_unchanged() {
        let mut session = quiet_session();
        assert_eq!(
            session.apply_line("position startpos moves e2e4"),
            Ok(Outcome::Done)
        );
        let fen = session.engine().position().fen();
        assert!(
            session
                .apply_line("position startpos moves e7e5 e1e8")
                .is_err()
        );
        assert!(session.apply_line("go searchmoves e2e4").is_err());
        assert!(session.apply_line("setoption name Hash value 0").is_err());
        assert_eq!(session.engine().position().fen(), fen);
        assert_eq!(session.engine().options().hash_mb(), 16);
    }
}
