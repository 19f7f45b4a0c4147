//! The king-danger count's vocabulary: its features ([`Feature`], in
//! `KING_DANGER` order) and the curve that turns a count into a cost
//! ([`penalty`]). `king.rs` counts the features, the accumulators add the
//! weighted count up and apply the curve, and the tuner fits the weights
//! through it; this file sits below all of them.

use crate::eval::hce::tapered::S;

/// The features of the danger count, in `KING_DANGER` order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(usize)]
pub enum Feature {
    /// Knights attacking the area, times the number of attackers.
    KnightAttackers,
    /// Bishops attacking the area, times the number of attackers.
    BishopAttackers,
    /// Rooks attacking the area, times the number of attackers.
    RookAttackers,
    /// Queens attacking the area, times the number of attackers.
    QueenAttackers,
    /// Squares of the area attacked, summed over the attackers.
    AreaHits,
    /// Weak squares of the area.
    WeakSquares,
    /// Safe knight checks (squares).
    KnightChecks,
    /// Safe bishop checks.
    BishopChecks,
    /// Safe rook checks.
    RookChecks,
    /// Safe queen checks.
    QueenChecks,
    /// The king's own pawns in the area, on squares that are not weak.
    ShelterPawns,
    /// The king's own knights and bishops that defend the area.
    MinorGuards,
    /// The enemy has no queen.
    NoQueen,
    /// A constant (the count's offset).
    Constant,
    /// Unsafe checks: squares from which an enemy piece could check the
    /// king but which the king's side defends (all piece types).
    UnsafeChecks,
    /// The king's own pieces that alone stand between it and an enemy
    /// slider on its line (pinned, or nearly).
    PinnedPieces,
    /// Enemy pieces that alone stand between the king and an enemy slider
    /// (a discovered check waits behind them).
    DiscoveredChecks,
    /// Enemy attacks on the king's flank (files within two of the king's,
    /// the king's half of the board plus one rank), squares attacked twice
    /// counted again.
    FlankAttacks,
    /// The king's side's own attacks on the same flank squares.
    FlankDefence,
    /// Enemy pawns on the king's flank, on its half of the board plus one
    /// rank (a storm in progress).
    FlankStorm,
}

/// Number of danger features.
pub const DANGER_FEATURES: usize = 20;

impl Feature {
    /// Every feature, in `KING_DANGER` order.
    pub const ALL: [Feature; DANGER_FEATURES] = [
        Feature::KnightAttackers,
        Feature::BishopAttackers,
        Feature::RookAttackers,
        Feature::QueenAttackers,
        Feature::AreaHits,
        Feature::WeakSquares,
        Feature::KnightChecks,
        Feature::BishopChecks,
        Feature::RookChecks,
        Feature::QueenChecks,
        Feature::ShelterPawns,
        Feature::MinorGuards,
        Feature::NoQueen,
        Feature::Constant,
        Feature::UnsafeChecks,
        Feature::PinnedPieces,
        Feature::DiscoveredChecks,
        Feature::FlankAttacks,
        Feature::FlankDefence,
        Feature::FlankStorm,
    ];

    /// A short name for the trace.
    pub const fn name(self) -> &'static str {
        match self {
            Feature::KnightAttackers => "knight attackers",
            Feature::BishopAttackers => "bishop attackers",
            Feature::RookAttackers => "rook attackers",
            Feature::QueenAttackers => "queen attackers",
            Feature::AreaHits => "area hits",
            Feature::WeakSquares => "weak squares",
            Feature::KnightChecks => "knight checks",
            Feature::BishopChecks => "bishop checks",
            Feature::RookChecks => "rook checks",
            Feature::QueenChecks => "queen checks",
            Feature::ShelterPawns => "shelter pawns",
            Feature::MinorGuards => "minor guards",
            Feature::NoQueen => "no queen",
            Feature::Constant => "constant",
            Feature::UnsafeChecks => "unsafe checks",
            Feature::PinnedPieces => "pinned pieces",
            Feature::DiscoveredChecks => "discovered checks",
            Feature::FlankAttacks => "flank attacks",
            Feature::FlankDefence => "flank defence",
            Feature::FlankStorm => "flank storm",
        }
    }
}

/// The midgame cost of a danger count `d` is `d² / DANGER_MG_DIVISOR`…
pub const DANGER_MG_DIVISOR: i32 = 720;
/// …and the endgame cost `d / DANGER_EG_DIVISOR` (negative counts cost
/// nothing).
pub const DANGER_EG_DIVISOR: i32 = 20;

/// What a danger count (midgame, endgame) costs the king's side.
#[inline(always)]
pub fn penalty(count: S) -> S {
    let mg = count.0.max(0);
    S(
        mg * mg / DANGER_MG_DIVISOR,
        count.1.max(0) / DANGER_EG_DIVISOR,
    )
}
