//! What GUIs really send, through the real binary (issue 35): every `go` is
//! answered with exactly one `bestmove` (a legal move, or `0000` when there
//! is no legal move or no position), `go` values a GUI may send (negative
//! clocks, numbers beyond 64 bits, bad `searchmoves`) are read as Stockfish
//! reads them with a warning, board-editor FENs with stale castling rights
//! load, and after a refused `position` no `go` searches a position the GUI
//! no longer has.

mod common;

use common::{Engine, NET_NEWS, count_bestmoves, go_answered, parse_bestmove, play_line};
use shears::chess::Position;

#[test]
fn a_negative_clock_is_read_as_zero_and_the_side_still_moves() {
    let mut e = Engine::spawn();
    e.set_position("position startpos moves g1f3 g7g6");
    let pos = play_line(
        &Position::startpos(),
        &["g1f3".to_owned(), "g7g6".to_owned()],
        false,
    )
    .unwrap();
    // The report's line (Black's clock ran out), with White's 165,661 ms
    // cut to 16,566: White thinks on its own clock, and with the whole of
    // it a settled search may rightly take longer than the test's wait.
    go_answered(
        &mut e,
        &pos,
        "go wtime 16566 btime -170671 winc 2000 binc 2000",
        &["go: btime -170671 is negative, read as 0"],
    );
    // The side to move has no time left (Cute Chess with timemargin): it
    // still moves, at once.
    e.set_position("position startpos moves g1f3 g7g6 b1c3");
    let pos = play_line(&pos, &["b1c3".to_owned()], false).unwrap();
    go_answered(
        &mut e,
        &pos,
        "go wtime 1000 btime -20 winc -5 binc 0",
        &[
            "go: btime -20 is negative, read as 0",
            "go: winc -5 is negative, read as 0",
        ],
    );
    assert!(e.shutdown().is_empty());
}

#[test]
fn every_go_that_cannot_be_honoured_as_written_still_gets_its_bestmove() {
    let mut e = Engine::spawn();
    let start = Position::startpos();
    let cases: &[(&str, &[&str])] = &[
        (
            "go movestogo -1 depth 3",
            &["go: movestogo -1 is negative, ignored"],
        ),
        (
            "go depth -3 nodes 2000",
            &["go: depth -3 is no search depth, read as 1"],
        ),
        (
            "go wtime 99999999999999999999999 btime 1000 depth 3",
            &["go: wtime 99999999999999999999999 is too large"],
        ),
        (
            "go nodes abc depth 2",
            &["go: nodes \"abc\" is not a number, ignored"],
        ),
        (
            "go banana depth 2",
            &["go: unknown parameter \"banana\" ignored"],
        ),
        ("go depth", &["go: depth needs a number"]),
        (
            "go searchmoves e2e5 depth 3",
            &[
                "go: searchmoves: illegal move \"e2e5\"",
                "go: no searchmoves move can be played here, searching every move",
            ],
        ),
        (
            "go searchmoves depth 3",
            &["go: searchmoves without a move, searching every move"],
        ),
    ];
    for (go, warnings) in cases {
        // `go depth` alone has no limit left: stop it.
        if *go == "go depth" {
            e.send(go);
            let first = e.recv();
            assert!(first.contains("go: depth needs a number"), "{first}");
            e.send("stop");
            let lines = e.read_until_bestmove();
            assert_eq!(count_bestmoves(&lines), 1);
            continue;
        }
        go_answered(&mut e, &start, go, warnings);
    }
    // A searchmoves list with one bad move searches the good ones only.
    let lines = go_answered(
        &mut e,
        &start,
        "go searchmoves a2a3 e2e5 depth 4",
        &["go: searchmoves: illegal move \"e2e5\""],
    );
    assert_eq!(lines.last().unwrap().split(' ').nth(1), Some("a2a3"));
    assert!(e.shutdown().is_empty());
}

