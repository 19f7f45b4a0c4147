//! Playing at a chosen strength (`UCI_LimitStrength`, `UCI_Elo`): all the
//! strength code together.
//!
//! | file | what it owns |
//! |---|---|
//! | `level.rs` | what a level is, as numbers ([`Level`], the calibration), and its choices: which candidate to play, how long to take |
//! | `handicap.rs` | the evaluation of a level ([`Handicap`]): positional terms faded, seeded noise; the search applies it as an [`EvalHandicap`](crate::search::EvalHandicap) |
//! | `limited.rs` | a `go` at a level: its search settings and limits, the move chosen among the lines, the wait before `bestmove` (run by `engine/answer.rs`) |

mod handicap;
mod level;
pub(super) mod limited;

pub use handicap::Handicap;
pub use level::{
    CALIBRATION, DECISIVE, ELO_DEFAULT, ELO_MAX, ELO_MIN, Level, MIN_NODES, NODES_AT_1000,
    SHARE_MAX, SKILL_PER_DOUBLING, choice_value, choose, interpolate, nodes_for_skill, think_share,
};
