//! King safety: the pawn shelter and storm and the open files around the
//! king (pawns and king only, cached: [`shelter`]), and the danger the
//! enemy's pieces put the king in ([`danger`]).
//!
//! **One danger count per king.** Everything the enemy brings to bear on
//! the king's area (`masks::KING_AREA`) adds up in one count, each feature
//! by its weight in `KING_DANGER` ([`Feature`] lists them): the attackers
//! by type (each times the number of attackers, so that a lone attacker
//! counts little and a crowd much), the area squares they hit, the weak
//! squares of the area (attacked, and defended at most once, or only by
//! the king or queen), the safe checks by piece type, less the king's own
//! pawns and minor pieces guarding it, less a large amount without an
//! enemy queen, plus a constant; and the checks it defends (unsafe
//! checks), the pieces alone on a line between it and an enemy slider
//! (its own: pinned; the enemy's: a discovered check), the enemy's attacks
//! on its flank (`masks::KING_FLANK`; squares attacked twice count twice),
//! its own attacks there, and enemy pawns storming the flank. Only when
//! at least two pieces attack the area, or one with a queen on the board,
//! as in Ethereal. The count then costs the king's side, not linearly
//! (`danger::penalty`): its square in the midgame (a massed attack is
//! worth far more than the sum of its parts), linearly in the endgame.
//! Midgame and endgame each keep their own count (the midgame and endgame
//! values of the weights), and the tuner fits the weights through the curve
//! by the chain rule (`tools::tune`).

use shakmaty::attacks::{bishop_attacks, knight_attacks, rook_attacks};
use shakmaty::{Bitboard, Board, Color, Role};

use super::danger::Feature;
use crate::chess::blockers::slider_blockers;
use crate::eval::hce::accumulator::Accumulator;
use crate::eval::hce::attacks::AttackMaps;
use crate::eval::hce::layout as w;
use crate::eval::hce::masks::{FILES, KING_FLANK, behind, relative_rank};

/// The relative rank of the pawn in `pawns` nearest to `color`'s back rank
/// (0 when there is none).
fn rearmost_rank(color: Color, pawns: Bitboard) -> usize {
    let sq = match color {
        Color::White => pawns.first(),
        Color::Black => pawns.last(),
    };
    sq.map_or(0, |sq| relative_rank(color, sq))
}

/// Shelter, storm and open files on the three files around each king,
/// and the king's distance to the nearest file with a pawn (in the
/// endgame a king far from every pawn is out of play).
pub fn shelter<A: Accumulator>(board: &Board, acc: &mut A) {
    for color in Color::ALL {
        let Some(king) = board.king_of(color) else {
            continue;
        };
        if let Some(distance) = FILES
            .iter()
            .enumerate()
            .filter(|&(_, &f)| (board.pawns() & Bitboard(f)).any())
            .map(|(f, _)| (f as i32 - king.file() as i32).unsigned_abs() as usize)
            .min()
        {
            acc.add(color, w::KING_PAWN_FILE_DISTANCE.at(distance), 1);
        }
        let ours = board.pawns() & board.by_color(color);
        let theirs = board.pawns() & board.by_color(!color);
        let level_or_ahead = !behind(color, king);
        let centre = (king.file() as usize).clamp(1, 6);
        for (f, &file) in FILES.iter().enumerate().skip(centre - 1).take(3) {
            let file = Bitboard(file);
            let edge = f.min(7 - f);
            let our_rank = rearmost_rank(color, ours & file & level_or_ahead);
            let their_rank = rearmost_rank(color, theirs & file & level_or_ahead);
            acc.add(color, w::PAWN_SHELTER.at(edge, our_rank), 1);
            if our_rank > 0 && their_rank == our_rank + 1 {
                acc.add(color, w::BLOCKED_STORM.at(their_rank), 1);
            } else {
                acc.add(color, w::PAWN_STORM.at(edge, their_rank), 1);
            }
            if (ours & file).is_empty() {
                if (theirs & file).is_empty() {
                    acc.add(color, w::KING_OPEN_FILE, 1);
                } else {
                    acc.add(color, w::KING_HALF_OPEN_FILE, 1);
                }
            }
        }
    }
}

/// The danger count of each king (see the module documentation).
pub fn danger<A: Accumulator>(board: &Board, maps: &AttackMaps, acc: &mut A) {
    let occupied = board.occupied();
    for color in Color::ALL {
        let Some(king) = board.king_of(color) else {
            continue;
        };
        let (c, e) = (color as usize, (!color) as usize);
        let enemy = !color;
        let attack = &maps.on_king[e];
        let attackers = attack.count();
        let queens = (board.queens() & board.by_color(enemy)).any();
        if attackers < 2 - i32::from(queens) {
            continue;
        }
        let area = maps.area[c];
        let weak = maps.all[e]
            & !maps.twice[c]
            & (!maps.all[c] | maps.by(color, Role::Queen) | maps.by(color, Role::King));
        let safe = !board.by_color(enemy) & (!maps.all[c] | (weak & maps.twice[e]));
        let diagonal = bishop_attacks(king, occupied);
        let straight = rook_attacks(king, occupied);
        let checks = [
            knight_attacks(king) & maps.by(enemy, Role::Knight),
            diagonal & maps.by(enemy, Role::Bishop),
            straight & maps.by(enemy, Role::Rook),
            (diagonal | straight) & maps.by(enemy, Role::Queen),
        ];
        let mut add = |f: Feature, n: i32| acc.danger(color, f as usize, n);
        for (k, f) in [
            Feature::KnightAttackers,
            Feature::BishopAttackers,
            Feature::RookAttackers,
            Feature::QueenAttackers,
        ]
        .into_iter()
        .enumerate()
        {
            add(f, attackers * attack.attackers[k]);
        }
        add(Feature::AreaHits, attack.hits);
        add(Feature::WeakSquares, (weak & area).count() as i32);
        for (k, f) in [
            Feature::KnightChecks,
            Feature::BishopChecks,
            Feature::RookChecks,
            Feature::QueenChecks,
        ]
        .into_iter()
        .enumerate()
        {
            add(f, (checks[k] & safe).count() as i32);
        }
        let shelter = board.pawns() & board.by_color(color) & area & !weak;
        add(Feature::ShelterPawns, shelter.count() as i32);
        add(Feature::MinorGuards, maps.minor_guards[c]);
        add(Feature::NoQueen, i32::from(!queens));
        add(Feature::Constant, 1);
        let unsafe_checks =
            (checks[0] | checks[1] | checks[2] | checks[3]) & !safe & !board.by_color(enemy);
        add(Feature::UnsafeChecks, unsafe_checks.count() as i32);
        let blockers = slider_blockers(board, king, enemy);
        add(
            Feature::PinnedPieces,
            (blockers & board.by_color(color)).count() as i32,
        );
        add(
            Feature::DiscoveredChecks,
            (blockers & board.by_color(enemy)).count() as i32,
        );
        let flank = Bitboard(KING_FLANK[c][king.file() as usize]);
        let flank_attacks = maps.all[e] & flank;
        add(
            Feature::FlankAttacks,
            (flank_attacks.count() + (flank_attacks & maps.twice[e]).count()) as i32,
        );
        add(Feature::FlankDefence, (maps.all[c] & flank).count() as i32);
        let storm = board.pawns() & board.by_color(enemy) & flank;
        add(Feature::FlankStorm, storm.count() as i32);
    }
}
