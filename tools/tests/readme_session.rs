//! The README's short session, taken from README.md as written and sent
//! whole, as a user pasting it into a terminal would (the input stays
//! open): it must reach the depth it asks for and answer a legal move.

mod common;

use common::{Engine, go_answered, parse_info, play_line};
use shears::chess::Position;

/// The heading line the session follows in README.md.
const LEAD_IN: &str = "A short session";

/// The lines of the first fenced block after [`LEAD_IN`] in README.md.
fn readme_session() -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md");
    let readme = std::fs::read_to_string(path).expect("README.md is readable");
    let after = readme
        .split_once(LEAD_IN)
        .unwrap_or_else(|| panic!("README.md has no {LEAD_IN:?}"))
        .1;
    let mut blocks = after.split("```").skip(1);
    let block = blocks.next().expect("a fenced block after the lead-in");
    // The fence's own line (with any language tag) ends at its newline.
    let body = block.split_once('\n').map_or("", |(_, body)| body);
    body.lines().map(str::to_owned).collect()
}

#[test]
fn the_readme_session_pasted_whole_reaches_its_depth() {
    let session = readme_session();
    assert!(!session.is_empty(), "the README's session is empty");
    let go = session
        .iter()
        .find(|l| l.starts_with("go "))
        .expect("the session has a go");
    let depth: u64 = go
        .strip_prefix("go depth ")
        .and_then(|d| d.parse().ok())
        .expect("the session's go is go depth N");
    let moves: Vec<String> = session
        .iter()
        .find_map(|l| l.strip_prefix("position startpos moves "))
        .map(|m| m.split(' ').map(str::to_owned).collect())
        .unwrap_or_default();

    let mut e = Engine::spawn();
    // Pasted whole: every line at once, the input left open.
    e.send(&session.join("\n"));
    let lines = e.read_until(|l| l.starts_with("bestmove"));
    for expected in ["uciok", "readyok"] {
        assert!(lines.iter().any(|l| l == expected), "{expected}: {lines:?}");
    }
    let deepest = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .filter_map(|l| parse_info(l).ok()?.depth)
        .max();
    assert_eq!(deepest, Some(depth), "{lines:?}");
    let best = lines
        .last()
        .and_then(|l| l.split(' ').nth(1))
        .expect("a bestmove with a move");
    let position = play_line(&Position::startpos(), &moves, false).expect("legal moves");
    play_line(&position, &[best.to_owned()], false).expect("a legal bestmove");
    // The session leaves the engine running and ready, as the README says:
    // quit is typed after bestmove.
    go_answered(&mut e, &position, "go depth 1", &[]);
    e.send("quit");
    let (status, rest, _) = e.wait_exit();
    assert!(status.success() && rest.is_empty(), "{status} {rest:?}");
}

/// README.md and docs/nnue.md, joined onto one line each.
fn doc(path: &str) -> String {
    let path = format!("{}/../{path}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn the_readme_says_what_a_refused_position_leaves_as_the_engine_does() {
    // What the README promises of bad input.
    let readme = doc("README.md");
    assert!(!readme.contains("changes nothing"), "README.md");
    assert!(
        readme.contains(
            "after a refused `position` the engine has no position the GUI has: until one is \
             accepted, every `go` answers `bestmove 0000`"
        ),
        "README.md"
    );
    // And what the engine does.
    let mut e = Engine::spawn();
    e.send("position startpos moves e2e4");
    e.send("setoption name Hash value 0");
    e.send("position startpos moves e7e5 e1e8");
    let refused = e.sync();
    assert_eq!(refused.len(), 2, "one error a bad line: {refused:?}");
    for _ in 0..2 {
        e.send("go depth 2");
        let lines = e.read_until_bestmove();
        assert_eq!(
            lines.last().map(String::as_str),
            Some("bestmove 0000"),
            "{lines:?}"
        );
    }
    e.send("position startpos");
    e.send("go depth 2");
    let lines = e.read_until_bestmove();
    assert_ne!(
        lines.last().map(String::as_str),
        Some("bestmove 0000"),
        "{lines:?}"
    );
    assert!(e.shutdown().is_empty());
    // docs/nnue.md says train reads every format (tools/tests/train_net.rs
    // trains the same net from each).
    let nnue = doc("docs/nnue.md");
    assert!(!nnue.contains("Packed files only"), "docs/nnue.md");
    assert!(nnue.contains("All three formats"), "docs/nnue.md");
}
