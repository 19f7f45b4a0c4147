//! Accumulators followed move by move equal accumulators built from
//! scratch, after every move of random games in which every kind of move
//! occurs (checked: quiet moves, captures, en passant, each promotion,
//! castling on both sides in standard chess and in Chess960, Chess960
//! castling where the king or the rook does not move).

use shakmaty::{CastlingSide, Move, Position as _, Role};

use super::super::accumulator::Accumulator;
use super::super::delta::Delta;
use super::super::net::Net;
use super::super::stack::{AccumulatorStack, REFRESH_DISTANCE};
use super::{random_games, random_net};
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
}

impl Kinds {
    fn count(&mut self, m: Move, chess960: bool) {
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
        ]
        .into_iter()
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
fn check_games(net: &Net, standard: usize, chess960: usize, plies: usize) -> Kinds {
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
            acc.update_into(&mut child, net, mover, ply.played);
            in_place.apply(net, Delta::of_move(mover, ply.played));
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
            assert!(acc.after_move(net, mover, ply.played) == fresh);
            assert_eq!(
                net.evaluate(&child, after.turn()),
                net.evaluate(&fresh, after.turn())
            );
            kinds.count(ply.played, is_960);
            acc = child;
        }
    }
    kinds
}

#[test]
fn incremental_accumulators_equal_a_refresh_after_every_move() {
    // A net as training makes them (first-layer weights within the clip).
    let kinds = check_games(&random_net(11, 505), 40, 40, 200);
    kinds.assert_all_seen();
    assert!(kinds.captures > 1000 && kinds.quiet > 1000, "{kinds:?}");
}

#[test]
fn incremental_accumulators_equal_a_refresh_even_when_they_wrap() {
    // First-layer weights over the whole i16 range: the accumulators wrap
    // around, and since every path adds modulo 2^16 they still agree.
    let kinds = check_games(&random_net(12, i16::MAX), 10, 10, 120);
    assert!(kinds.captures > 0 && kinds.quiet > 0, "{kinds:?}");
}

#[test]
fn the_accumulator_stack_equals_a_refresh_wherever_it_is_asked() {
    // The stack as the search drives it: every move noted, the evaluation
    // asked for after gaps of 0 to twice the refresh distance (so both the
    // forward updates and the refresh run), and now and then a null move
    // tried at a ply first and asked for, then overwritten by the move.
    let net = random_net(13, 505);
    let mut rng = Rng::new(65);
    let (mut asked, mut nulls) = (0, 0);
    for game in random_games(20, 20, 200) {
        let Some(first) = game.first() else { continue };
        let mut stack = AccumulatorStack::with_plies(game.len() + 1);
        stack.set_root(&net, first.before.board());
        let mut gap = 0;
        for (i, ply) in game.iter().enumerate() {
            let at = i + 1;
            if rng.below(8) == 0 {
                stack.push_null(at);
                let acc = *stack.get(at, &net, ply.before.board());
                assert!(acc == Accumulator::refresh(&net, ply.before.board()));
                nulls += 1;
            }
            stack.push_move(at, ply.before.turn(), ply.played);
            if gap == 0 {
                let after = ply.after();
                let fresh = Accumulator::refresh(&net, after.board());
                assert!(
                    *stack.get(at, &net, after.board()) == fresh,
                    "ply {at} after {:?}",
                    ply.played
                );
                asked += 1;
                gap = rng.below(2 * REFRESH_DISTANCE + 1);
            } else {
                gap -= 1;
            }
        }
    }
    assert!(
        asked > 1000 && nulls > 500,
        "{asked} asked, {nulls} null moves"
    );
}
