//! Syzygy endgame tablebases: the tables of `SyzygyPath` ([`Tablebases`],
//! probed through [shakmaty-syzygy](https://docs.rs/shakmaty-syzygy)), what
//! they say in our own types ([`Wdl`], [`Dtz`], [`Verdict`]), and the
//! ranking of root moves by them ([`rank_root_moves`]).
//!
//! It owns reading and probing the tables, keeping broken ones out, and
//! the root ranking; it does not search (the search's probes and scores
//! are in `search/tablebase/`) and does not print
//! (problems are queued as messages for the UCI layer).
//!
//! ```no_run
//! use shears::chess::Position;
//! use shears::tb::{Tablebases, Wdl};
//! let tables = Tablebases::open("../shared/syzygy").unwrap();
//! let pos = Position::from_fen("8/8/8/8/8/2k5/8/K6R w - - 0 1", false).unwrap();
//! assert_eq!(tables.probe_wdl(pos.board()), Some(Wdl::Win));
//! ```

mod describe;
mod root;
mod tables;
mod values;

pub use describe::describe;
pub use root::{RankedMove, RootRanking, rank_root_moves};
pub use tables::{EMPTY_PATH, Tablebases, TbError, is_off};
pub use values::{Dtz, Verdict, Wdl};
