//! A position and its colour-mirrored twin (ranks flipped, colours and the
//! side to move swapped) evaluate the same. With perspective inputs this
//! holds for any net of either layout: the side to move's accumulator sees
//! the same features in both, and so does the other side's. It is exact in
//! integers; the float pass may add the same weights in another order.
//!
//! And a king-mirrored net sees a board and its a↔h twin alike: each side
//! whose king stands on files e–h sees the board flipped, so both boards
//! give the same inputs.

use shakmaty::Position as _;

use super::super::accumulator::Accumulator;
use super::super::arch::Layout;
use super::{positions, random_float_net, random_games, random_net};

#[test]
fn mirrored_positions_evaluate_the_same() {
    for layout in Layout::ALL {
        let net = random_net::<256>(31, 505, layout);
        let float = random_float_net(256, layout, 32, 0.2, 0.2);
        let positions = positions(&random_games(10, 10, 100));
        assert!(positions.len() > 1000);
        for pos in &positions {
            let stm = pos.turn();
            let mirrored = pos.board().clone().into_mirrored();
            let acc = Accumulator::refresh(&net, pos.board());
            let twin = Accumulator::refresh(&net, &mirrored);
            for side in [stm, !stm] {
                assert_eq!(acc.perspective(side), twin.perspective(!side));
            }
            assert_eq!(net.evaluate(&acc, stm), net.evaluate(&twin, !stm));
            let (f, f_twin) = (
                float.evaluate(pos.board(), stm),
                float.evaluate(&mirrored, !stm),
            );
            assert!((f - f_twin).abs() <= 1e-3 * (1.0 + f.abs()), "{f} {f_twin}");
        }
    }
}

#[test]
fn a_king_mirrored_net_sees_a_board_and_its_file_flip_alike() {
    let mirrored_net = random_net::<64>(34, 505, Layout::KingMirrored);
    let plain_net = random_net::<64>(34, 505, Layout::Plain);
    let positions = positions(&random_games(5, 5, 100));
    let mut plain_differs = 0;
    for pos in &positions {
        let board = pos.board();
        let mut flipped = board.clone();
        flipped.flip_horizontal();
        let (acc, twin) = (
            Accumulator::refresh(&mirrored_net, board),
            Accumulator::refresh(&mirrored_net, &flipped),
        );
        for side in [pos.turn(), !pos.turn()] {
            assert_eq!(acc.perspective(side), twin.perspective(side), "{board:?}");
        }
        assert_eq!(
            mirrored_net.evaluate(&acc, pos.turn()),
            mirrored_net.evaluate(&twin, pos.turn())
        );
        let plain = |b| *Accumulator::refresh(&plain_net, b).perspective(pos.turn());
        plain_differs += usize::from(plain(board) != plain(&flipped));
    }
    // The plain layout does see the difference.
    assert!(plain_differs * 10 > positions.len() * 9, "{plain_differs}");
}

#[test]
fn the_side_to_move_matters() {
    // Not a symmetry: the same board from the other side's view reads the
    // output halves the other way round (a check that the test above is
    // not comparing a function of the board alone).
    let net = random_net::<256>(33, 505, Layout::Plain);
    let positions = positions(&random_games(2, 2, 40));
    let differ = positions
        .iter()
        .filter(|pos| {
            let acc = Accumulator::refresh(&net, pos.board());
            net.evaluate(&acc, pos.turn()) != net.evaluate(&acc, !pos.turn())
        })
        .count();
    assert!(
        differ * 10 > positions.len() * 9,
        "{differ} of {}",
        positions.len()
    );
}
