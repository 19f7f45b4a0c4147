//! Move ordering: the staged move picker, history heuristics and static
//! exchange evaluation.

pub mod history;
pub mod movepicker;
pub mod see;