#[test]
fn board_editor_fens_drop_impossible_castling_and_en_passant_with_a_warning() {
    let mut e = Engine::spawn();
    // A previous position whose best move is illegal in the next one.
    e.set_position("position startpos");
    e.send("position fen 4k3/8/8/8/8/8/4P3/4K3 w KQkq - 0 1");
    let said = e.sync();
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(
        said[0].starts_with("info string warning: position: castling rights \"KQkq\" dropped"),
        "{said:?}"
    );
    assert_eq!(e.fen(), "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    let pos = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false).unwrap();
    go_answered(&mut e, &pos, "go depth 4", &[]);

    // Only the rights without their rook go.
    e.send("position fen r3k3/8/8/8/8/8/8/4K2R w KQkq - 0 1");
    let said = e.sync();
    assert!(
        said[0].contains("castling rights \"Qk\" dropped"),
        "{said:?}"
    );
    assert_eq!(e.fen(), "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1");

    // An en passant square no pawn can have made.
    e.send("position fen 4k3/8/8/8/8/8/4P3/4K3 w - e6 0 1");
    let said = e.sync();
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].contains("en passant square e6 dropped"), "{said:?}");
    assert_eq!(e.fen(), "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    assert!(e.shutdown().is_empty());
}

#[test]
fn after_a_refused_position_go_answers_0000_until_one_is_accepted() {
    let mut e = Engine::spawn();
    e.set_position("position startpos moves e2e4");
    let bad = [
        "position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 99999999999999999999 1",
        "position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 99999999999",
        "position startpos moves e2e4 e7e5 e1e8",
        "position fen 8/8/8/8/8/8/8/K7 w - - 0 1",
    ];
    for line in bad {
        e.send(line);
        let said = e.sync();
        assert_eq!(said.len(), 1, "{line}: {said:?}");
        assert!(
            said[0].starts_with("info string error: position:"),
            "{said:?}"
        );
        e.send("go depth 5");
        let lines = e.read_until_bestmove();
        assert_eq!(lines.len(), 2, "{line}: {lines:?}");
        assert!(
            lines[0].starts_with("info string error: go: no position to search"),
            "{lines:?}"
        );
        assert_eq!(lines[1], "bestmove 0000");
    }
    // go infinite still waits for stop.
    e.send("go infinite");
    let first = e.recv();
    assert!(first.contains("no position to search"), "{first}");
    let early = e.collect_for(std::time::Duration::from_millis(300));
    assert!(early.is_empty(), "{early:?}");
    e.send("stop");
    assert_eq!(e.read_until_bestmove(), ["bestmove 0000"]);
    // d still shows the last accepted position, and says why go does not.
    e.send("d");
    let shown = e.read_until(|l| l.starts_with("Checkers:"));
    assert!(shown[0].starts_with("Refused: "), "{shown:?}");
    // Counters that fit are accepted, and the next go searches again.
    e.set_position("position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 4294967295 1");
    let pos = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false).unwrap();
    go_answered(&mut e, &pos, "go depth 3", &[]);
    assert!(e.shutdown().is_empty());
}

#[test]
fn own_book_without_a_book_file_says_why_once_a_game() {
    let mut e = Engine::spawn();
    e.set_position("setoption name OwnBook value true");
    e.set_position("position startpos");
    let start = Position::startpos();
    let said = |lines: &[String]| {
        lines
            .iter()
            .filter(|l| l.starts_with("info string no book move: "))
            .count()
    };
    e.send("go wtime 2000 btime 2000");
    let lines = e.read_until_bestmove();
    assert_eq!(said(&lines), 1, "{lines:?}");
    // First, after the name of the net the first search plays with.
    let first = lines.iter().find(|l| !l.starts_with(NET_NEWS)).unwrap();
    assert!(first.contains("no BookFile is loaded"), "{lines:?}");
    play_line(
        &start,
        &[parse_bestmove(lines.last().unwrap()).unwrap().0],
        false,
    )
    .unwrap();
    // Once a game: the next move is searched without the note.
    e.send("go wtime 2000 btime 2000");
    assert_eq!(said(&e.read_until_bestmove()), 0);
    // Analysis never asks the book: no note.
    e.send("ucinewgame");
    e.send("go depth 2");
    assert_eq!(said(&e.read_until_bestmove()), 0);
    // A new game is told again.
    e.send("go movetime 50");
    assert_eq!(said(&e.read_until_bestmove()), 1);
    assert!(e.shutdown().is_empty());
}
