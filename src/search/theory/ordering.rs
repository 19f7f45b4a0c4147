//! The move order of the teaching searches: generation order, MVV-LVA, or
//! the engine's own move picker with killers and history that this search
//! teaches itself as it goes (see [`MoveOrdering`]).

use shakmaty::{Chess, Move, Position as _, Role};

use super::config::MoveOrdering;
use crate::chess::checks::CheckInfo;
use crate::chess::values::mvv_lva;
use crate::search::ordering::history::{Continuations, History, Tried};
use crate::search::ordering::movepicker::MovePicker;

/// Killer moves kept per ply.
const KILLERS: usize = 2;

/// A capture or a queen promotion: what MVV-LVA orders first.
pub fn is_tactical(m: Move) -> bool {
    m.is_capture() || m.promotion() == Some(Role::Queen)
}

/// Orders moves, and learns from cut-offs when the ordering is `Full`.
pub struct Orderer {
    ordering: MoveOrdering,
    /// Per ply: the last quiet moves that cut a node off.
    killers: Vec<[Option<Move>; KILLERS]>,
    /// Only for `Full`.
    history: Option<Box<History>>,
}

impl Orderer {
    /// A fresh orderer: no killers, an empty history.
    pub fn new(ordering: MoveOrdering) -> Orderer {
        Orderer {
            ordering,
            killers: Vec::new(),
            history: (ordering == MoveOrdering::Full).then(Box::default),
        }
    }

    /// The legal moves of `board` at `ply`, in search order. With `Full`
    /// ordering `first` (a legal move: the one that last cut this node
    /// off) comes first.
    pub fn order(&mut self, board: &Chess, ply: u32, first: Option<Move>) -> Vec<Move> {
        match (self.ordering, &self.history) {
            (MoveOrdering::Full, Some(history)) => {
                let killers = self.killers.get(ply as usize).copied().unwrap_or_default();
                let mut picker = MovePicker::new(first, killers, None, true);
                let checks = CheckInfo::new(board);
                let mut moves = Vec::new();
                while let Some((m, _)) = picker.next(board, history, &checks) {
                    moves.push(m);
                }
                moves
            }
            (MoveOrdering::MvvLva, _) => mvv_lva_order(board),
            _ => board.legal_moves().into_iter().collect(),
        }
    }

    /// The last of `tried` (the moves searched at `ply`, in order) cut the
    /// node off at `depth`: remember it as a killer and in the history.
    pub fn learn(&mut self, board: &Chess, ply: u32, depth: u32, tried: &[Move]) {
        let Some(history) = self.history.as_mut() else {
            return;
        };
        let Some((&best, _)) = tried.split_last() else {
            return;
        };
        let side = board.turn();
        let (captures, quiets): (Vec<Move>, Vec<Move>) =
            tried.iter().partition(|&&m| is_tactical(m));
        let conts = Continuations::default();
        let tried = Tried {
            quiets: &quiets,
            captures: &captures,
            conts: &conts,
        };
        if is_tactical(best) {
            history.update_capture_cutoff(side, depth as i32, best, &tried);
            return;
        }
        history.update_quiet_cutoff(side, depth as i32, best, &tried, None);
        let ply = ply as usize;
        if self.killers.len() <= ply {
            self.killers.resize(ply + 1, [None; KILLERS]);
        }
        let killers = &mut self.killers[ply];
        if killers[0] != Some(best) {
            killers[1] = killers[0];
            killers[0] = Some(best);
        }
    }
}

/// Captures and queen promotions by MVV-LVA (best first), then the other
/// moves in generation order.
pub fn mvv_lva_order(board: &Chess) -> Vec<Move> {
    let mut moves: Vec<Move> = board.legal_moves().into_iter().collect();
    // A stable sort: equal keys (all quiet moves) keep generation order.
    moves.sort_by_key(|&m| {
        if is_tactical(m) {
            (0, -mvv_lva(m))
        } else {
            (1, 0)
        }
    });
    moves
}
