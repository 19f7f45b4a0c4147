//! The search's use of the Syzygy tables: what one search does with them
//! (`TbSearch`, set up at the root by `prepare`: `setup.rs`); the probe
//! inside the search, `Worker::probe_tablebase` (`probe.rs`).
//!
//! At the root, when the position is in the tables, the root moves are
//! ranked by them (`tb::rank_root_moves`) and the search only ever plays a
//! move of the best rank: MultiPV line `k` searches the moves of the rank
//! of the `k`-th move (see `root.rs`). With DTZ ranking that alone converts
//! every win and holds every draw, so the search itself does not probe
//! (Stockfish does the same); with WDL ranking it goes on probing. Among
//! wins of one rank the tables' quickest progress is played unless the
//! search proves a mate (each win's floor, `RootMove::tb_floor`).
//!
//! Inside the search, a position reached by a capture or pawn move (its
//! WDL value is exact then) with few enough pieces is probed: a draw ends
//! the node, a win is a lower bound and a loss an upper bound on its score
//! (`tb_win_in`), used to cut when they reach beta (or stay below alpha)
//! and stored in the transposition table, else kept as a bound on what
//! the node's own search returns. With the 50-move rule a cursed win or a
//! blessed loss is a draw.

// No re-exports: the probe is a part of the worker and the setup a part of
// the shared state, so each is named by its own path (a re-export here would
// tie the two into one module and close a cycle).
pub(super) mod probe;
pub(super) mod setup;
