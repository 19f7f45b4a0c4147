//! The lines shown with a tablebase score stay true to the tables, as
//! matetrack's `matecheck.py` checks them: a score of `20000 - n` (or its
//! negative) means the line enters the tables after `n` plies (at a
//! position after a capture or pawn move, or the root), and from there
//! every position of the line keeps the win for the same side, to its end.
//! Skipped, with a message, without the tables of `../shared/syzygy`.

mod common;

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position as _};
use shears::tb::{Tablebases, Verdict};

use common::tables::syzygy_or_skip;
use common::{Engine, Score, parse_info};

/// The highest tablebase score shown, a win at the root.
const TB_CP: i64 = 20_000;

/// Tables of at most this many pieces, for the engine and the check (the
/// check needs every table up to it; `../shared/syzygy` has only some
/// 5-piece ones).
const PIECES: usize = 4;

/// Why the line `pv` from `fen`, shown with score `cp`, is not true to the
/// tables, or `None` when it is.
fn line_fault(tables: &Tablebases, fen: &str, cp: i64, pv: &[String]) -> Option<String> {
    let mut board: Chess = fen
        .parse::<Fen>()
        .ok()?
        .into_position(CastlingMode::Standard)
        .ok()?;
    // The side that wins is the one to move at even plies when cp > 0.
    let winner_moves_at_even = cp > 0;
    let mut entered: Option<usize> = None;
    for ply in 0..=pv.len() {
        let probeable = board.board().occupied().count() <= PIECES
            && !board.castles().any()
            && (entered.is_some() || board.halfmoves() == 0);
        if probeable {
            entered.get_or_insert(ply);
            let verdict = tables.probe_wdl(&board).map(|w| w.verdict(true));
            let winner_to_move = (ply % 2 == 0) == winner_moves_at_even;
            let expected = if winner_to_move {
                Verdict::Win
            } else {
                Verdict::Loss
            };
            if verdict != Some(expected) {
                return Some(format!("{verdict:?} instead of {expected:?} at ply {ply}"));
            }
        }
        let Some(text) = pv.get(ply) else { break };
        let mv = text.parse::<UciMove>().ok()?.to_move(&board).ok()?;
        board.play_unchecked(mv);
    }
    match entered {
        None => Some("the line never enters the tables".to_owned()),
        Some(n) if TB_CP - cp.abs() != n as i64 => Some(format!(
            "enters the tables at ply {n}, score says {}",
            TB_CP - cp.abs()
        )),
        Some(_) => None,
    }
}

#[test]
fn lines_with_a_tablebase_score_stay_in_the_tables() {
    let Some(dir) = syzygy_or_skip("lines_with_a_tablebase_score_stay_in_the_tables") else {
        return;
    };
    let tables = Tablebases::open(&dir.display().to_string()).expect("the test tables open");
    let mut engine = Engine::spawn();
    engine.send(&format!(
        "setoption name SyzygyPath value {}",
        dir.display()
    ));
    engine.send(&format!("setoption name SyzygyProbeLimit value {PIECES}"));
    assert!(engine.sync().is_empty());
    // From matetrack's mates2000.epd: the root in the tables (a loss, then
    // a win), and two where a tablebase loss is reached in the search and
    // the loser's search below it once wandered into a stalemate or into
    // a drawn ending that the score did not show.
    let fens = [
        "8/8/7p/R4K1k/8/8/8/8 b - - 0 1",
        "8/8/8/8/4R3/7K/6n1/7k w - - 0 1",
        "5K1k/7r/5B2/6p1/6P1/8/p7/8 b - - 0 1",
        "8/8/8/8/1N5B/p7/4r3/k1K5 b - - 0 1",
    ];
    let mut checked = 0;
    for fen in fens {
        engine.set_position(&format!("position fen {fen}"));
        engine.send("go nodes 60000");
        let lines = engine.read_until_bestmove();
        for line in lines.iter().filter(|l| l.starts_with("info depth")) {
            let info = parse_info(line).unwrap_or_else(|e| panic!("{e}"));
            let Some(Score::Cp(cp)) = info.score else {
                continue;
            };
            if cp.abs() < TB_CP - 246 || info.bound.is_some() {
                continue;
            }
            if let Some(fault) = line_fault(&tables, fen, cp, &info.pv) {
                panic!("{fen}: {fault}: {line}");
            }
            checked += 1;
        }
    }
    // Every position shows tablebase scores before a mate is found.
    assert!(checked >= fens.len(), "only {checked} lines checked");
    engine.shutdown();
}
