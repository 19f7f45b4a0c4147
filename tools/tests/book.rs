//! The opening book through the real binary: `shears book make|show` and
//! the UCI options `OwnBook`, `BookFile`, `BookDepth`, `BookVariety` and
//! `BookSeed`.
//!
//! Most tests use books made here from the PGN files of tests/data/book,
//! whose weights are worked out by hand in the files' heads. The GNU Chess
//! book (Debian's gnuchess-book) plays a game's opening in
//! `a_game_starts_with_book_moves_of_the_gnu_chess_book`; where it is not
//! installed that test says so and passes, unless `SHEARS_REQUIRE_BOOKS` is
//! set (`.ci/run` sets it). The comparisons with python-chess and polyglot
//! make-book are in tests/client/polyglot_book.py.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use common::{Engine, is_bestmove, parse_bestmove, parse_info, run_cli, text};
use shakmaty::Chess;
use shears::book::Book;
use shears::book::format::{Entry, polyglot_key};
use shears::chess::{Position, move_to_uci};

const GNUCHESS_BOOK: &str = "/usr/share/games/gnuchess/book.bin";
/// A `go` that asks for a game move (the book answers those).
const GO_CLOCK: &str = "go wtime 3000 btime 3000";

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/book")
        .join(name)
}

/// Makes a book from tests/data/book/`pgn` with `--min-game 1`.
fn make_book(dir: &Path, pgn: &str) -> PathBuf {
    let out = dir.join(pgn.replace(".pgn", ".bin"));
    let made = run_cli(
        dir,
        &[
            "book",
            "make",
            data(pgn).to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--min-game",
            "1",
        ],
    );
    assert!(made.status.success(), "{}", text(&made.stderr));
    out
}

/// An engine with `OwnBook` on and `book` loaded.
fn engine_with_book(book: &Path, options: &[(&str, &str)]) -> Engine {
    let mut e = Engine::spawn();
    e.send("setoption name OwnBook value true");
    e.send(&format!("setoption name BookFile value {}", book.display()));
    for (name, value) in options {
        e.send(&format!("setoption name {name} value {value}"));
    }
    let said = e.sync();
    assert!(said.is_empty(), "the book options were refused: {said:?}");
    e
}

/// The answer to `go_line`: `Some((move, weight, share))` when it came from
/// the book (an `info string book move …` line right before `bestmove`,
/// naming the same move), `None` when it was searched.
fn answer(e: &mut Engine, go_line: &str) -> (String, Option<(u32, f64)>) {
    e.send(go_line);
    let lines = e.read_until_bestmove();
    let (best, _) = parse_bestmove(lines.last().unwrap()).expect("a bestmove line");
    let book_lines: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string book move "))
        .collect();
    if book_lines.is_empty() {
        assert!(
            lines
                .iter()
                .any(|l| parse_info(l).is_ok_and(|i| i.depth.is_some())),
            "neither a book move nor a search: {lines:?}"
        );
        return (best, None);
    }
    assert_eq!(lines.len(), 2, "a book answer is two lines: {lines:?}");
    // info string book move e2e4 (weight 12, share 40.0%)
    let parsed = book_lines[0]
        .strip_prefix("info string book move ")
        .and_then(|rest| rest.split_once(" (weight "))
        .and_then(|(mv, rest)| Some((mv, rest.split_once(", share ")?)))
        .and_then(|(mv, (weight, share))| {
            Some((
                mv,
                weight.parse().ok()?,
                share.strip_suffix("%)")?.parse().ok()?,
            ))
        });
    let Some((mv, weight, share)) = parsed else {
        panic!("a malformed book line: {:?}", book_lines[0]);
    };
    assert_eq!(mv, best, "the book line names the move played");
    (best, Some((weight, share)))
}

#[test]
fn uci_lists_the_book_options() {
    let mut e = Engine::spawn();
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    for option in [
        "option name OwnBook type check default false",
        "option name BookFile type string default <empty>",
        "option name BookDepth type spin default 255 min 0 max 1024",
        "option name BookVariety type check default true",
        "option name BookSeed type spin default 0 min 0 max 2147483647",
    ] {
        assert!(
            lines.iter().any(|l| l == option),
            "no {option:?} in {lines:?}"
        );
    }
    e.shutdown();
}

