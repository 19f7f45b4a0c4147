//! A position and its colour-mirrored twin (ranks flipped, colours and the
//! side to move swapped) evaluate the same. With perspective inputs this
//! holds for any net: the side to move's accumulator sees the same
//! features in both, and so does the other side's. It is exact in
//! integers; the float pass may add the same weights in another order.

use shakmaty::Position as _;

use super::super::accumulator::Accumulator;
use super::{positions, random_float_net, random_games, random_net};

#[test]
fn mirrored_positions_evaluate_the_same() {
    let net = random_net(31, 505);
    let float = random_float_net(32, 0.2, 0.2);
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

#[test]
fn the_side_to_move_matters() {
    // Not a symmetry: the same board from the other side's view reads the
    // output halves the other way round (a check that the test above is
    // not comparing a function of the board alone).
    let net = random_net(33, 505);
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
