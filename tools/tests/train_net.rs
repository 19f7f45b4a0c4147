//! `shears train` through the built binary: a short run on a small packed
//! file writes checkpoints and a net the engine loads, resumes from a
//! checkpoint, and refuses bad input with a message and exit code 2.

mod common;

use std::path::Path;
use std::process::Output;

use common::{run_cli, text};
use shakmaty::{Chess, Color, Position as _};
use shears::chess::Position;
use shears::chess::random::RandomGame;
use shears::eval::nnue::NetFile;
use shears_tools::data::format::packed;

/// A packed file of `games` seeded random games, each position labelled
/// with its material balance (White's view) and the game's final balance.
fn data_file(path: &Path, games: u64) {
    let material = |b: &Chess| -> i32 {
        b.board()
            .iter()
            .map(|(_, p)| {
                let v = [100, 300, 300, 500, 900, 0][p.role as usize - 1];
                if p.color == Color::White { v } else { -v }
            })
            .sum()
    };
    let mut bytes = Vec::new();
    for g in 0..games {
        let mut game = RandomGame::new(Position::startpos(), 77 + g);
        let mut boards = Vec::new();
        while game.plies() < 80 && game.step() {
            boards.push(game.position().board().clone());
        }
        let end = boards.last().map_or(0, material);
        let result = if end > 0 {
            1.0
        } else if end < 0 {
            0.0
        } else {
            0.5
        };
        for b in &boards[8..] {
            bytes.extend_from_slice(&packed::pack(b, result, Some(material(b))));
        }
        bytes.extend_from_slice(&packed::pack_game_end(g, result, boards.len() as u32));
    }
    std::fs::write(path, bytes).unwrap();
}

fn train(dir: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "train",
        "data.bin",
        "--batch-size",
        "256",
        "--threads",
        "1",
        "--val-every-games",
        "4",
        "--checkpoint-dir",
        "ck",
    ];
    args.extend_from_slice(extra);
    run_cli(dir, &args)
}

