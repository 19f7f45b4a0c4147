//! The flags a running search shares with whoever started it: stop, and
//! whether it is still pondering.

use std::sync::atomic::{AtomicBool, Ordering};

/// Flags shared between the UCI thread and a running search.
#[derive(Debug, Default)]
pub struct Signals {
    stop: AtomicBool,
    pondering: AtomicBool,
}

impl Signals {
    /// Fresh signals for a search; `ponder` marks a `go ponder`.
    pub fn new(ponder: bool) -> Signals {
        Signals {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(ponder),
        }
    }

    /// Asks the search to stop as soon as it can.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Whether a stop was asked for.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The stop flag itself, for work below the search that only needs to
    /// know when to give up (perft).
    pub fn stop_flag(&self) -> &AtomicBool {
        &self.stop
    }

    /// `ponderhit`: the search goes on, now under its time limits.
    pub fn ponderhit(&self) {
        self.pondering.store(false, Ordering::SeqCst);
    }

    /// Whether the search is still pondering.
    pub fn pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }
}
