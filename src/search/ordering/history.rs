//! History heuristics for quiet moves: a countermove per previous move and
//! a butterfly history per side, with one bounded update rule ("gravity": a bonus moves the value toward ±HISTORY_MAX and
//! shrinks as it gets there, so scores never overflow and old lessons fade).
//! The killers, which belong to a ply of one search, live in the search's
//! stack frames.

use shakmaty::{Color, Move, Square};

/// Largest magnitude of a history score.
pub const HISTORY_MAX: i32 = 16_384;
/// Bonus for a quiet move that caused a cutoff at `depth`: depth², capped.
pub const HISTORY_BONUS_MAX: i32 = 1_600;

/// The bonus for a cutoff at `depth`.
pub fn history_bonus(depth: i32) -> i32 {
    (depth * depth).min(HISTORY_BONUS_MAX)
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

/// Countermoves and butterfly history of one search thread; kept between
/// searches of a game, reset by `ucinewgame`.
#[derive(Clone)]
pub struct History {
    countermoves: Box<[[Option<Move>; 64]; 64]>,
    butterfly: Box<[[[i16; 64]; 64]; 2]>,
}

impl Default for History {
    fn default() -> Self {
        History {
            countermoves: Box::new([[None; 64]; 64]),
            butterfly: Box::new([[[0; 64]; 64]; 2]),
        }
    }
}

impl History {
    /// The countermove to `previous`.
    pub fn countermove(&self, previous: Option<Move>) -> Option<Move> {
        previous.and_then(|p| {
            let (from, to) = squares(p);
            self.countermoves[from as usize][to as usize]
        })
    }

    /// The butterfly score of a quiet move by `side`.
    pub fn score(&self, side: Color, m: Move) -> i32 {
        let (from, to) = squares(m);
        i32::from(self.butterfly[side as usize][from as usize][to as usize])
    }

    /// A quiet move `best` caused a beta cutoff at `depth`: reward it, punish
    /// the quiet moves tried before it, and record it as the countermove to
    /// `previous`.
    pub fn update_quiet_cutoff(
        &mut self,
        side: Color,
        depth: i32,
        best: Move,
        tried: &[Move],
        previous: Option<Move>,
    ) {
        let bonus = history_bonus(depth);
        let (from, to) = squares(best);
        gravity(
            &mut self.butterfly[side as usize][from as usize][to as usize],
            bonus,
        );
        for &m in tried.iter().filter(|&&m| m != best) {
            let (f, t) = squares(m);
            gravity(
                &mut self.butterfly[side as usize][f as usize][t as usize],
                -bonus,
            );
        }
        if let Some(p) = previous {
            let (f, t) = squares(p);
            self.countermoves[f as usize][t as usize] = Some(best);
        }
    }
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
}
