//! Staged move generation: tactical moves and quiet moves apart.
//!
//! shakmaty generates all legal moves at once and its `capture_moves()`
//! filters that list; quiescence search, which wants only the few captures,
//! spent most of its generation time on quiet moves it then threw away, and
//! a main-search node cut off by a capture never needed its quiets either.
//! [`tactical_moves`] generates just the captures and queen promotions,
//! [`quiet_moves`] just the rest, each with the same legality rules and in
//! the same order as shakmaty's `legal_moves()` (so the search, whose ties are
//! broken by list order, is unchanged). Tests compare both with filtering
//! `legal_moves()` on many positions.
//!
//! The generators hand each move to a sink ([`generate_tactical`],
//! [`generate_quiet`]) so that the move picker can store them straight into
//! its own list: a returned [`MoveList`] is a 1.6 KB value, and copying it
//! at every node was a measurable share of the search.

use shakmaty::attacks::{
    aligned, bishop_attacks, king_attacks, knight_attacks, queen_attacks, rook_attacks,
};
use shakmaty::{
    Bitboard, CastlingSide, Chess, Color, File, Move, MoveList, Position as _, Role, Square,
};

use super::blockers::slider_blockers;

/// Our pieces pinned to our `king` by an enemy slider: they may only move
/// along the pin.
pub(super) fn pinned(board: &Chess, king: Square) -> Bitboard {
    let b = board.board();
    let us = board.turn();
    slider_blockers(b, king, !us) & b.by_color(us)
}

/// The side to move's legal captures (capturing promotions to every piece),
/// en passant captures and non-capturing queen promotions, in shakmaty's
/// `legal_moves()` order. The side to move must not be in check.
pub fn tactical_moves(board: &Chess) -> MoveList {
    let mut moves = MoveList::new();
    generate_tactical(board, &mut |m| moves.push(m));
    moves
}

/// [`tactical_moves`], handed one by one to `emit`.
pub fn generate_tactical(board: &Chess, emit: &mut impl FnMut(Move)) {
    debug_assert!(!board.is_check(), "evasions go through legal_moves()");
    // shakmaty returns its en passant moves as a whole list: only ask when
    // there is an en passant square at all (rarely).
    if board.maybe_ep_square().is_some() {
        board.en_passant_moves().into_iter().for_each(&mut *emit);
    }
    let b = board.board();
    let us = board.turn();
    let Some(king) = b.king_of(us) else {
        return;
    };
    let ours = b.by_color(us);
    let them = b.by_color(!us);
    let occupied = b.occupied();

    let pinned = pinned(board, king);
    let legal = |from: Square, to: Square| !pinned.contains(from) || aligned(from, to, king);
    let capture = |to: Square| b.role_at(to);

    // Pawn captures, toward the a-file then toward the h-file; promotions
    // after the other captures of each direction.
    let pawns = b.pawns() & ours;
    let not_a = !Bitboard::from_file(File::A);
    let not_h = !Bitboard::from_file(File::H);
    let (west, east, push) = match us {
        Color::White => (7, 9, 8),
        Color::Black => (-9, -7, -8),
    };
    for (sources, offset) in [(pawns & not_a, west), (pawns & not_h, east)] {
        let targets = sources.shift(offset) & them;
        for to in targets & !Bitboard::BACKRANKS {
            let from = pawn_source(to, offset);
            if legal(from, to) {
                emit(Move::Normal {
                    role: Role::Pawn,
                    from,
                    capture: capture(to),
                    to,
                    promotion: None,
                });
            }
        }
        for to in targets & Bitboard::BACKRANKS {
            let from = pawn_source(to, offset);
            if legal(from, to) {
                for promotion in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                    emit(Move::Normal {
                        role: Role::Pawn,
                        from,
                        capture: capture(to),
                        to,
                        promotion: Some(promotion),
                    });
                }
            }
        }
    }
    for to in pawns.shift(push) & !occupied & Bitboard::BACKRANKS {
        let from = pawn_source(to, push);
        if legal(from, to) {
            emit(Move::Normal {
                role: Role::Pawn,
                from,
                capture: None,
                to,
                promotion: Some(Role::Queen),
            });
        }
    }

    piece_moves(board, king, pinned, them, &|_, _| Bitboard::FULL, emit);
}

