//! What one search thread keeps from one search of a game to the next.

use crate::eval::PawnCache;
use crate::search::ordering::history::History;

/// One search thread's state between the searches of a game.
#[derive(Clone, Default)]
pub struct ThreadState {
    /// Killers, countermoves and butterfly history: what the thread has
    /// learned about the game (reset by `ucinewgame`).
    pub history: History,
    /// The pawn-and-king evaluation cache. A hit returns exactly what a
    /// fresh computation would, so keeping it never changes a search; it
    /// saves allocating and zeroing 400 KB per search and starts warm.
    pub pawns: PawnCache,
}
