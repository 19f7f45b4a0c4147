//! History heuristics: what the search has learned about which moves cause
//! beta cutoffs, kept per search thread between the searches of a game.
//!
//! - **Butterfly history**, per side and from/to squares, for quiet moves.
//! - **Continuation history**, per pair (a move one or two plies back, the
//!   quiet move now), each move keyed by the piece that moved and its
//!   target square: "after that move, this one works".
//! - **Capture history**, per moving piece, target square and captured
//!   piece, for captures.
//! - A **countermove** per previous move.
//!
//! Every score moves by one bounded update rule ("gravity": a bonus moves
//! the value toward ±[`HISTORY_MAX`] and shrinks as it gets there, so scores
//! never overflow and old lessons fade). The killers, which belong to a ply
//! of one search, live in the search's stack frames.

use shakmaty::{Color, Move, Piece, Role, Square};

/// Largest magnitude of a history score.
pub const HISTORY_MAX: i32 = 16_384;
/// History bonus per ply of depth of the cutoff…
pub const HISTORY_BONUS_SCALE: i32 = 160;
/// …less this…
pub const HISTORY_BONUS_OFFSET: i32 = 120;
/// …and never more than this.
pub const HISTORY_BONUS_MAX: i32 = 1_600;

/// Pieces, as history tables index them: colour × 6 + role − 1.
const PIECES: usize = 12;
/// Piece-and-target keys of moves.
const KEYS: usize = PIECES * 64;

/// The bonus for a cutoff at `depth` (the malus of the moves that did not
/// cut off is its negative).
pub fn history_bonus(depth: i32) -> i32 {
    (HISTORY_BONUS_SCALE * depth - HISTORY_BONUS_OFFSET).clamp(0, HISTORY_BONUS_MAX)
}

fn gravity(value: &mut i16, bonus: i32) {
    let v = i32::from(*value);
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let updated = v + bonus - v * bonus.abs() / HISTORY_MAX;
    *value = updated.clamp(-HISTORY_MAX, HISTORY_MAX) as i16;
}

/// From/to squares of a move for table indexing (castling: king to rook).
fn squares(m: Move) -> (Square, Square) {
    (m.from().unwrap_or(m.to()), m.to())
}

/// The piece-and-target key of a move made by `side`.
fn key(side: Color, m: Move) -> usize {
    let piece = side as usize * 6 + m.role() as usize - 1;
    piece * 64 + m.to() as usize
}

/// A move of the line searched, as the continuation history keys it: the
/// piece that moved and where it went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ContinuationKey(u16);

impl ContinuationKey {
    /// The key of `m`, made by `piece`.
    pub fn new(piece: Piece, m: Move) -> ContinuationKey {
        ContinuationKey(key(piece.color, m) as u16)
    }

    /// The key as a number below [`CONTINUATION_KEYS`].
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// How many continuation keys there are (pieces × squares).
pub const CONTINUATION_KEYS: usize = KEYS;

/// The moves one and two plies before a node (`None`: a null move, or
/// before the root).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Continuations(pub [Option<ContinuationKey>; 2]);

/// The continuation row of a missing earlier move (a null move, or before
/// the root): all zero, so that it adds nothing.
static NO_CONTINUATION: [i16; KEYS] = [0; KEYS];

/// The quiet-move history of one node, its tables looked up once (see
/// [`History::quiet_scorer`]).
pub struct QuietScorer<'a> {
    side: Color,
    butterfly: &'a [[i16; 64]; 64],
    /// Rows of length [`KEYS`].
    continuations: [&'a [i16]; 2],
}

impl QuietScorer<'_> {
    /// The history of the quiet move `m`: its butterfly score plus its
    /// continuation scores.
    #[inline(always)]
    pub fn score(&self, m: Move) -> i32 {
        let k = key(self.side, m);
        let (from, to) = squares(m);
        i32::from(self.butterfly[from as usize][to as usize])
            + i32::from(self.continuations[0][k])
            + i32::from(self.continuations[1][k])
    }
}

/// What one search thread has learned; kept between searches of a game,
/// reset by `ucinewgame`.
#[derive(Clone)]
pub struct History {
    countermoves: Box<[[Option<Move>; 64]; 64]>,
    butterfly: Box<[[[i16; 64]; 64]; 2]>,
    /// `[earlier move key][move key]`.
    continuation: Box<[i16]>,
    /// `[move key][captured role - 1]`.
    captures: Box<[i16]>,
}

impl Default for History {
    fn default() -> Self {
        History {
            countermoves: Box::new([[None; 64]; 64]),
            butterfly: Box::new([[[0; 64]; 64]; 2]),
            continuation: vec![0; KEYS * KEYS].into_boxed_slice(),
            captures: vec![0; KEYS * 6].into_boxed_slice(),
        }
    }
}

/// The captured role of a capture (a pawn for en passant).
fn captured(m: Move) -> Role {
    m.capture().unwrap_or(Role::Pawn)
}

impl History {
    /// The countermove to `previous`.
    pub fn countermove(&self, previous: Option<Move>) -> Option<Move> {
        previous.and_then(|p| {
            let (from, to) = squares(p);
            self.countermoves[from as usize][to as usize]
        })
    }