#[test]
fn book_make_and_show_give_the_weights_worked_out_by_hand() {
    let dir = tempfile::tempdir().unwrap();
    let book = make_book(dir.path(), "tiny.pgn");
    // 4 games: d4 5 at the start; g8f6 1 after 1. d4; c2c4 4 after 1. d4
    // d5 and 1 after 1. d4 Nf6; c7c5 2 after 1. e4: five entries.
    assert_eq!(std::fs::metadata(&book).unwrap().len(), 5 * 16);
    let show = run_cli(
        dir.path(),
        &["book", "show", book.to_str().unwrap(), "--moves", "d2d4"],
    );
    let out = text(&show.stdout);
    assert!(show.status.success(), "{out}");
    assert!(
        out.contains(": 1 moves, total weight 1\n  g8f6 weight 1 share 100.00% learn 0\n"),
        "{out}"
    );
    let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let show = run_cli(
        dir.path(),
        &[
            "book",
            "show",
            book.to_str().unwrap(),
            "--fen",
            start,
            "--fen",
            fen,
        ],
    );
    let out = text(&show.stdout);
    assert!(
        out.contains(
            "key 463b96181691fc9c: 1 moves, total weight 5\n  d2d4 weight 5 share 100.00%"
        ),
        "{out}"
    );
    assert!(
        out.contains("key 823c9b50fd114196: 1 moves, total weight 2\n  c7c5 weight 2"),
        "{out}"
    );
}

#[test]
fn book_make_skips_broken_games_naming_them_and_uses_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("tricky.bin");
    let made = run_cli(
        dir.path(),
        &[
            "book",
            "make",
            data("tricky.pgn").to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--min-game",
            "1",
        ],
    );
    let (stdout, stderr) = (text(&made.stdout), text(&made.stderr));
    assert!(made.status.success(), "{stderr}");
    assert!(stdout.contains("5 games, 3 used, 2 skipped"), "{stdout}");
    assert!(
        stderr.contains(
            "game 3 (line 26, Illegal - Move) skipped: ply 3 \"Ke3\" (line 31) is illegal"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            "game 4 (line 33, Broken - Syntax) skipped: line 38: \")\" closes no variation"
        ),
        "{stderr}"
    );
    let book = Book::open(&out).unwrap();
    // e2e4: a win (the Opera game) and an unknown result = 3. After 1. e4,
    // e7e5 lost (weight 0, left out) and c7c5 weighs 1.
    let start = Chess::default();
    let moves = book.moves(&start);
    assert_eq!(moves.moves.len(), 1);
    assert_eq!((moves.moves[0].weight, moves.total_weight()), (3, 3));
    // The Opera game's queen-side castling and the FEN game's promotion.
    let mut all = Vec::new();
    for e in book.entries() {
        all.push(e.raw_move);
    }
    let e1a1 = (4 << 6) as u16;
    let a7a8q = (4 << 12) | (48 << 6) | 56;
    assert!(all.contains(&e1a1) && all.contains(&a7a8q), "{all:?}");
}

#[test]
fn the_book_answers_a_timed_go_at_once_and_only_with_legal_weighted_moves() {
    let dir = tempfile::tempdir().unwrap();
    let book = make_book(dir.path(), "tiny.pgn");
    let mut e = engine_with_book(&book, &[("BookVariety", "false")]);
    e.set_position("position startpos");
    assert_eq!(
        answer(&mut e, GO_CLOCK),
        ("d2d4".to_owned(), Some((5, 100.0)))
    );
    e.set_position("position startpos moves d2d4");
    assert_eq!(
        answer(&mut e, "go movetime 100"),
        ("g8f6".to_owned(), Some((1, 100.0)))
    );
    // d7d5 weighs 0 after 1. d4 (Black lost both games); after 1. d4 d5
    // the book has c2c4.
    e.set_position("position startpos moves d2d4 d7d5");
    assert_eq!(answer(&mut e, GO_CLOCK).1, Some((4, 100.0)));
    // Out of the book: a search.
    e.set_position("position startpos moves g1f3");
    assert_eq!(answer(&mut e, GO_CLOCK).1, None);
    // Analysis searches: depth, nodes, mate, searchmoves, a bare go.
    e.set_position("position startpos");
    for go in [
        "go depth 2",
        "go nodes 2000",
        "go wtime 3000 btime 3000 depth 2",
        "go movetime 200 searchmoves e2e4",
        "go mate 1 movetime 200",
    ] {
        assert_eq!(answer(&mut e, go).1, None, "{go}");
    }
    // go infinite waits for stop and searches.
    e.send("go infinite");
    let quiet = e.collect_for(Duration::from_millis(300));
    e.assert_no_bestmove(&quiet, "go infinite with OwnBook");
    e.send("stop");
    let lines = e.read_until_bestmove();
    assert!(
        !quiet.iter().chain(&lines).any(|l| l.contains("book move")),
        "{quiet:?} {lines:?}"
    );
    // OwnBook off: a search.
    e.send("setoption name OwnBook value false");
    assert_eq!(answer(&mut e, GO_CLOCK).1, None);
    e.shutdown();
}

