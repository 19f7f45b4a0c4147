//! Evaluation symmetry on every position of the public suites: a position
//! and its colour-mirrored twin (ranks flipped, colours, side to move,
//! castling rights and en passant square swapped) evaluate the same from
//! the side to move's point of view: by the hand-crafted evaluation, and by
//! the built-in net through the search's interface.
//!
//! The suites are read from the repository (`tests/data/suites/` and the
//! perft suites in `perft/`) and, when it exists, from every `.epd` file in
//! the shared folder `../shared/suites` (a file there replaces the
//! repository's copy of the same name). Only blank lines and `#` comments
//! are skipped; any other line that is not a position fails the test.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use shakmaty::fen::Fen;
use shakmaty::{EnPassantMode, Position as _};

use shears::chess::{Position, fen_needs_chess960};
use shears::eval::{
    EvalState, Evaluation, Evaluator, LoadedNet, PawnCache, evaluate, evaluate_cached,
};

/// The suite files by name: the repository's copies, then the shared ones.
fn suite_files() -> BTreeMap<String, PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = BTreeMap::new();
    for dir in [
        root.join("tests/data/suites"),
        root.join("perft"),
        root.join("../shared/suites"),
    ] {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries {
            let path = entry.expect("reading a suite folder").path();
            if path.extension().is_some_and(|e| e == "epd") {
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                files.insert(name, path);
            }
        }
    }
    files
}

/// The FEN of a suite line: EPD (`<4 fields> op; op; …`) or perft
/// (`<FEN> ;D1 n ;D2 n …`); the first four fields either way.
fn line_fen(line: &str) -> String {
    let before_ops = line.split(';').next().unwrap_or("");
    before_ops
        .split_whitespace()
        .take(4)
        .collect::<Vec<_>>()
        .join(" ")
}

fn mirror(pos: &Position, chess960: bool) -> Position {
    let mut setup = pos.board().to_setup(EnPassantMode::Legal);
    setup.mirror();
    let fen = Fen::try_from_setup(setup)
        .expect("a mirrored position has a FEN")
        .to_string();
    Position::from_fen(&fen, chess960)
        .unwrap_or_else(|e| panic!("mirrored FEN {fen} does not load: {e}"))
}

/// Every position of the suites (at least the expected files) with its
/// colour-mirrored twin, named `file:line`.
fn suite_pairs() -> Vec<(String, Position, Position)> {
    let files = suite_files();
    for expected in [
        "arasan2024.epd",
        "bk.epd",
        "cpw_perft.epd",
        "ecm.epd",
        "fischer960_perft.epd",
        "kaufman.epd",
        "perftsuite.epd",
        "sts1-15.epd",
        "wac.epd",
        "wac_viridithas.epd",
    ] {
        assert!(files.contains_key(expected), "{expected} is missing");
    }
    let (mut pairs, mut skipped) = (Vec::new(), 0);
    for (name, path) in &files {
        let text = std::fs::read_to_string(path)
            .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                skipped += 1;
                continue;
            }
            let fen = line_fen(line);
            let chess960 = fen_needs_chess960(&fen);
            let pos = Position::from_fen(&fen, chess960)
                .unwrap_or_else(|e| panic!("{name}:{}: not a position: {e}", n + 1));
            let twin = mirror(&pos, chess960);
            pairs.push((format!("{name}:{}", n + 1), pos, twin));
        }
    }
    println!(
        "{} positions in {} files, {skipped} blank or comment lines",
        pairs.len(),
        files.len()
    );
    assert!(pairs.len() >= 4300, "only {} positions read", pairs.len());
    pairs
}

#[test]
fn mirrored_suite_positions_have_same_eval() {
    let mut cache = PawnCache::new();
    for (at, pos, twin) in suite_pairs() {
        let (a, b) = (evaluate(pos.board()), evaluate(twin.board()));
        assert_eq!(a, b, "{at}: {} vs {}", pos.fen(), twin.fen());
        assert_eq!(evaluate_cached(pos.board(), &mut cache), a);
        assert_eq!(evaluate_cached(twin.board(), &mut cache), b);
    }
}

/// The built-in net, through the interface the search calls (a fresh
/// evaluator at each position, as at a search's root), and from scratch.
#[test]
fn mirrored_suite_positions_have_same_net_eval() {
    let net = Evaluation::Net(LoadedNet::built_in().expect("the built-in net loads"));
    let mut state = EvalState::default();
    for (at, pos, twin) in suite_pairs() {
        let a = Evaluator::new(&mut state, &net, &pos).evaluate(&pos);
        let b = Evaluator::new(&mut state, &net, &twin).evaluate(&twin);
        assert_eq!(a, b, "{at}: {} vs {}", pos.fen(), twin.fen());
        assert_eq!(net.evaluate(pos.board()), a, "{at}");
    }
}
