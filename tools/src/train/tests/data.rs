//! Reading packed data files into a dataset, the held-out games, and every
//! kind of bad data file.

use std::path::{Path, PathBuf};

use super::super::dataset::{Split, load};
use super::super::error::TrainError;
use super::super::run::{RunConfig, run};
use super::super::trainer::Settings;
use super::training::settings;
use super::{games, packed_file, samples};
use crate::data::format::packed::{self, RECORD};

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn load_err(paths: &[PathBuf], need_scores: bool) -> String {
    load(paths, need_scores, None, &mut |_| {})
        .unwrap_err()
        .to_string()
}

#[test]
fn packed_files_load_game_by_game_and_the_games_split() {
    let dir = tempfile::tempdir().unwrap();
    let a = games(7, 10);
    let b = games(5, 11);
    let fa = write(dir.path(), "a.bin", &packed_file(&a));
    // The second file's last game has no end record (a writer stopped).
    let mut bytes = packed_file(&b);
    bytes.truncate(bytes.len() - RECORD);
    let fb = write(dir.path(), "b.bin", &bytes);
    let data = load(&[fa, fb], true, None, &mut |_| {}).unwrap();
    let all_games: Vec<_> = a.iter().chain(&b).cloned().collect();
    assert_eq!(data.samples, samples(&all_games));
    assert_eq!(data.games(), 12);

    let lengths: Vec<usize> = all_games.iter().map(Vec::len).collect();
    let positions_of = |games: &[usize]| -> usize { games.iter().map(|&g| lengths[g]).sum() };

    // Every 5th game: games 4 and 9.
    let parts = data.split(Split::EveryNthGame(5)).unwrap();
    assert_eq!((parts.train_games, parts.validation_games), (10, 2));
    assert_eq!(parts.validation.len(), positions_of(&[4, 9]));
    let start_of_4 = positions_of(&[0, 1, 2, 3]) as u32;
    assert_eq!(parts.validation[0], start_of_4);
    assert_eq!(
        parts.train.len() + parts.validation.len(),
        data.samples.len()
    );

    // The last 20%: 12 · 0.2 = 2.4, so 3 games (9, 10, 11).
    let parts = data.split(Split::LastPercent(20)).unwrap();
    assert_eq!((parts.train_games, parts.validation_games), (9, 3));
    assert_eq!(parts.validation.len(), positions_of(&[9, 10, 11]));
    assert_eq!(
        *parts.validation.last().unwrap() as usize,
        data.samples.len() - 1
    );

    let err = data.split(Split::EveryNthGame(13)).unwrap_err().to_string();
    assert!(
        err.contains("12 games") && err.contains("--val-every-games 13"),
        "{err}"
    );
}

#[test]
fn bad_data_files_are_refused_with_the_file_and_the_record() {
    let dir = tempfile::tempdir().unwrap();
    let good = packed_file(&games(2, 12));

    let missing = dir.path().join("missing.bin");
    let err = load_err(std::slice::from_ref(&missing), false);
    assert!(err.contains("missing.bin"), "{err}");

    // Text files load since the trainer reads every format datagen
    // writes; a line that is not a position is named with its line.
    let text = write(
        dir.path(),
        "data.txt",
        b"8/8/8/8/8/8/8/K6k w - - 0 1 | 0.5 | 0\n",
    );
    assert_eq!(
        load(&[text], false, None, &mut |_| {})
            .unwrap()
            .samples
            .len(),
        1
    );
    let bad_text = write(
        dir.path(),
        "bad.txt",
        b"8/8/8/8/8/8/8/K6k w - - 0 1 | 0.5 | 0\nnot a position | 0.5 | 0\n",
    );
    let err = load_err(&[bad_text], false);
    assert!(err.contains("bad.txt:2: invalid FEN"), "{err}");

    let mut cut = good.clone();
    cut.truncate(cut.len() - 5);
    let cut = write(dir.path(), "cut.bin", &cut);
    let err = load_err(&[cut], false);
    assert!(err.contains("cut.bin") && err.contains("27 bytes"), "{err}");

    let mut damaged = good.clone();
    damaged[3 * RECORD + 30] = 7; // record 4's result byte
    let damaged = write(dir.path(), "damaged.bin", &damaged);
    let err = load_err(&[damaged], false);
    assert!(
        err.contains("damaged.bin: record 4") && err.contains("result byte 7"),
        "{err}"
    );

    let unscored = games(1, 13);
    let mut bytes = Vec::new();
    for (i, (b, _, result)) in unscored[0].iter().enumerate() {
        let score = (i != 2).then_some(10);
        bytes.extend_from_slice(&packed::pack(b, *result, score));
    }
    let unscored = write(dir.path(), "unscored.bin", &bytes);
    let err = load_err(std::slice::from_ref(&unscored), true);
    assert!(
        err.contains("unscored.bin: record 3: no search score"),
        "{err}"
    );
    assert!(load(&[unscored], false, None, &mut |_| {}).is_ok());

    let empty = write(dir.path(), "empty.bin", &[]);
    assert!(matches!(
        load(&[empty], false, None, &mut |_| {}),
        Err(TrainError::Empty)
    ));
}

#[test]
fn a_run_refuses_another_hidden_size_before_reading_anything() {
    let dir = tempfile::tempdir().unwrap();
    let config = RunConfig {
        files: vec![dir.path().join("never-read.bin")],
        first: None,
        settings: Settings {
            hidden: 100,
            ..settings(100, 1)
        },
        scale: None,
        split: Split::EveryNthGame(20),
        threads: 1,
        out: dir.path().join("net.nnue"),
        replace: false,
        checkpoint_dir: dir.path().join("checkpoints"),
        resume: None,
    };
    let err = run(&config).unwrap_err();
    assert!(
        matches!(err, TrainError::WrongHidden { given: 100 }),
        "{err}"
    );
    assert!(err.to_string().contains("--hidden 100"));
}
