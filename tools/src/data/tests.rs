//! Tests of the reader: each format's positions with their labels, the
//! game index and ply, the filter, and damaged files.

use std::path::Path;

use shakmaty::{Chess, Move, Position as _};

use super::filter::keep;
use super::format::games::{Game, PLY, START};
use super::format::header::Header;
use super::format::packed;
use super::reader::{DataError, Filter, Item, Location, TrainingPosition, open};
use shears::chess::Position;

/// The start position and the moves `uci` played from it.
fn line(fen: &str, uci: &[&str]) -> (Chess, Vec<Move>) {
    let mut pos = Position::from_fen(fen, false).unwrap();
    let start = pos.board().clone();
    let moves = uci
        .iter()
        .map(|text| {
            let m = pos.parse_move(text, false).unwrap();
            pos.play(m);
            m
        })
        .collect();
    (start, moves)
}

/// Two games: an open game with a capture and a check, scores from the
/// side to move, one move without a score; and a short endgame.
fn games() -> Vec<Game> {
    let (start, moves) = line(
        shears::chess::START_FEN,
        &[
            "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "d7d6", "b5c6", "b7c6", "d2d4",
        ],
    );
    let scores = [
        Some(20),
        Some(-25),
        None,
        Some(-30),
        Some(31),
        Some(-28),
        Some(40),
        Some(-35),
        Some(50),
    ];
    let first = Game {
        start,
        result: 1.0,
        moves: moves.into_iter().zip(scores).collect(),
    };
    let (start, moves) = line(
        "8/8/4k3/8/8/3K4/4P3/8 b - - 3 61",
        &["e6e5", "d3e3", "e5d5"],
    );
    let second = Game {
        start,
        result: 0.5,
        moves: moves
            .into_iter()
            .zip([Some(-5), Some(3), Some(-4)])
            .collect(),
    };
    vec![first, second]
}

/// A game file of `games` with a header of `min_ply`; the bytes.
fn game_file(path: &Path, games: &[Game], min_ply: i64) -> Vec<u8> {
    let header = Header::new(&[("source", "test".into()), ("min_ply", min_ply.into())]);
    let mut bytes = header.to_bytes();
    for g in games {
        bytes.extend_from_slice(&g.to_bytes());
    }
    std::fs::write(path, &bytes).unwrap();
    bytes
}

fn read_all(path: &Path, filter: Filter) -> Vec<Result<TrainingPosition, DataError>> {
    open(path).unwrap().positions_with(filter).collect()
}

#[test]
fn a_game_file_gives_every_position_with_its_labels() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.games");
    let games = games();
    let bytes = game_file(&path, &games, 0);
    let header_len = bytes.len() - games.iter().map(|g| g.to_bytes().len()).sum::<usize>();
    let all: Vec<TrainingPosition> = read_all(&path, Filter::All)
        .into_iter()
        .map(Result::unwrap)
        .collect();
    assert_eq!(all.len(), 12);
    let mut offset = header_len;
    let mut at = 0;
    for (index, game) in games.iter().enumerate() {
        for (k, (board, _, score)) in game.positions().enumerate() {
            let p = &all[at];
            assert_eq!(p.board, board);
            assert_eq!(p.stm_score(), score, "game {index} move {k}");
            let white = score.map(|s| if board.turn().is_white() { s } else { -s });
            assert_eq!(p.score, white);
            assert_eq!(p.result, game.result);
            assert_eq!(p.game, index as u64);
            assert_eq!(p.at, Location::Byte((offset + START + k * PLY) as u64));
            at += 1;
        }
        offset += game.to_bytes().len();
    }
    assert_eq!(all[0].ply, 0);
    assert_eq!(all[9].ply, 121, "the endgame's move counter");
    assert_eq!(all[9].stm_result(), 0.5);
    assert_eq!(all[1].stm_result(), 0.0, "Black lost the first game");

    // The quiet filter of the header's min_ply (0): the scored positions
    // whose move is quiet, as datagen keeps them.
    let quiet: Vec<TrainingPosition> = open(&path)
        .unwrap()
        .positions()
        .map(Result::unwrap)
        .collect();
    let expected: Vec<(u64, Chess)> = games
        .iter()
        .enumerate()
        .flat_map(|(i, g)| {
            g.positions()
                .filter(|(board, m, score)| score.is_some_and(|s| keep(board, *m, s, 0)))
                .map(move |(board, _, _)| (i as u64, board))
        })
        .collect();
    let got: Vec<(u64, Chess)> = quiet.iter().map(|p| (p.game, p.board.clone())).collect();
    assert_eq!(got, expected);
    assert!(quiet.iter().all(|p| all.contains(p)));
    // b5c6 and b7c6 are captures, g1f3 has no score, f1b5 does not give
    // check; the rest are quiet.
    assert_eq!(quiet.len(), 9, "{quiet:#?}");
    // A later min_ply leaves out the first game's opening.
    let later: Vec<_> = open(&path)
        .unwrap()
        .positions_with(Filter::Quiet { min_ply: 16 })
        .map(Result::unwrap)
        .collect();
    assert!(later.iter().all(|p| p.game == 1));
}

