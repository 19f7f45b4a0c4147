//! Adjudication: how a self-play game ends before the rules end it, by the
//! search's own scores only (no tablebases), so that plies are not spent
//! on games whose result is already clear.
//!
//! - **Resign:** a score of at least `resign_score` for the same side on
//!   `resign_plies` consecutive plies wins the game for that side.
//! - **Draw:** from game ply `draw_min_ply` on, scores within `draw_score`
//!   of zero on `draw_plies` consecutive plies draw it.
//!
//! [`Adjudication::default`] is the rule `datagen` plays by (every game
//! file so far). `shears data convert` can cut a game file's games by a
//! stricter rule ([`Adjudication::is_within`]): a game is the same moves
//! up to the ply where a stricter rule ends it (each move is searched
//! before the rule looks at its score, and the rule never changes a move),
//! so the cut file is the file `datagen` would have written with that rule,
//! and what a rule saves can be measured on the games already made.

use std::fmt;

/// The thresholds of the adjudication (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Adjudication {
    /// Resign: a score at least this large (centipawns, for one side) ...
    pub resign_score: i32,
    /// ... on this many consecutive plies ends the game.
    pub resign_plies: u32,
    /// Draw: from this game ply on ...
    pub draw_min_ply: u32,
    /// ... scores within this many centipawns of zero ...
    pub draw_score: i32,
    /// ... on this many consecutive plies end the game as a draw.
    pub draw_plies: u32,
}

impl Default for Adjudication {
    fn default() -> Self {
        Adjudication {
            resign_score: 1000,
            resign_plies: 6,
            draw_min_ply: 80,
            draw_score: 10,
            draw_plies: 12,
        }
    }
}

impl Adjudication {
    /// Whether every game `other` ends, this rule ends too, at the same
    /// ply or before: each threshold of `self` is at least as strict.
    /// Only such a rule can cut games that `other` played.
    pub fn is_within(&self, other: &Adjudication) -> bool {
        self.resign_score <= other.resign_score
            && self.resign_plies <= other.resign_plies
            && self.draw_min_ply <= other.draw_min_ply
            && self.draw_score >= other.draw_score
            && self.draw_plies <= other.draw_plies
    }
}

impl fmt::Display for Adjudication {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "resign at {} cp for {} plies, draw within {} cp for {} plies from ply {}",
            self.resign_score,
            self.resign_plies,
            self.draw_score,
            self.draw_plies,
            self.draw_min_ply
        )
    }
}

/// One game's adjudication as it goes: the runs of winning and of level
/// scores so far.
#[derive(Debug, Clone)]
pub struct Adjudicator {
    rule: Adjudication,
    /// Consecutive plies with a resign score, signed by the winning side
    /// (positive: White).
    resign_run: i32,
    /// Consecutive plies with a level score.
    draw_run: u32,
}

impl Adjudicator {
    /// A new game's adjudicator.
    pub fn new(rule: Adjudication) -> Adjudicator {
        Adjudicator {
            rule,
            resign_run: 0,
            draw_run: 0,
        }
    }

    /// Takes the search's score (White's view) of the position at game
    /// ply `ply`; `Some(result for White)` when the game ends here.
    pub fn observe(&mut self, ply: u32, white_score: i32) -> Option<f32> {
        let sign = white_score.signum();
        self.resign_run = if white_score.abs() < self.rule.resign_score {
            0
        } else if self.resign_run.signum() == sign {
            self.resign_run + sign
        } else {
            sign
        };
        if self.resign_run.unsigned_abs() >= self.rule.resign_plies {
            return Some(if self.resign_run > 0 { 1.0 } else { 0.0 });
        }
        self.draw_run = if white_score.abs() <= self.rule.draw_score {
            self.draw_run + 1
        } else {
            0
        };
        (ply >= self.rule.draw_min_ply && self.draw_run >= self.rule.draw_plies).then_some(0.5)
    }

    /// A ply without a score (a game converted from PGN may have some):
    /// both runs start again.
    pub fn skip(&mut self) {
        self.resign_run = 0;
        self.draw_run = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(rule: Adjudication, start_ply: u32, scores: &[i32]) -> Option<(usize, f32)> {
        let mut a = Adjudicator::new(rule);
        scores
            .iter()
            .enumerate()
            .find_map(|(i, &s)| a.observe(start_ply + i as u32, s).map(|r| (i, r)))
    }

    #[test]
    fn resigns_after_the_run_of_one_side() {
        let rule = Adjudication::default();
        assert_eq!(run(rule, 20, &[1200; 6]), Some((5, 1.0)));
        assert_eq!(run(rule, 20, &[-1000; 6]), Some((5, 0.0)));
        // A run broken by a smaller score, or by the other side, starts again.
        assert_eq!(
            run(rule, 20, &[1200, 1200, 1200, 999, 1200, 1200, 1200]),
            None
        );
        assert_eq!(run(rule, 20, &[1200, 1200, 1200, -1200, 1200, 1200]), None);
    }

    #[test]
    fn draws_only_from_the_rule_s_ply_on() {
        let rule = Adjudication::default();
        assert_eq!(run(rule, 60, &[5; 12]), None);
        assert_eq!(run(rule, 70, &[-10; 12]), Some((11, 0.5)));
        assert_eq!(
            run(rule, 90, &[0, 0, 11, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
            None
        );
    }

    #[test]
    fn a_stricter_rule_ends_every_game_no_later() {
        let base = Adjudication::default();
        let strict = Adjudication {
            resign_score: 700,
            resign_plies: 4,
            draw_min_ply: 60,
            draw_score: 20,
            draw_plies: 8,
        };
        assert!(strict.is_within(&base) && base.is_within(&base));
        assert!(!base.is_within(&strict));
        let games: [&[i32]; 3] = [&[1200; 8], &[-1100; 8], &[3; 14]];
        for game in games {
            let (late, base_result) = run(base, 80, game).unwrap();
            let (early, result) = run(strict, 80, game).unwrap();
            assert!(early < late && result == base_result, "{game:?}");
        }
        assert_eq!(run(base, 80, &[-800; 8]), None);
        assert_eq!(run(strict, 80, &[-800; 8]), Some((3, 0.0)));
    }
}
