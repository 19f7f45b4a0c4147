//! The façade the UCI layer drives: the current position and options, and
//! at most one running search on its own thread.
//!
//! Every setter is all-or-nothing: a rejected position or option leaves the
//! previous one in place.

use std::sync::Arc;
use std::thread::JoinHandle;

use crate::error::{OptionError, UciError};
use crate::options::{OptionSpec, OptionValue, Options};
use crate::position::Position;
use crate::search::{SearchLimits, SearchReport, Signals, search};

/// Stack size of a search thread: deep recursion with per-ply move lists
/// needs more than the default 2 MiB.
pub const SEARCH_STACK_BYTES: usize = 64 << 20;

/// Receives search reports on the search thread.
pub type Reporter = Arc<dyn Fn(SearchReport) + Send + Sync>;

struct RunningSearch {
    signals: Arc<Signals>,
    handle: JoinHandle<()>,
}

/// The engine state behind the UCI loop.
pub struct Engine {
    position: Position,
    options: Options,
    reporter: Reporter,
    running: Option<RunningSearch>,
}

impl Engine {
    /// An engine at the start position with `options`; search reports go to
    /// `reporter`.
    pub fn new(options: Options, reporter: Reporter) -> Engine {
        Engine {
            position: Position::startpos(),
            options,
            reporter,
            running: None,
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Replaces the position (already fully built and validated).
    pub fn set_position(&mut self, position: Position) {
        self.position = position;
    }

    /// The current options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// `setoption`. On error nothing changes.
    ///
    /// # Errors
    ///
    /// [`OptionError`] for an unknown option or a bad value.
    pub fn set_option(
        &mut self,
        name: &str,
        value: Option<&str>,
    ) -> Result<(&'static OptionSpec, OptionValue), OptionError> {
        self.options.set(name, value)
    }

    /// `ucinewgame`: forget everything learned about the previous game.
    /// (Nothing persists between searches yet.)
    pub fn new_game(&mut self) {
        self.position = Position::startpos();
    }

    /// Starts a search of the current position. A search still running is
    /// stopped first (it still sends its own `bestmove`).
    ///
    /// # Errors
    ///
    /// When the search thread cannot be started.
    pub fn go(&mut self, limits: SearchLimits) -> Result<(), UciError> {
        self.stop_and_wait();
        let signals = Arc::new(Signals::new(limits.ponder));
        let position = self.position.clone();
        let overhead = self.options.move_overhead_ms();
        let reporter = Arc::clone(&self.reporter);
        let thread_signals = Arc::clone(&signals);
        let handle = std::thread::Builder::new()
            .name("search".to_owned())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                search(&position, &limits, overhead, &thread_signals, &mut |r| {
                    reporter(r)
                });
            })
            .map_err(|e| UciError::BadArguments {
                command: "go",
                reason: format!("cannot start the search thread: {e}"),
            })?;
        self.running = Some(RunningSearch { signals, handle });
        Ok(())
    }

    /// `stop`: the running search (if any) stops and sends `bestmove`.
    pub fn stop(&self) {
        if let Some(r) = &self.running {
            r.signals.stop();
        }
    }

    /// `ponderhit`: the pondering search now plays for real.
    pub fn ponderhit(&self) {
        if let Some(r) = &self.running {
            r.signals.ponderhit();
        }
    }

    /// Whether a search thread is still running.
    pub fn is_searching(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| !r.handle.is_finished())
    }

    /// Stops any running search and waits for its thread to end.
    pub fn stop_and_wait(&mut self) {
        if let Some(r) = self.running.take() {
            r.signals.stop();
            // A panicking search thread has already reported through the
            // panic hook; there is nothing more to do with it here.
            let _ = r.handle.join();
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop_and_wait();
    }
}