#[test]
fn text_and_packed_positions_take_the_index_of_their_game_line() {
    let dir = tempfile::tempdir().unwrap();
    let fens = [
        shears::chess::START_FEN,
        "8/8/4k3/8/8/3K4/4P3/8 b - - 3 61",
        "8/8/8/4k3/8/4K3/4P3/8 b - - 5 62",
    ];
    let text = format!(
        "# datagen seed 1\n{} | 0.5 | 10\n# game 7 0.5 40\n\n{} | 1.0 | -3\nbroken | 1.0\n{} | 1.0\n",
        fens[0], fens[1], fens[2]
    );
    let txt = dir.path().join("d.txt");
    std::fs::write(&txt, text).unwrap();
    let items = read_all(&txt, Filter::All);
    assert_eq!(items.len(), 4);
    let p = items[0].as_ref().unwrap();
    assert_eq!(
        (p.game, p.score, p.result, p.at),
        (7, Some(10), 0.5, Location::Line(2))
    );
    let p = items[1].as_ref().unwrap();
    assert_eq!(
        (p.game, p.score, p.ply, p.at),
        (1, Some(-3), 121, Location::Line(5))
    );
    assert!(
        matches!(&items[2], Err(e @ DataError::BadEntry { at: Location::Line(6), .. }) if e.is_skippable())
    );
    assert_eq!(items[3].as_ref().unwrap().score, None);

    let board = |fen: &str| Position::from_fen(fen, false).unwrap().board().clone();
    let mut bytes = packed::pack(&board(fens[0]), 0.5, Some(10)).to_vec();
    bytes.extend_from_slice(&packed::pack_game_end(7, 0.5, 40));
    bytes.extend_from_slice(&packed::pack(&board(fens[1]), 1.0, Some(-3)));
    bytes.extend_from_slice(&[9; 5]);
    let bin = dir.path().join("d.bin");
    std::fs::write(&bin, bytes).unwrap();
    let items = read_all(&bin, Filter::All);
    assert_eq!(items.len(), 3);
    let p = items[0].as_ref().unwrap();
    assert_eq!((p.game, p.score, p.at), (7, Some(10), Location::Record(1)));
    let p = items[1].as_ref().unwrap();
    assert_eq!((p.game, p.score, p.at), (1, Some(-3), Location::Record(3)));
    let err = items[2].as_ref().unwrap_err().to_string();
    assert!(
        err.ends_with("d.bin: record 4: 5 bytes at the end, too few for a 32-byte record"),
        "{err}"
    );
}

