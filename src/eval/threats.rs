//! Threats: enemy pieces attacked by pawns or by lesser pieces, and hanging
//! pieces (attacked and not defended). Scored for the attacking side.

use shakmaty::{Board, Color, Role};

use super::accumulator::Accumulator;
use super::attacks::AttackMaps;
use super::layout as w;

/// Scores the threats of both sides.
pub fn threats<A: Accumulator>(board: &Board, maps: &AttackMaps, acc: &mut A) {
    for color in Color::ALL {
        let them = board.by_color(!color);
        let count = |role: Role, squares| (board.by_role(role) & them & squares).count() as i32;

        let by_pawns = maps.by(color, Role::Pawn);
        for (i, role) in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
            .into_iter()
            .enumerate()
        {
            acc.add(color, w::THREAT_BY_PAWN + i, count(role, by_pawns));
        }

        let by_minors = maps.by(color, Role::Knight) | maps.by(color, Role::Bishop);
        acc.add(color, w::THREAT_BY_MINOR, count(Role::Rook, by_minors));
        acc.add(color, w::THREAT_BY_MINOR + 1, count(Role::Queen, by_minors));
        let by_rooks = maps.by(color, Role::Rook);
        acc.add(color, w::THREAT_BY_ROOK, count(Role::Queen, by_rooks));

        let hanging = maps.all[color as usize] & !maps.all[(!color) as usize];
        for (i, role) in [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
        ]
        .into_iter()
        .enumerate()
        {
            acc.add(color, w::HANGING + i, count(role, hanging));
        }
    }
}
