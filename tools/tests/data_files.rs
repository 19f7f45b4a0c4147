//! Files the data commands must not lose or mistake, through the built
//! binary: `datagen` writes game files only and never over a file that is
//! not its own (the refused file's bytes unchanged); `data verify` finds
//! its manifest from anywhere and says when only a header's build string
//! differs; `--version` names the build the headers record.

mod common;

use std::path::PathBuf;

use common::data::{datagen, read};
use common::{run_cli, text};

#[test]
fn datagen_writes_game_files_only_and_never_over_a_file_not_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let run = |file: &str| {
        run_cli(
            d,
            &[
                "datagen",
                file,
                "--games",
                "2",
                "--nodes",
                "300",
                "--threads",
                "1",
            ],
        )
    };
    // Another name than .games: refused, naming the way to such a file,
    // whether the file exists or not.
    let junk = b"29 bytes of somebody's notes\n";
    for name in ["jb.bin", "jt.txt"] {
        std::fs::write(d.join(name), junk).unwrap();
        let out = run(name);
        assert_eq!(out.status.code(), Some(2), "{name}");
        let err = text(&out.stderr);
        let stem = name.split('.').next().unwrap();
        assert!(
            err.contains(&format!("{name}: datagen writes game files only")),
            "{err}"
        );
        assert!(
            err.contains(&format!("shears data convert {stem}.games {name}")),
            "{err}"
        );
        assert_eq!(read(d, name), junk, "{name} is kept byte for byte");
    }
    let out = run("new.bin");
    assert_eq!(out.status.code(), Some(2));
    assert!(!d.join("new.bin").exists());
    // A .games file that is not a game file of datagen's: refused, kept.
    std::fs::write(d.join("junk.games"), junk).unwrap();
    let out = run("junk.games");
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("junk.games is not a game file datagen can append to"),
        "{err}"
    );
    assert!(err.contains("give datagen a new file name"), "{err}");
    assert_eq!(read(d, "junk.games"), junk);
    // A game file of from-pgn is not datagen's own either.
    let pgn =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/fastchess/selfplay.pgn");
    let out = run_cli(
        d,
        &["data", "from-pgn", "pgn.games", &pgn.display().to_string()],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let before = read(d, "pgn.games");
    let out = run("pgn.games");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("source: "),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(read(d, "pgn.games"), before);
}

#[test]
fn version_names_the_build_the_game_headers_record() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = run_cli(d, &["--version"]);
    assert!(out.status.success());
    let version = text(&out.stdout);
    let build = version
        .trim_end()
        .strip_prefix("shears ")
        .unwrap_or_else(|| panic!("{version}"));
    // `0.1.0 4f179d7`, `0.1.0 4f179d7-dirty`, or `0.1.0 unknown` outside git.
    let (crate_version, commit) = build.split_once(' ').unwrap_or_else(|| panic!("{version}"));
    assert_eq!(crate_version, env!("CARGO_PKG_VERSION"));
    let hash = commit.strip_suffix("-dirty").unwrap_or(commit);
    assert!(
        hash == "unknown" || (hash.len() == 7 && hash.chars().all(|c| c.is_ascii_hexdigit())),
        "{version}"
    );
    datagen(d, "g.games", "1", "1", &[]);
    let out = run_cli(d, &["data", "stats", "g.games"]);
    assert!(
        text(&out.stdout).contains(&format!("  build = \"{build}\"\n")),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn data_verify_finds_the_manifest_from_anywhere_and_says_when_only_the_build_differs() {
    use shears_tools::data::format::header::Header;
    use shears_tools::data::stats::stats;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    datagen(d, "g.games", "2", "1", &[]);
    // No manifest here or above: the one beside the sources.
    let out = run_cli(d, &["data", "verify", "g.games"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("docs/data/manifest.toml has the file name of g.games"),
        "{err}"
    );
    let out = run_cli(
        d,
        &["data", "verify", "g.games", "--manifest", "missing.toml"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("missing.toml: "),
        "{}",
        text(&out.stderr)
    );

    // The set as another build made it: the same games, another build
    // string in the header.
    let bytes = read(d, "g.games");
    let header = Header::read(&mut bytes.as_slice()).unwrap().unwrap();
    let theirs = header.with_setting("build", &"0.1.0 abcdef1".into());
    let mut set = theirs.to_bytes();
    set.extend_from_slice(&bytes[header.len() as usize..]);
    std::fs::write(d.join("set.games"), &set).unwrap();
    let facts = stats(&d.join("set.games")).unwrap();
    let manifest = format!(
        "[[set]]\nname = \"g\"\nfile = \"g.games\"\nlocation = \"data/g.games\"\n\
         format = \"games\"\ncommit = \"abcdef1\"\ncommand = \"shears datagen data/g.games\"\n\
         seed = 11\ngames = {}\npositions = {}\nkept = {}\nbytes = {}\nsha256 = \"{}\"\n",
        facts.games, facts.positions, facts.kept, facts.bytes, facts.sha256
    );
    std::fs::create_dir_all(d.join("docs/data")).unwrap();
    std::fs::write(d.join("docs/data/manifest.toml"), manifest).unwrap();
    std::fs::create_dir_all(d.join("deep/below")).unwrap();
    // From a folder below: the work tree's manifest.
    let out = run_cli(&d.join("deep/below"), &["data", "verify", "../../g.games"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("only the header's build string differs: \"0.1.0 "),
        "{stdout}"
    );
    assert!(
        stdout.contains("\"0.1.0 abcdef1\" in the set; every game is the same"),
        "{stdout}"
    );
    let out = run_cli(d, &["data", "verify", "set.games", "--set", "g"]);
    assert!(out.status.success(), "{}", text(&out.stdout));
    assert!(text(&out.stdout).contains("set.games: the set g (commit abcdef1)"));
    // A game that differs is not only the build.
    let mut other = bytes.clone();
    let last = other.len() - 6;
    other[last] ^= 1;
    std::fs::write(d.join("other.games"), &other).unwrap();
    let out = run_cli(d, &["data", "verify", "other.games", "--set", "g"]);
    assert_ne!(out.status.code(), Some(0));
    assert!(!text(&out.stdout).contains("every game is the same"));
}
