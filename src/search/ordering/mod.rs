//! Move ordering: the staged move picker, and the history heuristics.

pub mod history;
pub mod movepicker;
