//! The UCI layer: the protocol loop. stdin is read on its own thread and
//! handed over line by line to a [`Session`] (`session.rs`), which turns each
//! line into a [`Command`](command::Command) (`command.rs`) and an engine
//! call; everything written goes through [`output::Output`]
//! (`output.rs`). End of input means `quit` (a running perft or bench
//! finishes first).

pub mod command;
pub mod output;
mod session;

pub use session::{ENGINE_AUTHOR, ENGINE_NAME, Flow, Outcome, Session};

use std::io::{BufRead, BufReader, Read};
use std::sync::Arc;
use std::sync::mpsc;

use crate::engine::config::Config;
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

/// Runs the UCI loop on stdin/stdout until `quit` or end of input.
///
/// # Errors
///
/// When the log file named in the configuration cannot be opened, the
/// configured hash table cannot be allocated or its `SyzygyPath` cannot be
/// used.
pub fn run(config: &Config) -> Result<(), String> {
    let output = Arc::new(
        Output::new(config.log_file.as_deref())
            .map_err(|e| format!("cannot open the log file: {e}"))?,
    );
    // An option engine.toml set that cannot be applied (a Hash too large
    // to allocate, a SyzygyPath that does not exist) names the file.
    let mut session = Session::new(config, output).map_err(|e| match &config.source {
        Some(path) => format!("{}: {e}", path.display()),
        None => e.to_string(),
    })?;
    let lines = spawn_reader(std::io::stdin());
    for line in lines.iter() {
        if session.handle_line(&line) == Flow::Quit {
            return Ok(());
        }
    }
    // End of input means quit (a perft or bench still finishes).
    session.finish();
    Ok(())
}
