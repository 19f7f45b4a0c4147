//! The runs of `datagen`: resuming, the files it refuses, the kept
//! positions, books.

use std::path::Path;

use super::*;
use crate::data::filter::MIN_PLY;
use crate::data::format::packed;

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
        adjudication: Adjudication::default(),
        probe_nodes: None,
    }
}

fn no_book(config: &DatagenConfig) -> Openings {
    Openings::new(Book::default(), config.random_plies, config.seed)
}

fn run_small(path: &Path, config: &DatagenConfig) -> Result<(u64, u64), DatagenError> {
    run(
        path,
        config,
        &Evaluation::HandCrafted,
        &no_book(config),
        &|_| {},
    )
}

#[test]
fn an_interrupted_file_resumes_without_losing_or_repeating_games() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("data.games");
    let (games, _) = run_small(&path, &small()).unwrap();
    assert_eq!(games, 2);
    let full = std::fs::read(&path).unwrap();
    let header = run_header(&small(), &no_book(&small()), &Evaluation::HandCrafted);
    assert!(full.starts_with(&header.to_bytes()));
    // A run killed in the middle of a game: its start position and a move.
    let mut partial = full.clone();
    partial.extend_from_slice(&full[header.len() as usize..][..games::START + 4]);
    std::fs::write(&path, &partial).unwrap();
    let existing = resume(&path, &header).unwrap();
    assert_eq!(existing.games, 2);
    assert_eq!(existing.complete_len, full.len() as u64);

    let more = DatagenConfig {
        games: 3,
        ..small()
    };
    let (games, _) = run_small(&path, &more).unwrap();
    assert_eq!(games, 1, "only the missing game is played");
    let after = std::fs::read(&path).unwrap();
    assert!(after.starts_with(&full), "what was written is kept");
    assert_eq!(resume(&path, &header).unwrap().games, 3);
    // Nothing left to do: nothing is written.
    let (games, _) = run_small(&path, &more).unwrap();
    assert_eq!(games, 0);
    assert_eq!(std::fs::read(&path).unwrap(), after);
}

#[test]
fn the_games_hold_the_positions_the_run_kept() {
    // The quiet filter on reading a game file keeps exactly the positions
    // `play_game` kept while it played: converted to a packed file, the
    // games are the records of those positions.
    let dir = tempfile::tempdir().unwrap();
    let (games, bin) = (dir.path().join("d.games"), dir.path().join("d.bin"));
    let records = std::sync::Mutex::new(Vec::new());
    run(
        &games,
        &small(),
        &Evaluation::HandCrafted,
        &no_book(&small()),
        &|record| records.lock().unwrap().push(record.clone()),
    )
    .unwrap();
    let mut expected = Vec::new();
    for record in records.into_inner().unwrap() {
        for p in &record.positions {
            expected.extend_from_slice(&packed::pack(&p.board, record.result, Some(p.white_score)));
        }
        expected.extend_from_slice(&packed::pack_game_end(
            record.index,
            record.result,
            record.plies,
        ));
    }
    crate::data::convert::convert(&games, &bin, None, None).unwrap();
    assert_eq!(std::fs::read(&bin).unwrap(), expected);
}

#[test]
fn a_stricter_adjudication_cuts_a_file_into_the_one_datagen_plays_with_it() {
    // The rule never changes a move, so the games of a stricter rule are
    // the default's games cut short: `data convert` with the rule writes
    // from the default's file what datagen writes with the rule.
    let dir = tempfile::tempdir().unwrap();
    let strict = Adjudication {
        resign_score: 300,
        resign_plies: 2,
        draw_min_ply: 20,
        draw_score: 40,
        draw_plies: 4,
    };
    let base = DatagenConfig {
        games: 6,
        ..small()
    };
    let cut_config = DatagenConfig {
        adjudication: strict,
        ..base
    };
    let (games, games_strict) = (dir.path().join("d.games"), dir.path().join("s.games"));
    run_small(&games, &base).unwrap();
    run_small(&games_strict, &cut_config).unwrap();
    let header = run_header(&cut_config, &no_book(&cut_config), &Evaluation::HandCrafted);
    assert!(
        header
            .settings()
            .contains("adjudication = \"resign at 300 cp")
    );
    let (cut, played) = (dir.path().join("cut.bin"), dir.path().join("played.bin"));
    let done = crate::data::convert::convert(&games, &cut, None, Some(strict)).unwrap();
    crate::data::convert::convert(&games_strict, &played, None, None).unwrap();
    assert!(done.cut > 0 && done.moves < done.moves_in, "{done:?}");
    assert_eq!(
        std::fs::read(&cut).unwrap(),
        std::fs::read(&played).unwrap()
    );
    // A looser rule cannot be had from games already ended.
    let loose = Adjudication {
        resign_plies: 8,
        ..Adjudication::default()
    };
    let err = crate::data::convert::convert(&games, &dir.path().join("l.bin"), None, Some(loose))
        .unwrap_err();
    assert!(err.to_string().contains("looser"), "{err}");
}