#[test]
fn a_short_run_writes_checkpoints_and_a_net_the_engine_loads_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    data_file(&dir.path().join("data.bin"), 12);
    let out = train(dir.path(), &["--epochs", "2", "--out", "nets/a.nnue"]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}{}", stdout, text(&out.stderr));
    for expected in [
        "in 12 games from 1 file",
        "(9 games), ",
        "(3 games, --val-every-games 4)",
        "K = ",
        "epoch 0: held-out loss",
        "epoch 1/2: train loss",
        "epoch 2/2: train loss",
        "positions/s",
        "net written to nets/a.nnue (394872 bytes)",
        "quantised against float on ",
        // 864 positions: too few for a score model.
        "no score model: 864 positions, fewer than the 1000 a fit needs",
    ] {
        assert!(stdout.contains(expected), "{expected:?} not in:\n{stdout}");
    }
    let file = NetFile::load(&dir.path().join("nets/a.nnue")).unwrap();
    assert_eq!(file.model, None);
    let net = file.net;
    assert!(dir.path().join("ck/epoch-0001.ckpt").exists());
    assert!(dir.path().join("ck/epoch-0002.ckpt").exists());

    // One more epoch from the second checkpoint.
    let out = train(
        dir.path(),
        &[
            "--epochs",
            "3",
            "--out",
            "b.nnue",
            "--resume",
            "ck/epoch-0002.ckpt",
        ],
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}{}", stdout, text(&out.stderr));
    assert!(stdout.contains("resuming after epoch 2"), "{stdout}");
    assert!(stdout.contains("epoch 3/3: train loss"), "{stdout}");
    assert!(!stdout.contains("epoch 2/"), "{stdout}");
    assert!(dir.path().join("ck/epoch-0003.ckpt").exists());
    assert_ne!(NetFile::load(&dir.path().join("b.nnue")).unwrap().net, net);

    // A checkpoint with as many epochs as asked for is exported as it is.
    let out = train(
        dir.path(),
        &[
            "--epochs",
            "2",
            "--out",
            "c.nnue",
            "--resume",
            "ck/epoch-0002.ckpt",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(!text(&out.stdout).contains("train loss"));
    assert_eq!(NetFile::load(&dir.path().join("c.nnue")).unwrap().net, net);
}

#[test]
fn a_game_file_from_datagen_trains_through_its_quiet_filter() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_cli(
        dir.path(),
        &[
            "datagen",
            "g.games",
            "--games",
            "6",
            "--nodes",
            "300",
            "--threads",
            "1",
            "--hce",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    // One epoch on the games, every 3rd held out.
    let train_games = |extra: &[&str]| {
        let mut args = vec!["train", "g.games", "--threads", "1"];
        args.extend_from_slice(extra);
        let out = run_cli(dir.path(), &args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    let stdout = train_games(&[
        "--epochs",
        "1",
        "--batch-size",
        "64",
        "--val-every-games",
        "3",
        "--out",
        "g.nnue",
    ]);
    assert!(stdout.contains("in 6 games from 1 file"), "{stdout}");
    NetFile::load(&dir.path().join("g.nnue")).unwrap();
    // The first 100 positions: the game they cut counts as one.
    let stdout = train_games(&[
        "--epochs",
        "1",
        "--batch-size",
        "64",
        "--val-every-games",
        "2",
        "--positions",
        "100",
        "--out",
        "p.nnue",
    ]);
    assert!(
        stdout.contains("the first 100 positions of the data (--positions 100)\n100 positions in "),
        "{stdout}"
    );
    // Its packed and text twins (`data convert`) train the same net.
    let net = std::fs::read(dir.path().join("g.nnue")).unwrap();
    for twin in ["g.bin", "g.txt"] {
        let out = run_cli(dir.path(), &["data", "convert", "g.games", twin]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let args = [
            "train",
            twin,
            "--epochs",
            "1",
            "--batch-size",
            "64",
            "--threads",
            "1",
            "--val-every-games",
            "3",
            "--checkpoint-dir",
            "ck",
            "--out",
            "twin.nnue",
            "--force",
        ];
        let out = run_cli(dir.path(), &args);
        assert!(out.status.success(), "{twin}: {}", text(&out.stderr));
        assert_eq!(
            std::fs::read(dir.path().join("twin.nnue")).unwrap(),
            net,
            "{twin}"
        );
    }
}

#[test]
fn bad_input_is_refused_with_a_message_and_exit_code_2() {
    let dir = tempfile::tempdir().unwrap();
    data_file(&dir.path().join("data.bin"), 4);
    std::fs::write(dir.path().join("data.txt"), "not packed\n").unwrap();
    std::fs::write(dir.path().join("bad.ckpt"), "SHEARSCK and then nothing").unwrap();
    let cases: [(&[&str], &str); 5] = [
        (&["train", "missing.bin"], "missing.bin: No such file"),
        (
            &["train", "data.bin", "--hidden", "100"],
            "--hidden 100: the engine plays nets of 32, 64, 128, 256 or 512 hidden neurons",
        ),
        (
            &["train", "data.txt"],
            "data.txt:1: expected `<fen> | <result>",
        ),
        (
            &["train", "data.bin", "--resume", "bad.ckpt"],
            "checkpoint bad.ckpt: cut short",
        ),
        (
            &["train", "data.bin", "--val-every-games", "9"],
            "4 games in the data; --val-every-games 9 holds out 0 of them",
        ),
    ];
    for (args, expected) in cases {
        let out = run_cli(dir.path(), args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
    // Options out of range are clap's errors (exit 2 too).
    for args in [
        &["train", "data.bin", "--lambda", "1.5"][..],
        &["train", "data.bin", "--lr", "0"],
        &[
            "train",
            "data.bin",
            "--val-percent",
            "5",
            "--val-every-games",
            "5",
        ],
    ] {
        let out = run_cli(dir.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
    assert!(!dir.path().join("data").exists(), "nothing was written");
}

#[test]
fn an_existing_net_is_replaced_only_when_asked_and_only_by_a_trained_net() {
    let dir = tempfile::tempdir().unwrap();
    data_file(&dir.path().join("data.bin"), 12);
    let old = b"the previous net, not to be lost".to_vec();
    let net = dir.path().join("old.nnue");
    std::fs::write(&net, &old).unwrap();
    let refused = |extra: &[&str], expected: &str| {
        let out = train(dir.path(), extra);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {stderr}");
        assert!(stderr.contains(expected), "{extra:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{extra:?}: {stderr}");
        assert_eq!(std::fs::read(&net).unwrap(), old, "{extra:?}");
    };
    refused(
        &["--epochs", "1", "--out", "old.nnue"],
        "old.nnue: the net file exists; give --force to replace it",
    );
    refused(&["--epochs", "0", "--out", "old.nnue", "--force"], "0");
    // A learning rate that diverges ends with an error, not a net.
    refused(
        &[
            "--epochs", "3", "--lr", "1e9", "--out", "old.nnue", "--force",
        ],
        "no net was written: try a lower --lr",
    );
    let out = train(
        dir.path(),
        &["--epochs", "1", "--out", "old.nnue", "--force"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    NetFile::load(&net).unwrap();
    let left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.contains("tmp"))
        .collect();
    assert!(left.is_empty(), "temporary files left: {left:?}");
}
