//! Threats: enemy pieces attacked by pawns or by lesser pieces, hanging
//! pieces (attacked and not defended), pieces that a safe pawn push would
//! attack, undefended enemies next to the king, the enemy's restricted
//! squares, and what needs the "attacked twice" maps: poorly defended
//! pawns and minor pieces (attacked and not defended, or attacked twice and
//! defended once, by no pawn), minor pieces attacked by minor pieces, an
//! attacked queen and overloaded pieces (attacked once and defended once).
//! Scored for the attacking side.

use shakmaty::{Bitboard, Board, Color, Role};

use crate::eval::hce::accumulator::Accumulator;
use crate::eval::hce::attacks::AttackMaps;
use crate::eval::hce::layout as w;
use crate::eval::hce::masks::{RANKS, forward, pawn_attacks};

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
            acc.add(color, w::THREAT_BY_PAWN.at(i), count(role, by_pawns));
        }

        let by_minors = maps.by(color, Role::Knight) | maps.by(color, Role::Bishop);
        acc.add(
            color,
            w::THREAT_BY_MINOR.at(0),
            count(Role::Rook, by_minors),
        );
        acc.add(
            color,
            w::THREAT_BY_MINOR.at(1),
            count(Role::Queen, by_minors),
        );
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
            acc.add(color, w::HANGING.at(i), count(role, hanging));
        }

        // Safe pawn pushes (one step, or two from the second rank) onto
        // squares no enemy pawn attacks and the enemy does not attack more
        // than we defend (roughly: not attacked, or defended).
        let c = color as usize;
        let e = (!color) as usize;
        let empty = !board.occupied();
        let third = Bitboard(RANKS[if color == Color::White { 2 } else { 5 }]);
        let mut pushes = forward(color, board.pawns() & board.by_color(color)) & empty;
        pushes |= forward(color, pushes & third) & empty;
        pushes &= !maps.by_role[e][0] & (!maps.all[e] | maps.all[c]);
        let pieces = them & !board.pawns() & !board.kings();
        let targets = pawn_attacks(color, pushes) & pieces & !by_pawns;
        acc.add(color, w::THREAT_PAWN_PUSH, targets.count() as i32);

        // The king attacks an undefended enemy.
        let loose = them & !board.kings() & !maps.all[e];
        if (maps.by(color, Role::King) & loose).any() {
            acc.add(color, w::THREAT_BY_KING, 1);
        }

        // Restricted: squares both sides attack, no enemy pawn defends.
        let restricted = maps.all[e] & maps.all[c] & !maps.by_role[e][0];
        acc.add(color, w::RESTRICTED, restricted.count() as i32);

        // What needs the attacked-twice maps.
        let poorly_defended =
            (maps.all[c] & !maps.all[e]) | (maps.twice[c] & !maps.twice[e] & !maps.by_role[e][0]);
        let minors = (board.knights() | board.bishops()) & them;
        let weak_pawns = board.pawns() & them & !by_pawns & poorly_defended;
        acc.add(color, w::THREAT_TWICE.at(0), weak_pawns.count() as i32);
        acc.add(
            color,
            w::THREAT_TWICE.at(1),
            (minors & by_minors).count() as i32,
        );
        let by_majors = maps.by(color, Role::Rook) | maps.by(color, Role::Queen);
        let weak_minors = minors & poorly_defended & by_majors;
        acc.add(color, w::THREAT_TWICE.at(2), weak_minors.count() as i32);
        acc.add(
            color,
            w::THREAT_TWICE.at(3),
            count(Role::Queen, maps.all[c]),
        );
        let overloaded = pieces & maps.all[c] & !maps.twice[c] & maps.all[e] & !maps.twice[e];
        acc.add(color, w::THREAT_TWICE.at(4), overloaded.count() as i32);
    }
}
