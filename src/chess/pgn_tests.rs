//! Tests of the PGN reader (`pgn.rs`).

use super::*;

fn read(text: &str) -> Vec<PgnGame> {
    PgnReader::new(text.as_bytes())
        .map(|g| g.expect("reading from memory"))
        .collect()
}

fn sans(game: &PgnGame) -> Vec<&str> {
    game.moves.iter().map(|m| m.text.as_str()).collect()
}

#[test]
fn comments_variations_nags_and_numbers_leave_the_main_line() {
    let text = "% a line escape\n[Event \"t \\\"q\\\" \\\\\"]\n[Result \"0-1\"]\n\n\
                1.e4 $1 {a {comment} e5 ; rest of line\n\
                (1... c5 (1... e6 2. d4) 2. Nf3) 2. Nf3!? Nc6?? 3. 0-0 0-0-0 0-1\n";
    let games = read(text);
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert_eq!(g.error, None);
    assert_eq!(g.tag("Event"), Some("t \"q\" \\"));
    // The comment ends at its first "}": e5 is a move.
    assert_eq!(sans(g), ["e4", "e5", "Nf3", "Nc6", "O-O", "O-O-O"]);
    assert_eq!(g.termination, Some(GameResult::BlackWins));
    assert_eq!(g.result(), GameResult::BlackWins);
    assert_eq!(g.line, 2);
}

#[test]
fn the_comment_after_a_main_line_move_is_kept_with_it() {
    let text = "[Result \"1-0\"]\n\n{before any move} 1. e4 {+0.31/12 0.234s} {second}\n\
                e5 (1... c5 {in a variation} 2. Nf3) {book} 2. Nf3 $1 { -M3/9 0.1s, White wins } 1-0\n";
    let games = read(text);
    let comments: Vec<Option<&str>> = games[0]
        .moves
        .iter()
        .map(|m| m.comment.as_deref())
        .collect();
    assert_eq!(
        comments,
        [
            Some("+0.31/12 0.234s"),
            Some("book"),
            Some("-M3/9 0.1s, White wins")
        ]
    );
    let long = format!("1. e4 {{{}}} *\n", "x".repeat(MAX_COMMENT + 10));
    assert_eq!(
        read(&long)[0].moves[0].comment.as_ref().map(String::len),
        Some(MAX_COMMENT)
    );
}

#[test]
fn games_end_at_results_or_at_the_next_tags() {
    let text = "[Result \"1-0\"]\n1. e4 e5\n\n[Result \"*\"]\n1. d4 *\n1. c4 1/2-1/2\n\n1. f4";
    let games = read(text);
    assert_eq!(games.len(), 4);
    assert_eq!(games[0].termination, None);
    assert_eq!(games[0].result(), GameResult::WhiteWins);
    assert_eq!(sans(&games[1]), ["d4"]);
    assert_eq!(games[1].result(), GameResult::Unknown);
    assert_eq!(games[2].result(), GameResult::Draw);
    assert_eq!((games[3].number, games[3].line), (4, 8));
    assert_eq!(games[3].result(), GameResult::Unknown);
}

#[test]
fn syntax_errors_stay_with_their_game() {
    let text = "[White \"x\" \n1. e4 e5 1-0\n[Result \"1-0\"]\n1. d4 ) d5 1-0\n\
                1. e4 @ 1-0\n1. e4 (1. d4 1-0\n[Event \"next\"]\n1. c4 {open";
    let games = read(text);
    let errors: Vec<Option<&str>> = games.iter().map(|g| g.error.as_deref()).collect();
    assert_eq!(
        errors,
        [
            Some("line 1: malformed tag: no closing \"]\""),
            Some("line 4: \")\" closes no variation"),
            Some("line 5: unexpected \"@\""),
            Some("line 7: a variation \"(\" is never closed"),
            Some("line 8: comment \"{\" is never closed"),
        ]
    );
    assert_eq!(sans(&games[1]), ["d4", "d5"]);
    assert_eq!(games[4].tag("Event"), Some("next"));
}

/// Reads every game of `bytes`, plays each main line, and checks the
/// numbering; a panic or an endless loop fails the property.
fn read_all(bytes: &[u8]) -> Result<(), proptest::test_runner::TestCaseError> {
    let mut count = 0;
    for game in PgnReader::new(bytes) {
        let game = game.expect("reading from memory");
        count += 1;
        proptest::prop_assert_eq!(game.number, count);
        let _ = game.mainline(usize::MAX);
        let _ = (game.describe(), game.result());
    }
    proptest::prop_assert!(count <= bytes.len());
    Ok(())
}

const PIECES: &[&str] = &[
    "[",
    "]",
    "\"",
    "\\",
    "Result",
    "FEN",
    "Variant",
    " ",
    "\n",
    "\t",
    "1-0",
    "0-1",
    "1/2-1/2",
    "*",
    "1.",
    "2...",
    "e4",
    "e5",
    "Nf3",
    "O-O",
    "0-0-0",
    "exd6",
    "a8=Q",
    "--",
    "(",
    ")",
    "{",
    "}",
    ";",
    "%",
    "$14",
    "!?",
    "8/8/8/8/8/8/8/K1k5 w - - 0 1",
    "\u{bd}",
];

proptest::proptest! {
    #[test]
    fn any_bytes_are_read_without_panicking(
        bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..300)
    ) {
        read_all(&bytes)?;
    }

    #[test]
    fn any_pgn_like_text_is_read_without_panicking(
        pieces in proptest::collection::vec(proptest::sample::select(PIECES), 0..80)
    ) {
        read_all(pieces.concat().as_bytes())?;
    }
}

#[test]
fn the_main_line_is_played_and_bad_moves_are_named() {
    let games = read(
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n1. e4 e5 2. Ke3 *\n1. e4 e5 2. Xx9 *\n\
         [Variant \"Crazyhouse\"]\n1. e4 *\n\
         [FEN \"4k3/P7/8/8/8/8/8/4K3 w - - 0 1\"]\n1. a8=Q+ Kd7 *\n[FEN \"8/8 w\"]\n*\n",
    );
    let (_, moves) = games[0].mainline(usize::MAX).unwrap();
    assert_eq!(moves.len(), 6);
    assert_eq!(games[0].mainline(3).unwrap().1.len(), 3);
    let e = games[1].mainline(usize::MAX).unwrap_err();
    assert!(e.starts_with("ply 3 \"Ke3\" (line 2) is illegal"), "{e}");
    // Moves past the limit are not looked at.
    assert_eq!(games[1].mainline(2).unwrap().1.len(), 2);
    let e = games[2].mainline(usize::MAX).unwrap_err();
    assert_eq!(e, "ply 3 \"Xx9\" (line 3) is not a SAN move");
    let e = games[3].mainline(9).unwrap_err();
    assert!(e.contains("variant \"crazyhouse\""), "{e}");
    let (start, moves) = games[4].mainline(9).unwrap();
    assert_eq!(moves.len(), 2);
    assert_eq!(start.board().occupied().count(), 3);
    assert!(games[5].mainline(9).unwrap_err().starts_with("bad FEN tag"));
    assert_eq!(games[5].describe(), "game 6 (line 8)");
}
