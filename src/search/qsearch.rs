//! The quiescence search at the horizon of the main search: captures and
//! queen promotions until the position is quiet (all evasions when in
//! check), with stand-pat, delta and SEE pruning.

use shakmaty::{Chess, Position as _, Role};

use super::alphabeta::{INFINITE, Line, Worker, extend_pv};
use crate::chess::checks::CheckInfo;
use crate::chess::see::{see_ge, see_value};
use crate::eval::evaluate_cached;
use crate::search::ordering::movepicker::MovePicker;
use crate::search::params::DELTA_MARGIN;
use crate::search::tt::Bound;
use crate::search::{MATE, MAX_PLY};

impl Worker<'_> {
    /// Quiescence search: captures and queen promotions until the position
    /// is quiet (all evasions when in check), with stand-pat, delta and SEE
    /// pruning.
    pub(super) fn qsearch<const PV: bool>(
        &mut self,
        board: &Chess,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        pv: &mut Line,
    ) -> i32 {
        pv.clear();
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.check_abort() {
            return 0;
        }
        let in_check = board.is_check();
        if self.is_draw(board, in_check) {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return evaluate_cached(board, self.pawns);
        }
        let config = self.shared.config;

        let key = self.key();
        let entry = if config.tt {
            self.shared.tt.probe(key, ply)
        } else {
            None
        };
        if !PV
            && let Some(e) = entry
            && e.cuts(alpha, beta)
        {
            return e.score;
        }
        let tt_move = entry.and_then(|e| self.tt_move(board, e.mv));

        // Stand pat: the side to move may decline every capture.
        let stand_pat = if in_check {
            -INFINITE
        } else {
            entry
                .filter(|e| e.bound != Bound::None)
                .map_or_else(|| evaluate_cached(board, self.pawns), |e| e.eval)
        };
        if stand_pat >= beta {
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);
        let original_alpha = alpha;
        let mut best = stand_pat;
        let mut best_move = None;

        let mut picker = if in_check {
            MovePicker::new(tt_move, [None; 2], None, config.ordering)
        } else {
            MovePicker::qsearch(tt_move)
        };
        // The captures-only picker never asks about checks; evasions do.
        let checks = if in_check {
            CheckInfo::new(board)
        } else {
            CheckInfo::UNUSED
        };
        let mut searched = 0;
        let mut line = Line::new();
        while let Some((m, _)) = picker.next(board, self.history, &checks) {
            if !in_check && config.pruning {
                // Delta pruning: even winning this piece cannot reach alpha.
                let gain = m.capture().map_or(0, see_value)
                    + m.promotion()
                        .map_or(0, |r| see_value(r) - see_value(Role::Pawn));
                if stand_pat + gain + DELTA_MARGIN <= alpha {
                    continue;
                }
                // SEE pruning: skip captures that lose material.
                if !see_ge(board, m, 0) {
                    continue;
                }
            }
            let child = self.play(board, m, ply);
            searched += 1;
            let score = -self.qsearch::<PV>(&child, ply + 1, -beta, -alpha, &mut line);
            self.unplay();
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(m);
                    if PV {
                        extend_pv(pv, m, &line);
                    }
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if in_check && searched == 0 {
            return -(MATE - ply as i32);
        }
        if config.tt {
            let bound = Bound::of(best, original_alpha, beta);
            self.shared
                .tt
                .store(key, best_move, best, stand_pat, 0, bound, ply);
        }
        best
    }
}
