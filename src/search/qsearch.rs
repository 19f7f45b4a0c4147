//! The quiescence search at the horizon of the main search: captures and
//! queen promotions until the position is quiet (all evasions when in
//! check), with stand-pat, delta and SEE pruning. At its first ply, after
//! the captures, the quiet moves that give check without losing material
//! are tried too: a mate or a fork one move past the horizon is then no
//! longer invisible. The checked side answers with all its evasions, and
//! below that only captures follow, so the search stays bounded.

use arrayvec::ArrayVec;
use shakmaty::{Chess, Move, Position as _};

use super::alphabeta::{Best, Update};
use super::node::{NodeKind, Window};
use super::ordering::movepicker::MovePicker;
use super::params::DELTA_MARGIN;
use super::prologue::StandPat;
use super::score::mated_in;
use super::tt::{Bound, TtEntry, TtMove};
use super::worker::Worker;
use crate::chess::checks::CheckInfo;
use crate::chess::movegen::generate_quiet_within;
use crate::chess::see::see_ge;
use crate::chess::values::material_gain;

/// The most quiet checking moves one quiescence node tries.
const MAX_QUIET_CHECKS: usize = 32;

/// How the search of one quiescence move ended.
enum Step {
    /// Searched; the node goes on.
    Searched,
    /// The move reached beta: the node fails high.
    Cutoff,
    /// The search was stopped: the node's result is void.
    Aborted,
}

impl Worker<'_> {
    /// Quiescence search of the current position at `ply` in `window`;
    /// with `checks`, quiet checking moves are tried after the captures
    /// (the horizon node of the main search asks for them, the nodes
    /// below it do not).
    pub(super) fn qsearch<N: NodeKind>(
        &mut self,
        ply: usize,
        mut window: Window,
        checks: bool,
    ) -> i32 {
        self.stack.at_mut(ply).pv.clear();
        if let Some(score) = self.visit(ply) {
            return score;
        }
        let in_check = self.pos.board().is_check();
        let config = self.shared.config;

        // Transposition table cutoff: every entry is at least as deep as
        // the quiescence search.
        let key = self.pos.key();
        let entry = self.probe_tt::<N>(key, ply);
        if !N::PV
            && let Some(e) = entry
            && e.cuts(window.alpha, window.beta)
        {
            return e.score;
        }
        // Stand pat: the side to move may decline every capture (with the
        // static evaluation corrected by the correction history, as the
        // main search prunes with it).
        let se = if in_check {
            self.node_eval(true, entry)
        } else {
            match self.stand_pat::<N>(entry, window) {
                StandPat::Eval(se) | StandPat::BelowAlpha(se) => se,
                StandPat::FailsHigh(score) => return score,
            }
        };
        let stand_pat = se.eval;
        if stand_pat >= window.beta {
            return stand_pat;
        }
        window.alpha = window.alpha.max(stand_pat);
        let original_alpha = window.alpha;
        let mut best = Best::new(stand_pat);

        // The TT move, checked for legality only after stand pat (which
        // often ends the node). Out of check only a capture or a queen
        // promotion is searched here, and a move onto an empty square
        // without promoting is neither (bar en passant): not worth the check.
        let board = self.pos.board();
        let tt_move = entry
            .and_then(|e| e.mv)
            .filter(|m| {
                in_check
                    || m.promotion.is_some()
                    || board.board().by_color(!board.turn()).contains(m.to)
                    || board.maybe_ep_square() == Some(m.to)
            })
            .and_then(|m| m.to_move(board, in_check));

        let mut picker = if in_check {
            MovePicker::new(tt_move, [None; 2], None, config.ordering)
        } else {
            MovePicker::qsearch(tt_move)
        };
        // The captures-only picker never asks about checks; evasions do.
        let check_info = if in_check {
            CheckInfo::new(self.pos.board())
        } else {
            CheckInfo::UNUSED
        };
        let mut searched = 0;
        let mut cutoff = false;
        while let Some((m, _)) = picker.next(self.pos.board(), self.history, &check_info) {
            if !in_check && config.pruning {
                // Delta pruning: even winning this piece cannot reach alpha.
                if stand_pat + material_gain(m) + DELTA_MARGIN.get() <= window.alpha {
                    continue;
                }
                // SEE pruning: skip captures that lose material.
                if !see_ge(self.pos.board(), m, 0) {
                    continue;
                }
            }
            searched += 1;
            match self.qsearch_move::<N>(m, ply, &mut window, &mut best) {
                Step::Searched => {}
                Step::Cutoff => {
                    cutoff = true;
                    break;
                }
                Step::Aborted => return 0,
            }
        }
        if in_check && searched == 0 {
            return mated_in(ply);
        }

        // Quiet checks: the quiet moves that check without losing material
        // (they belong to the check extension, and go with it).
        if checks && !cutoff && !in_check && config.extensions {
            for m in quiet_checks(self.pos.board()) {
                match self.qsearch_move::<N>(m, ply, &mut window, &mut best) {
                    Step::Searched => {}
                    Step::Cutoff => break,
                    Step::Aborted => return 0,
                }
            }
        }

        if config.tt {
            let entry = TtEntry {
                mv: best.mv.map(TtMove::from_move),
                score: best.score,
                eval: se.raw,
                depth: 0,
                bound: Bound::of(best.score, original_alpha, window.beta),
                pv: N::PV,
            };
            self.shared.tt.store(key, ply, entry);
        }
        best.score
    }

    /// Plays `m` at `ply`, searches it (quiescence, no quiet checks below)
    /// and folds its score into `best` and `window`.
    fn qsearch_move<N: NodeKind>(
        &mut self,
        m: Move,
        ply: usize,
        window: &mut Window,
        best: &mut Best,
    ) -> Step {
        self.play(m, ply);
        let score = -self.qsearch::<N>(ply + 1, window.child(), false);
        self.undo();
        if self.aborted {
            return Step::Aborted;
        }
        match best.update(m, score, window) {
            Update::RaisedAlpha => {
                if N::PV {
                    self.stack.extend_pv(ply, m);
                }
                Step::Searched
            }
            Update::Cutoff => {
                if N::PV {
                    self.stack.extend_pv(ply, m);
                }
                Step::Cutoff
            }
            Update::Worse | Update::Best => Step::Searched,
        }
    }
}

/// The side to move's quiet, non-promoting moves that give check and do not
/// lose material by static exchange, in generation order, at most
/// [`MAX_QUIET_CHECKS`]. The side to move must not be in check.
fn quiet_checks(board: &Chess) -> ArrayVec<Move, MAX_QUIET_CHECKS> {
    let info = CheckInfo::new(board);
    let mut moves = ArrayVec::new();
    // Only the destinations that can check are generated.
    let reach = |role, from| info.check_reach(role, from);
    generate_quiet_within(board, &reach, &mut |m| {
        if !moves.is_full()
            && m.promotion().is_none()
            && info.gives_check(board, m)
            && see_ge(board, m, 0)
        {
            moves.push(m);
        }
    });
    moves
}
