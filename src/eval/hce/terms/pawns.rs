//! Pawn structure: doubled, isolated, backward, supported and phalanx
//! pawns, candidate passed pawns, and which pawns are passed (their terms are in `passed.rs`).
//! Depends on the pawns only, so it is cached (see `pawn_cache.rs`).

use shakmaty::attacks;
use shakmaty::{Bitboard, Board, Color};

use crate::eval::hce::accumulator::Accumulator;
use crate::eval::hce::layout as w;
use crate::eval::hce::masks::{
    ADJACENT_FILES, ATTACK_SPAN, FORWARD_FILE, PASSED_SPAN, RANKS, mask, pawn_attacks,
    relative_rank, square_ahead,
};

/// Scores the pawn structure of both sides and returns the passed pawns.
pub fn structure<A: Accumulator>(board: &Board, acc: &mut A) -> Bitboard {
    let mut passed = Bitboard::EMPTY;
    for color in Color::ALL {
        let ours = board.pawns() & board.by_color(color);
        let theirs = board.pawns() & board.by_color(!color);
        let their_attacks = pawn_attacks(!color, theirs);
        for sq in ours {
            let rank = relative_rank(color, sq);
            let ahead_on_file = mask(&FORWARD_FILE, color, sq);
            let neighbours = ours & Bitboard(ADJACENT_FILES[sq.file() as usize]);

            // Doubled: the rear pawn of the two pays.
            let doubled = (ours & ahead_on_file).any();
            if doubled {
                acc.add(color, w::DOUBLED_PAWN, 1);
            }

            // Isolated, or backward: every neighbour has gone past it, so
            // no pawn can ever defend it, and it cannot advance safely.
            if neighbours.is_empty() {
                acc.add(color, w::ISOLATED_PAWN, 1);
            } else if (neighbours & !mask(&ATTACK_SPAN, color, sq)).is_empty()
                && their_attacks.contains(square_ahead(color, sq))
            {
                acc.add(color, w::BACKWARD_PAWN, 1);
            }

            // Connected: defended by a pawn, or side by side with one.
            if (attacks::pawn_attacks(!color, sq) & ours).any() {
                acc.add(color, w::SUPPORTED_PAWN.at(rank), 1);
            }
            if (neighbours & Bitboard(RANKS[sq.rank() as usize])).any() {
                acc.add(color, w::PHALANX_PAWN.at(rank), 1);
            }

            // Passed, or a candidate: no enemy pawn in front on its file,
            // and no more enemy pawns able to stop it than own pawns beside
            // or behind it on the neighbouring files to help it through.
            if !doubled {
                let stoppers = theirs & mask(&PASSED_SPAN, color, sq);
                if stoppers.is_empty() {
                    passed.add(sq);
                } else if (stoppers & ahead_on_file).is_empty()
                    && stoppers.count() <= (neighbours & !mask(&ATTACK_SPAN, color, sq)).count()
                {
                    acc.add(color, w::CANDIDATE_PASSER.at(rank), 1);
                }
            }
        }
    }
    passed
}
