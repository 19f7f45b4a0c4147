//! The engine layer: the façade the UCI loop drives ([`Engine`]: position,
//! options, the searcher, the opening book, one running job), the jobs it
//! runs off the UCI thread (the answer to a `go`, perft, bench, a tool's
//! command: `tasks.rs`), what they
//! report, the option table and engine.toml.
//!
//! Every `go` is answered in one place, `answer.rs`: the thinker (the
//! engine's search, a teaching search, or none) returns its outcome, and
//! the answer waits for `stop`/`ponderhit` when it must, chooses the move
//! (best line, a limited level's choice in `strength/limited.rs`, the book's move in
//! `opening.rs`), paces a level, and sends the final line and `bestmove`.

mod answer;
pub mod bench;
pub mod config;
mod evaluation;
mod facade;
mod job;
pub mod opening;
mod option_spec;
pub mod options;
mod report;
pub mod strength;
mod tasks;

pub use facade::Engine;
pub use report::{EvalTrace, Listener, NetEval, NetNews, PlayingEval, Report, ScoreContext, Style};
