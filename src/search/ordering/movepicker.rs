//! The staged move picker: yields a node's moves lazily, best guesses first.
//!
//! ```text
//!  TtMove ─► Generate ─► GoodCaptures ─► Killers ─► Quiets ─► BadCaptures ─► Done
//!  (before     (captures    (MVV-LVA order;   (quiet moves  (checks first,   (SEE < 0,
//!   movegen)    only; all     SEE < 0 moves    generated;    then history)    MVV-LVA)
//!               evasions in   are set aside)   2 killers,
//!               check)                         countermove)
//! ```
//!
//! "Captures" here are captures and queen promotions; under-promotions go
//! with the bad captures. Quiet moves that give check come before the other
//! quiets (the design card asks for capture/check-first ordering). In
//! quiescence mode (not in check) only the capture stages run. With ordering
//! switched off the moves come in generation order; a listed picker (the
//! root's) hands out a given list in its order.

use arrayvec::ArrayVec;
use shakmaty::{Chess, Color, Move, MoveList, Position as _, Role};

use super::OrderingStep;
use super::history::{Continuations, History};
use crate::chess::checks::CheckInfo;
use crate::chess::movegen::{generate_quiet, generate_tactical};
use crate::chess::see::see_ge;
use crate::chess::values::mvv_lva;

/// Capture history is added to MVV-LVA divided by this (a capture's history
/// can move it past captures of a slightly bigger victim, not more).
pub const CAPTURE_HISTORY_DIVISOR: i32 = 16;

/// Ordering bonus of a quiet move that gives check, over any history score.
pub const CHECK_BONUS: i32 = 1 << 16;

/// Quiet moves picked by selection before the rest are sorted at once.
const QUIETS_SELECTED: usize = 3;

/// Room for every legal move of a position: shakmaty's [`MoveList`] holds
/// 270, more than the 218 of any reachable position, because positions with
/// too much material (which we accept, as Stockfish does) can have up to 270.
const MAX_MOVES: usize = 270;

// If shakmaty's capacity ever changes, this stops the build instead of the
// picker overflowing at run time.
const _: () = assert!(size_of::<MoveList>() == size_of::<ArrayVec<Move, MAX_MOVES>>());

/// What kind of move the picker handed out (for pruning decisions).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveKind {
    /// The transposition-table move.
    TtMove,
    /// A capture or queen promotion that does not lose material.
    GoodCapture,
    /// A killer or countermove.
    Killer,
    /// Any other quiet move.
    Quiet,
    /// A capture that loses material, or an under-promotion.
    BadCapture,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    TtMove,
    Generate,
    GoodCaptures,
    Killers,
    Quiets,
    BadCaptures,
    Done,
}

/// Moves of one node, in order.
///
/// One list holds every generated move:
///
/// ```text
///  [0 ......... cursor ...... good_end | bad captures | quiets ......... len)
///   handed out   good captures left      (SEE < 0,       (killers are taken
///                (selected in place)      under-promos)   out by swapping)
/// ```
pub struct MovePicker {
    stage: Stage,
    tt_move: Option<Move>,
    refutations: [Option<Move>; 3],
    captures_only: bool,
    ordered: bool,
    step: OrderingStep,
    moves: ArrayVec<(Move, i32), MAX_MOVES>,
    cursor: usize,
    good_end: usize,
    captures_end: usize,
    bad_cursor: usize,
    refutation_index: usize,
    quiets_sorted_from: usize,
    /// Staged generation: the quiet moves are still to be generated.
    quiets_pending: bool,
    /// The caller will skip every quiet move from now on (late move
    /// pruning): the killers and quiets stages are passed over.
    skipping_quiets: bool,
    /// The moves before the node, for the continuation history.
    conts: Continuations,
}

fn is_tactical(m: Move) -> bool {
    m.is_capture() || m.promotion() == Some(Role::Queen)
}

/// The ordering score of a tactical move by `side`: MVV-LVA, plus its
/// capture history when `history` is given.
#[inline]
fn tactical_score(m: Move, side: Color, history: Option<&History>) -> i32 {
    mvv_lva(m) + history.map_or(0, |h| h.capture_score(side, m) / CAPTURE_HISTORY_DIVISOR)
}