/// The side to move's legal moves that [`tactical_moves`] leaves out: quiet
/// moves, castling and non-capturing under-promotions, in shakmaty's
/// `legal_moves()` order. The side to move must not be in check. (The move
/// picker calls [`generate_quiet`]; this list form is for the tests.)
#[cfg(test)]
pub fn quiet_moves(board: &Chess) -> MoveList {
    let mut moves = MoveList::new();
    generate_quiet(board, &mut |m| moves.push(m));
    moves
}

/// [`quiet_moves`], handed one by one to `emit`.
#[inline]
pub fn generate_quiet(board: &Chess, emit: &mut impl FnMut(Move)) {
    generate_quiet_within(board, &|_, _| Bitboard::FULL, emit);
}

/// [`generate_quiet`] limited to the moves of a piece of kind `role` on
/// `from` whose destination is in `reach(role, from)` (castling moves are
/// always handed out), in the same order: the moves it hands out are those
/// of [`generate_quiet`] that `reach` allows. A caller that wants a few
/// moves by destination (checking moves: the squares that check, or every
/// square for a piece that uncovers a check) skips generating the others,
/// the king's especially, whose every destination costs an attack test.
pub fn generate_quiet_within(
    board: &Chess,
    reach: &impl Fn(Role, Square) -> Bitboard,
    emit: &mut impl FnMut(Move),
) {
    debug_assert!(!board.is_check(), "evasions go through legal_moves()");
    let b = board.board();
    let us = board.turn();
    let Some(king) = b.king_of(us) else {
        return;
    };
    let ours = b.by_color(us);
    let occupied = b.occupied();
    let empty = !occupied;
    let pinned = pinned(board, king);
    let legal = |from: Square, to: Square| {
        reach(Role::Pawn, from).contains(to) && (!pinned.contains(from) || aligned(from, to, king))
    };
    let quiet = |role: Role, from: Square, to: Square, promotion: Option<Role>| Move::Normal {
        role,
        from,
        capture: None,
        to,
        promotion,
    };

    // Pawn pushes: single steps, under-promotions, then double steps.
    let (push, double_rank) = match us {
        Color::White => (8, Bitboard::from_rank(shakmaty::Rank::Fourth)),
        Color::Black => (-8, Bitboard::from_rank(shakmaty::Rank::Fifth)),
    };
    let single = (b.pawns() & ours).shift(push) & empty;
    for to in single & !Bitboard::BACKRANKS {
        let from = pawn_source(to, push);
        if legal(from, to) {
            emit(quiet(Role::Pawn, from, to, None));
        }
    }
    for to in single & Bitboard::BACKRANKS {
        let from = pawn_source(to, push);
        if legal(from, to) {
            for promotion in [Role::Rook, Role::Bishop, Role::Knight] {
                emit(quiet(Role::Pawn, from, to, Some(promotion)));
            }
        }
    }
    for to in single.shift(push) & empty & double_rank {
        let from = pawn_source(to, 2 * push);
        if legal(from, to) {
            emit(quiet(Role::Pawn, from, to, None));
        }
    }

    piece_moves(board, king, pinned, empty, reach, emit);
    // shakmaty returns castling moves as a whole list: only ask with the
    // right to castle on that side and nothing between king and rook (its
    // own first test).
    let castles = board.castles();
    for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
        if castles.has(us, side) && (castles.path(us, side) & occupied).is_empty() {
            board.castling_moves(side).into_iter().for_each(&mut *emit);
        }
    }
}

