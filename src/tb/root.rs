//! Ranking the root moves by the tables, so that the search plays only
//! moves that keep the best outcome the position has.
//!
//! Each root move gets the distance to zeroing it leads to, counted from
//! the root (`d`: positive when it wins, negative when it loses, 0 for a
//! draw), and with the root's halfmove clock `c` a rank (higher is better):
//!
//! | the move | rank |
//! |---|---|
//! | wins, zeroing with room to spare: `d + c ≤ 99`, no repetition since the last zeroing move | `TOP` (all equal: the search chooses among them) |
//! | wins only just, or the line has repeated, or a cursed win | `TOP/2 − (d + c)`: the quicker, the better |
//! | draws (a move to a threefold repetition included, and a win the opponent can answer with one) | 0 |
//! | loses, but the 50-move rule is near (`2·|d| + c ≥ 100`), or a blessed loss | `−TOP/2 + (|d| + c)`: the longer, the better |
//! | loses | `−TOP` (all equal) |
//!
//! A win is a real win when `d + c ≤ 100` (the 50-move rule does not catch
//! it), else a cursed win; a loss with `|d| + c > 100` is a blessed loss.
//! So every real win ranks above every cursed win, above every draw, and so
//! on; the search then plays one of the moves of the best rank (or, for
//! MultiPV lines beyond them, of the next ranks in turn). Ranking equal
//! wins as equal lets the search pick the quickest mate it sees; short of
//! one it plays the smallest `d` among them (the floor under each win's
//! score, see `search/root.rs`), and the DTZ ranking takes over as soon as
//! the clock or a repetition demands it, so the win is always converted.
//! DTZ values may be rounded by one ply (see [`super::Dtz`]); the margin
//! of 99 covers that.
//!
//! Without DTZ tables the moves are ranked by WDL alone (the value of the
//! position each move leads to, as if its clock were zero), which keeps
//! the outcome but not the progress; the search then keeps probing.

use shakmaty::{KnownOutcome, Move, Position as _};

use super::tables::Tablebases;
use super::values::Wdl;
use crate::chess::Position;

/// The rank of a win with room to spare; see the module documentation.
const TOP: i32 = 1 << 20;

/// A root move as the tables rank it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RankedMove {
    /// The move.
    pub mv: Move,
    /// Higher is better; moves of equal rank are equally good by the
    /// tables.
    pub rank: i32,
    /// What the move leads to for the side playing it, with the root's
    /// halfmove clock taken into account (DTZ ranking; by WDL alone, the
    /// value as if the clock were zero).
    pub wdl: Wdl,
    /// The distance to zeroing from the root through this move, when
    /// ranked by DTZ (1 for a capture, pawn move or mate that wins).
    pub dtz: Option<i32>,
}

/// The root moves ranked, best first (moves of equal rank in their given
/// order).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RootRanking {
    /// The moves, best first.
    pub moves: Vec<RankedMove>,
    /// Ranked by DTZ (false: by WDL only, the DTZ tables were missing).
    pub by_dtz: bool,
}

impl RootRanking {
    /// The best outcome among the moves.
    pub fn best(&self) -> Option<Wdl> {
        self.moves.first().map(|m| m.wdl)
    }
}

/// Ranks `moves` (legal moves of `pos`) by the tables; `None` when the
/// tables cannot tell for some move (or `pos` has castling rights or too
/// many pieces).
pub fn rank_root_moves(tables: &Tablebases, pos: &Position, moves: &[Move]) -> Option<RootRanking> {
    let board = pos.board();
    if board.castles().any() || board.board().occupied().count() > tables.max_pieces() {
        return None;
    }
    let mut ranked = match rank_by_dtz(tables, pos, moves) {
        Some(ranked) => RootRanking {
            moves: ranked,
            by_dtz: true,
        },
        None => RootRanking {
            moves: rank_by_wdl(tables, pos, moves)?,
            by_dtz: false,
        },
    };
    ranked.moves.sort_by_key(|m| std::cmp::Reverse(m.rank));
    Some(ranked)
}

/// What a move leads to, before asking the tables: a mate, a draw by the
/// rules, or neither.
enum After {
    Mate,
    Drawn,
    Open(Position),
}

fn after(pos: &Position, m: Move) -> After {
    let mut next = pos.clone();
    next.play(m);
    match next.outcome() {
        Some(KnownOutcome::Decisive { .. }) => After::Mate,
        Some(KnownOutcome::Draw) => After::Drawn,
        None => After::Open(next),
    }
}

