//! UCI commands on the command line, and `genfens`.
//!
//! Testers start engines with UCI commands as arguments, one command an
//! argument: OpenBench runs `shears "genfens N seed S book <file|None>"
//! "quit"` (and `"setoption name … value …"` before it when it has to).
//! When the first argument starts with a UCI command word (or `genfens`)
//! and is not one of the subcommands (`shears bench` stays the subcommand,
//! `shears "bench 13"` is the UCI command), every argument is run as a UCI
//! line, in order, and the engine then quits as at the end of its input.
//!
//! `genfens` is answered here, in the UCI loop of stdin too: it belongs to
//! the data tools (`datagen/genfens.rs`), not to the engine. Its positions
//! are found as an engine job, as a perft is counted: on stdin the loop
//! goes on answering `isready`, `stop` (which ends it) and `quit` (which
//! ends it and the engine) meanwhile, and end of input lets it finish; on
//! the command line, where every line is given at once, each `genfens`
//! gives all its positions before the next argument runs.

use std::ffi::OsString;
use std::ops::ControlFlow;
use std::process::ExitCode;
use std::sync::Arc;

use clap::CommandFactory;

use super::Cli;
use crate::datagen::genfens;
use shears::engine::config::Config;
use shears::error::ConfigError;
use shears::search::Signals;
use shears::uci::{self, Taken, Tool, ToolRuns, command::is_command_word, output::Output};

/// The UCI lines of a command line `args` (the program's name first), or
/// `None` when it is a subcommand's (or clap's to refuse).
pub fn uci_lines(args: &[OsString]) -> Option<Vec<String>> {
    let first = args.get(1)?.to_str()?;
    if first.starts_with('-') || first == "help" || Cli::command().find_subcommand(first).is_some()
    {
        return None;
    }
    let word = first.split_whitespace().next()?;
    if !(is_command_word(word) || genfens::is_genfens(word)) {
        return None;
    }
    Some(
        args[1..]
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect(),
    )
}

/// Runs `lines` as UCI input (see the module docs), with engine.toml's
/// settings as the UCI mode reads them.
pub fn run_uci_lines(lines: Vec<String>) -> ExitCode {
    let (config, problems) = Config::discover_lenient(None);
    exit_code(uci::run_lines(
        &config,
        &problems,
        lines,
        &mut genfens_line,
        ToolRuns::InTurn,
    ))
}

/// The UCI loop on stdin, `genfens` included.
pub(super) fn run_stdin(config: &Config, problems: &[ConfigError]) -> ExitCode {
    let lines = uci::spawn_reader(std::io::stdin());
    exit_code(uci::run_lines(
        config,
        problems,
        lines.iter(),
        &mut genfens_line,
        ToolRuns::Beside,
    ))
}

fn exit_code(result: Result<(), String>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("shears: {e}");
            ExitCode::from(2)
        }
    }
}

/// Takes a `genfens` line (and leaves every other line): a malformed one
/// is answered at once with an error; the positions are found as an
/// engine job ([`Taken::Run`]), so that `isready`, `stop` and `quit` are
/// answered meanwhile; `stop` ends it after the position being found.
fn genfens_line(line: &str, output: &Arc<Output>) -> Taken {
    if !genfens::is_genfens(line) {
        return Taken::No;
    }
    output.log_input(line);
    let request = match genfens::parse(line) {
        Ok(request) => request,
        Err(e) => {
            output.error(&e.to_string());
            return Taken::Answered;
        }
    };
    if !request.extra.is_empty() {
        output.line(&format!(
            "info string note: genfens does not use \"{}\"",
            shears::error::echo(&request.extra.join(" "))
        ));
    }
    let output = Arc::clone(output);
    Taken::Run(Tool {
        name: "genfens",
        work: Box::new(move |signals: &Signals| {
            let given = genfens::generate(&request, &mut |fen| {
                output.line(&format!("info string genfens {fen}"));
                if signals.stopped() {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            match given {
                Ok(given) if given < request.count => output.line(&format!(
                    "info string stopped: genfens gave {given} of {} positions",
                    request.count
                )),
                Ok(_) => {}
                Err(e) => output.error(&e.to_string()),
            }
        }),
    })
}