#[test]
fn a_damaged_game_file_ends_with_the_game_and_its_offset_named() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.games");
    let games = games();
    let bytes = game_file(&path, &games, 0);
    let second = bytes.len() - games[1].to_bytes().len();
    let last_error = |bytes: &[u8]| -> String {
        std::fs::write(&path, bytes).unwrap();
        let items = read_all(&path, Filter::All);
        let (last, before) = items.split_last().unwrap();
        assert!(before.iter().all(Result::is_ok));
        let err = last.as_ref().unwrap_err();
        assert!(!err.is_skippable());
        err.to_string()
    };
    let cut = last_error(&bytes[..bytes.len() - 2]);
    assert!(
        cut.contains(&format!("game 1 (byte {second}): the file ends")),
        "{cut}"
    );
    let mut illegal = bytes.clone();
    illegal[second + START] ^= 0x3F; // the from-square of the endgame's first move
    let err = last_error(&illegal);
    assert!(
        err.contains(&format!("game 1 (byte {second}): move 1: move ")),
        "{err}"
    );
    assert!(err.contains("is not legal"), "{err}");
    let mut no_kings = bytes.clone();
    let first = second - games[0].to_bytes().len();
    no_kings[first + 8..first + 24].fill(0);
    let err = last_error(&no_kings);
    assert!(
        err.contains(&format!("game 0 (byte {first}): bad start position")),
        "{err}"
    );

    let mut bad_magic = bytes.clone();
    bad_magic[0] = b'X';
    std::fs::write(&path, &bad_magic).unwrap();
    let err = open(&path).err().unwrap().to_string();
    assert!(err.contains("not a Shears game file"), "{err}");
    std::fs::write(&path, &bytes[..10]).unwrap();
    assert!(open(&path).err().unwrap().to_string().contains("header"));
}

/// An item without where it is: a position's game, board and score, or a
/// game end's index.
type Bare = (Option<(u64, Chess, Option<i32>)>, Option<u64>);

/// A file's items without where they are (a game file's bytes, a packed
/// file's records).
fn items_of(path: &Path) -> Vec<Bare> {
    open(path)
        .unwrap()
        .items()
        .map(|item| match item.unwrap() {
            Item::Position(p) => (Some((p.game, p.board, p.score)), None),
            Item::GameEnd { game } => (None, Some(game)),
        })
        .collect()
}

#[test]
fn a_game_file_gives_the_items_of_its_packed_twin_and_read_files_cuts_them() {
    let dir = tempfile::tempdir().unwrap();
    let games_path = dir.path().join("g.games");
    // From ply 16 the first game (9 moves from the start) keeps nothing:
    // its end still comes, as the packed twin's end record does.
    game_file(&games_path, &games(), 16);
    let bin = dir.path().join("g.bin");
    super::convert::convert(&games_path, &bin, None, None).unwrap();
    let items = items_of(&games_path);
    assert_eq!(items, items_of(&bin));
    assert_eq!(items.first(), Some(&(None, Some(0))));
    assert_eq!(items.last(), Some(&(None, Some(1))));
    assert_eq!(items.len(), 2 + 3);

    // Two files as one, the first 2 positions only: the game they cut is
    // closed where the limit falls.
    let paths = [games_path.clone(), bin.clone()];
    let ends = |first| -> Vec<(usize, bool)> {
        super::files::read_files(&paths, first)
            .map(|item| {
                let (file, item) = item.unwrap();
                (file, matches!(item, Item::GameEnd { .. }))
            })
            .collect()
    };
    assert_eq!(
        ends(Some(2)),
        vec![(0, true), (0, false), (0, false), (0, true)]
    );
    let all = ends(None);
    assert_eq!(all.len(), 2 * items.len());
    assert_eq!(all.iter().filter(|(f, _)| *f == 1).count(), items.len());

    // A packed file cut inside its last game: read_files closes the game
    // at the file's end.
    let mut bytes = std::fs::read(&bin).unwrap();
    bytes.truncate(bytes.len() - packed::RECORD);
    std::fs::write(&bin, &bytes).unwrap();
    let cut = [bin.clone()];
    let items: Vec<bool> = super::files::read_files(&cut, None)
        .map(|item| matches!(item.unwrap().1, Item::GameEnd { .. }))
        .collect();
    assert_eq!(items, vec![true, false, false, false, true]);
    // Its extent stops at the last whole game.
    let extent = open(&bin).unwrap().extent().unwrap();
    assert_eq!(extent.complete_len, packed::RECORD as u64);
    assert_eq!(extent.positions, 0);
}
