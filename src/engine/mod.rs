//! The engine layer: the façade the UCI loop drives ([`Engine`]: position,
//! options, the searcher, the opening book, one running job), the jobs it
//! runs off the UCI thread (search, perft, bench), what they report, the
//! option table and engine.toml.

pub mod bench;
pub mod config;
mod facade;
mod job;
mod limited;
pub mod opening;
mod option_spec;
pub mod options;
mod report;
pub mod strength;

pub use facade::Engine;
pub use report::{Listener, Report};
