//! The search's use of the Syzygy tables: what one search does with them
//! ([`TbSearch`], set up at the root by [`prepare`]); the probe inside the
//! search is `Worker::probe_tablebase` (`tbprobe.rs`).
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

use shakmaty::{Move, Position as _};

use super::limits::TbSettings;
use super::root::RootMoves;
use crate::chess::Position;
use crate::tb::{Tablebases, Verdict, rank_root_moves};

/// How the tables take part in one search.
#[derive(Clone, Copy)]
pub(super) struct TbSearch<'a> {
    /// The tables.
    pub tables: &'a Tablebases,
    /// Positions with at most this many pieces are probed (0: none).
    pub cardinality: usize,
    /// Positions with exactly `cardinality` pieces only at this depth or
    /// more.
    pub probe_depth: i32,
    /// The 50-move rule counts.
    pub rule50: bool,
    /// Probes made to rank the root moves.
    pub root_hits: u64,
}

/// The tables' part in a search of `pos` over the root moves `moves` with
/// `settings`, and the root moves, ranked by the tables when the root is in
/// them.
pub(super) fn prepare<'a>(
    tables: Option<&'a Tablebases>,
    settings: TbSettings,
    pos: &Position,
    moves: &[Move],
) -> (Option<TbSearch<'a>>, RootMoves) {
    let Some(tables) = tables else {
        return (None, RootMoves::new(moves));
    };
    let max = tables.max_pieces();
    let mut tb = TbSearch {
        tables,
        cardinality: settings.probe_limit.min(max),
        // Tables for more pieces than there are: every position in reach
        // is probed, whatever its depth.
        probe_depth: if settings.probe_limit > max {
            0
        } else {
            settings.probe_depth
        },
        rule50: settings.rule50,
        root_hits: 0,
    };
    let pieces = pos.board().board().occupied().count();
    if moves.is_empty() || pieces > tb.cardinality {
        return (Some(tb), RootMoves::new(moves));
    }
    let Some(ranking) = rank_root_moves(tables, pos, moves) else {
        return (Some(tb), RootMoves::new(moves));
    };
    tb.root_hits = moves.len() as u64;
    let best = ranking.best().map(|w| w.verdict(tb.rule50));
    if ranking.by_dtz || best.is_none_or(|v| v != Verdict::Win) {
        tb.cardinality = 0;
    }
    (Some(tb), RootMoves::ranked(&ranking, tb.rule50))
}
