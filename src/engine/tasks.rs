//! The engine's jobs other than the answer to a `go`: `go perft`, `bench`
//! and a tool's command (`genfens` of the tools crate), each on a thread of
//! its own through [`Engine::start`], so that the UCI thread goes on
//! answering; `stop` ends each of them early.

use std::time::Instant;

use super::Engine;
use super::bench;
use super::job::JobKind;
use super::report::Report;
use crate::chess::perft;
use crate::error::ThreadError;
use crate::search::Signals;
use crate::search::params::SearchConfig;

impl Engine {
    /// `go perft N`: counts the moves of the current position to `depth`,
    /// root move by root move, on all cores; `stop` ends it early with the
    /// counts so far.
    ///
    /// # Errors
    ///
    /// When the perft thread cannot be started.
    pub fn perft(&mut self, depth: u32) -> Result<(), ThreadError> {
        let position = self.position().clone();
        self.start(
            JobKind::Perft,
            false,
            move |signals, send| {
                let start = Instant::now();
                let moves = perft::divide_until(&position, depth, None, signals.stop_flag());
                send(Report::Perft {
                    moves,
                    time: start.elapsed(),
                    stopped: signals.stopped(),
                });
            },
            |reason| Report::Failed {
                job: JobKind::Perft.name(),
                reason,
            },
        )
    }

    /// `bench [depth]`: the bench run (fixed positions, one thread, its own
    /// table; of the engine's options only `Use NNUE` and `EvalFile`
    /// matter: the evaluation it plays with); `stop` ends it early.
    ///
    /// # Errors
    ///
    /// When the bench thread cannot be started.
    pub fn bench(&mut self, depth: u32) -> Result<(), ThreadError> {
        let evaluation = self.evaluation();
        self.start(
            JobKind::Bench,
            false,
            move |signals, send| {
                let mut progress =
                    |p: &bench::BenchPosition| send(Report::BenchPosition(p.clone()));
                let config = SearchConfig::default();
                let result = bench::run_with(depth, config, &evaluation, signals, &mut progress);
                send(Report::Bench(result));
            },
            |reason| Report::Failed {
                job: JobKind::Bench.name(),
                reason,
            },
        )
    }

    /// A tool's command that takes time (`genfens` of the tools crate),
    /// run as a job named `name` as perft and bench are, so that the UCI
    /// thread goes on answering `isready` and passing on `stop` and `quit`.
    /// `work` writes its own output and should end soon after
    /// [`Signals::stopped`]; the engine knows nothing else of it. A running
    /// job is stopped first; at end of input the tool finishes
    /// ([`Engine::finish`]).
    ///
    /// # Errors
    ///
    /// When the job's thread cannot be started.
    pub fn run_tool(
        &mut self,
        name: &'static str,
        work: impl FnOnce(&Signals) + Send + 'static,
    ) -> Result<(), ThreadError> {
        self.start(
            JobKind::Tool(name),
            false,
            move |signals, send| {
                work(signals);
                send(Report::ToolDone);
            },
            move |reason| Report::Failed { job: name, reason },
        )
    }
}
