//! Endgames and the Syzygy tables: positions generated from the tables'
//! materials, and endgames played out by Shears and judged by the tables.
//! The commands are `cli/tablebase.rs`; `tb`, which shows what the tables
//! say about one position, uses the engine's `tb` module alone.
//!
//! | file | what it owns |
//! |---|---|
//! | `generate.rs` | `shears tb-gen`: a reproducible EPD of won and drawn endgames |
//! | `play.rs` | `shears tb-play`: each endgame played to its end, checked against the tables' verdict |

pub mod generate;
pub mod play;
