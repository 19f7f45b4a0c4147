//! One UCI session: each line becomes a [`Command`] and an [`Engine`] call.
//! Quick answers (`uci`, `isready`, `d`, `eval`) are written at once; work
//! that takes time (a search, `go perft`, `bench`) runs as an engine job
//! on its own thread and reports through [`Output`].
//!
//! Bad input never ends the session: it gets one `info string error: …` line
//! and the engine's position and options stay as they were.

use std::sync::Arc;
use std::time::Instant;

use shakmaty::Position as _;

use super::Tool;
use super::command::{Command, StartPos, parse_line};
use super::output::{Output, format_eval, format_net_news, format_report};
use crate::chess::{FenNote, Position, move_to_uci};
use crate::engine::bench::DEFAULT_DEPTH;
use crate::engine::config::{CONFIG_FILE_NAME, Config};
use crate::engine::options::Options;
use crate::engine::{Engine, Listener};
use crate::error::{GoWarning, OptionError, UciError};
use crate::search::SearchLimits;

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
    /// `quit`: stop any job and leave the loop.
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
    /// The start-up values (engine.toml), announced as defaults by `uci`.
    defaults: Options,
    /// Problems met at start-up (engine.toml's), reported once, after the
    /// first `uciok`.
    startup_problems: Vec<String>,
}

impl Session {
    /// A session with the options of `config`, writing to `output`.
    ///
    /// # Errors
    ///
    /// When the configured `Hash` cannot be allocated, its `BookFile`
    /// loaded or its `SyzygyPath` used.
    pub fn new(config: &Config, output: Arc<Output>) -> Result<Session, OptionError> {
        let engine = Engine::new(config.options.clone(), Session::listener(&output))?;
        Ok(Session::assemble(engine, output, Vec::new()))
    }

    /// The session of UCI start-up: as [`Session::new`], but an option of
    /// `config` that cannot be applied (a `Hash` too large to allocate, a
    /// `BookFile` or `SyzygyPath` that cannot be used) starts at its
    /// default. That, and each of `problems` (engine.toml's, already
    /// written as messages), is reported once as `info string error: …`
    /// right after the first `uciok`, when every GUI reads what the engine
    /// says.
    ///
    /// # Errors
    ///
    /// When even the default `Hash` cannot be allocated.
    pub fn start(
        config: &Config,
        output: Arc<Output>,
        mut problems: Vec<String>,
    ) -> Result<Session, OptionError> {
        let listener = Session::listener(&output);
        let (engine, refused) = Engine::with_fallbacks(config.options.clone(), listener)?;
        let file = config
            .source
            .as_ref()
            .map_or_else(|| CONFIG_FILE_NAME.to_owned(), |p| p.display().to_string());
        for (name, e) in refused {
            let default = engine.options().get(name).to_string();
            problems.push(format!(
                "{file}: {e}; started with the default, \"{default}\""
            ));
        }
        Ok(Session::assemble(engine, output, problems))
    }

    /// The listener that formats the engine's reports onto `output`, each
    /// in the style the engine gives with it.
    fn listener(output: &Arc<Output>) -> Listener {
        let output = Arc::clone(output);
        Arc::new(move |report, style| {
            for line in format_report(&report, style) {
                output.line(&line);
            }
        })
    }

    fn assemble(engine: Engine, output: Arc<Output>, startup_problems: Vec<String>) -> Session {
        Session {
            defaults: engine.options().clone(),
            engine,
            output,
            startup_problems,
        }
    }

    /// The engine behind the session.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// End of input: see [`Engine::finish`].
    pub fn finish(&mut self) {
        self.engine.finish();
    }

    /// Starts a tool's work ([`Tool`]) as an engine job; a thread that
    /// cannot be started is one `info string error: …` line.
    pub fn run_tool(&mut self, tool: Tool) {
        if let Err(e) = self.engine.run_tool(tool.name, tool.work) {
            self.output.error(&e.to_string());
        }
    }

