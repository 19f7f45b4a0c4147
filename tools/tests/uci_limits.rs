//! Resource limits through the real `shears` binary: a `Hash` that cannot be
//! allocated, and positions with more legal moves than any reachable one.

mod common;

use common::{Engine, parse_bestmove, parse_info, play_line};
use shears::chess::Position;

/// White has 264 legal moves after any black move: positions with too much
/// material are accepted, and the move picker once held only 256 moves, so
/// the search thread panicked one ply below the root and no `bestmove` came.
const WIDE_FEN: &str = "kBQQQQQQ/BR5Q/Q6Q/Q6Q/Q5bQ/Q6Q/Q6Q/KQQQQQQQ b - - 0 1";

/// The engine's address space in the allocation test: room for the default
/// table, the threads and their stacks, not for an 8 GB table.
const ADDRESS_SPACE_KIB: u64 = 3 << 20;

/// The nodes of the `bestmove`-closing search of `go depth 8` from the
/// start position (one thread: deterministic).
fn nodes_of_depth_8(e: &mut Engine) -> u64 {
    e.send("position startpos");
    e.send("go depth 8");
    let lines = e.read_until_bestmove();
    let last_info = &lines[lines.len() - 2];
    let info = parse_info(last_info).unwrap_or_else(|err| panic!("{err}"));
    info.nodes.expect("the final info line has nodes")
}

/// Sends `command` and checks that exactly one error line containing
/// `fragment` comes back.
fn assert_refused(e: &mut Engine, command: &str, fragment: &str) {
    e.send(command);
    let lines = e.sync();
    assert_eq!(lines.len(), 1, "{command}: {lines:?}");
    assert!(
        lines[0].starts_with("info string error: ") && lines[0].contains(fragment),
        "{command}: {lines:?}"
    );
}

#[test]
fn unallocatable_hash_is_refused_and_the_old_table_kept() {
    // The table's contents are observed through the node count of a second
    // identical search, which the entries of the first one make cheaper.
    let mut warm = Engine::spawn();
    let first = nodes_of_depth_8(&mut warm);
    let second = nodes_of_depth_8(&mut warm);
    assert_ne!(first, second, "a warm table changes the node count");
    assert!(warm.shutdown().is_empty());

    let mut e = Engine::spawn_with_address_space_limit(ADDRESS_SPACE_KIB);
    assert_eq!(nodes_of_depth_8(&mut e), first);
    assert_refused(
        &mut e,
        "setoption name Hash value 8192",
        "option \"Hash\": cannot apply \"8192\": cannot allocate a 8192 MB hash table",
    );
    assert_refused(
        &mut e,
        "setoption name Hash value 100000000",
        "option \"Hash\": bad value \"100000000\", expected an integer from 1 to 65536",
    );
    assert_eq!(
        nodes_of_depth_8(&mut e),
        second,
        "the refused sizes must keep the old table and its entries"
    );
    // A size that fits is accepted; with ucinewgame (histories too) the
    // search is the first one again.
    e.send("setoption name Hash value 16");
    e.send("ucinewgame");
    assert!(e.sync().is_empty());
    assert_eq!(nodes_of_depth_8(&mut e), first);
    assert!(e.shutdown().is_empty());
}

#[test]
fn search_survives_positions_with_more_than_256_moves() {
    let mut e = Engine::spawn();
    e.set_position(&format!("position fen {WIDE_FEN}"));
    for go in ["go nodes 20000", "go depth 4"] {
        e.send(go);
        let lines = e.read_until_bestmove();
        let last = lines.last().expect("bestmove");
        let (best, ponder) =
            parse_bestmove(last).unwrap_or_else(|| panic!("{go}: bad bestmove {last:?}"));
        let pos = Position::from_fen(WIDE_FEN, false).expect("a valid FEN");
        let line: Vec<String> = std::iter::once(best).chain(ponder).collect();
        play_line(&pos, &line, false).unwrap_or_else(|err| panic!("{go}: {err}"));
    }
    assert!(e.shutdown().is_empty());
}

#[test]
fn hash_threads_and_clear_hash_are_accepted_right_after_bestmove() {
    // The search thread prints bestmove and then ends; an option that needs
    // an idle engine, sent the moment bestmove arrives, used to be refused
    // now and then ("a search is running") because the thread had not quite
    // ended. Once bestmove is out the search is over for the GUI.
    let mut e = Engine::spawn();
    e.send("setoption name Hash value 1");
    assert!(e.sync().is_empty());
    let settings = [
        "setoption name Hash value 1",
        "setoption name Threads value 2",
        "setoption name Threads value 1",
        "setoption name Clear Hash",
    ];
    for i in 0..400 {
        e.send("go depth 1");
        e.read_until_bestmove();
        let setting = settings[i % settings.len()];
        e.send(setting);
        let answer = e.sync();
        assert!(answer.is_empty(), "{setting} after bestmove: {answer:?}");
    }
    assert!(e.shutdown().is_empty());
}
