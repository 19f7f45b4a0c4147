//! The tablebase probe inside the search ([`Worker::probe_tablebase`]):
//! a position reached by a capture or pawn move with few enough pieces
//! (see `TbSearch` in `setup.rs`) is probed for WDL; a draw ends the
//! node, a win or loss cuts when it is a bound beyond the window, else
//! bounds a PV node's score.

use shakmaty::{Move, Position as _};

use crate::search::node::{NodeKind, Window};
use crate::search::score::{INFINITE, MAX_PLY, is_mate, tb_win_in};
use crate::search::tt::{Bound, TtEntry};
use crate::search::worker::Worker;
use crate::tb::Verdict;

/// What a probe inside the search tells the node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::search) enum TbProbe {
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
    pub(in crate::search) fn probe_tablebase<N: NodeKind>(
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

    /// Root in the tables: the line of root move `m`, shown with the
    /// tables' score (not a mate the search found), ends before the first
    /// move that leaves the verdict the tables gave `m` (the search does
    /// not probe below such a root, so its line may wander into a draw that
    /// the score does not show).
    pub(in crate::search) fn trim_root_line(&mut self, m: Move) {
        let Some(tb) = self.shared.tb else {
            return;
        };
        let Some(rm) = self.root.moves.iter_mut().find(|rm| rm.mv == m) else {
            return;
        };
        let Some(tb_score) = rm.tb_score else {
            return;
        };
        if is_mate(rm.score) {
            return;
        }
        // The verdict for the side to move after each move of the line:
        // after `m` the opponent's, the reverse of `m`'s.
        let mut expected = -match tb_score.signum() {
            1 => Verdict::Win,
            -1 => Verdict::Loss,
            _ => Verdict::Draw,
        };
        let mut board = self.pos.board().clone();
        let mut keep = 0;
        for &mv in &rm.pv {
            if !board.is_legal(mv) {
                break;
            }
            board.play_unchecked(mv);
            let verdict = tb.tables.probe_wdl(&board).map(|w| w.verdict(tb.rule50));
            if verdict != Some(expected) {
                break;
            }
            keep += 1;
            expected = -expected;
        }
        // The root move itself stays: the tables chose it.
        rm.pv.truncate(keep.max(1));
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
            pv: false,
        };
        self.shared.tt.store(self.pos.key(), ply, entry);
    }
}