impl MovePicker {
    /// A picker for a full-width node. `tt_move` must be legal here (checked
    /// by the caller); `killers` and `countermove` are checked here.
    pub fn new(
        tt_move: Option<Move>,
        killers: [Option<Move>; 2],
        countermove: Option<Move>,
        ordered: bool,
    ) -> MovePicker {
        let mut refutations = [None; 3];
        let mut n = 0;
        for m in [killers[0], killers[1], countermove].into_iter().flatten() {
            if Some(m) != tt_move && !refutations.contains(&Some(m)) {
                refutations[n] = Some(m);
                n += 1;
            }
        }
        MovePicker {
            stage: if ordered {
                Stage::TtMove
            } else {
                Stage::Generate
            },
            tt_move: tt_move.filter(|_| ordered),
            refutations,
            captures_only: false,
            ordered,
            step: OrderingStep::Full,
            moves: ArrayVec::new(),
            cursor: 0,
            good_end: 0,
            captures_end: 0,
            bad_cursor: 0,
            refutation_index: 0,
            quiets_sorted_from: 0,
            quiets_pending: false,
            skipping_quiets: false,
            conts: Continuations::default(),
        }
    }

    /// Orders the quiet moves with the continuation history of `conts`, the
    /// moves before the node, too.
    pub fn set_continuations(&mut self, conts: Continuations) {
        self.conts = conts;
    }

    /// A picker that hands out `moves` as they come (the root's moves, in
    /// the order the last iteration left them).
    pub fn listed(moves: impl IntoIterator<Item = Move>) -> MovePicker {
        let mut picker = MovePicker::new(None, [None; 2], None, false);
        picker.moves.extend(moves.into_iter().map(|m| (m, 0)));
        picker.stage = Stage::Done;
        picker
    }

    /// A picker for quiescence search: captures and queen promotions only,
    /// best first (the caller does its own SEE pruning).
    pub fn qsearch(tt_move: Option<Move>) -> MovePicker {
        let mut picker =
            MovePicker::new(tt_move.filter(|&m| is_tactical(m)), [None; 2], None, true);
        picker.captures_only = true;
        picker
    }

    /// Uses only the ordering techniques up to `step` (for measurement).
    ///
    /// Takes `&mut self` rather than `self`: the picker holds a few KB of
    /// move list, and passing it by value costs a copy at every node.
    pub fn limit_to(&mut self, step: OrderingStep) {
        self.step = step;
        if step < OrderingStep::Killers {
            self.refutations = [None; 3];
        }
    }

    /// The caller prunes every quiet move still to come (late move
    /// pruning): none is handed out any more. Ordered, the killers and
    /// quiets stages are passed over, so the quiets are not even scored or
    /// sorted; unordered, they are filtered from the raw list. The bad
    /// captures and under-promotions still come, in the same order.
    pub fn skip_quiets(&mut self) {
        self.skipping_quiets = true;
    }

    /// Brings the best-scored move of `moves[from..to]` to `from`.
    /// The first of equals wins, so the order is deterministic.
    fn select(&mut self, from: usize, to: usize) {
        let mut best = from;
        let mut best_score = self.moves[from].1;
        for (i, &(_, score)) in self.moves[from + 1..to].iter().enumerate() {
            if score > best_score {
                best = from + 1 + i;
                best_score = score;
            }
        }
        self.moves.swap(from, best);
    }

