//! Test suites the engine is run on: EPD suites (`bm`/`am` moves, and the
//! points of a point suite such as STS by theme) and perft suites (node
//! counts by depth). The commands that run them are `cli/suites.rs`.
//!
//! | file | what it owns |
//! |---|---|
//! | `epd.rs` | an EPD suite's lines parsed, and searched in parallel: solved or not |
//! | `epd_points.rs` | a point suite's points: read from `c0`/`c8`/`c9`, added up by theme |
//! | `perft.rs` | a perft suite's lines (`FEN ;D1 n …`) parsed and checked in parallel |

pub mod epd;
pub mod epd_points;
pub mod perft;
