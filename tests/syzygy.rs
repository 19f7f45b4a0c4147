//! The Syzygy tables through the library: probes against values checked
//! with python-chess (`chess.syzygy`), the root ranking, bad folders, and
//! broken table files (a size that cannot be a table's, a truncated copy,
//! garbage with a table's size). The tables come from `../shared/syzygy`
//! (see `common/tables.rs`); without them the tests are skipped with a
//! message.

mod common;

use std::path::Path;

use shakmaty::Position as _;
use shears::chess::Position;
use shears::tb::{Tablebases, TbError, Wdl, rank_root_moves};

use common::tables::syzygy_or_skip;

fn pos(fen: &str) -> Position {
    Position::from_fen(fen, false).expect("test FENs are legal")
}

fn uci_moves(ranked: &[shears::tb::RankedMove]) -> Vec<String> {
    ranked
        .iter()
        .map(|m| shears::chess::move_to_uci(m.mv, false))
        .collect()
}

/// The moves of the best rank.
fn best_group(tables: &Tablebases, p: &Position) -> (Wdl, Vec<String>) {
    let moves: Vec<_> = p.board().legal_moves().into_iter().collect();
    let ranking = rank_root_moves(tables, p, &moves).expect("in the tables");
    let top = ranking.moves[0].rank;
    let group: Vec<_> = ranking
        .moves
        .iter()
        .copied()
        .filter(|m| m.rank == top)
        .collect();
    let mut names = uci_moves(&group);
    names.sort();
    (ranking.moves[0].wdl, names)
}