/// Threefold repetition one reply away: whether the side to move at `pos`
/// has a move to a position that occurred twice before, so it can claim
/// the draw. The tables know nothing of the game's history, so a win that
/// allows this is a draw all the same: the losing side claims it.
/// Stockfish's ranking looks only at the move's own position; a
/// defender's king walking back into a position seen twice drew a KRPvKR
/// win (issue 35). Only worth asking when a position of the line since the
/// last capture or pawn move has occurred twice already.
fn reply_repeats_thrice(pos: &mut Position) -> bool {
    let replies = pos.board().legal_moves();
    replies.into_iter().any(|reply| {
        pos.play(reply);
        let drawn = pos.repetitions() >= 2;
        pos.undo();
        drawn
    })
}

fn rank_by_dtz(tables: &Tablebases, pos: &Position, moves: &[Move]) -> Option<Vec<RankedMove>> {
    let clock = pos.board().halfmoves().min(1000) as i32;
    let repeated = pos.has_repeated();
    moves
        .iter()
        .map(|&mv| {
            let d = match after(pos, mv) {
                After::Mate => 1,
                After::Drawn => 0,
                // A capture or pawn move: the WDL value says it all.
                After::Open(next) if next.board().halfmoves() == 0 => {
                    (-tables.probe_wdl(next.board())?).dtz_before_zeroing()
                }
                After::Open(mut next) => {
                    let d = -tables.probe_dtz(next.board())?.plies;
                    if d > 0 && repeated && reply_repeats_thrice(&mut next) {
                        0
                    } else {
                        d + d.signum()
                    }
                }
            };
            Some(ranked_by_dtz(mv, d, clock, repeated))
        })
        .collect()
}

/// The rank and outcome of a move whose distance to zeroing from the root
/// is `d`, with the root's halfmove clock at `clock`.
fn ranked_by_dtz(mv: Move, d: i32, clock: i32, repeated: bool) -> RankedMove {
    let (rank, wdl) = if d > 0 {
        let rank = if d + clock <= 99 && !repeated {
            TOP
        } else {
            TOP / 2 - (d + clock)
        };
        let wdl = if d + clock <= 100 {
            Wdl::Win
        } else {
            Wdl::CursedWin
        };
        (rank, wdl)
    } else if d < 0 {
        let rank = if 2 * -d + clock < 100 {
            -TOP
        } else {
            -TOP / 2 + (-d + clock)
        };
        let wdl = if -d + clock <= 100 {
            Wdl::Loss
        } else {
            Wdl::BlessedLoss
        };
        (rank, wdl)
    } else {
        (0, Wdl::Draw)
    };
    RankedMove {
        mv,
        rank,
        wdl,
        dtz: Some(d),
    }
}

fn rank_by_wdl(tables: &Tablebases, pos: &Position, moves: &[Move]) -> Option<Vec<RankedMove>> {
    let repeated = pos.has_repeated();
    moves
        .iter()
        .map(|&mv| {
            let wdl = match after(pos, mv) {
                After::Mate => Wdl::Win,
                After::Drawn => Wdl::Draw,
                After::Open(mut next) => match -tables.probe_wdl(next.board())? {
                    Wdl::Win | Wdl::CursedWin if repeated && reply_repeats_thrice(&mut next) => {
                        Wdl::Draw
                    }
                    wdl => wdl,
                },
            };
            let rank = match wdl {
                Wdl::Win => TOP,
                Wdl::CursedWin => TOP / 2,
                Wdl::Draw => 0,
                Wdl::BlessedLoss => -TOP / 2,
                Wdl::Loss => -TOP,
            };
            Some(RankedMove {
                mv,
                rank,
                wdl,
                dtz: None,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv() -> Move {
        Move::Normal {
            role: shakmaty::Role::King,
            from: shakmaty::Square::E1,
            capture: None,
            to: shakmaty::Square::E2,
            promotion: None,
        }
    }

    #[test]
    fn ranks_order_outcomes_and_the_clock_turns_wins_cursed() {
        let rank = |d, clock, rep| ranked_by_dtz(mv(), d, clock, rep);
        // Quick wins are all equal; a win near the 50-move edge or after a
        // repetition is ranked by its distance.
        assert_eq!(rank(5, 0, false).rank, rank(40, 50, false).rank);
        assert!(rank(5, 0, true).rank > rank(7, 0, true).rank);
        assert_eq!(rank(60, 40, false).wdl, Wdl::Win);
        assert_eq!(rank(61, 40, false).wdl, Wdl::CursedWin);
        assert!(rank(60, 40, false).rank > rank(61, 40, false).rank);
        // Every real win above every cursed win, above draws, above every
        // blessed loss, above every real loss.
        let order = [
            rank(99, 1, false),
            rank(200, 0, false),
            rank(0, 0, false),
            rank(-101, 0, false),
            rank(-60, 40, false),
            rank(-3, 0, false),
        ];
        for pair in order.windows(2) {
            assert!(pair[0].rank > pair[1].rank, "{pair:?}");
        }
        assert_eq!(rank(-101, 0, false).wdl, Wdl::BlessedLoss);
        assert_eq!(rank(-60, 40, false).wdl, Wdl::Loss);
    }
}
