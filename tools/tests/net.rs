//! `shears net` through the built binary, on a repository made here: a
//! net trained by a manifest entry's command is listed and shown, `verify`
//! makes it again byte for byte in a folder of its own, says when the kept
//! file holds the same net in another file or another net (exit 1), and
//! refuses a work folder that exists or missing data (exit 2); `set-model`
//! writes a model and refuses coefficients that are none.

mod common;

use std::path::Path;

use common::data::datagen;
use common::{run_cli, text};
use shears_tools::data::stats::sha256_file;

/// The test net's command (from the repository's root).
const COMMAND: &str = "shears train data/tiny.games --hidden 32 --epochs 2 --batch-size 256 \
                       --threads 1 --val-every-games 5 --out data/tiny.nnue";

/// The manifest of one net, `nets/tiny.nnue`, of `sha256` and `bytes`.
fn manifest(sha256: &str, bytes: u64) -> String {
    format!(
        r#"[[net]]
name = "tiny"
file = "tiny.nnue"
sha256 = "{sha256}"
bytes = {bytes}
version = 3
width = 32
layout = "plain"
data = [{{ set = "t30", positions = 1 }}]
command = "{COMMAND}"
commit = "0123abc"
held_out_loss = 0.1
held_out_loss_quantised = 0.1
adopted = "made by the test"
log = "docs/strength.md#nowhere"
score_model = "the trainer's"
"#
    )
}

/// Writes the manifest for the kept file as it is now.
fn describe_kept(root: &Path) {
    let kept = root.join("nets/tiny.nnue");
    let sha = sha256_file(&kept).unwrap();
    let bytes = std::fs::metadata(&kept).unwrap().len();
    std::fs::write(root.join("docs/nets/manifest.toml"), manifest(&sha, bytes)).unwrap();
}

/// `shears net verify tiny` in `root` into `work`, with `extra`.
fn verify(root: &Path, work: &str, extra: &[&str]) -> (Option<i32>, String) {
    let mut args = vec![
        "net",
        "verify",
        "tiny",
        "--manifest",
        "docs/nets/manifest.toml",
        "--work-dir",
        work,
    ];
    args.extend_from_slice(extra);
    let out = run_cli(root, &args);
    (
        out.status.code(),
        format!("{}{}", text(&out.stdout), text(&out.stderr)),
    )
}

#[test]
fn a_manifest_net_is_listed_shown_and_made_again() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for folder in ["data", "nets", "docs/nets"] {
        std::fs::create_dir_all(root.join(folder)).unwrap();
    }
    datagen(root, "data/tiny.games", "30", "1", &[]);
    let words: Vec<&str> = COMMAND.split_whitespace().skip(1).collect();
    let trained = run_cli(root, &words);
    assert!(trained.status.success(), "{}", text(&trained.stderr));
    std::fs::copy(root.join("data/tiny.nnue"), root.join("nets/tiny.nnue")).unwrap();
    describe_kept(root);
    let sha = sha256_file(&root.join("nets/tiny.nnue")).unwrap();

    // Listed and shown.
    let list = run_cli(
        root,
        &["net", "list", "--manifest", "docs/nets/manifest.toml"],
    );
    let listed = text(&list.stdout);
    assert!(list.status.success(), "{}", text(&list.stderr));
    assert!(
        listed.starts_with("tiny ") && listed.contains(&sha[..12]),
        "{listed}"
    );
    let show = run_cli(
        root,
        &[
            "net",
            "show",
            "tiny",
            "--manifest",
            "docs/nets/manifest.toml",
        ],
    );
    let shown = text(&show.stdout);
    for line in [
        &format!("sha256: {sha}"),
        "version: 3",
        "width: 32",
        "manifest: tiny",
    ] {
        assert!(shown.contains(line), "{line:?} not in\n{shown}");
    }

    // Made again: the same file, byte for byte; the checkpoints gone.
    let (code, said) = verify(root, "work", &[]);
    assert_eq!(code, Some(0), "{said}");
    assert!(
        said.contains("tiny: the same file as the manifest's, byte for byte"),
        "{said}"
    );
    assert_eq!(sha256_file(&root.join("work/tiny.nnue")).unwrap(), sha);
    assert!(!root.join("work/checkpoints").exists());
    // A work folder that exists is never written into.
    let (code, said) = verify(root, "work", &[]);
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("work exists"), "{said}");

    // The kept file with the same weights and another score model.
    let set = run_cli(
        root,
        &[
            "net",
            "set-model",
            "nets/tiny.nnue",
            "--a=0,0,0,120",
            "--b",
            "0,0,0,60",
        ],
    );
    assert!(set.status.success(), "{}", text(&set.stderr));
    describe_kept(root);
    let (code, said) = verify(root, "work2", &[]);
    assert_eq!(code, Some(0), "{said}");
    assert!(
        said.contains("tiny: the same net as") && said.contains("score model"),
        "{said}"
    );

    // Another net in its place: another seed's weights.
    let other = run_cli(
        root,
        &[
            "train",
            "data/tiny.games",
            "--hidden",
            "32",
            "--epochs",
            "2",
            "--threads",
            "1",
            "--seed",
            "2",
            "--out",
            "nets/tiny.nnue",
            "--force",
        ],
    );
    assert!(other.status.success(), "{}", text(&other.stderr));
    describe_kept(root);
    let (code, said) = verify(root, "work3", &[]);
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("tiny: another net: "), "{said}");

    // Missing data names its set; --data-dir finds it by name.
    std::fs::create_dir(root.join("elsewhere")).unwrap();
    std::fs::rename(
        root.join("data/tiny.games"),
        root.join("elsewhere/tiny.games"),
    )
    .unwrap();
    let (code, said) = verify(root, "work4", &[]);
    assert_eq!(code, Some(2), "{said}");
    assert!(
        said.contains("no such data file (the set t30 of the data manifest"),
        "{said}"
    );
    assert!(
        !root.join("work4").exists(),
        "nothing made without the data"
    );
    let (code, said) = verify(root, "work5", &["--data-dir", "elsewhere"]);
    assert_eq!(code, Some(1), "{said}");
}

#[test]
fn bad_net_commands_exit_2_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::write(root.join("junk.nnue"), b"not a net").unwrap();
    for (args, reason) in [
        (vec!["net", "show", "junk.nnue"], "not a Shears net file"),
        (
            vec!["net", "set-model", "junk.nnue", "--none"],
            "not a Shears net file",
        ),
        (
            vec![
                "net",
                "set-model",
                "junk.nnue",
                "--a=0,0,0,0",
                "--b=0,0,0,50",
            ],
            "--a/--b: score model's a is 0.000 cp",
        ),
        (
            vec!["net", "set-model", "junk.nnue", "--a=1,2,3", "--b=1,2,3,4"],
            "has 3 numbers, not four",
        ),
        (
            vec!["net", "verify", "nope", "--manifest", "missing.toml"],
            "missing.toml",
        ),
    ] {
        let out = run_cli(root, &args);
        let said = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {said}");
        assert!(said.contains(reason), "{args:?}: {said}");
    }
    assert_eq!(std::fs::read(root.join("junk.nnue")).unwrap(), b"not a net");
}
