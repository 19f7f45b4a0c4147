//! The incremental zobrist key equals the key computed from scratch after
//! every move of random games, standard and Chess960.

use proptest::prelude::*;
use shakmaty::Position as _;
use shears::chess::{Position, zobrist::full_key};

const CHESS960_STARTS: &[&str] = &[
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
    "qrbkrnnb/pppppppp/8/8/8/8/PPPPPPPP/QRBKRNNB w EBeb - 0 1",
];

fn play_random(mut pos: Position, choices: &[usize]) -> Result<(), TestCaseError> {
    for &c in choices {
        let moves = pos.board().legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[c % moves.len()];
        pos.play(m);
        prop_assert_eq!(
            pos.key(),
            full_key(pos.board()),
            "after {:?} in {}",
            m,
            pos.fen()
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn incremental_key_matches_full_key(choices in prop::collection::vec(0usize..256, 1..120)) {
        play_random(Position::startpos(), &choices)?;
    }

    #[test]
    fn incremental_key_matches_full_key_in_chess960(start in 0usize..CHESS960_STARTS.len(), choices in prop::collection::vec(0usize..256, 1..120)) {
        let pos = Position::from_fen(CHESS960_STARTS[start], true).unwrap();
        play_random(pos, &choices)?;
    }
}

#[test]
fn en_passant_counts_in_the_key_only_when_a_capture_is_legal() {
    // After 1.e4 no black pawn can take en passant: same key as the FEN
    // without an en passant square.
    let mut pushed = Position::startpos();
    pushed.play_uci_moves(["e2e4"], false).unwrap();
    let plain = Position::from_fen(
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        false,
    )
    .unwrap();
    assert_eq!(pushed.key(), plain.key());
    // After 1.e4 d5 2.e5 f5 the capture exf6 is legal: the key differs.
    let mut ep = Position::startpos();
    ep.play_uci_moves(["e2e4", "d7d5", "e4e5", "f7f5"], false)
        .unwrap();
    let no_ep = Position::from_fen(
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3",
        false,
    )
    .unwrap();
    assert_ne!(ep.key(), no_ep.key());
    assert_eq!(ep.key(), full_key(ep.board()));
}