#[test]
fn a_probe_changes_the_games_but_not_the_game_order() {
    // With a probe the moves of dropped positions come from a smaller
    // search, so the games are others (another header: neither run appends
    // to the other's file); the file is still the same bytes on any thread
    // count.
    let dir = tempfile::tempdir().unwrap();
    let probe = DatagenConfig {
        games: 4,
        probe_nodes: Some(60),
        ..small()
    };
    let plain = DatagenConfig {
        probe_nodes: None,
        ..probe
    };
    let header = run_header(&probe, &no_book(&probe), &Evaluation::HandCrafted);
    assert!(
        header.settings().contains("probe_nodes = 60\n"),
        "{}",
        header.settings()
    );
    assert_ne!(
        header,
        run_header(&plain, &no_book(&plain), &Evaluation::HandCrafted)
    );
    let (one, two) = (dir.path().join("one.games"), dir.path().join("two.games"));
    run_small(&one, &probe).unwrap();
    run_small(
        &two,
        &DatagenConfig {
            threads: 2,
            ..probe
        },
    )
    .unwrap();
    assert_eq!(std::fs::read(&one).unwrap(), std::fs::read(&two).unwrap());
    let err = run_small(&one, &plain).unwrap_err();
    assert!(matches!(err, DatagenError::Resume(_)), "{err}");
    let plain_file = dir.path().join("plain.games");
    run_small(&plain_file, &plain).unwrap();
    let moves = |path: &Path| {
        let file = crate::data::open(path).unwrap();
        let mut games = file.games().unwrap();
        let mut all = Vec::new();
        while let Some((_, _, game)) = games.next_game().unwrap() {
            all.extend(game.moves);
        }
        all
    };
    assert_ne!(
        moves(&one),
        moves(&plain_file),
        "the probe played some moves"
    );
}

#[test]
fn a_file_that_is_not_its_own_is_refused_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    let junk = b"# my notes, not training data\n";
    let header = run_header(&small(), &no_book(&small()), &Evaluation::HandCrafted);
    for name in ["notes.games", "notes.bin", "notes.txt"] {
        let path = dir.path().join(name);
        std::fs::write(&path, junk).unwrap();
        let err = run_small(&path, &small()).unwrap_err();
        assert!(
            matches!(
                err,
                DatagenError::Resume(ResumeError::NotGames { .. } | ResumeError::NotOurs { .. })
            ),
            "{name}: {err}"
        );
        assert_eq!(std::fs::read(&path).unwrap(), junk, "{name}");
    }
    // Another name than .games is refused even when there is no file.
    let err = run_small(&dir.path().join("new.bin"), &small()).unwrap_err();
    assert!(err.to_string().contains("shears data convert"), "{err}");
    assert!(!dir.path().join("new.bin").exists());
    // The start of this run's own header (a run stopped while writing it)
    // is written again; the start of another run's is kept.
    let path = dir.path().join("cut.games");
    std::fs::write(&path, &header.to_bytes()[..20]).unwrap();
    assert_eq!(run_small(&path, &small()).unwrap().0, 2);
    let other = DatagenConfig { seed: 8, ..small() };
    let theirs = run_header(&other, &no_book(&other), &Evaluation::HandCrafted).to_bytes();
    std::fs::write(&path, &theirs[..theirs.len() - 3]).unwrap();
    let err = run_small(&path, &small()).unwrap_err();
    assert!(
        matches!(err, DatagenError::Resume(ResumeError::NotOurs { .. })),
        "{err}"
    );
    assert_eq!(std::fs::read(&path).unwrap(), &theirs[..theirs.len() - 3]);
}

#[test]
fn an_empty_or_barely_begun_file_resumes_as_a_new_one() {
    let dir = tempfile::tempdir().unwrap();
    let header = run_header(&small(), &no_book(&small()), &Evaluation::HandCrafted);
    let path = dir.path().join("begun.games");
    assert_eq!(resume(&path, &header).unwrap(), Existing::default());
    // Empty, cut inside the magic, inside the fixed part, inside the
    // settings: nothing complete, the header written again.
    for cut in [0, 5, 12, 20] {
        std::fs::write(&path, &header.to_bytes()[..cut]).unwrap();
        assert_eq!(
            resume(&path, &header).unwrap(),
            Existing::default(),
            "{cut}"
        );
    }
    // The start of a game file's header, not of this one: not ours, and
    // named so.
    let mut theirs = header.to_bytes()[..12].to_vec();
    theirs[11] ^= 0xff;
    std::fs::write(&path, &theirs).unwrap();
    let err = resume(&path, &header).unwrap_err();
    assert!(matches!(err, ResumeError::NotOurs { .. }), "{err}");
    assert!(
        err.to_string()
            .contains("12 bytes that are not the start of this run's header"),
        "{err}"
    );
    // Five bytes that no game file starts with: not ours either.
    std::fs::write(&path, b"SHEAX").unwrap();
    let err = resume(&path, &header).unwrap_err();
    assert!(err.to_string().contains("not a Shears game file"), "{err}");
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
        &dir.path().join("d.games"),
        &config,
        &Evaluation::HandCrafted,
        &openings,
        &|_| {},
    )
    .unwrap_err();
    assert!(matches!(err, DatagenError::NoOpening { .. }), "{err}");
}
