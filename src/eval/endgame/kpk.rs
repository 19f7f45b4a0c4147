//! King and pawn against king, solved: a bitbase of every position, made
//! once by retrograde analysis the first time it is asked for (a few
//! milliseconds), then read with one bit test.
//!
//! The positions are kept with the pawn's side as White and the pawn on
//! files a–d (any other position is mirrored there first): the side to
//! move (2) × the white king (64) × the black king (64) × the pawn
//! (files a–d, ranks 2–7: 24), 196,608 positions, a bit each.
//!
//! **How it is solved.** Every position starts unknown, except those the
//! rules settle at once: impossible ones (two pieces on a square, kings
//! side by side, the black king in check with White to move), a pawn on
//! the seventh that queens safely with White to move (the queening square
//! free and out of the black king's reach or guarded by the white king):
//! a win; and with Black to move, stalemate or a free pawn to take: a
//! draw. Then passes over the unknown positions until one changes
//! nothing: White to move wins when one move reaches a win; Black to move
//! is lost when every legal move reaches a win, and drawn when one
//! reaches a draw; White to move is drawn when every move reaches a draw.
//! What is still unknown at the end is drawn (White cannot force a win).
//! A test compares the result with the Syzygy tables where they are found.

use std::sync::OnceLock;

use shakmaty::{Bitboard, Board, Color, File, Square};

/// Positions in the bitbase.
const SIZE: usize = 2 * 64 * 64 * 24;

/// The state of one position while solving.
#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Unknown,
    Invalid,
    Draw,
    Win,
}

/// The solved bitbase: bit `i` set when position `i` is a win for White.
struct Bitbase {
    wins: Vec<u64>,
}

/// The index of a position: `stm` 0 when White is to move, 1 when Black
/// is; `wk`, `bk` and `pawn` square numbers (a1 = 0), the pawn on files
/// a–d, ranks 2–7.
#[inline]
fn index(stm: usize, wk: usize, bk: usize, pawn: usize) -> usize {
    let file = pawn & 7;
    let rank = pawn >> 3;
    debug_assert!(file < 4 && (1..=6).contains(&rank));
    let p = file * 6 + (rank - 1);
    ((stm * 64 + wk) * 64 + bk) * 24 + p
}

/// The squares of position `i` (the inverse of [`index`]).
fn unpack(i: usize) -> (usize, usize, usize, usize) {
    let p = i % 24;
    let bk = (i / 24) % 64;
    let wk = (i / (24 * 64)) % 64;
    let stm = i / (24 * 64 * 64);
    let pawn = (p / 6) + 8 * (p % 6 + 1);
    (stm, wk, bk, pawn)
}

fn king_attacks(sq: usize) -> Bitboard {
    shakmaty::attacks::king_attacks(Square::new(sq as u32))
}

/// The squares a white pawn on `sq` attacks.
fn pawn_attacks(sq: usize) -> Bitboard {
    shakmaty::attacks::pawn_attacks(Color::White, Square::new(sq as u32))
}

fn distance(a: usize, b: usize) -> u32 {
    Square::new(a as u32).distance(Square::new(b as u32))
}

/// What the rules settle about position `i` before any search.
fn initial(i: usize) -> State {
    let (stm, wk, bk, pawn) = unpack(i);
    if wk == bk || wk == pawn || bk == pawn || distance(wk, bk) <= 1 {
        return State::Invalid;
    }
    let pawn_hits = pawn_attacks(pawn);
    if stm == 0 {
        if pawn_hits.contains(Square::new(bk as u32)) {
            return State::Invalid;
        }
        let queening = pawn + 8;
        if pawn >> 3 == 6
            && queening != wk
            && queening != bk
            && (distance(bk, queening) > 1 || distance(wk, queening) == 1)
        {
            return State::Win;
        }
        return State::Unknown;
    }
    let guarded = king_attacks(wk) | pawn_hits;
    let flight = king_attacks(bk) & !guarded & !Bitboard::from_square(Square::new(wk as u32));
    if flight.is_empty() && !guarded.contains(Square::new(bk as u32)) {
        return State::Draw; // stalemate
    }
    if flight.contains(Square::new(pawn as u32)) {
        return State::Draw; // the pawn falls
    }
    State::Unknown
}

/// Position `i`'s value from the values of the positions its moves reach.
fn classify(states: &[State], i: usize) -> State {
    let (stm, wk, bk, pawn) = unpack(i);
    if stm == 0 {
        let mut all_draw = true;
        let mut see = |s: State| match s {
            State::Win => Some(State::Win),
            State::Unknown => {
                all_draw = false;
                None
            }
            _ => None,
        };
        for to in king_attacks(wk) {
            let to = to as usize;
            if to == pawn || distance(to, bk) <= 1 {
                continue;
            }
            if let Some(win) = see(states[index(1, to, bk, pawn)]) {
                return win;
            }
        }
        let rank = pawn >> 3;
        let push = pawn + 8;
        if rank < 6 && push != wk && push != bk {
            if let Some(win) = see(states[index(1, wk, bk, push)]) {
                return win;
            }
            let double = push + 8;
            if rank == 1
                && double != wk
                && double != bk
                && let Some(win) = see(states[index(1, wk, bk, double)])
            {
                return win;
            }
        }
        // A pawn on the seventh that cannot queen safely adds no move
        // here: queening into a capture is a draw, and the other moves
        // were seen above.
        if all_draw {
            State::Draw
        } else {
            State::Unknown
        }
    } else {
        let guarded = king_attacks(wk) | pawn_attacks(pawn);
        let mut all_win = true;
        for to in king_attacks(bk) & !guarded {
            let to = to as usize;
            if to == pawn {
                continue; // guarded, or settled as a draw at the start
            }
            match states[index(0, wk, to, pawn)] {
                State::Draw => return State::Draw,
                State::Win => {}
                _ => all_win = false,
            }
        }
        if all_win { State::Win } else { State::Unknown }
    }
}

