//! The evaluation handicap of a limited strength (`UCI_LimitStrength`,
//! chosen by its level, `level.rs`): what the search's static evaluation
//! becomes for a weaker player. Two parts:
//!
//! - **Positional fade.** Only `positional_percent` of what the evaluation
//!   says beyond the material balance is kept: a weak player counts
//!   material and sees less of the rest (piece placement, pawn structure,
//!   king safety, threats).
//! - **Noise.** Every position gets a fixed error in `-noise_cp..=noise_cp`
//!   (triangular: small errors are common, large ones rare), a hash of its
//!   key and the handicap's seed. The same position always gets the same
//!   error within a game, so the search, the transposition table and the
//!   correction history see one consistent (if wrong) judgement, as a
//!   person's misjudgements are consistent; a new seed per game gives new
//!   ones.
//!
//! Without a handicap (`SearchRequest::handicap` is `None`, the default)
//! the search evaluates exactly as always: the only cost is one branch on
//! the `Option` per evaluation.
//!
//! ```
//! use shears::engine::strength::Handicap;
//! let h = Handicap { positional_percent: 100, noise_cp: 40, seed: 7 };
//! let noise = h.noise(0x1234_5678);
//! assert!((-40..=40).contains(&noise) && noise == h.noise(0x1234_5678));
//! ```

use shakmaty::Chess;

use crate::eval::material_balance;
use crate::search::EvalHandicap;

/// How much of the evaluation a limited strength sees, and how wrongly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Handicap {
    /// Share of the evaluation beyond the material balance that is kept,
    /// in percent (100: the whole evaluation).
    pub positional_percent: i32,
    /// Largest error added to an evaluation, centipawns (0: none).
    pub noise_cp: i32,
    /// Mixed into the position keys: each seed gives other errors.
    pub seed: u64,
}

impl EvalHandicap for Handicap {
    /// The positional fade, then the position's fixed error.
    fn apply(&self, eval: i32, pos: &Chess, key: u64) -> i32 {
        let faded = if self.positional_percent >= 100 {
            eval
        } else {
            let material = material_balance(pos);
            material + (eval - material) * self.positional_percent.max(0) / 100
        };
        faded + self.noise(key)
    }
}

impl Handicap {
    /// The fixed error of the position with key `key`: the difference of
    /// two uniform draws in `0..=noise_cp`, so triangular on
    /// `-noise_cp..=noise_cp`. The key includes the side to move, so a
    /// position's error is its own, whoever looks at it; the parent of a
    /// node sees it negated, as it sees the evaluation.
    pub fn noise(&self, key: u64) -> i32 {
        if self.noise_cp <= 0 {
            return 0;
        }
        let h = mix(key ^ self.seed);
        let span = self.noise_cp as u64 + 1;
        let a = ((h & 0xFFFF_FFFF) % span) as i32;
        let b = ((h >> 32) % span) as i32;
        a - b
    }
}

/// SplitMix64's finaliser: every bit of the input moves every bit of the
/// output, so that neighbouring keys and seeds give unrelated errors.
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Position;
    use crate::eval::evaluate;

    #[test]
    fn no_fade_and_no_noise_is_the_evaluation_itself() {
        let pos = Position::from_fen(
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9",
            false,
        )
        .unwrap();
        let h = Handicap {
            positional_percent: 100,
            noise_cp: 0,
            seed: 99,
        };
        let eval = evaluate(pos.board());
        assert_eq!(h.apply(eval, pos.board(), pos.key()), eval);
    }

    #[test]
    fn a_full_fade_leaves_the_material_balance() {
        let pos =
            Position::from_fen("4k3/pppppppp/8/8/8/8/PPPPPPPP/1N2K3 b - - 0 1", false).unwrap();
        let board = pos.board();
        let none = Handicap {
            positional_percent: 0,
            noise_cp: 0,
            seed: 1,
        };
        assert_eq!(
            none.apply(evaluate(board), board, pos.key()),
            material_balance(board)
        );
        let half = Handicap {
            positional_percent: 50,
            ..none
        };
        let eval = evaluate(board);
        let m = material_balance(board);
        assert_eq!(half.apply(eval, board, pos.key()), m + (eval - m) / 2);
    }

    #[test]
    fn noise_is_bounded_fixed_per_key_centred_and_seeded() {
        let h = Handicap {
            positional_percent: 100,
            noise_cp: 50,
            seed: 3,
        };
        let other = Handicap { seed: 4, ..h };
        let (mut sum, mut differ, mut large) = (0i64, 0, 0);
        for key in 0..20_000u64 {
            let k = key.wrapping_mul(0x2545_F491_4F6C_DD1D);
            let n = h.noise(k);
            assert!((-50..=50).contains(&n));
            assert_eq!(n, h.noise(k));
            sum += i64::from(n);
            differ += usize::from(n != other.noise(k));
            large += usize::from(n.abs() > 40);
        }
        // Mean near zero; another seed, other errors; the tails thin
        // (triangular: P(|n| > 40) is about 3.5%).
        assert!(sum.abs() < 20_000 * 2, "mean {}", sum as f64 / 20_000.0);
        assert!(differ > 19_000, "{differ}");
        assert!((300..1100).contains(&large), "{large}");
        let silent = Handicap { noise_cp: 0, ..h };
        assert_eq!(silent.noise(12345), 0);
    }
}