/// Legal moves of the knights to queens, then of the king onto unattacked
/// squares, to squares in `targets` (enemy pieces for captures, empty
/// squares for quiet moves) and in `reach(role, from)`, in shakmaty's order.
/// `pinned` are our pieces pinned to our `king`.
#[inline(always)]
fn piece_moves(
    board: &Chess,
    king: Square,
    pinned: Bitboard,
    targets: Bitboard,
    reach: &impl Fn(Role, Square) -> Bitboard,
    emit: &mut impl FnMut(Move),
) {
    let b = board.board();
    let us = board.turn();
    let occupied = b.occupied();
    let legal = |from: Square, to: Square| !pinned.contains(from) || aligned(from, to, king);
    let mut push = |role: Role, from: Square, to: Square| {
        emit(Move::Normal {
            role,
            from,
            capture: b.role_at(to),
            to,
            promotion: None,
        });
    };
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        for from in b.by_role(role) & b.by_color(us) {
            let attacks = match role {
                Role::Knight => knight_attacks(from),
                Role::Bishop => bishop_attacks(from, occupied),
                Role::Rook => rook_attacks(from, occupied),
                _ => queen_attacks(from, occupied),
            };
            for to in attacks & targets & reach(role, from) {
                if legal(from, to) {
                    push(role, from, to);
                }
            }
        }
    }
    for to in king_attacks(king) & targets & reach(Role::King, king) {
        if b.attacks_to(to, !us, occupied).is_empty() {
            push(Role::King, king, to);
        }
    }
}

/// The square a pawn came from to reach `to` by moving `offset`.
fn pawn_source(to: Square, offset: i32) -> Square {
    Square::new((to as i32 - offset) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Position;
    use crate::chess::checks::CheckInfo;
    use crate::chess::random::{RandomGame, TRICKY_STARTS};

    fn reference(board: &Chess) -> Vec<Move> {
        board
            .legal_moves()
            .into_iter()
            .filter(|m| m.is_capture() || m.promotion() == Some(Role::Queen))
            .collect()
    }

    fn quiet_reference(board: &Chess) -> Vec<Move> {
        board
            .legal_moves()
            .into_iter()
            .filter(|m| !(m.is_capture() || m.promotion() == Some(Role::Queen)))
            .collect()
    }

    /// Same moves, same order as filtering shakmaty's legal moves, along
    /// random games from positions rich in pins, promotions and en passant;
    /// the quiet moves within the check reach hold every quiet check.
    #[test]
    fn tactical_quiet_and_checking_moves_match_filtered_legal_moves() {
        let others = [
            "8/P1k5/K7/8/8/8/8/8 w - - 0 1",
            "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            // Chess960: castling with the king or rook starting anywhere.
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
            "1r2k1r1/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        ];
        let mut checked = 0;
        for fen in TRICKY_STARTS.into_iter().chain(others) {
            for seed in 0..40 {
                let chess960 = fen.contains("HF") || fen.contains("HE") || fen.starts_with("1r2");
                let start = Position::from_fen(fen, chess960).unwrap();
                let mut game = RandomGame::new(start, seed);
                loop {
                    let board = game.position().board();
                    if !board.is_check() {
                        assert_eq!(
                            quiet_moves(board).to_vec(),
                            quiet_reference(board),
                            "{}",
                            shakmaty::fen::Fen::from_position(
                                board,
                                shakmaty::EnPassantMode::Legal
                            )
                        );
                        assert_eq!(
                            tactical_moves(board).to_vec(),
                            reference(board),
                            "{}",
                            shakmaty::fen::Fen::from_position(
                                board,
                                shakmaty::EnPassantMode::Legal
                            )
                        );
                        // The moves that check, found among those within
                        // the check reach: all of them, in order.
                        let info = CheckInfo::new(board);
                        let mut within = Vec::new();
                        generate_quiet_within(
                            board,
                            &|role, from| info.check_reach(role, from),
                            &mut |m| within.push(m),
                        );
                        let checking = |moves: Vec<Move>| -> Vec<Move> {
                            moves
                                .into_iter()
                                .filter(|&m| {
                                    m.promotion().is_none() && {
                                        let mut after = board.clone();
                                        after.play_unchecked(m);
                                        after.is_check()
                                    }
                                })
                                .collect()
                        };
                        assert_eq!(checking(within), checking(quiet_reference(board)));
                        checked += 1;
                    }
                    if game.plies() == 120 || !game.step() {
                        break;
                    }
                }
            }
        }
        assert!(checked > 10_000, "only {checked} positions checked");
    }
}