    #[inline(never)]
    fn generate(&mut self, board: &Chess, history: &History) {
        if !self.ordered {
            self.moves
                .extend(board.legal_moves().iter().map(|&m| (m, 0)));
            return;
        }
        // Staged generation: out of check, the captures come first and the
        // quiet moves only once the good captures are out (a capture or the
        // TT move often cuts the node off before). Evasions are few: all at
        // once.
        // (Quiescence pickers are never in check and want no quiets.)
        let staged = self.captures_only || !board.is_check();
        self.quiets_pending = staged && !self.captures_only;
        let side = board.turn();
        let history = (self.step >= OrderingStep::History).then_some(history);
        if staged {
            // Every generated move is tactical.
            let (tt_move, moves) = (self.tt_move, &mut self.moves);
            generate_tactical(board, &mut |m| {
                if Some(m) != tt_move {
                    moves.push((m, tactical_score(m, side, history)));
                }
            });
            self.good_end = self.moves.len();
            self.captures_end = self.moves.len();
            return;
        }
        // Evasions: tactical moves first, then under-promotions (bad), then
        // quiets.
        let evasions = board.legal_moves();
        for &m in &evasions {
            if Some(m) != self.tt_move && is_tactical(m) {
                self.moves.push((m, tactical_score(m, side, history)));
            }
        }
        self.good_end = self.moves.len();
        self.captures_end = self.moves.len();
        self.push_quiets(&evasions);
    }

    /// Generates and appends the quiet moves (out of check): under-promotions
    /// (with the bad captures), then the other quiet moves, each group in
    /// generation order, as [`MovePicker::push_quiets`] would.
    #[inline(never)]
    fn generate_quiets(&mut self, board: &Chess) {
        let start = self.moves.len();
        let mut promotions = false;
        let (tt_move, moves) = (self.tt_move, &mut self.moves);
        generate_quiet(board, &mut |m| {
            if Some(m) != tt_move {
                promotions |= m.is_promotion();
                moves.push((m, 0));
            }
        });
        if promotions {
            // Rare: bring the under-promotions to the front (a stable sort
            // keeps the generation order within both groups).
            self.moves[start..].sort_by_key(|&(m, _)| !m.is_promotion());
            self.captures_end = start
                + self.moves[start..]
                    .iter()
                    .filter(|(m, _)| m.is_promotion())
                    .count();
        } else {
            self.captures_end = start;
        }
    }

    /// Appends the non-tactical moves among `moves`: under-promotions (with
    /// the bad captures), then the quiet moves.
    fn push_quiets(&mut self, moves: &MoveList) {
        for &m in moves {
            if Some(m) != self.tt_move && !is_tactical(m) && m.is_promotion() {
                self.moves.push((m, 0));
            }
        }
        self.captures_end = self.moves.len();
        for &m in moves {
            if Some(m) != self.tt_move && !is_tactical(m) && !m.is_promotion() {
                self.moves.push((m, 0));
            }
        }
    }

    /// Scores the quiet moves not handed out yet: history, plus
    /// [`CHECK_BONUS`] for a move that gives check.
    // Kept out of `next` (as are generation and sorting), which runs once
    // per move: inlined there, this once-per-node work made every call pay
    // for a large stack frame and for values hoisted into its prologue.
    #[inline(never)]
    fn score_quiets(&mut self, board: &Chess, history: &History, checks: &CheckInfo) {
        let side: Color = board.turn();
        let (use_history, use_checks) = (
            self.step >= OrderingStep::History,
            self.step >= OrderingStep::Full,
        );
        let scorer = history.quiet_scorer(side, &self.conts);
        for (m, score) in &mut self.moves[self.cursor..] {
            let h = if use_history { scorer.score(*m) } else { 0 };
            let c = if use_checks && checks.gives_check(board, *m) {
                CHECK_BONUS
            } else {
                0
            };
            *score = h + c;
        }
    }

    /// Sorts the quiet moves not handed out yet, best first (stable).
    #[inline(never)]
    fn sort_quiets(&mut self) {
        self.moves[self.cursor..].sort_by_key(|m| std::cmp::Reverse(m.1));
    }

