//! A job of the engine (a search, a perft, a bench, a tool's command) on a
//! thread of its own,
//! so that the UCI thread stays free to answer `isready` and to pass on
//! `stop` at once.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;

use super::report::Report;
use crate::error::ThreadError;
use crate::search::{SEARCH_STACK_BYTES, Signals};

/// Where a job's reports go.
pub(super) type Sink = Arc<dyn Fn(Report) + Send + Sync>;

/// What a job does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum JobKind {
    /// The answer to a `go`.
    Search,
    /// `go perft`.
    Perft,
    /// `bench`.
    Bench,
    /// A tool's command (`genfens`), named: work the engine runs without
    /// knowing what it is ([`Engine::run_tool`](super::Engine::run_tool)).
    Tool(&'static str),
}

impl JobKind {
    /// The job's name (its thread's, and the one messages show).
    pub fn name(self) -> &'static str {
        match self {
            JobKind::Search => "search",
            JobKind::Perft => "perft",
            JobKind::Bench => "bench",
            JobKind::Tool(name) => name,
        }
    }

    /// The UCI command that starts it.
    pub fn command(self) -> &'static str {
        match self {
            JobKind::Search | JobKind::Perft => "go",
            JobKind::Bench => "bench",
            JobKind::Tool(name) => name,
        }
    }
}

/// A running (or finished, not yet joined) job.
pub(super) struct Job {
    kind: JobKind,
    signals: Arc<Signals>,
    /// Set as the job sends its final report: from then on the job is over
    /// for the GUI, and its thread only moments from ending.
    answered: Arc<AtomicBool>,
    handle: JoinHandle<()>,
}

impl Job {
    /// Starts `work` on a thread named for its `kind` with a search's stack. It
    /// reports through the function it is given, which passes the reports on
    /// to `sink`. Should `work` panic (a bug), the panic is caught and,
    /// unless the final report was already sent, `on_panic(reason)` is sent
    /// in its place, so that a GUI is never left waiting.
    ///
    /// # Errors
    ///
    /// When the thread cannot be started.
    pub fn start(
        kind: JobKind,
        signals: Arc<Signals>,
        sink: Sink,
        work: impl FnOnce(&Signals, &(dyn Fn(Report) + Sync)) + Send + 'static,
        on_panic: impl FnOnce(String) -> Report + Send + 'static,
    ) -> Result<Job, ThreadError> {
        let answered = Arc::new(AtomicBool::new(false));
        let (job_signals, job_answered) = (Arc::clone(&signals), Arc::clone(&answered));
        let handle = std::thread::Builder::new()
            .name(kind.name().to_owned())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                let send = |report: Report| {
                    if report.is_final() {
                        job_answered.store(true, Ordering::SeqCst);
                    }
                    sink(report);
                };
                let run = std::panic::catch_unwind(AssertUnwindSafe(|| work(&job_signals, &send)));
                if let Err(payload) = run
                    && !job_answered.load(Ordering::SeqCst)
                {
                    let reason = payload
                        .downcast_ref::<&str>()
                        .map(|s| (*s).to_owned())
                        .or_else(|| payload.downcast_ref::<String>().cloned())
                        .unwrap_or_else(|| "panic".to_owned());
                    send(on_panic(reason));
                }
            })
            .map_err(|e| ThreadError {
                command: kind.command(),
                job: kind.name(),
                reason: e.to_string(),
            })?;
        Ok(Job {
            kind,
            signals,
            answered,
            handle,
        })
    }

    /// What the job does.
    pub fn kind(&self) -> JobKind {
        self.kind
    }

    /// Asks the job to stop; it still sends its final report.
    pub fn stop(&self) {
        self.signals.stop();
    }

    /// `ponderhit`: a pondering search now plays for real.
    pub fn ponderhit(&self) {
        self.signals.ponderhit();
    }

    /// Whether the job's thread is still running.
    pub fn is_running(&self) -> bool {
        !self.handle.is_finished()
    }

    /// Whether the job has sent its final report.
    pub fn has_answered(&self) -> bool {
        self.answered.load(Ordering::SeqCst)
    }

    /// Stops the job and waits for its thread to end.
    pub fn stop_and_join(self) {
        self.stop();
        self.join();
    }

    /// Waits for the job's thread to end.
    pub fn join(self) {
        // A panic was caught inside the thread; there is nothing more to do
        // with one here.
        let _ = self.handle.join();
    }
}
