//! Every tunable number of the search, named for its role, and the switches
//! that turn each technique off (the proof tests search with everything off
//! and compare with plain minimax): the tunables together.
//!
//! | file | what it owns |
//! |---|---|
//! | `values.rs` | every tunable: value, SPSA range and step ([`TUNABLES`]) |
//! | `tunable.rs` | what a tunable is ([`Tunable`]): a constant, or an atomic in the `spsa` build |
//! | `spsa.rs` | tunables by name: find, list, set (the `spsa` build's options) |
//! | `lmr.rs` | the late-move-reduction table computed from `LMR_BASE` and `LMR_DIVISOR` |
//! | `config.rs` | [`SearchConfig`]: which techniques are on |
//!
//! Glossary: `ply` = distance from the root; `depth` = remaining draft;
//! `rfp` reverse futility pruning; `nmp` null-move pruning; `lmr` late move
//! reductions; `lmp` late move pruning; `see` static exchange evaluation;
//! `iir` internal iterative reduction; `qsearch` quiescence search; `tm`
//! time management.
//! Suffixes: BASE (constant part), MARGIN (score margin), FACTOR/DIVISOR
//! (scaling), MAX_DEPTH/MIN_DEPTH (where a technique applies), PERCENT.
//!
//! Each tunable is a [`Tunable`], read as `RFP_MARGIN.get()`: a constant in
//! the normal build, a UCI spin option of the same name in the `spsa` build
//! (see `tunable.rs`). Each line of `values.rs` gives the value, the range
//! an SPSA tuner may explore and its step; [`TUNABLES`] lists them all
//! (`shears spsa` prints them in OpenBench's format). Tunables are integers:
//! fractions are written in hundredths (or ten-thousandths) of the unit.

mod config;
pub(in crate::search) mod lmr;
mod spsa;
pub mod tunable;
mod values;

pub use config::SearchConfig;
pub use spsa::{TUNABLE_AT_RUN_TIME, find_tunable, set_tunable, tunable_specs};
pub use tunable::{Tunable, TunableSpec};
pub use values::*;