#[test]
fn probes_match_the_reference_prober() {
    let Some(dir) = syzygy_or_skip("probes_match_the_reference_prober") else {
        return;
    };
    let tables = Tablebases::open(dir.to_str().unwrap()).unwrap();
    assert_eq!(tables.max_pieces(), 5);
    // (FEN, WDL, DTZ) from python-chess.
    let cases = [
        ("8/8/8/8/8/2k5/8/K6R w - - 0 1", Wdl::Win, 27),
        ("8/8/8/8/8/2k5/8/KB6 w - - 0 1", Wdl::Draw, 0),
        ("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1", Wdl::Win, 3),
        ("4k3/8/4K3/4P3/8/8/8/8 b - - 0 1", Wdl::Loss, -4),
        ("8/3B4/8/1R6/5r2/8/3K4/5k2 w - - 0 1", Wdl::CursedWin, 116),
    ];
    for (fen, wdl, dtz) in cases {
        let p = pos(fen);
        assert_eq!(tables.probe_wdl(p.board()), Some(wdl), "{fen}");
        assert_eq!(
            tables.probe_dtz(p.board()).map(|d| d.plies),
            Some(dtz),
            "{fen}"
        );
    }
    // Six pieces and castling rights: no information.
    let six = pos("4k3/8/8/8/8/3r4/8/KRRQ4 w - - 0 1");
    assert_eq!(tables.probe_wdl(six.board()), None);
    let castling = pos("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    assert_eq!(tables.probe_wdl(castling.board()), None);
    // A 5-piece material that is not in the folder.
    let missing = pos("4k3/8/8/8/8/7q/8/KQQ5 w - - 0 1");
    assert_eq!(tables.probe_wdl(missing.board()), None);
    assert!(
        tables.take_problems().is_empty(),
        "a missing table is no problem"
    );
}

#[test]
fn root_ranking_keeps_only_the_moves_that_keep_the_outcome() {
    let Some(dir) = syzygy_or_skip("root_ranking_keeps_only_the_moves_that_keep_the_outcome")
    else {
        return;
    };
    let tables = Tablebases::open(dir.to_str().unwrap()).unwrap();
    // The rook is attacked: every rook move but to d2, d3 and c1 wins; the
    // king move and those three give the rook away.
    let (wdl, group) = best_group(&tables, &pos("8/8/8/8/8/8/2k5/K2R4 w - - 0 1"));
    assert_eq!(wdl, Wdl::Win);
    let mut expected = vec![
        "d1d8", "d1d7", "d1d6", "d1d5", "d1d4", "d1h1", "d1g1", "d1f1", "d1e1", "d1b1",
    ];
    expected.sort_unstable();
    assert_eq!(group, expected);
    // KPvK: only the king moves that keep the opposition win.
    let (wdl, group) = best_group(&tables, &pos("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1"));
    assert_eq!((wdl, group), (Wdl::Win, vec!["e6d6".into(), "e6f6".into()]));
    // With 73 halfmoves on the clock only the DTZ-optimal moves (27 plies
    // to zeroing) still win; every other move is a cursed win.
    let p = pos("8/8/8/8/8/2k5/8/K6R w - - 73 1");
    let (wdl, group) = best_group(&tables, &p);
    assert_eq!((wdl, group), (Wdl::Win, vec!["h1d1".into(), "h1h4".into()]));
    let moves: Vec<_> = p.board().legal_moves().into_iter().collect();
    let ranking = rank_root_moves(&tables, &p, &moves).unwrap();
    assert!(ranking.by_dtz);
    assert!(ranking.moves[2..].iter().all(|m| m.wdl == Wdl::CursedWin));
    // A cursed win: only Ke3 keeps it; everything else draws.
    let (wdl, group) = best_group(&tables, &pos("8/3B4/8/1R6/5r2/8/3K4/5k2 w - - 0 1"));
    assert_eq!((wdl, group), (Wdl::CursedWin, vec!["d2e3".into()]));
    // A mate in one ranks as a win at distance 1.
    let mate = pos("k7/8/1K6/8/8/8/8/7R w - - 0 1");
    let moves: Vec<_> = mate.board().legal_moves().into_iter().collect();
    let ranking = rank_root_moves(&tables, &mate, &moves).unwrap();
    let mating = ranking
        .moves
        .iter()
        .find(|m| shears::chess::move_to_uci(m.mv, false) == "h1h8")
        .unwrap();
    assert_eq!((mating.dtz, mating.wdl), (Some(1), Wdl::Win));
}

#[test]
fn bad_folders_are_refused_with_the_folder_named() {
    let Some(dir) = syzygy_or_skip("bad_folders_are_refused_with_the_folder_named") else {
        return;
    };
    let missing = Tablebases::open("/no/such/syzygy/folder").unwrap_err();
    assert!(matches!(missing, TbError::NotAFolder(_)));
    assert!(missing.to_string().contains("/no/such/syzygy/folder"));
    let empty = tempfile::tempdir().unwrap();
    std::fs::write(empty.path().join("README.txt"), "not a table").unwrap();
    let err = Tablebases::open(empty.path().to_str().unwrap()).unwrap_err();
    assert!(matches!(err, TbError::NoTables { skipped: 0, .. }), "{err}");
    // One good folder and one bad: refused as a whole.
    let both = format!("{}:{}", dir.display(), empty.path().display());
    assert!(Tablebases::open(&both).is_err());
    assert!(matches!(Tablebases::open("  "), Err(TbError::Empty)));
}

/// A folder holding a copy of `name` from `dir`, cut to `len` bytes (or
/// overwritten with zeros when `zero`).
fn broken_copy(dir: &Path, name: &str, len: Option<u64>, zero: bool) -> tempfile::TempDir {
    let out = tempfile::tempdir().unwrap();
    let mut bytes = std::fs::read(dir.join(name)).unwrap();
    if let Some(len) = len {
        bytes.truncate(len as usize);
    }
    if zero {
        bytes.iter_mut().for_each(|b| *b = 0);
    }
    std::fs::write(out.path().join(name), bytes).unwrap();
    out
}

#[test]
fn a_table_with_an_impossible_size_is_skipped_and_reported_once() {
    let Some(dir) = syzygy_or_skip("a_table_with_an_impossible_size_is_skipped") else {
        return;
    };
    let out = broken_copy(&dir, "KRvK.rtbw", Some(100), false);
    std::fs::copy(dir.join("KQvK.rtbw"), out.path().join("KQvK.rtbw")).unwrap();
    let tables = Tablebases::open(out.path().to_str().unwrap()).unwrap();
    let problems = tables.take_problems();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].contains("KRvK.rtbw"), "{problems:?}");
    assert!(tables.take_problems().is_empty());
    let krk = pos("8/8/8/8/8/2k5/8/K6R w - - 0 1");
    assert_eq!(tables.probe_wdl(krk.board()), None);
    let kqk = pos("8/8/8/8/8/2k5/8/K6Q w - - 0 1");
    assert_eq!(tables.probe_wdl(kqk.board()), Some(Wdl::Win));
    // A folder whose only table is broken holds no usable table.
    let only = broken_copy(&dir, "KRvK.rtbw", Some(100), false);
    let err = Tablebases::open(only.path().to_str().unwrap()).unwrap_err();
    assert!(matches!(err, TbError::NoTables { skipped: 1, .. }), "{err}");
}

