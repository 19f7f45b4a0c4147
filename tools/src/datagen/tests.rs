//! The runs of `datagen`: resuming, the formats, game order, books.

use std::collections::HashSet;

use super::*;

/// Two short games on one thread: the configuration of the datagen
/// unit tests (here and in `game.rs`).
pub(super) fn small() -> DatagenConfig {
    DatagenConfig {
        games: 2,
        nodes: Some(300),
        depth: None,
        threads: 1,
        seed: 7,
        random_plies: RANDOM_PLIES,
        min_ply: MIN_PLY,
    }
}

fn no_book(config: &DatagenConfig) -> Openings {
    Openings::new(Book::default(), config.random_plies, config.seed)
}

#[test]
fn an_interrupted_file_resumes_without_losing_or_repeating_games() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("data.txt");
    let (games, _) = run(
        &path,
        &small(),
        &Evaluation::HandCrafted,
        &no_book(&small()),
        &|_| {},
    )
    .unwrap();
    assert_eq!(games, 2);
    let full = std::fs::read_to_string(&path).unwrap();
    assert!(
        full.starts_with("# datagen seed 7 nodes 300 depth - "),
        "{full}"
    );
    for line in full.lines().filter(|l| !l.starts_with('#')) {
        let parsed = format::parse_line(line).unwrap();
        assert!(parsed.score.is_some(), "{line}");
    }
    // A run killed in the middle of a block: a partial game at the end.
    let partial = format!("{full}8/8/8/8/8/8/8/K6k w - - 0 1 | 0.5 | 3\n8/8/8/8/8/8/8/K5k");
    std::fs::write(&path, partial).unwrap();
    let existing = resume(&path).unwrap();
    assert_eq!(existing.games, HashSet::from([0, 1]));
    assert_eq!(existing.complete_len, full.len() as u64);

    let more = DatagenConfig {
        games: 3,
        ..small()
    };
    let (games, _) = run(
        &path,
        &more,
        &Evaluation::HandCrafted,
        &no_book(&more),
        &|_| {},
    )
    .unwrap();
    assert_eq!(games, 1, "only the missing game is played");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with(&full), "what was written is kept");
    assert!(!text.contains("K5k"), "the partial block is cut off");
    assert_eq!(resume(&path).unwrap().games, HashSet::from([0, 1, 2]));
    // Nothing left to do: nothing is written, not even a header.
    let (games, _) = run(
        &path,
        &more,
        &Evaluation::HandCrafted,
        &no_book(&more),
        &|_| {},
    )
    .unwrap();
    assert_eq!(games, 0);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
}

#[test]
fn a_packed_file_holds_the_text_file_positions_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let (txt, bin) = (dir.path().join("d.txt"), dir.path().join("d.bin"));
    run(
        &txt,
        &small(),
        &Evaluation::HandCrafted,
        &no_book(&small()),
        &|_| {},
    )
    .unwrap();
    run(
        &bin,
        &small(),
        &Evaluation::HandCrafted,
        &no_book(&small()),
        &|_| {},
    )
    .unwrap();
    let text = std::fs::read_to_string(&txt).unwrap();
    let bytes = std::fs::read(&bin).unwrap();
    assert_eq!(bytes.len() % packed::RECORD, 0);
    // Decode the packed file back into text lines.
    let mut decoded = String::new();
    for chunk in bytes.chunks_exact(packed::RECORD) {
        match packed::unpack(chunk.try_into().unwrap()).unwrap() {
            packed::Record::Position {
                board,
                result,
                score,
            } => {
                let fen = Fen::from_position(&board, EnPassantMode::Legal).to_string();
                decoded.push_str(&format::format_line(&fen, result, score.unwrap()));
                decoded.push('\n');
            }
            packed::Record::GameEnd {
                index,
                result,
                plies,
            } => decoded.push_str(&format!("# game {index} {result:.1} {plies}\n")),
        }
    }
    let without_header: String = text.lines().skip(1).map(|l| format!("{l}\n")).collect();
    assert_eq!(decoded, without_header);
    let existing = resume(&bin).unwrap();
    assert_eq!(existing.games, HashSet::from([0, 1]));
    assert_eq!(existing.complete_len, bytes.len() as u64);
    assert_eq!(existing.positions, resume(&txt).unwrap().positions);

    // Cut off inside a game: a whole position record, then half of one.
    let mut cut = bytes.clone();
    cut.extend_from_slice(&bytes[..packed::RECORD + 16]);
    std::fs::write(&bin, &cut).unwrap();
    assert_eq!(resume(&bin).unwrap().complete_len, bytes.len() as u64);
    let more = DatagenConfig {
        games: 3,
        ..small()
    };
    let (games, _) = run(
        &bin,
        &more,
        &Evaluation::HandCrafted,
        &no_book(&more),
        &|_| {},
    )
    .unwrap();
    assert_eq!(games, 1);
    let after = std::fs::read(&bin).unwrap();
    assert!(after.starts_with(&bytes));
    assert_eq!(resume(&bin).unwrap().games, HashSet::from([0, 1, 2]));
}

#[test]
fn a_file_of_the_old_format_resumes_with_the_new_one() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.txt");
    let old = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | 0.5\n\
               # game 0 0.5 80\n";
    std::fs::write(&path, old).unwrap();
    let existing = resume(&path).unwrap();
    assert_eq!((existing.games.len(), existing.positions), (1, 1));
    let (games, _) = run(
        &path,
        &small(),
        &Evaluation::HandCrafted,
        &no_book(&small()),
        &|_| {},
    )
    .unwrap();
    assert_eq!(games, 1, "game 0 is there already");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with(old));
    assert!(text.contains("\n# game 1 "));
}

#[test]
fn a_one_sided_book_is_an_error_not_a_hang() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("lost.pgn");
    // Black gives up the queen for two pawns.
    std::fs::write(
        &pgn,
        "[Result \"*\"]\n\n1. d4 e5 2. dxe5 Qh4 3. Nf3 Qxf2+ 4. Kxf2 *\n",
    )
    .unwrap();
    let config = DatagenConfig {
        random_plies: 0,
        nodes: Some(100),
        ..small()
    };
    let openings = Openings::new(Book::load(&[pgn]).unwrap(), 0, 1);
    let err = run(
        &dir.path().join("d.txt"),
        &config,
        &Evaluation::HandCrafted,
        &openings,
        &|_| {},
    )
    .unwrap_err();
    assert!(matches!(err, DatagenError::NoOpening { .. }), "{err}");
}
