//! Accumulators followed move by move equal accumulators built from
//! scratch, after every move of random games in which every kind of move
//! occurs (checked: quiet moves, captures, en passant, each promotion,
//! castling on both sides in standard chess and in Chess960, Chess960
//! castling where the king or the rook does not move, and king moves and
//! castling on both sides that cross between the d and e files, which a
//! king-mirrored net answers with a refresh of that side), for every width
//! and both input layouts.

use shakmaty::{CastlingSide, Move, Position as _, Role};

use super::super::accumulator::Accumulator;
use super::super::arch::Layout;
use super::super::delta::Delta;
use super::super::net::Net;
use super::super::stack::{AccumulatorStack, REFRESH_DISTANCE};
use super::{for_each_width, random_games, random_net};
use crate::chess::random::Rng;

/// How often each kind of move was checked.
#[derive(Debug, Default)]
struct Kinds {
    quiet: usize,
    captures: usize,
    en_passant: usize,
    promotions: [usize; 4],
    capture_promotions: usize,
    castles: [usize; 2],
    castles_960: [usize; 2],
    castles_960_in_place: usize,
    /// King moves (not castling) across the d/e line.
    king_crossings: usize,
    /// Castling across the d/e line, king side and queen side.
    castle_crossings: [usize; 2],
}

impl Kinds {
    fn count(&mut self, m: Move, mover: shakmaty::Color, chess960: bool) {
        if Delta::of_move(mover, m).king_crossing().is_some() {
            match m.castling_side() {
                Some(side) => {
                    self.castle_crossings[usize::from(side == CastlingSide::QueenSide)] += 1
                }
                None => self.king_crossings += 1,
            }
        }
        match m {
            Move::Normal {
                capture, promotion, ..
            } => {
                if capture.is_some() {
                    self.captures += 1;
                } else if promotion.is_none() {
                    self.quiet += 1;
                }
                if let Some(role) = promotion {
                    let i = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight]
                        .iter()
                        .position(|&r| r == role)
                        .expect("a promotion role");
                    self.promotions[i] += 1;
                    self.capture_promotions += usize::from(capture.is_some());
                }
            }
            Move::EnPassant { .. } => self.en_passant += 1,
            Move::Castle { king, rook } => {
                let side = m.castling_side().expect("castling has a side");
                let i = usize::from(side == CastlingSide::QueenSide);
                if chess960 {
                    self.castles_960[i] += 1;
                    let color = if king.rank() == shakmaty::Rank::First {
                        shakmaty::Color::White
                    } else {
                        shakmaty::Color::Black
                    };
                    let stays = king == side.king_to(color) || rook == side.rook_to(color);
                    self.castles_960_in_place += usize::from(stays);
                } else {
                    self.castles[i] += 1;
                }
            }
            Move::Put { .. } => unreachable!("no drops in chess"),
        }
    }

    fn assert_all_seen(&self) {
        let all = [
            self.quiet,
            self.captures,
            self.en_passant,
            self.capture_promotions,
            self.castles_960_in_place,
            self.king_crossings,
        ]
        .into_iter()
        .chain(self.castle_crossings)
        .chain(self.promotions)
        .chain(self.castles)
        .chain(self.castles_960);
        assert!(
            all.into_iter().all(|n| n > 0),
            "a kind of move never occurred: {self:?}"
        );
    }
}

/// Plays the games with `net`, checking every way to follow a move against
/// a refresh, and the evaluations too; returns what kinds of moves it saw.
fn check_games<const H: usize>(
    net: &Net<H>,
    standard: usize,
    chess960: usize,
    plies: usize,
) -> Kinds {
    let mut kinds = Kinds::default();
    for (g, game) in random_games(standard, chess960, plies).iter().enumerate() {
        let is_960 = g >= standard;
        let Some(first) = game.first() else { continue };
        let mut acc = Accumulator::refresh(net, first.before.board());
        let mut in_place = acc;
        let mut child = Accumulator::default();
        for ply in game {
            let after = ply.after();
            let mover = ply.before.turn();
            let fresh = Accumulator::refresh(net, after.board());
            acc.update_into(&mut child, net, mover, ply.played, after.board());
            in_place.apply(net, Delta::of_move(mover, ply.played), after.board());
            let fen =
                || shakmaty::fen::Fen::from_position(&ply.before, shakmaty::EnPassantMode::Legal);
            assert!(
                child == fresh,
                "update_into after {:?} in {}",
                ply.played,
                fen()
            );
            assert!(
                in_place == fresh,
                "apply after {:?} in {}",
                ply.played,
                fen()
            );
            assert!(acc.after_move(net, mover, ply.played, after.board()) == fresh);
            assert_eq!(
                net.evaluate(&child, after.turn()),
                net.evaluate(&fresh, after.turn())
            );
            kinds.count(ply.played, mover, is_960);
            acc = child;
        }
    }
    kinds
}