    /// The next move and its kind, or `None` when all are out.
    pub fn next(
        &mut self,
        board: &Chess,
        history: &History,
        checks: &CheckInfo,
    ) -> Option<(Move, MoveKind)> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::Generate;
                    if let Some(m) = self.tt_move {
                        return Some((m, MoveKind::TtMove));
                    }
                }
                Stage::Generate => {
                    self.generate(board, history);
                    self.stage = if self.ordered {
                        Stage::GoodCaptures
                    } else {
                        Stage::Done
                    };
                }
                Stage::GoodCaptures => {
                    if self.cursor >= self.good_end {
                        self.bad_cursor = self.good_end;
                        if self.captures_only {
                            self.stage = Stage::Done;
                            continue;
                        }
                        if self.quiets_pending {
                            self.quiets_pending = false;
                            self.generate_quiets(board);
                        }
                        self.cursor = self.captures_end;
                        self.stage = Stage::Killers;
                        continue;
                    }
                    self.select(self.cursor, self.good_end);
                    let m = self.moves[self.cursor].0;
                    if self.captures_only || self.step < OrderingStep::See || see_ge(board, m, 0) {
                        self.cursor += 1;
                        return Some((m, MoveKind::GoodCapture));
                    }
                    // Losing capture: park it at the end of the good range.
                    self.good_end -= 1;
                    self.moves.swap(self.cursor, self.good_end);
                }
                Stage::Killers | Stage::Quiets if self.skipping_quiets => {
                    self.stage = Stage::BadCaptures;
                }
                Stage::Killers => {
                    let Some(m) = self
                        .refutations
                        .get(self.refutation_index)
                        .copied()
                        .flatten()
                    else {
                        self.stage = Stage::Quiets;
                        self.quiets_sorted_from = self.cursor + QUIETS_SELECTED;
                        self.score_quiets(board, history, checks);
                        continue;
                    };
                    self.refutation_index += 1;
                    if let Some(i) = self.moves[self.cursor..].iter().position(|&(q, _)| q == m) {
                        self.moves.swap(self.cursor, self.cursor + i);
                        self.cursor += 1;
                        return Some((m, MoveKind::Killer));
                    }
                }
                Stage::Quiets => {
                    if self.cursor >= self.moves.len() {
                        self.stage = Stage::BadCaptures;
                        continue;
                    }
                    // Selection is cheapest when a cutoff comes early; a node
                    // that gets this far probably searches them all: sort.
                    if self.cursor == self.quiets_sorted_from {
                        self.sort_quiets();
                    } else if self.cursor < self.quiets_sorted_from {
                        self.select(self.cursor, self.moves.len());
                    }
                    self.cursor += 1;
                    return Some((self.moves[self.cursor - 1].0, MoveKind::Quiet));
                }
                Stage::BadCaptures => {
                    if self.bad_cursor >= self.captures_end {
                        self.stage = Stage::Done;
                        continue;
                    }
                    self.bad_cursor += 1;
                    return Some((self.moves[self.bad_cursor - 1].0, MoveKind::BadCapture));
                }
                Stage::Done => {
                    // Unordered mode hands out the raw list from here.
                    if self.ordered {
                        return None;
                    }
                    let m = self.moves.get(self.cursor)?.0;
                    self.cursor += 1;
                    if self.skipping_quiets && !m.is_capture() && !m.is_promotion() {
                        continue;
                    }
                    return Some((
                        m,
                        if is_tactical(m) {
                            MoveKind::GoodCapture
                        } else {
                            MoveKind::Quiet
                        },
                    ));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Position;
    use crate::chess::random::Rng;

    /// Perft through the picker: every legal move comes out exactly once,
    /// TT move and refutations included.
    fn picker_perft(board: &Chess, depth: u32, history: &History, rng: &mut Rng) -> u64 {
        if depth == 0 {
            return 1;
        }
        let legal = board.legal_moves();
        // A random TT move, killers and countermove among the legal moves.
        let tt = rng.pick(&legal);
        let killers = [rng.pick(&legal), rng.pick(&legal)];
        let mut picker = MovePicker::new(tt, killers, rng.pick(&legal), true);
        let checks = CheckInfo::new(board);
        let mut seen = Vec::new();
        let mut nodes = 0;
        while let Some((m, _)) = picker.next(board, history, &checks) {
            assert!(!seen.contains(&m), "{m:?} twice");
            seen.push(m);
            let mut child = board.clone();
            child.play_unchecked(m);
            nodes += picker_perft(&child, depth - 1, history, rng);
        }
        assert_eq!(seen.len(), legal.len());
        nodes
    }

    #[test]
    fn picker_yields_every_legal_move_once() {
        let history = History::default();
        let mut rng = Rng::new(7);
        let kiwipete = Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            false,
        )
        .unwrap();
        assert_eq!(
            picker_perft(kiwipete.board(), 3, &history, &mut rng),
            97_862
        );
        let promo = Position::from_fen(
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            false,
        )
        .unwrap();
        assert_eq!(picker_perft(promo.board(), 3, &history, &mut rng), 9_467);
    }

    /// Skipping the quiet moves after the first one leaves exactly the
    /// non-quiet moves the full picker would still hand out, in its order,
    /// with ordering on and off.
    #[test]
    fn skipping_quiets_keeps_the_other_moves_in_order() {
        let history = History::default();
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "4k3/8/3p4/4p3/3Q3n/8/8/4K3 w - - 0 1",
        ];
        let is_quiet = |m: Move| !m.is_capture() && m.promotion().is_none();
        let mut checked = 0;
        for fen in fens {
            let mut board = Position::from_fen(fen, false).unwrap().board().clone();
            for ply in 0..40 {
                let legal = board.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let quiets: Vec<Move> = legal.iter().copied().filter(|&m| is_quiet(m)).collect();
                let killers = [quiets.first().copied(), quiets.last().copied()];
                let checks = CheckInfo::new(&board);
                // Ordered (stages passed over) and unordered (raw list filtered).
                for ordered in [true, false] {
                    let mut full = MovePicker::new(None, killers, None, ordered);
                    let all: Vec<Move> =
                        std::iter::from_fn(|| full.next(&board, &history, &checks).map(|(m, _)| m))
                            .collect();
                    let mut skipping = MovePicker::new(None, killers, None, ordered);
                    let mut got = Vec::new();
                    let mut skipped = false;
                    while let Some((m, _)) = skipping.next(&board, &history, &checks) {
                        got.push(m);
                        if is_quiet(m) && !skipped {
                            skipping.skip_quiets();
                            skipped = true;
                        }
                    }
                    let cut = all
                        .iter()
                        .position(|&m| is_quiet(m))
                        .map_or(all.len(), |i| i + 1);
                    let mut expected = all[..cut].to_vec();
                    expected.extend(all[cut..].iter().copied().filter(|&m| !is_quiet(m)));
                    assert_eq!(got, expected);
                }
                checked += 1;
                board.play_unchecked(legal[(ply * 7 + 3) % legal.len()]);
            }
        }
        assert!(checked > 50, "{checked}");
    }

    #[test]
    fn picker_holds_the_270_moves_of_the_widest_position() {
        // Too much material, accepted like Stockfish. The picker used to hold
        // 256 moves, so a search reaching such a node below the root panicked.
        let widest = Position::from_fen(
            "kBQQQQQQ/BR5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1",
            false,
        )
        .unwrap();
        assert_eq!(widest.board().legal_moves().len(), 270);
        let mut rng = Rng::new(11);
        assert_eq!(
            picker_perft(widest.board(), 1, &History::default(), &mut rng),
            270
        );
    }

    #[test]
    fn captures_come_before_quiets_and_winning_before_losing() {
        // White queen can take a defended pawn (losing) or a free knight.
        let pos = Position::from_fen("4k3/8/3p4/4p3/3Q3n/8/8/4K3 w - - 0 1", false).unwrap();
        let history = History::default();
        let checks = CheckInfo::new(pos.board());
        let mut picker = MovePicker::new(None, [None; 2], None, true);
        let order: Vec<(Move, MoveKind)> =
            std::iter::from_fn(|| picker.next(pos.board(), &history, &checks)).collect();
        assert_eq!(order[0].1, MoveKind::GoodCapture);
        assert_eq!(order[0].0.to().to_string(), "h4");
        let last = order.last().unwrap();
        assert_eq!(
            (last.0.to().to_string(), last.1),
            ("e5".to_owned(), MoveKind::BadCapture)
        );
        // The first quiet move gives check.
        let first_quiet = order.iter().find(|(_, k)| *k == MoveKind::Quiet).unwrap().0;
        let mut child = pos.board().clone();
        child.play_unchecked(first_quiet);
        assert!(child.is_check());
    }
}
