//! The board layer: our [`Position`] over shakmaty (FEN, move text, keys,
//! the rules that end a game), staged move generation, the pieces that
//! alone block a slider's line to a king, stored moves made legal moves, the gives-check test, piece
//! values, static exchange evaluation, perft, random games for tests and
//! data, and PGN games read in. Nothing here evaluates or
//! searches.

pub(crate) mod blockers;
pub(crate) mod checks;
mod fen;
pub(crate) mod movegen;
mod notation;
pub mod perft;
pub mod pgn;
mod position;
pub(crate) mod quick_move;
pub mod random;
pub(crate) mod see;
pub mod values;
pub mod zobrist;

pub use checks::gives_check;
pub use fen::{FenNote, START_FEN, fen_needs_chess960};
pub use movegen::tactical_moves;
pub use notation::move_to_uci;
pub use position::Position;
