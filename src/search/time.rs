//! Time management: turns `go` clock parameters into a soft limit (do not
//! start another iteration after it) and a hard limit (stop at once), and
//! scales the soft limit by how settled the search is ([`soft_scale`]).
//!
//! The numbers that shape the soft limit are tunables in `params/values.rs`
//! (`DEFAULT_MOVES_TO_GO`, `INCREMENT_SHARE_PERCENT`, `SOFT_LIMIT_PERCENT`,
//! `TM_*`); the ones here are safety bounds and stay fixed.

use std::time::Duration;

use shakmaty::Color;

use super::params::{
    DEFAULT_MOVES_TO_GO, INCREMENT_SHARE_PERCENT, SOFT_LIMIT_PERCENT, TM_NODES_BASE,
    TM_NODES_FACTOR, TM_SCORE_DROP_MAX, TM_SCORE_DROP_SCALE,
};

/// The hard limit as a multiple of the move's budget…
pub const HARD_LIMIT_FACTOR: u64 = 4;
/// …but never more than this percentage of the remaining clock.
pub const HARD_LIMIT_CLOCK_PERCENT: u64 = 40;
/// The smallest limit we ever set, in milliseconds.
pub const MIN_LIMIT_MS: u64 = 1;
/// Clock reserve: milliseconds of the clock (beyond `Move Overhead`) that no
/// limit ever reaches into. The budget is planned from the whole clock as
/// usual and only capped by the surplus over the reserve, so the reserve
/// changes nothing until the clock runs low; there the engine moves quickly
/// and lets the increment rebuild the clock, so that a stall of the GUI,
/// the pipe or the OS late in a fast increment game does not lose on time.
pub const CLOCK_RESERVE_MS: u64 = 100;

/// The clock of a `go` command, in milliseconds: its parameters, and the
/// part of every move the engine keeps back for the GUI.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Clock {
    /// White's remaining time.
    pub wtime: Option<u64>,
    /// Black's remaining time.
    pub btime: Option<u64>,
    /// White's increment.
    pub winc: Option<u64>,
    /// Black's increment.
    pub binc: Option<u64>,
    /// Moves to the next time control.
    pub movestogo: Option<u64>,
    /// Fixed time for this move.
    pub movetime: Option<u64>,
    /// `Move Overhead`: kept back from every move for the GUI, the pipe and
    /// the OS. An option, not a `go` parameter: the engine sets it on the
    /// clock of each `go`, the one carrier from the option to every time
    /// plan (the search's, a teaching search's, a limited level's pacing).
    pub move_overhead: u64,
}

/// Soft and hard limits for one search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeLimits {
    /// Do not start an iteration after this.
    pub soft: Option<Duration>,
    /// Stop the search once this has passed.
    pub hard: Option<Duration>,
    /// The soft limit may be scaled by how settled the search is (a clock;
    /// not a fixed `movetime`, which is meant to be used).
    pub scalable: bool,
}

impl TimeLimits {
    /// No time limit at all.
    pub const NONE: TimeLimits = TimeLimits {
        soft: None,
        hard: None,
        scalable: false,
    };

    /// Limits for `side` to move from `clock`, keeping its
    /// [`Clock::move_overhead`] back.
    pub fn new(clock: &Clock, side: Color) -> TimeLimits {
        let overhead_ms = clock.move_overhead;
        let ms = |v: u64| Some(Duration::from_millis(v.max(MIN_LIMIT_MS)));
        if let Some(movetime) = clock.movetime {
            let t = movetime.saturating_sub(overhead_ms);
            return TimeLimits {
                soft: ms(t),
                hard: ms(t),
                scalable: false,
            };
        }
        let (time, inc) = match side {
            Color::White => (clock.wtime, clock.winc),
            Color::Black => (clock.btime, clock.binc),
        };
        let Some(time) = time else {
            return TimeLimits::NONE;
        };
        let inc = inc.unwrap_or(0);
        let available = time.saturating_sub(overhead_ms);
        // Clock reserve: no limit reaches into it; below it the limit falls
        // to MIN_LIMIT_MS (depth 1 still completes).
        let surplus = available.saturating_sub(CLOCK_RESERVE_MS);
        let moves_to_go = clock
            .movestogo
            .unwrap_or(DEFAULT_MOVES_TO_GO.get() as u64)
            .clamp(1, 1000);
        // 128-bit arithmetic: clocks and increments come from the GUI and
        // may be absurdly large.
        let (available, surplus, inc) =
            (u128::from(available), u128::from(surplus), u128::from(inc));
        let budget = (available / u128::from(moves_to_go)
            + inc * INCREMENT_SHARE_PERCENT.get() as u128 / 100)
            .min(surplus);
        let hard_cap = if moves_to_go == 1 {
            surplus
        } else {
            (available * u128::from(HARD_LIMIT_CLOCK_PERCENT) / 100).min(surplus)
        };
        let hard = (budget * u128::from(HARD_LIMIT_FACTOR)).min(hard_cap);
        let soft = (budget * SOFT_LIMIT_PERCENT.get() as u128 / 100).min(hard);
        let soft = u64::try_from(soft).unwrap_or(u64::MAX);
        let hard = u64::try_from(hard).unwrap_or(u64::MAX);
        TimeLimits {
            soft: ms(soft),
            hard: ms(hard),
            scalable: true,
        }
    }
}

