//! The façade the UCI layer drives: the current position, the options, the
//! transposition table and per-thread histories, and at most one running
//! search on its own thread.
//!
//! Every setter is all-or-nothing: a rejected position or option leaves the
//! previous one in place.

pub mod bench;
pub mod config;
pub mod options;

use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use shakmaty::Position as _;

use crate::chess::Position;
use crate::engine::options::{CLEAR_HASH, HASH, OptionSpec, OptionValue, Options, THREADS};
use crate::error::{OptionError, UciError};
use crate::search::params::SearchConfig;
use crate::search::{
    SEARCH_STACK_BYTES, SearchLimits, SearchReport, SearchSettings, Searcher, Signals,
};

/// Receives search reports on the search thread.
pub type Reporter = Arc<dyn Fn(SearchReport) + Send + Sync>;

struct RunningSearch {
    signals: Arc<Signals>,
    /// Set just before the search reports its `bestmove`: from then on the
    /// search is over for the GUI, and its thread only moments from ending.
    answered: Arc<AtomicBool>,
    handle: JoinHandle<()>,
}

/// The engine state behind the UCI loop.
pub struct Engine {
    position: Position,
    options: Options,
    searcher: Arc<Mutex<Searcher>>,
    reporter: Reporter,
    running: Option<RunningSearch>,
}

impl Engine {
    /// An engine at the start position with `options`; search reports go to
    /// `reporter`.
    ///
    /// # Errors
    ///
    /// When the `Hash` of `options` cannot be allocated.
    pub fn new(options: Options, reporter: Reporter) -> Result<Engine, OptionError> {
        let searcher = Searcher::new(settings(&options), options.hash_mb()).map_err(|e| {
            OptionError::refused(HASH, &options.hash_mb().to_string(), &e.to_string())
        })?;
        Ok(Engine {
            position: Position::startpos(),
            options,
            searcher: Arc::new(Mutex::new(searcher)),
            reporter,
            running: None,
        })
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

    /// `setoption`. On error nothing changes. `Hash`, `Threads` and
    /// `Clear Hash` are refused while a search runs (one that has sent its
    /// `bestmove` is waited for instead).
    ///
    /// # Errors
    ///
    /// [`OptionError`] for an unknown option, a bad value, or one that
    /// cannot be applied (a `Hash` that cannot be allocated).
    pub fn set_option(
        &mut self,
        name: &str,
        value: Option<&str>,
    ) -> Result<(&'static OptionSpec, OptionValue), OptionError> {
        let mut next = self.options.clone();
        let (spec, parsed) = next.set(name, value)?;
        let needs_idle = [HASH, THREADS, CLEAR_HASH].contains(&spec.name);
        if needs_idle && self.is_searching() && !self.has_answered() {
            return Err(OptionError::refused(
                spec.name,
                value.unwrap_or(""),
                "a search is running (send stop first)",
            ));
        }
        if needs_idle {
            // A search that has sent its bestmove may still be ending: a GUI
            // that sets Hash right after bestmove must not be refused.
            self.stop_and_wait();
        } else {
            self.reap();
        }
        // Only these touch the searcher, which no search holds now; the
        // others take effect with the next search.
        match spec.name {
            HASH => self
                .searcher()
                .resize_hash(next.hash_mb())
                .map_err(|e| OptionError::refused(HASH, value.unwrap_or(""), &e.to_string()))?,
            THREADS => self.searcher().set_settings(settings(&next)),
            CLEAR_HASH => self.searcher().clear_hash(),
            _ => {}
        }
        self.options = next;
        Ok((spec, parsed))
    }

    /// The searcher, once no search holds it (a search thread holds it for
    /// as long as it runs).
    fn searcher(&self) -> std::sync::MutexGuard<'_, Searcher> {
        self.searcher.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// `ucinewgame`: forget everything learned about the previous game (the
    /// hash table and the histories). Waits for a running search to stop.
    pub fn new_game(&mut self) {
        self.stop_and_wait();
        self.searcher().new_game();
    }

    /// The search settings the options give.
    pub fn settings(&self) -> SearchSettings {
        settings(&self.options)
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
        let settings = self.settings();
        let reporter = Arc::clone(&self.reporter);
        let searcher = Arc::clone(&self.searcher);
        let thread_signals = Arc::clone(&signals);
        let answered = Arc::new(AtomicBool::new(false));
        let thread_answered = Arc::clone(&answered);
        let handle = std::thread::Builder::new()
            .name("search".to_owned())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                let mut searcher = searcher.lock().unwrap_or_else(|p| p.into_inner());
                searcher.set_settings(settings);
                // Panic safety: a bug in the search must not leave the GUI
                // waiting for a bestmove that never comes.
                let run = std::panic::catch_unwind(AssertUnwindSafe(|| {
                    searcher.think_with(&position, &limits, &thread_signals, &|r| {
                        if matches!(r, SearchReport::Finished { .. }) {
                            thread_answered.store(true, Ordering::SeqCst);
                        }
                        reporter(r);
                    });
                }));
                if let Err(payload) = run
                    && !thread_answered.swap(true, Ordering::SeqCst)
                {
                    let reason = payload
                        .downcast_ref::<&str>()
                        .map(|s| (*s).to_owned())
                        .or_else(|| payload.downcast_ref::<String>().cloned())
                        .unwrap_or_else(|| "panic".to_owned());
                    let best = position.board().legal_moves().first().copied();
                    reporter(SearchReport::Failed { reason, best });
                }
            })
            .map_err(|e| UciError::BadArguments {
                command: "go",
                reason: format!("cannot start the search thread: {e}"),
            })?;
        self.running = Some(RunningSearch {
            signals,
            answered,
            handle,
        });
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

    /// Whether the running search (if any) has reported its `bestmove`.
    fn has_answered(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| r.answered.load(Ordering::SeqCst))
    }

    /// Joins a search thread that has already finished.
    fn reap(&mut self) {
        if !self.is_searching() {
            self.stop_and_wait();
        }
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

/// The search settings `options` give.
fn settings(options: &Options) -> SearchSettings {
    SearchSettings {
        threads: options.threads(),
        multipv: options.multipv(),
        move_overhead_ms: options.move_overhead_ms(),
        config: SearchConfig {
            null_move: options.null_move(),
            ..SearchConfig::default()
        },
    }
}