impl Bitbase {
    fn solve() -> Bitbase {
        let mut states: Vec<State> = (0..SIZE).map(initial).collect();
        loop {
            let mut changed = false;
            for i in 0..SIZE {
                if states[i] == State::Unknown {
                    let s = classify(&states, i);
                    if s != State::Unknown {
                        states[i] = s;
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        let mut wins = vec![0u64; SIZE.div_ceil(64)];
        for (i, s) in states.iter().enumerate() {
            if *s == State::Win {
                wins[i / 64] |= 1 << (i % 64);
            }
        }
        Bitbase { wins }
    }

    fn get() -> &'static Bitbase {
        static BITBASE: OnceLock<Bitbase> = OnceLock::new();
        BITBASE.get_or_init(Bitbase::solve)
    }

    fn is_win(&self, i: usize) -> bool {
        self.wins[i / 64] >> (i % 64) & 1 == 1
    }
}

/// When `board` is king and one pawn against a bare king: whether the
/// pawn's side wins with `turn` to move (`Some(true)`), or draws
/// (`Some(false)`). `None` for any other material or an impossible
/// position.
pub fn probe(board: &Board, turn: Color) -> Option<bool> {
    if board.occupied().count() != 3 || board.pawns().count() != 1 {
        return None;
    }
    let pawn_sq = board.pawns().first()?;
    let strong = board.color_at(pawn_sq)?;
    let wk = board.king_of(strong)?;
    let bk = board.king_of(!strong)?;
    // The pawn's side as White: ranks flipped when it is Black.
    let orient = |sq: Square| {
        let sq = if strong == Color::White {
            sq
        } else {
            sq.flip_vertical()
        };
        if pawn_file_mirrored(pawn_sq) {
            sq.flip_horizontal()
        } else {
            sq
        }
    };
    let (wk, bk, pawn) = (orient(wk), orient(bk), orient(pawn_sq));
    let rank = usize::from(pawn.rank());
    if !(1..=6).contains(&rank) {
        return None;
    }
    let stm = usize::from(turn != strong);
    let i = index(stm, usize::from(wk), usize::from(bk), usize::from(pawn));
    Some(Bitbase::get().is_win(i))
}

/// Solves the bitbase now, if it is not solved yet (the engine calls this
/// on a thread of its own at start, so that no search waits for it).
pub fn warm() {
    Bitbase::get();
}

/// Whether the pawn stands on files e–h (the bitbase keeps a–d).
fn pawn_file_mirrored(pawn: Square) -> bool {
    pawn.file() > File::D
}

/// The pawn's rank counted from its own side (2 to 7), for scores.
pub fn relative_rank(board: &Board) -> Option<u32> {
    let pawn = board.pawns().first()?;
    let color = board.color_at(pawn)?;
    let rank = u32::from(pawn.rank());
    Some(
        if color == Color::White {
            rank
        } else {
            7 - rank
        } + 1,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;

    fn board_turn(fen: &str) -> (Board, Color) {
        let setup = fen.parse::<Fen>().expect("test FEN").into_setup();
        (setup.board, setup.turn)
    }

    fn kpk(fen: &str) -> Option<bool> {
        let (board, turn) = board_turn(fen);
        probe(&board, turn)
    }

    #[test]
    fn textbook_positions() {
        // The king on the sixth in front of its pawn: a win, whoever moves.
        assert_eq!(kpk("4k3/8/4K3/4P3/8/8/8/8 b - - 0 1"), Some(true));
        assert_eq!(kpk("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1"), Some(true));
        // The pawn on the seventh, the defender in front, Black to move:
        // stalemate.
        assert_eq!(kpk("4k3/4P3/4K3/8/8/8/8/8 b - - 0 1"), Some(false));
        // A rook pawn with the defender in the corner: a draw.
        assert_eq!(kpk("k7/8/1K6/P7/8/8/8/8 w - - 0 1"), Some(false));
        assert_eq!(kpk("7k/8/6K1/7P/8/8/8/8 b - - 0 1"), Some(false));
        // The pawn falls.
        assert_eq!(kpk("8/8/8/8/4P3/4k3/8/K7 b - - 0 1"), Some(false));
        // Black's pawn: the same rules, mirrored.
        assert_eq!(kpk("8/8/8/8/4p3/4k3/8/4K3 w - - 0 1"), Some(true));
        assert_eq!(kpk("8/8/8/8/4p3/4k3/8/4K3 b - - 0 1"), Some(true));
        assert_eq!(kpk("8/8/8/8/8/8/p7/K1k5 w - - 0 1"), Some(false));
        // Other material: no answer.
        assert_eq!(kpk("4k3/8/4K3/4P3/4P3/8/8/8 w - - 0 1"), None);
        assert_eq!(kpk("4k3/8/4K3/4N3/8/8/8/8 w - - 0 1"), None);
    }

    #[test]
    fn relative_rank_counts_from_the_pawns_side() {
        let (b, _) = board_turn("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1");
        assert_eq!(relative_rank(&b), Some(5));
        let (b, _) = board_turn("8/8/8/8/4p3/4k3/8/4K3 w - - 0 1");
        assert_eq!(relative_rank(&b), Some(5));
    }
}
