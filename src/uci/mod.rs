//! The UCI layer: the protocol loop. stdin is read on its own thread and
//! handed over line by line to a [`Session`] (`session.rs`), which turns each
//! line into a [`Command`](command::Command) (`command.rs`) and an engine
//! call; everything written goes through [`output::Output`]
//! (`output.rs`), the win/draw/loss chances of `UCI_ShowWDL` with it
//! (`wdl.rs`) and the board of the net's piece values of `eval`
//! (`piece_board.rs`). End of input means `quit` (a running perft, bench or
//! tool's command finishes first).

pub mod command;
pub mod output;
mod piece_board;
mod session;
pub mod wdl;

pub use session::{ENGINE_AUTHOR, ENGINE_NAME, Flow, Outcome, Session};

use std::io::{BufRead, BufReader, Read};
use std::sync::Arc;
use std::sync::mpsc;

use crate::engine::config::{CONFIG_FILE_NAME, Config};
use crate::error::ConfigError;
use crate::search::Signals;
use output::Output;

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

/// Lines a caller of [`run_lines`] handles itself, before the session
/// sees them (the tools' `genfens`): it gets each line and the output, and
/// says what it did with it ([`Taken`]). When it takes the line it logs it
/// itself, with [`Output::log_input`], before answering.
pub type Extension<'a> = dyn FnMut(&str, &Arc<Output>) -> Taken + 'a;

/// What an [`Extension`] did with a line.
pub enum Taken {
    /// Not its line: the session handles it.
    No,
    /// Its line, answered already (a quick answer, or an error).
    Answered,
    /// Its line, with work that takes time: run as an engine job
    /// ([`Engine::run_tool`](crate::engine::Engine::run_tool)), so that
    /// `isready`, `stop` and `quit` are answered meanwhile.
    Run(Tool),
}

/// A tool's work for a line: its name (for messages) and what it does; it
/// writes its own output and ends soon after [`Signals::stopped`].
pub struct Tool {
    /// The command's name (`genfens`).
    pub name: &'static str,
    /// The work.
    pub work: Box<dyn FnOnce(&Signals) + Send>,
}

/// When the work of a tool's line ([`Taken::Run`]) runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolRuns {
    /// Beside the loop, which goes on reading (stdin: a GUI or a person
    /// may send `isready`, `stop` or `quit` meanwhile).
    Beside,
    /// Each to its end before the next line is read (the command line's
    /// UCI commands, all given at once: `genfens … quit` must give every
    /// position before it quits).
    InTurn,
}

/// Runs the UCI loop on `lines`, writing to stdout, until `quit` or the
/// end of the lines, with the settings `config` and `problems`,
/// engine.toml's problems found on reading it leniently
/// ([`Config::discover_lenient`]). Each line goes to `extension` first;
/// the lines it does not take go to the [`Session`], and the work of those
/// it takes runs as `tools` says. The command line's UCI commands
/// (`shears "setoption name Hash value 64" "go depth 5"`) run this way, as
/// the lines of stdin do.
///
/// A bad engine.toml does not stop the engine (a GUI would show only an
/// engine that does not start): the refused keys keep their defaults, a
/// log file that cannot be opened means no log, an option value that
/// cannot be applied (a `Hash` too large to allocate, a `BookFile` or
/// `SyzygyPath` that cannot be used) its default; each problem is reported
/// once, as `info string error: …` after the first `uciok`.
///
/// # Errors
///
/// When even the default hash table cannot be allocated.
pub fn run_lines(
    config: &Config,
    problems: &[ConfigError],
    lines: impl IntoIterator<Item = String>,
    extension: &mut Extension<'_>,
    tools: ToolRuns,
) -> Result<(), String> {
    let mut messages: Vec<String> = problems
        .iter()
        .map(|e| format!("{e}; {}", e.consequence()))
        .collect();
    let log = match config.log_file.as_deref().map(Output::new_log).transpose() {
        Ok(log) => log,
        Err((file, source)) => {
            let e = ConfigError::LogFile {
                path: config
                    .source
                    .clone()
                    .unwrap_or_else(|| CONFIG_FILE_NAME.into()),
                file,
                source,
            };
            messages.push(format!("{e}; {}", e.consequence()));
            None
        }
    };
    let output = Arc::new(Output::with_log(log));
    let mut session =
        Session::start(config, Arc::clone(&output), messages).map_err(|e| e.to_string())?;
    for line in lines {
        match extension(&line, &output) {
            Taken::No => {}
            Taken::Answered => continue,
            Taken::Run(tool) => {
                session.run_tool(tool);
                if tools == ToolRuns::InTurn {
                    session.finish();
                }
                continue;
            }
        }
        if session.handle_line(&line) == Flow::Quit {
            return Ok(());
        }
    }
    // End of input means quit (a perft or bench still finishes).
    session.finish();
    Ok(())
}

/// Runs the UCI loop on stdin/stdout: [`run_lines`] with stdin's lines and
/// no extension.
///
/// # Errors
///
/// When even the default hash table cannot be allocated.
pub fn run(config: &Config, problems: &[ConfigError]) -> Result<(), String> {
    run_lines(
        config,
        problems,
        spawn_reader(std::io::stdin()).iter(),
        &mut |_, _| Taken::No,
        ToolRuns::Beside,
    )
}