    /// The history of a quiet move by `side` after the moves `conts`: its
    /// butterfly score plus its continuation scores.
    #[inline]
    pub fn quiet_score(&self, side: Color, m: Move, conts: &Continuations) -> i32 {
        self.quiet_scorer(side, conts).score(m)
    }

    /// [`History::quiet_score`] for many moves of one node: the butterfly
    /// table of `side` and the continuation rows of `conts` are looked up
    /// once, so each move costs three loads and two adds.
    #[inline]
    pub fn quiet_scorer(&self, side: Color, conts: &Continuations) -> QuietScorer<'_> {
        let row = |c: &Option<ContinuationKey>| match c {
            Some(c) => {
                let start = usize::from(c.0) * KEYS;
                &self.continuation[start..start + KEYS]
            }
            None => &NO_CONTINUATION[..],
        };
        QuietScorer {
            side,
            butterfly: &self.butterfly[side as usize],
            continuations: [row(&conts.0[0]), row(&conts.0[1])],
        }
    }

    /// The capture history of a capture (or promotion) by `side`.
    #[inline]
    pub fn capture_score(&self, side: Color, m: Move) -> i32 {
        i32::from(self.captures[key(side, m) * 6 + captured(m) as usize - 1])
    }

    /// A quiet move `best` caused a beta cutoff at `depth`: reward it (and
    /// its continuations), punish the quiet moves and the captures tried
    /// before it, and record it as the countermove to `previous`.
    pub fn update_quiet_cutoff(
        &mut self,
        side: Color,
        depth: i32,
        best: Move,
        tried: &Tried<'_>,
        previous: Option<Move>,
    ) {
        let bonus = history_bonus(depth);
        self.reward_quiet(side, best, tried.conts, bonus);
        for &m in tried.quiets.iter().filter(|&&m| m != best) {
            self.reward_quiet(side, m, tried.conts, -bonus);
        }
        for &m in tried.captures {
            self.reward_capture(side, m, -bonus);
        }
        if let Some(p) = previous {
            let (f, t) = squares(p);
            self.countermoves[f as usize][t as usize] = Some(best);
        }
    }

    /// A capture `best` caused a beta cutoff at `depth`: reward it and
    /// punish the captures tried before it.
    pub fn update_capture_cutoff(
        &mut self,
        side: Color,
        depth: i32,
        best: Move,
        tried: &Tried<'_>,
    ) {
        let bonus = history_bonus(depth);
        self.reward_capture(side, best, bonus);
        for &m in tried.captures.iter().filter(|&&m| m != best) {
            self.reward_capture(side, m, -bonus);
        }
    }

    fn reward_quiet(&mut self, side: Color, m: Move, conts: &Continuations, bonus: i32) {
        let (from, to) = squares(m);
        gravity(
            &mut self.butterfly[side as usize][from as usize][to as usize],
            bonus,
        );
        let k = key(side, m);
        for c in conts.0.iter().flatten() {
            gravity(&mut self.continuation[usize::from(c.0) * KEYS + k], bonus);
        }
    }

    fn reward_capture(&mut self, side: Color, m: Move, bonus: i32) {
        let i = key(side, m) * 6 + captured(m) as usize - 1;
        gravity(&mut self.captures[i], bonus);
    }
}

/// The moves a node tried before the one that cut it off, and the moves
/// before the node.
#[derive(Debug, Clone, Copy)]
pub struct Tried<'a> {
    /// Quiet moves searched.
    pub quiets: &'a [Move],
    /// Captures and promotions searched.
    pub captures: &'a [Move],
    /// The moves one and two plies back.
    pub conts: &'a Continuations,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gravity_stays_bounded() {
        let mut v = 0i16;
        for _ in 0..10_000 {
            gravity(&mut v, HISTORY_BONUS_MAX);
        }
        assert!(i32::from(v) <= HISTORY_MAX && v > 15_000);
        for _ in 0..10_000 {
            gravity(&mut v, -HISTORY_BONUS_MAX);
        }
        assert!(i32::from(v) >= -HISTORY_MAX && v < -15_000);
    }

    #[test]
    fn continuations_learn_what_follows_what() {
        let mut h = History::default();
        let knight = |from, to| Move::Normal {
            role: Role::Knight,
            from,
            capture: None,
            to,
            promotion: None,
        };
        let (before, after) = (
            knight(Square::G1, Square::F3),
            knight(Square::B8, Square::C6),
        );
        let conts = Continuations([
            Some(ContinuationKey::new(Color::White.knight(), before)),
            None,
        ]);
        let tried = Tried {
            quiets: &[],
            captures: &[],
            conts: &conts,
        };
        h.update_quiet_cutoff(Color::Black, 8, after, &tried, Some(before));
        let with = h.quiet_score(Color::Black, after, &conts);
        let without = h.quiet_score(Color::Black, after, &Continuations::default());
        assert_eq!(with, 2 * without);
        assert!(without > 0);
        assert_eq!(h.countermove(Some(before)), Some(after));
    }
}