#[test]
fn book_depth_limits_the_plies_of_the_game_the_book_is_asked_in() {
    let dir = tempfile::tempdir().unwrap();
    let book = make_book(dir.path(), "tiny.pgn");
    let mut e = engine_with_book(&book, &[("BookDepth", "2")]);
    e.set_position("position startpos moves d2d4");
    assert!(answer(&mut e, GO_CLOCK).1.is_some(), "ply 1 < 2");
    e.set_position("position startpos moves d2d4 d7d5");
    assert_eq!(
        answer(&mut e, GO_CLOCK).1,
        None,
        "ply 2 is past BookDepth 2"
    );
    e.send("setoption name BookDepth value 3");
    assert_eq!(
        answer(&mut e, GO_CLOCK),
        ("c2c4".to_owned(), Some((4, 100.0)))
    );
    // The ply comes from the move number: move 2, White to move = ply 2.
    e.send("setoption name BookDepth value 2");
    e.set_position("position fen rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2");
    assert_eq!(answer(&mut e, GO_CLOCK).1, None);
    e.send("setoption name BookDepth value 0");
    e.set_position("position startpos");
    assert_eq!(answer(&mut e, GO_CLOCK).1, None);
    e.shutdown();
}

/// A book file of `entries` written to `dir/name`.
fn write_entries(dir: &Path, name: &str, entries: &[Entry]) -> PathBuf {
    let path = dir.join(name);
    let bytes: Vec<u8> = entries.iter().flat_map(|e| e.to_bytes()).collect();
    std::fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn entries_whose_move_is_not_legal_are_never_played() {
    let dir = tempfile::tempdir().unwrap();
    let key = polyglot_key(&Chess::default());
    // e2e5 and e1g1 (castling through pieces) are not legal at the start.
    let e2e5 = Entry {
        key,
        raw_move: (12 << 6) | 36,
        weight: 50,
        learn: 0,
    };
    let e1g1 = Entry {
        key,
        raw_move: (4 << 6) | 6,
        weight: 50,
        learn: 0,
    };
    let book = write_entries(dir.path(), "illegal.bin", &[e2e5, e1g1]);
    let mut e = engine_with_book(&book, &[]);
    e.set_position("position startpos");
    assert_eq!(answer(&mut e, GO_CLOCK).1, None);
    let show = run_cli(dir.path(), &["book", "show", book.to_str().unwrap()]);
    let out = text(&show.stdout);
    assert!(
        out.contains(
            ": 0 moves, total weight 0\n  (2 entries of this key code no legal move here: left out)"
        ),
        "{out}"
    );
    e.shutdown();
}

#[test]
fn bad_book_files_get_a_clear_error_and_the_old_book_plays_on() {
    let dir = tempfile::tempdir().unwrap();
    let good = make_book(dir.path(), "tiny.pgn");
    let odd = dir.path().join("odd size.bin");
    std::fs::write(&odd, [0u8; 17]).unwrap();
    let unsorted = write_entries(
        dir.path(),
        "unsorted.bin",
        &[
            Entry {
                key: 5,
                raw_move: 1,
                weight: 1,
                learn: 0,
            },
            Entry {
                key: 9,
                raw_move: 1,
                weight: 1,
                learn: 0,
            },
            Entry {
                key: 3,
                raw_move: 1,
                weight: 1,
                learn: 0,
            },
        ],
    );
    let missing = dir.path().join("missing.bin");
    let cases = [
        (missing.clone(), "cannot read: No such file or directory (os error 2)".to_owned()),
        (
            odd.clone(),
            "17 bytes is not a multiple of 16 (a Polyglot book is a list of 16-byte entries)".to_owned(),
        ),
        (
            unsorted.clone(),
            "entries not sorted by key: entry 2 (key 0000000000000003) follows key 0000000000000009"
                .to_owned(),
        ),
        (dir.path().to_path_buf(), "not a file".to_owned()),
    ];
    let mut e = engine_with_book(&good, &[("BookVariety", "false")]);
    e.set_position("position startpos");
    for (path, reason) in &cases {
        e.send(&format!("setoption name BookFile value {}", path.display()));
        let said = e.sync();
        let expected = format!(
            "info string error: setoption: option \"BookFile\": cannot apply \"{}\": book {}: {reason}",
            path.display(),
            path.display()
        );
        assert_eq!(said, [expected]);
        // Nothing lost: the good book still answers.
        assert_eq!(
            answer(&mut e, GO_CLOCK),
            ("d2d4".to_owned(), Some((5, 100.0)))
        );
    }
    // An empty value unloads the book: the engine searches.
    e.send("setoption name BookFile value <empty>");
    assert!(e.sync().is_empty());
    assert_eq!(answer(&mut e, GO_CLOCK).1, None);
    // A bad book with none before: an error, and the engine searches.
    e.send(&format!("setoption name BookFile value {}", odd.display()));
    assert_eq!(e.sync().len(), 1);
    assert_eq!(answer(&mut e, GO_CLOCK).1, None);
    e.shutdown();

    // The command line says the same and exits 2.
    for (path, reason) in &cases {
        let show = run_cli(dir.path(), &["book", "show", path.to_str().unwrap()]);
        assert_eq!(show.status.code(), Some(2));
        assert!(
            text(&show.stderr).contains(reason.as_str()),
            "{}",
            text(&show.stderr)
        );
    }
    let made = run_cli(dir.path(), &["book", "make", "nope.pgn", "-o", "x.bin"]);
    assert_eq!(made.status.code(), Some(2));
    assert!(
        text(&made.stderr).contains("nope.pgn: cannot read"),
        "{}",
        text(&made.stderr)
    );
    let out = dir.path().join("no/such/dir/x.bin");
    let made = run_cli(
        dir.path(),
        &[
            "book",
            "make",
            data("tiny.pgn").to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(made.status.code(), Some(2));
    assert!(
        text(&made.stderr).contains("cannot write"),
        "{}",
        text(&made.stderr)
    );
}

#[test]
fn engine_toml_loads_the_book_at_start_and_a_bad_one_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let book = make_book(dir.path(), "tiny.pgn");
    std::fs::write(
        dir.path().join("engine.toml"),
        format!(
            "[options]\nOwnBook = true\nBookFile = \"{}\"\n",
            book.display()
        ),
    )
    .unwrap();
    let run = |stdin: &str| {
        use std::io::Write;
        let mut child = Command::new(env!("CARGO_BIN_EXE_shears"))
            .current_dir(dir.path())
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
        child.wait_with_output().unwrap()
    };
    let out = run("position startpos\ngo wtime 1000 btime 1000\nquit\n");
    assert!(out.status.success());
    assert_eq!(
        text(&out.stdout),
        "info string book move d2d4 (weight 5, share 100.0%)\nbestmove d2d4\n"
    );
    // `book show` without a file uses the one of engine.toml.
    let show = run_cli(dir.path(), &["book", "show"]);
    assert!(
        text(&show.stdout).contains("d2d4 weight 5"),
        "{}",
        text(&show.stdout)
    );
    std::fs::write(
        dir.path().join("engine.toml"),
        "[options]\nBookFile = \"missing.bin\"\n",
    )
    .unwrap();
    // A book that cannot be loaded: the engine starts without one and
    // says why after `uciok`.
    let out = run("uci\nquit\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let after = stdout.split("uciok\n").nth(1).unwrap_or_default();
    assert!(
        after.starts_with("info string error: engine.toml: option \"BookFile\"")
            && after.contains("missing.bin: cannot read")
            && after.contains("started with the default"),
        "{stdout}"
    );
    assert!(stdout.contains("option name BookFile type string default <empty>"));
}

/// The GNU Chess book, if installed (see the module docs).
fn gnuchess_book() -> Option<PathBuf> {
    let path = PathBuf::from(GNUCHESS_BOOK);
    if path.is_file() {
        return Some(path);
    }
    assert!(
        std::env::var_os("SHEARS_REQUIRE_BOOKS").is_none(),
        "SHEARS_REQUIRE_BOOKS is set but {GNUCHESS_BOOK} is missing (apt-get install gnuchess-book)"
    );
    eprintln!("{GNUCHESS_BOOK} is not installed (apt-get install gnuchess-book): not tested");
    None
}

/// Plays a game with the engine on both sides until its first searched
/// move, `plies` long at most: every move before must come from `book`,
/// with its weight and share (the highest weight with `best`), and the
/// searched one must be in a position the book has no move for. Returns
/// the book moves.
fn play_from_book(e: &mut Engine, book: &Book, plies: usize, best: bool) -> Vec<String> {
    let mut position = Position::startpos();
    let mut played = Vec::new();
    let mut book_moves = Vec::new();
    for _ in 0..plies {
        e.set_position(&format!("position startpos moves {}", played.join(" ")));
        let (mv, from_book) = answer(e, "go wtime 500 btime 500");
        let moves = book.moves(position.board());
        match from_book {
            Some((weight, share)) => {
                let entry = moves
                    .moves
                    .iter()
                    .find(|m| move_to_uci(m.mv, false) == mv)
                    .unwrap_or_else(|| panic!("{mv} is not in the book at {}", position.fen()));
                assert_eq!(weight, u32::from(entry.weight));
                assert!((share - moves.share(entry.weight)).abs() < 0.051, "{share}");
                if best {
                    assert_eq!(
                        entry.weight,
                        moves.moves.iter().map(|m| m.weight).max().unwrap()
                    );
                }
                book_moves.push(mv.clone());
            }
            None => {
                // Out of the book: the first searched move ends the test game.
                assert_eq!(moves.total_weight(), 0, "searched in a book position");
                break;
            }
        }
        let m = position.parse_move(&mv, false).unwrap();
        position.play(m);
        played.push(mv);
    }
    book_moves
}

#[test]
fn a_game_starts_with_book_moves_of_the_gnu_chess_book() {
    let Some(path) = gnuchess_book() else {
        return;
    };
    let book = Book::open(&path).unwrap();
    // By weight, seeded: the same game twice.
    let seeded = [("BookVariety", "true"), ("BookSeed", "2024")];
    let mut e = engine_with_book(&path, &seeded);
    let first = play_from_book(&mut e, &book, 24, false);
    e.shutdown();
    assert!(
        first.len() >= 6,
        "only {} book moves: {first:?}",
        first.len()
    );
    let mut e = engine_with_book(&path, &seeded);
    let again = play_from_book(&mut e, &book, first.len() + 1, false);
    e.shutdown();
    assert_eq!(first, again, "BookSeed 2024 twice, different games");
    // Always the highest weight: 1. e4 (12135 of 30797) and on.
    let mut e = engine_with_book(&path, &[("BookVariety", "false")]);
    let best = play_from_book(&mut e, &book, 12, true);
    e.shutdown();
    assert_eq!(best.first().map(String::as_str), Some("e2e4"));
    assert!(best.len() >= 6, "{best:?}");
    // Different seeds give different games (the start alone has 13 moves).
    let mut openings = std::collections::BTreeSet::new();
    for seed in 1..=8 {
        let mut e = engine_with_book(&path, &[("BookSeed", &seed.to_string())]);
        openings.insert(play_from_book(&mut e, &book, 4, false));
        e.shutdown();
    }
    assert!(openings.len() >= 3, "{openings:?}");
}

#[test]
fn a_book_line_comes_before_its_bestmove_in_chess960_notation_too() {
    let dir = tempfile::tempdir().unwrap();
    // A book with one move at the Opera game's 12th move: O-O-O.
    let fen = "r3kb1r/p2nqppp/5n2/1B2p1B1/4P3/1Q6/PPP2PPP/R3K2R w KQkq - 1 12";
    let board: Chess = fen
        .parse::<shakmaty::fen::Fen>()
        .unwrap()
        .into_position(shakmaty::CastlingMode::Standard)
        .unwrap();
    let castle = Entry {
        key: polyglot_key(&board),
        raw_move: 4 << 6,
        weight: 7,
        learn: 3,
    };
    let book = write_entries(dir.path(), "castle.bin", &[castle]);
    let mut e = engine_with_book(&book, &[]);
    e.set_position(&format!("position fen {fen}"));
    e.send(GO_CLOCK);
    let lines = e.read_until(is_bestmove);
    assert_eq!(
        lines,
        [
            "info string book move e1c1 (weight 7, share 100.0%)",
            "bestmove e1c1"
        ]
    );
    e.send("setoption name UCI_Chess960 value true");
    e.send(GO_CLOCK);
    let lines = e.read_until(is_bestmove);
    assert_eq!(
        lines,
        [
            "info string book move e1a1 (weight 7, share 100.0%)",
            "bestmove e1a1"
        ]
    );
    e.shutdown();
}