#[test]
fn a_truncated_or_corrupted_table_counts_as_missing_and_is_reported_once() {
    let Some(dir) = syzygy_or_skip("a_truncated_or_corrupted_table_counts_as_missing") else {
        return;
    };
    // KRvK with the rook on every free square, either side to move.
    let fens: Vec<String> = (0..64u32)
        .filter(|&sq| sq != 0 && sq != 63)
        .flat_map(|sq| {
            let mut board = shakmaty::Board::empty();
            board.set_piece_at(
                shakmaty::Square::A1,
                shakmaty::Piece::from_char('K').unwrap(),
            );
            board.set_piece_at(
                shakmaty::Square::H8,
                shakmaty::Piece::from_char('k').unwrap(),
            );
            board.set_piece_at(
                shakmaty::Square::new(sq),
                shakmaty::Piece::from_char('R').unwrap(),
            );
            let placement = board.board_fen().to_string();
            ["w", "b"].map(|turn| format!("{placement} {turn} - - 0 1"))
        })
        .filter(|fen| Position::from_fen(fen, false).is_ok())
        .collect();
    let good = Tablebases::open(dir.to_str().unwrap()).unwrap();
    let truth: Vec<Option<Wdl>> = fens
        .iter()
        .map(|f| good.probe_wdl(pos(f).board()))
        .collect();
    assert!(truth.iter().all(Option::is_some));
    // Cut to a size a table can have (64·k + 16 bytes): only reading tells.
    let len = std::fs::metadata(dir.join("KRvK.rtbw")).unwrap().len();
    let truncated = broken_copy(&dir, "KRvK.rtbw", Some((len / 2) / 64 * 64 + 16), false);
    // The right size, but zeros: the header is wrong.
    let zeroed = broken_copy(&dir, "KRvK.rtbw", None, true);
    for broken in [truncated, zeroed] {
        let tables = Tablebases::open(broken.path().to_str().unwrap()).unwrap();
        assert!(tables.take_problems().is_empty(), "the size looks right");
        let answers: Vec<Option<Wdl>> = fens
            .iter()
            .map(|fen| tables.probe_wdl(pos(fen).board()))
            .collect();
        let problems = tables.take_problems();
        assert_eq!(problems.len(), 1, "reported once: {problems:?}");
        assert!(problems[0].contains("KRvK.rtbw") && problems[0].contains("missing"));
        // Whatever was answered before the damage was found is right, and
        // nothing is answered after.
        let first_none = answers
            .iter()
            .position(Option::is_none)
            .expect("found broken");
        assert_eq!(answers[..first_none], truth[..first_none]);
        assert!(
            answers[first_none..].iter().all(Option::is_none),
            "{answers:?}"
        );
        let krk = pos("8/8/8/8/8/2k5/8/K6R w - - 0 1");
        assert_eq!(tables.probe_wdl(krk.board()), None);
        assert_eq!(tables.probe_dtz(krk.board()), None);
        assert!(tables.take_problems().is_empty());
    }
}

#[test]
fn a_win_the_defender_can_answer_with_a_threefold_ranks_as_a_draw() {
    let Some(dir) =
        syzygy_or_skip("a_win_the_defender_can_answer_with_a_threefold_ranks_as_a_draw")
    else {
        return;
    };
    let tables = Tablebases::open(dir.to_str().unwrap()).unwrap();
    // KRvK: the kings have walked g4-f3-g4 and h6-h7-h6, and again to f3
    // and h7. Kg4 is the tables' quickest win (13 plies to mate, the rest
    // 17 or more), but after it Kh6 is the start position a third time.
    let mut p = pos("8/8/7k/8/6K1/R7/8/8 w - - 0 1");
    for m in ["g4f3", "h6h7", "f3g4", "h7h6", "g4f3", "h6h7"] {
        let m = p.parse_move(m, false).unwrap();
        p.play(m);
    }
    let moves: Vec<_> = p.board().legal_moves().into_iter().collect();
    let ranking = rank_root_moves(&tables, &p, &moves).unwrap();
    let kg4 = ranking
        .moves
        .iter()
        .find(|m| shears::chess::move_to_uci(m.mv, false) == "f3g4")
        .unwrap();
    assert_eq!((kg4.wdl, kg4.dtz), (Wdl::Draw, Some(0)));
    // The position is still won, by other moves.
    let best = ranking.moves[0];
    assert_eq!(best.wdl, Wdl::Win);
    assert!(best.dtz.is_some_and(|d| d >= 17), "{best:?}");
    // Without that history Kg4 is the one best move.
    let fresh = pos(&p.fen());
    let (wdl, group) = best_group(&tables, &fresh);
    assert_eq!(wdl, Wdl::Win);
    assert!(group.contains(&"f3g4".to_owned()), "{group:?}");
}
