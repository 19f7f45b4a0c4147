//! Plain piece values, and what a move can win with them: the one table
//! behind static exchange evaluation, capture ordering (MVV-LVA), delta
//! pruning and the endgame's material thresholds. The evaluation's own
//! tuned material weights live in `eval`; these are the fixed round numbers
//! that cheap decisions need.

use shakmaty::{Board, Move, Role};

/// Centipawn values, indexed by `Role as usize - 1`: pawn, knight, bishop,
/// rook, queen, king. The king's value only has to exceed any material a
/// capture sequence can win, so that a king is never traded.
pub const PIECE_VALUES: [i32; 6] = [100, 320, 330, 500, 900, 20_000];

/// The value of `role` (see [`PIECE_VALUES`]).
#[inline]
pub fn piece_value(role: Role) -> i32 {
    PIECE_VALUES[role as usize - 1]
}

/// The most material `m` wins by itself: the captured piece, plus what a
/// promotion adds over the pawn.
#[inline]
pub fn material_gain(m: Move) -> i32 {
    m.capture().map_or(0, piece_value)
        + m.promotion()
            .map_or(0, |r| piece_value(r) - piece_value(Role::Pawn))
}

/// The material on `board` as a person counts it: pawn 1, knight 3,
/// bishop 3, rook 5, queen 9, both sides together (78 at the start). The
/// win/draw/loss model of `UCI_ShowWDL` is indexed by it.
pub fn material_points(board: &Board) -> u32 {
    [
        (Role::Pawn, 1),
        (Role::Knight, 3),
        (Role::Bishop, 3),
        (Role::Rook, 5),
        (Role::Queen, 9),
    ]
    .iter()
    .map(|&(role, value)| value * board.by_role(role).count() as u32)
    .sum()
}

/// MVV-LVA, the capture ordering key: the most valuable victim first, then
/// the cheapest attacker (higher is searched earlier).
#[inline]
pub fn mvv_lva(m: Move) -> i32 {
    10 * material_gain(m) - piece_value(m.role()) / 10
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Square;

    fn capture(role: Role, victim: Role) -> Move {
        Move::Normal {
            role,
            from: Square::A1,
            capture: Some(victim),
            to: Square::A2,
            promotion: None,
        }
    }

    #[test]
    fn mvv_lva_prefers_big_victims_then_small_attackers() {
        let pxq = mvv_lva(capture(Role::Pawn, Role::Queen));
        let qxq = mvv_lva(capture(Role::Queen, Role::Queen));
        let pxr = mvv_lva(capture(Role::Pawn, Role::Rook));
        assert!(pxq > qxq && qxq > pxr);
        assert_eq!(material_gain(capture(Role::King, Role::Pawn)), 100);
    }

    #[test]
    fn material_points_count_both_sides() {
        use shakmaty::{Chess, Position as _};
        assert_eq!(material_points(Chess::default().board()), 78);
        let pos: Chess = "4k3/8/8/8/8/8/4P3/R3K2Q w - - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap();
        assert_eq!(material_points(pos.board()), 15);
    }
}
