//! The quiescence search at the horizon of the main search: captures and
//! queen promotions until the position is quiet (all evasions when in
//! check), with stand-pat, delta and SEE pruning.

use shakmaty::Position as _;

use super::alphabeta::{Best, Update};
use super::correction::CorrectionKeys;
use super::node::{NodeKind, Window};
use super::ordering::movepicker::MovePicker;
use super::params::DELTA_MARGIN;
use super::score::{INFINITE, MAX_PLY, TB_WIN_BOUND, mated_in};
use super::tt::{Bound, TtEntry, TtMove};
use super::worker::Worker;
use crate::chess::checks::CheckInfo;
use crate::chess::see::see_ge;
use crate::chess::values::material_gain;

impl Worker<'_> {
    /// Quiescence search of the current position at `ply` in `window`.
    pub(super) fn qsearch<N: NodeKind>(&mut self, ply: usize, mut window: Window) -> i32 {
        self.stack.at_mut(ply).pv.clear();
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.check_abort() {
            return 0;
        }
        let in_check = self.pos.board().is_check();
        if self.pos.is_draw() {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate();
        }
        let config = self.shared.config;

        // Transposition table cutoff.
        let key = self.pos.key();
        let entry = if config.tt {
            self.shared.tt.probe(key, ply)
        } else {
            None
        };
        if !N::PV
            && let Some(e) = entry
            && e.cuts(window.alpha, window.beta)
        {
            return e.score;
        }
        let tt_move = entry
            .and_then(|e| e.mv)
            .and_then(|m| m.to_move(self.pos.board()));

        // Stand pat: the side to move may decline every capture (with the
        // static evaluation corrected by the correction history).
        let raw_eval = if in_check {
            -INFINITE
        } else {
            match entry.filter(|e| e.bound != Bound::None) {
                Some(e) => e.eval,
                None => self.evaluate(),
            }
        };
        let stand_pat = if in_check || !config.correction {
            raw_eval
        } else {
            let keys = CorrectionKeys::new(self.pos.board().board(), self.pos.turn());
            (raw_eval + self.correction.correction(&keys))
                .clamp(-TB_WIN_BOUND + 1, TB_WIN_BOUND - 1)
        };
        if stand_pat >= window.beta {
            return stand_pat;
        }
        window.alpha = window.alpha.max(stand_pat);
        let original_alpha = window.alpha;
        let mut best = Best::new(stand_pat);

        let mut picker = if in_check {
            MovePicker::new(tt_move, [None; 2], None, config.ordering)
        } else {
            MovePicker::qsearch(tt_move)
        };
        // The captures-only picker never asks about checks; evasions do.
        let checks = if in_check {
            CheckInfo::new(self.pos.board())
        } else {
            CheckInfo::UNUSED
        };
        let mut searched = 0;
        while let Some((m, _)) = picker.next(self.pos.board(), self.history, &checks) {
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
            self.play(m, ply);
            searched += 1;
            let score = -self.qsearch::<N>(ply + 1, window.child());
            self.undo();
            if self.aborted {
                return 0;
            }
            match best.update(m, score, &mut window) {
                Update::RaisedAlpha if N::PV => self.stack.extend_pv(ply, m),
                Update::Cutoff => {
                    if N::PV {
                        self.stack.extend_pv(ply, m);
                    }
                    break;
                }
                _ => {}
            }
        }
        if in_check && searched == 0 {
            return mated_in(ply);
        }
        if config.tt {
            let entry = TtEntry {
                mv: best.mv.map(TtMove::from_move),
                score: best.score,
                eval: raw_eval,
                depth: 0,
                bound: Bound::of(best.score, original_alpha, window.beta),
                pv: N::PV,
            };
            self.shared.tt.store(key, ply, entry);
        }
        best.score
    }
}