/// The soft limit's scale after an iteration when the best move has not
/// changed for `stable` iterations: a new best move asks for more time, a
/// long-settled one for less.
const STABILITY_SCALE: [f64; 6] = [2.0, 1.5, 1.2, 1.0, 0.9, 0.8];
/// The scale is kept within these bounds.
const SCALE_BOUNDS: (f64, f64) = (0.4, 2.5);

/// How much of the soft limit to use after an iteration: by the best move's
/// stability (iterations unchanged), its share of the root's nodes (0 to
/// 1), and how far the score fell since the last iteration (centipawns,
/// positive for a fall).
pub fn soft_scale(stable: usize, node_share: f64, score_drop: i32) -> f64 {
    let stability = STABILITY_SCALE[stable.min(STABILITY_SCALE.len() - 1)];
    let nodes_base = f64::from(TM_NODES_BASE.get()) / 100.0;
    let nodes_factor = f64::from(TM_NODES_FACTOR.get()) / 100.0;
    let nodes = (nodes_base - node_share.clamp(0.0, 1.0)) * nodes_factor;
    let drop_scale = f64::from(TM_SCORE_DROP_SCALE.get()) / 10_000.0;
    let drop = 1.0 + f64::from(score_drop.clamp(0, TM_SCORE_DROP_MAX.get())) * drop_scale;
    (stability * nodes * drop).clamp(SCALE_BOUNDS.0, SCALE_BOUNDS.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The limits of `clock` for `side` with `overhead` ms kept back.
    fn with_overhead(clock: &Clock, side: Color, overhead: u64) -> TimeLimits {
        let clock = Clock {
            move_overhead: overhead,
            ..*clock
        };
        TimeLimits::new(&clock, side)
    }

    #[test]
    fn movetime_keeps_overhead_back() {
        let c = Clock {
            movetime: Some(1000),
            ..Clock::default()
        };
        let l = with_overhead(&c, Color::White, 50);
        assert_eq!(l.hard, Some(Duration::from_millis(950)));
    }

    #[test]
    fn hard_limit_never_exceeds_the_clock() {
        for time in [1u64, 10, 100, 1000, 60_000] {
            for mtg in [None, Some(1), Some(2), Some(40)] {
                let c = Clock {
                    wtime: Some(time),
                    winc: Some(10),
                    movestogo: mtg,
                    ..Clock::default()
                };
                let l = with_overhead(&c, Color::White, 10);
                let hard = l.hard.unwrap().as_millis() as u64;
                assert!(
                    hard <= time.saturating_sub(10).max(MIN_LIMIT_MS),
                    "{time} {mtg:?} {hard}"
                );
                assert!(l.soft <= l.hard);
            }
        }
    }

    #[test]
    fn low_clock_keeps_its_reserve() {
        // At the reserve and below, the budget is the minimum, whatever the
        // increment: the increment rebuilds the clock.
        for time in [0u64, 5, 50, 110] {
            let c = Clock {
                wtime: Some(time),
                winc: Some(10),
                ..Clock::default()
            };
            let l = with_overhead(&c, Color::White, 10);
            assert_eq!(l.hard, Some(Duration::from_millis(MIN_LIMIT_MS)), "{time}");
        }
        // Above it, the limits are planned from the whole clock and capped
        // by the surplus: far above, the reserve changes nothing…
        let c = Clock {
            wtime: Some(60_000),
            winc: Some(0),
            ..Clock::default()
        };
        let l = with_overhead(&c, Color::White, 10);
        assert_eq!(
            l.soft,
            Some(Duration::from_millis(
                59_990 / DEFAULT_MOVES_TO_GO.get() as u64 * SOFT_LIMIT_PERCENT.get() as u64 / 100
            ))
        );
        // …and with one move to go, only the surplus is spent.
        let c = Clock {
            wtime: Some(1110),
            winc: Some(0),
            movestogo: Some(1),
            ..Clock::default()
        };
        let l = with_overhead(&c, Color::White, 10);
        assert_eq!(l.hard, Some(Duration::from_millis(1000)));
    }

    #[test]
    fn absurd_clocks_do_not_overflow() {
        let c = Clock {
            wtime: Some(u64::MAX),
            winc: Some(u64::MAX),
            btime: Some(1_000_000_000_000_000_000),
            ..Clock::default()
        };
        let w = with_overhead(&c, Color::White, 10);
        assert!(w.hard.unwrap() >= Duration::from_secs(1_000_000));
        let b = with_overhead(&c, Color::Black, 10);
        assert!(b.soft <= b.hard && b.hard.unwrap() > Duration::from_secs(1_000_000));
    }

    #[test]
    fn unsettled_searches_get_more_time() {
        let settled = soft_scale(10, 0.95, 0);
        let new_best = soft_scale(0, 0.4, 0);
        let falling = soft_scale(10, 0.95, 80);
        assert!(settled < 1.0 && new_best > 1.5 && falling > settled);
        assert!(soft_scale(0, 0.0, 1000) <= SCALE_BOUNDS.1);
    }

    #[test]
    fn no_clock_means_no_limit() {
        assert_eq!(
            with_overhead(&Clock::default(), Color::Black, 10),
            TimeLimits::NONE
        );
    }
}