    /// Handles one input line: [`Session::apply_line`], then the work it
    /// returns (started as an engine job). Errors become one
    /// `info string error: …` line.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        self.output.log_input(line);
        let flow = match self.apply_line(line).and_then(|outcome| self.run(outcome)) {
            Ok(flow) => flow,
            Err(e) => {
                self.output.error(&e.to_string());
                Flow::Continue
            }
        };
        // Tables found broken (on loading them, or by `d`) are reported
        // once, after the line that met them; a search reports its own.
        for problem in self.engine.take_problems() {
            self.output.error(&problem);
        }
        flow
    }

    /// Parses, checks and applies one line, without starting anything that
    /// takes time: a `go` comes back as its checked [`SearchLimits`], `go
    /// perft` and `bench` as their depth, `quit` as [`Outcome::Quit`].
    /// Position and option changes are applied, and quick answers (`uci`,
    /// `isready`, `d`, `eval`) written, as in [`Session::handle_line`], which
    /// is this plus running the outcome. The fuzz harness drives this.
    ///
    /// # Errors
    ///
    /// [`UciError`] for a line that is refused; the position and the options
    /// are then unchanged, but a refused `position` (for its form, its FEN
    /// or a move) leaves no position to search until one is accepted (see
    /// [`Engine::refuse_position`]).
    pub fn apply_line(&mut self, line: &str) -> Result<Outcome, UciError> {
        match parse_line(line) {
            Ok(None) => Ok(Outcome::Done),
            Ok(Some(command)) => self.execute(command),
            Err(e) => {
                // A `position` line refused for its form leaves the GUI
                // somewhere else, as a bad FEN or move does.
                if let UciError::BadArguments {
                    command: "position",
                    ..
                } = e
                {
                    self.engine.refuse_position(e.to_string());
                }
                Err(e)
            }
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
                for problem in std::mem::take(&mut self.startup_problems) {
                    out.error(&problem);
                }
            }
            Command::Debug(on) => self.engine.set_debug(on),
            Command::IsReady => out.line("readyok"),
            Command::SetOption { name, value } => {
                let (spec, value) = self.engine.set_option(&name, value.as_deref())?;
                if self.debug() {
                    out.line(&format!("info string {} set to {value}", spec.name));
                }
                if let Some(news) = self.engine.take_net_news() {
                    out.line(&format_net_news(&news));
                }
            }
            Command::Register => {}
            Command::UciNewGame => self.engine.new_game(),
            Command::Position { start, moves } => {
                match build_position(&start, &moves, self.engine.options().chess960()) {
                    Ok((position, notes)) => {
                        for note in notes {
                            out.warning(&format!("position: {note}"));
                        }
                        self.engine.set_position(position);
                    }
                    Err(e) => {
                        // The GUI no longer has the position we kept: no `go`
                        // may search it (see `Engine::refuse_position`).
                        self.engine.refuse_position(e.to_string());
                        return Err(e);
                    }
                }
            }
            Command::Go {
                limits,
                searchmoves,
                warnings,
            } => {
                for warning in &warnings {
                    out.warning(&warning.to_string());
                }
                return Ok(self.check_go(limits, &searchmoves));
            }
            Command::Perft(depth) => return Ok(Outcome::Perft(depth)),
            Command::Stop => self.engine.stop(),
            Command::PonderHit => self.engine.ponderhit(),
            Command::Quit => return Ok(Outcome::Quit),
            Command::Display => out.line(&self.engine.display()),
            Command::Eval => out.line(&format_eval(&self.engine.eval_trace())),
            Command::Bench(depth) => {
                return Ok(Outcome::Bench(depth.unwrap_or(DEFAULT_DEPTH)));
            }
        }
        Ok(Outcome::Done)
    }

    fn debug(&self) -> bool {
        self.engine.style().debug
    }

    /// Completes `go` limits for the current position: the clock runs
    /// from now, and `searchmoves` that cannot be played here are left out
    /// with a warning (none left: every move is searched). Nothing is
    /// checked against a position that was refused: that `go` is answered
    /// `bestmove 0000` (see [`Engine::go`]).
    fn check_go(&self, mut limits: SearchLimits, searchmoves: &[String]) -> Outcome {
        limits.received = Some(Instant::now());
        if self.engine.refused_position().is_some() || searchmoves.is_empty() {
            return Outcome::Search(limits);
        }
        let chess960 = self.engine.options().chess960();
        let position = self.engine.position();
        for text in searchmoves {
            match position.parse_move(text, chess960) {
                Ok(m) if !limits.searchmoves.contains(&m) => limits.searchmoves.push(m),
                Ok(_) => {}
                Err(e) => self
                    .output
                    .warning(&GoWarning::BadSearchMove(e).to_string()),
            }
        }
        if limits.searchmoves.is_empty() && !position.board().legal_moves().is_empty() {
            self.output
                .warning(&GoWarning::NoPlayableSearchMove.to_string());
        }
        Outcome::Search(limits)
    }

    /// Starts what [`Session::apply_line`] returned.
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
                if self.debug() {
                    self.output.line(&self.describe_go(&limits));
                }
                if let Some(reason) = self.engine.refused_position() {
                    self.output.error(&format!(
                        "go: no position to search (the last position command was refused: \
                         {reason}); bestmove 0000 until a position is accepted"
                    ));
                }
                self.engine.go(limits)?;
            }
            Outcome::Perft(depth) => self.engine.perft(depth)?,
            Outcome::Bench(depth) => self.engine.bench(depth)?,
        }
        Ok(Flow::Continue)
    }

    /// The `debug on` line describing a `go`: every parameter as the engine
    /// understood it (`-` for absent).
    fn describe_go(&self, limits: &SearchLimits) -> String {
        fn or_dash<T: ToString>(value: Option<T>) -> String {
            value.map_or_else(|| "-".to_owned(), |v| v.to_string())
        }
        let chess960 = self.engine.options().chess960();
        let moves: Vec<String> = limits
            .searchmoves
            .iter()
            .map(|m| move_to_uci(*m, chess960))
            .collect();
        let c = &limits.clock;
        format!(
            "info string debug go: depth {} nodes {} mate {} infinite {} ponder {} \
             wtime {} btime {} winc {} binc {} movestogo {} movetime {} searchmoves [{}] legal {}",
            or_dash(limits.depth),
            or_dash(limits.nodes),
            or_dash(limits.mate),
            limits.infinite,
            limits.ponder,
            or_dash(c.wtime),
            or_dash(c.btime),
            or_dash(c.winc),
            or_dash(c.binc),
            or_dash(c.movestogo),
            or_dash(c.movetime),
            moves.join(" "),
            self.engine.position().board().legal_moves().len()
        )
    }
}

