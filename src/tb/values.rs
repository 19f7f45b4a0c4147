//! What a table says about a position, in our own types: [`Wdl`] (win, draw
//! or loss, with the 50-move rule's cursed wins and blessed losses), [`Dtz`]
//! (distance to the next capture or pawn move) and [`Verdict`] (what a WDL
//! value means for play, with or without the 50-move rule).
//!
//! ```
//! use shears::tb::{Verdict, Wdl};
//! assert_eq!(Wdl::CursedWin.verdict(true), Verdict::Draw);
//! assert_eq!(Wdl::CursedWin.verdict(false), Verdict::Win);
//! assert_eq!(-Wdl::BlessedLoss, Wdl::CursedWin);
//! ```

use std::fmt;
use std::ops::Neg;

use shakmaty_syzygy as syzygy;

/// Win, draw or loss for the side to move, as the tables give it (WDL50).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wdl {
    /// Lost, even under the 50-move rule.
    Loss,
    /// Lost without the 50-move rule, drawn with it.
    BlessedLoss,
    /// Drawn.
    Draw,
    /// Won without the 50-move rule, drawn with it.
    CursedWin,
    /// Won, even under the 50-move rule.
    Win,
}

/// What a position is worth in play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Verdict {
    /// The side to move loses.
    Loss,
    /// Neither side can force a win.
    Draw,
    /// The side to move wins.
    Win,
}

impl Wdl {
    /// What the value means for play: with the 50-move rule (`rule50`), a
    /// cursed win and a blessed loss are draws; without it, a win and a
    /// loss.
    pub fn verdict(self, rule50: bool) -> Verdict {
        match self {
            Wdl::Win => Verdict::Win,
            Wdl::CursedWin if !rule50 => Verdict::Win,
            Wdl::Loss => Verdict::Loss,
            Wdl::BlessedLoss if !rule50 => Verdict::Loss,
            _ => Verdict::Draw,
        }
    }

    /// The value's name: `win`, `cursed win`, `draw`, `blessed loss`,
    /// `loss`.
    pub fn name(self) -> &'static str {
        match self {
            Wdl::Loss => "loss",
            Wdl::BlessedLoss => "blessed loss",
            Wdl::Draw => "draw",
            Wdl::CursedWin => "cursed win",
            Wdl::Win => "win",
        }
    }

    /// Parses a [`Wdl::name`].
    pub fn from_name(name: &str) -> Option<Wdl> {
        [
            Wdl::Loss,
            Wdl::BlessedLoss,
            Wdl::Draw,
            Wdl::CursedWin,
            Wdl::Win,
        ]
        .into_iter()
        .find(|w| w.name() == name)
    }

    /// The value when the best move is a capture or pawn move: the DTZ of
    /// such a position (±1 for a win or loss, ±101 for a cursed win or
    /// blessed loss, 0 for a draw).
    pub fn dtz_before_zeroing(self) -> i32 {
        match self {
            Wdl::Loss => -1,
            Wdl::BlessedLoss => -101,
            Wdl::Draw => 0,
            Wdl::CursedWin => 101,
            Wdl::Win => 1,
        }
    }

    /// The value a DTZ stands for (after a capture or pawn move).
    pub fn from_dtz(dtz: i32) -> Wdl {
        match dtz {
            n if n < -100 => Wdl::BlessedLoss,
            n if n < 0 => Wdl::Loss,
            0 => Wdl::Draw,
            n if n <= 100 => Wdl::Win,
            _ => Wdl::CursedWin,
        }
    }
}

impl Neg for Wdl {
    type Output = Wdl;

    fn neg(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::BlessedLoss => Wdl::CursedWin,
            Wdl::Draw => Wdl::Draw,
            Wdl::CursedWin => Wdl::BlessedLoss,
            Wdl::Win => Wdl::Loss,
        }
    }
}

impl Neg for Verdict {
    type Output = Verdict;

    /// The verdict for the other side.
    fn neg(self) -> Verdict {
        match self {
            Verdict::Loss => Verdict::Win,
            Verdict::Draw => Verdict::Draw,
            Verdict::Win => Verdict::Loss,
        }
    }
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl From<syzygy::Wdl> for Wdl {
    fn from(wdl: syzygy::Wdl) -> Wdl {
        match wdl {
            syzygy::Wdl::Loss => Wdl::Loss,
            syzygy::Wdl::BlessedLoss => Wdl::BlessedLoss,
            syzygy::Wdl::Draw => Wdl::Draw,
            syzygy::Wdl::CursedWin => Wdl::CursedWin,
            syzygy::Wdl::Win => Wdl::Win,
        }
    }
}

/// Distance to zeroing: how many plies the side to move needs (winning)
/// or can hold out (losing) until the next capture or pawn move, with
/// optimal play by both sides, counted from a halfmove clock of zero.
/// Positive when the side to move wins, negative when it loses, 0 for a
/// draw; beyond ±100 for a cursed win or blessed loss.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Dtz {
    /// The distance in plies, signed as above.
    pub plies: i32,
    /// The table stores this value rounded: the true distance may be one
    /// ply more (Syzygy rounds where that never changes the outcome).
    pub rounded: bool,
}

impl From<syzygy::MaybeRounded<syzygy::Dtz>> for Dtz {
    fn from(dtz: syzygy::MaybeRounded<syzygy::Dtz>) -> Dtz {
        match dtz {
            syzygy::MaybeRounded::Rounded(d) => Dtz {
                plies: d.0,
                rounded: true,
            },
            syzygy::MaybeRounded::Precise(d) => Dtz {
                plies: d.0,
                rounded: false,
            },
        }
    }
}

impl fmt::Display for Dtz {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.plies)?;
        if self.rounded && self.plies != 0 {
            f.write_str(" (rounded: or one ply more)")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dtz_and_wdl_agree_on_the_fifty_move_edge() {
        for wdl in [
            Wdl::Loss,
            Wdl::BlessedLoss,
            Wdl::Draw,
            Wdl::CursedWin,
            Wdl::Win,
        ] {
            assert_eq!(Wdl::from_dtz(wdl.dtz_before_zeroing()), wdl);
            assert_eq!(Wdl::from_name(wdl.name()), Some(wdl));
            assert_eq!(-(-wdl), wdl);
            for rule50 in [true, false] {
                assert_eq!((-wdl).verdict(rule50), -wdl.verdict(rule50));
            }
        }
        assert_eq!(Wdl::from_dtz(100), Wdl::Win);
        assert_eq!(Wdl::from_dtz(-100), Wdl::Loss);
        assert_eq!(Wdl::from_dtz(101), Wdl::CursedWin);
    }
}
