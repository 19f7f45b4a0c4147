//! The endgame knowledge laid over the net's output
//! (`src/eval/endgame/`), through the library: the built-in net, without
//! tables, mates a bare king with bishop and knight, two bishops, a rook
//! and a queen from positions its bare output could not convert (fixed
//! nodes a move, so the games are the same on any machine), and the
//! king-and-pawn bitbase agrees with the Syzygy tables on every position
//! (when the tables of `../shared/syzygy` are found; see `common/tables.rs`).

mod common;

use shakmaty::{
    Bitboard, Board, CastlingMode, Chess, Color, FromSetup, Position as _, Setup, Square,
};
use shears::chess::Position;
use shears::eval::endgame::kpk;
use shears::eval::{Evaluation, LoadedNet};
use shears::search::params::SearchConfig;
use shears::search::{SearchLimits, SearchRequest, SearchSettings, Searcher};
use shears::tb::{Tablebases, Wdl};

use common::tables::syzygy_or_skip;

/// Nodes of every move's search.
const NODES: u64 = 30_000;
/// Plies a game may last before the test gives up on it.
const MAX_PLIES: usize = 150;

/// Plays `fen` out with the built-in net on both sides; the side to move
/// of `fen` is the stronger. Returns how many plies it took that side to
/// mate, or what happened instead.
fn mate_plies(fen: &str) -> Result<usize, String> {
    let mut pos = Position::from_fen(fen, false).expect("test FEN");
    let strong = pos.turn();
    let net = Evaluation::Net(LoadedNet::built_in().expect("the built-in net"));
    let mut searcher = Searcher::new(16).expect("a table");
    let limits = SearchLimits::nodes(NODES);
    for ply in 0..MAX_PLIES {
        let board = pos.board();
        if board.legal_moves().is_empty() {
            return if board.is_check() && board.turn() != strong {
                Ok(ply)
            } else {
                Err(format!(
                    "ended without a mate by the strong side after {ply} plies"
                ))
            };
        }
        if board.halfmoves() >= 100 || board.is_insufficient_material() {
            return Err(format!("drawn after {ply} plies"));
        }
        let settings = SearchSettings::single(SearchConfig::default());
        let request = SearchRequest::new(&pos, &limits, settings).with_evaluation(&net);
        let m = searcher.think(&request).best().expect("a legal move");
        pos.play(m);
    }
    Err(format!("no mate in {MAX_PLIES} plies"))
}

#[test]
fn the_net_mates_a_bare_king_without_tables() {
    // Each of these was drawn by the 50-move rule (or lost a bishop) when
    // the net's bare output played them at 100,000 nodes a move.
    for fen in [
        "8/2K5/5N2/8/8/1B6/8/2k5 w - - 0 1",
        "8/3K4/8/8/8/B7/1N4k1/8 w - - 0 1",
        "8/8/b7/8/K7/8/8/3nk3 b - - 0 1",
        "5BB1/8/8/8/8/3k4/8/1K6 w - - 0 1",
        "8/4K3/8/8/8/7R/8/3k4 w - - 0 1",
        "8/8/6Q1/8/8/3K4/8/4k3 w - - 0 1",
    ] {
        // Mate before the 50-move rule (no capture or pawn move resets
        // it): a bishop and knight mate takes at most 66 plies from any
        // position played perfectly, the others far fewer.
        match mate_plies(fen) {
            Ok(plies) => assert!(plies < 100, "{fen}: mate only after {plies} plies"),
            Err(why) => panic!("{fen}: {why}"),
        }
    }
}

/// Every legal KPvK position with the pawn on `pawn` and its side's king
/// on `king` (White's, or with `black` the colours swapped and the board
/// turned), either side to move.
fn kpk_positions(king: Square, pawn: Square, black: bool) -> Vec<Chess> {
    let strong = if black { Color::Black } else { Color::White };
    let turned = |sq: Square| if black { sq.flip_vertical() } else { sq };
    let mut out = Vec::new();
    for lone in Square::ALL {
        if lone == king || lone == pawn {
            continue;
        }
        for turn in [Color::White, Color::Black] {
            let mut board = Board::empty();
            board.set_piece_at(turned(king), strong.king());
            board.set_piece_at(turned(lone), (!strong).king());
            board.set_piece_at(turned(pawn), strong.pawn());
            let setup = Setup {
                board,
                turn,
                ..Setup::empty()
            };
            if let Ok(pos) = Chess::from_setup(setup, CastlingMode::Standard) {
                out.push(pos);
            }
        }
    }
    out
}

#[test]
fn the_king_and_pawn_bitbase_agrees_with_the_tables() {
    let Some(dir) = syzygy_or_skip("the_king_and_pawn_bitbase_agrees_with_the_tables") else {
        return;
    };
    let tables = Tablebases::open(dir.to_str().unwrap()).expect("the test tables open");
    let pawn_squares =
        !(Bitboard::from_rank(shakmaty::Rank::First) | Bitboard::from_rank(shakmaty::Rank::Eighth));
    let mut compared = 0;
    for black in [false, true] {
        let strong = if black { Color::Black } else { Color::White };
        for pawn in pawn_squares {
            for king in Square::ALL.into_iter().filter(|&k| k != pawn) {
                for pos in kpk_positions(king, pawn, black) {
                    let Some(wdl) = tables.probe_wdl(&pos) else {
                        continue;
                    };
                    let to_move_is_strong = pos.turn() == strong;
                    let pawn_side_wins = match wdl {
                        Wdl::Win if to_move_is_strong => true,
                        Wdl::Loss if !to_move_is_strong => true,
                        Wdl::Draw => false,
                        other => panic!("{other:?} for the side to move in KPvK"),
                    };
                    assert_eq!(
                        kpk::probe(pos.board(), pos.turn()),
                        Some(pawn_side_wins),
                        "{}",
                        shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal)
                    );
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 600_000, "only {compared} positions compared");
}
