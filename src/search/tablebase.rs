//! The search's use of the Syzygy tables: what one search does with them
//! ([`TbSearch`], set up at the root by [`prepare`]), and the probe inside
//! the search ([`Worker::probe_tablebase`]).
//!
//! At the root, when the position is in the tables, the root moves are
//! ranked by them (`tb::rank_root_moves`) and the search only ever plays a
//! move of the best rank: MultiPV line `k` searches the moves of the rank
//! of the `k`-th move (see `root.rs`). With DTZ ranking that alone converts
//! every win and holds every draw, so the search itself does not probe
//! (Stockfish does the same); with WDL ranking it goes on probing.
//!
//! Inside the search, a position reached by a capture or pawn move (its
//! WDL value is exact then) with few enough pieces is probed: a draw ends
//! the node, a win is a lower bound and a loss an upper bound on its score
//! ([`tb_win_in`]), used to cut when they reach beta (or stay below alpha)
//! and stored in the transposition table, else kept as a bound on what
//! the node's own search returns. With the 50-move rule a cursed win or a
//! blessed loss is a draw.

use shakmaty::{Move, Position as _};

use super::limits::TbSettings;
use super::node::{NodeKind, Window};
use super::root::RootMoves;
use super::score::{INFINITE, MAX_PLY, tb_win_in};
use super::tt::{Bound, TtEntry};
use super::worker::Worker;
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

/// What a probe inside the search tells the node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum TbProbe {
    /// No probe, or the tables could not tell.
    Nothing,
    /// The node ends with this score.
    Cut(i32),
    /// A PV node: its score is at least this (a win).
    AtLeast(i32),
    /// A PV node: its score is at most this (a loss).
    AtMost(i32),
}

impl Worker<'_> {
    /// Tablebase probe of the node at `ply`, searched to `depth` in
    /// `window` (not the root, no excluded move): see the module
    /// documentation.
    pub(super) fn probe_tablebase<N: NodeKind>(
        &mut self,
        ply: usize,
        depth: i32,
        window: &Window,
        in_check: bool,
    ) -> TbProbe {
        let Some(tb) = self.shared.tb else {
            return TbProbe::Nothing;
        };
        let board = self.pos.board();
        let pieces = board.board().occupied().count();
        if pieces > tb.cardinality
            || (pieces == tb.cardinality && depth < tb.probe_depth)
            || board.halfmoves() != 0
            || board.castles().any()
        {
            return TbProbe::Nothing;
        }
        let Some(wdl) = tb.tables.probe_wdl(board) else {
            return TbProbe::Nothing;
        };
        self.stats.tb_hits += 1;
        let (score, bound) = match wdl.verdict(tb.rule50) {
            Verdict::Win => (tb_win_in(ply), Bound::Lower),
            Verdict::Loss => (-tb_win_in(ply), Bound::Upper),
            Verdict::Draw => (0, Bound::Exact),
        };
        let cuts = match bound {
            Bound::Lower => score >= window.beta,
            Bound::Upper => score <= window.alpha,
            _ => true,
        };
        if cuts {
            self.store_tablebase_score(ply, depth, score, bound, in_check);
            return TbProbe::Cut(score);
        }
        match bound {
            Bound::Lower if N::PV => TbProbe::AtLeast(score),
            Bound::Upper if N::PV => TbProbe::AtMost(score),
            _ => TbProbe::Nothing,
        }
    }

    /// Stores a tablebase score: deeper than the node's depth, since no
    /// search changes it (with the static evaluation, which the table's
    /// readers take from every entry with a score).
    fn store_tablebase_score(
        &mut self,
        ply: usize,
        depth: i32,
        score: i32,
        bound: Bound,
        in_check: bool,
    ) {
        if !self.shared.config.tt {
            return;
        }
        let eval = if in_check { -INFINITE } else { self.evaluate() };
        let entry = TtEntry {
            mv: None,
            score,
            eval,
            depth: (depth + 6).min(MAX_PLY as i32 - 1),
            bound,
        };
        self.shared.tt.store(self.pos.key(), ply, entry);
    }
}
