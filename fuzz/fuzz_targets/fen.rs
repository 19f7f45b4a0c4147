//! Fuzzes FEN loading (`position fen …` ends in `Position::from_fen`).
//!
//! The input, read as UTF-8 with bad bytes replaced (as the UCI reader
//! does), is loaded in both castling modes. Nothing may panic, and every
//! position that loads must keep these promises:
//!
//! * our own FEN of it loads again to the same FEN and zobrist key;
//! * the diagram and the evaluation trace can be printed;
//! * every legal move survives the UCI text round trip (`move_to_uci` then
//!   `parse_move`), and the incremental key after it equals the full key.

#![no_main]

use libfuzzer_sys::fuzz_target;
use shakmaty::Position as _;
use shears::eval;
use shears::chess::{Position, move_to_uci, zobrist::full_key};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for chess960 in [false, true] {
        let Ok(pos) = Position::from_fen(&text, chess960) else {
            continue;
        };
        check(&pos, chess960);
    }
});

fn check(pos: &Position, chess960: bool) {
    let fen = pos.fen();
    let again = Position::from_fen(&fen, chess960)
        .unwrap_or_else(|e| panic!("our own FEN {fen:?} does not load: {e}"));
    assert_eq!(again.fen(), fen, "FEN round trip");
    assert_eq!(
        again.key(),
        pos.key(),
        "key after a FEN round trip of {fen}"
    );
    assert_eq!(pos.key(), full_key(pos.board()));
    let _ = pos.diagram();
    let _ = eval::trace(pos.board());
    let mut pos = pos.clone();
    for m in pos.board().legal_moves() {
        let text = move_to_uci(m, chess960);
        assert_eq!(
            pos.parse_move(&text, chess960),
            Ok(m),
            "{text} in {fen} (chess960 {chess960})"
        );
        let key = pos.key();
        pos.play(m);
        assert_eq!(pos.key(), full_key(pos.board()), "{text} in {fen}");
        pos.undo();
        assert_eq!(pos.key(), key, "undo of {text} in {fen}");
    }
}