#[test]
fn incremental_accumulators_equal_a_refresh_after_every_move() {
    // A net as training makes them (first-layer weights within the clip).
    for layout in Layout::ALL {
        let kinds = check_games(&random_net::<256>(11, 505, layout), 40, 40, 200);
        kinds.assert_all_seen();
        assert!(kinds.captures > 1000 && kinds.quiet > 1000, "{kinds:?}");
    }
}

#[test]
fn incremental_accumulators_equal_a_refresh_at_every_width() {
    fn check<const H: usize>(layout: Layout) {
        let kinds = check_games(&random_net::<H>(14, 505, layout), 20, 20, 200);
        kinds.assert_all_seen();
    }
    for layout in Layout::ALL {
        for_each_width!(check(layout));
    }
}

#[test]
fn incremental_accumulators_equal_a_refresh_even_when_they_wrap() {
    // First-layer weights over the whole i16 range: the accumulators wrap
    // around, and since every path adds modulo 2^16 they still agree.
    for layout in Layout::ALL {
        let kinds = check_games(&random_net::<256>(12, i16::MAX, layout), 10, 10, 120);
        assert!(kinds.captures > 0 && kinds.quiet > 0, "{kinds:?}");
    }
}

/// The stack as the search drives it: every move noted, the evaluation
/// asked for after gaps of 0 to twice the refresh distance (so both the
/// forward updates and the refresh run), and now and then a null move
/// tried at a ply first and asked for, then overwritten by the move.
/// Returns the accumulators asked for, the null moves and the king
/// crossings made at plies not asked for (which the walk forward to a
/// later ply, when it is short enough to walk, goes through).
fn check_stack<const H: usize>(net: &Net<H>, games: usize) -> (usize, usize, usize) {
    let mut rng = Rng::new(65);
    let (mut asked, mut nulls, mut crossings_walked) = (0, 0, 0);
    for game in random_games(games, games, 200) {
        let Some(first) = game.first() else { continue };
        let mut stack = AccumulatorStack::with_plies(game.len() + 1);
        stack.set_root(net, first.before.board());
        let mut gap = 0;
        let mut pending_crossing = false;
        for (i, ply) in game.iter().enumerate() {
            let at = i + 1;
            let after = ply.after();
            if rng.below(8) == 0 {
                stack.push_null(at);
                let acc = *stack.get(at, net, ply.before.board());
                assert!(acc == Accumulator::refresh(net, ply.before.board()));
                nulls += 1;
                pending_crossing = false;
            }
            let mover = ply.before.turn();
            stack.push_move(at, mover, ply.played, after.board());
            let crossing = Delta::of_move(mover, ply.played).king_crossing().is_some();
            if gap == 0 {
                let fresh = Accumulator::refresh(net, after.board());
                assert!(
                    *stack.get(at, net, after.board()) == fresh,
                    "ply {at} after {:?}",
                    ply.played
                );
                asked += 1;
                crossings_walked += usize::from(pending_crossing);
                pending_crossing = false;
                gap = rng.below(2 * REFRESH_DISTANCE + 1);
            } else {
                pending_crossing |= crossing;
                gap -= 1;
            }
        }
    }
    (asked, nulls, crossings_walked)
}

#[test]
fn the_accumulator_stack_equals_a_refresh_wherever_it_is_asked() {
    let (asked, nulls, _) = check_stack(&random_net::<256>(13, 505, Layout::Plain), 20);
    assert!(
        asked > 1000 && nulls > 500,
        "{asked} asked, {nulls} null moves"
    );
}

#[test]
fn the_stack_of_a_mirrored_net_refreshes_a_king_crossing_on_its_way() {
    fn check<const H: usize>() {
        let net = random_net::<H>(15, 505, Layout::KingMirrored);
        let (asked, _, crossings) = check_stack(&net, 20);
        assert!(
            asked > 1000 && crossings > 10,
            "{asked} asked, {crossings} crossings"
        );
    }
    for_each_width!(check());
}
