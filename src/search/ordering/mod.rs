//! Move ordering: the staged move picker, and the history heuristics.

pub mod history;
pub mod movepicker;

/// How much of the move ordering is used: each step adds one technique to
/// the previous ones (for measuring what each step buys; the engine plays
/// with [`OrderingStep::Full`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum OrderingStep {
    /// TT move first, then captures by MVV-LVA, then quiets in generation order.
    MvvLva,
    /// Plus static exchange evaluation: losing captures go last.
    See,
    /// Plus killer moves and the countermove.
    Killers,
    /// Plus the butterfly history for quiet moves.
    History,
    /// Plus quiet checks before the other quiets: everything.
    Full,
}
