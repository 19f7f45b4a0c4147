//! What one search does with the Syzygy tables ([`TbSearch`]), set up at
//! the root by [`prepare`]: the root moves ranked by the tables, and which
//! positions the search probes (see the module above for the whole story).

use shakmaty::{Move, Position as _};

use crate::chess::Position;
use crate::search::limits::TbSettings;
use crate::search::root::RootMoves;
use crate::tb::{Tablebases, Verdict, rank_root_moves};

/// How the tables take part in one search.
#[derive(Clone, Copy)]
pub(in crate::search) struct TbSearch<'a> {
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
pub(in crate::search) fn prepare<'a>(
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
