//! The theory tools: pictures of the trees the textbook searches visit
//! (`shears tree`) and the algorithms measured side by side (`shears
//! compare`), over `search::theory`.
//!
//! | file | what it owns |
//! |---|---|
//! | `picture.rs` | which boxes a tree picture shows, their labels and places |
//! | `svg.rs`, `dot.rs` | a picture as SVG, as Graphviz |
//! | `compare.rs`, `report.rs` | running the algorithms on positions; the tables |
//! | `plot.rs` | nodes against depth on a log scale, as SVG |
//! | `text.rs` | values, counts and bytes as text; XML escaping |

pub mod compare;
pub mod dot;
pub mod picture;
pub mod plot;
pub mod report;
pub mod svg;
pub mod text;