/// The position of a `position` command, with what its FEN had to drop.
fn build_position(
    start: &StartPos,
    moves: &[String],
    chess960: bool,
) -> Result<(Position, Vec<FenNote>), UciError> {
    let (mut position, notes) = match start {
        StartPos::Start => (Position::startpos(), Vec::new()),
        StartPos::Fen(fen) => Position::from_fen_noting(fen, chess960)?,
    };
    position
        .play_uci_moves(moves.iter().map(String::as_str), chess960)
        .map_err(|(index, error)| UciError::Move {
            index: index + 1,
            error,
        })?;
    Ok((position, notes))
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
        assert!(!session.engine().is_busy());
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
        assert!(session.apply_line("setoption name Hash value 0").is_err());
        assert_eq!(session.engine().position().fen(), fen);
        // The GUI is not where the kept position is: go must not search it.
        assert!(session.engine().refused_position().is_some());
        assert!(session.apply_line("position startpos").is_ok());
        assert!(session.engine().refused_position().is_none());
        assert_eq!(session.engine().options().hash_mb(), 16);
        // Refused for its form: the same.
        for bad in [
            "position startpos movse e2e4",
            "position",
            "position fen",
            "position foo",
            "position startpos e2e4",
        ] {
            assert!(session.apply_line("position startpos moves e2e4").is_ok());
            assert!(session.apply_line(bad).is_err(), "{bad}");
            assert_eq!(session.engine().position().fen(), fen, "{bad}");
            assert!(session.engine().refused_position().is_some(), "{bad}");
        }
    }
}
