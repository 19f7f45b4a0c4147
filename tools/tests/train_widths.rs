//! End to end: nets of other widths than the built-in net's, one of them
//! king-mirrored, trained by `shears train` on a tiny game file that
//! `shears datagen` makes here, load through `EvalFile` and play a game.

mod common;

use std::path::Path;

use common::{Engine, go_answered, parse_bestmove, run_cli, text};
use shakmaty::Position as _;
use shears::chess::Position;
use shears::eval::nnue::NetFile;
use shears::eval::nnue::arch::Layout;

/// Plays up to `plies` moves from the start position with `go nodes 2000`,
/// each answer checked legal (by `go_answered`); returns the moves.
fn play_a_game(e: &mut Engine, plies: usize) -> Vec<String> {
    let mut pos = Position::startpos();
    let mut moves: Vec<String> = Vec::new();
    e.send("ucinewgame");
    while moves.len() < plies && !pos.board().legal_moves().is_empty() {
        e.set_position(&format!("position startpos moves {}", moves.join(" ")));
        let lines = go_answered(e, &pos, "go nodes 2000", &[]);
        let (best, _) = parse_bestmove(lines.last().unwrap()).expect("a bestmove line");
        pos.play_uci_moves([best.as_str()], false)
            .expect("go_answered checked the move");
        moves.push(best);
    }
    moves
}

/// `shears train` on `tiny.games` for 2 epochs, the net written to `out`
/// (its checkpoints beside it), with `extra` options; returns its stdout.
fn train(dir: &Path, out: &str, extra: &[&str]) -> String {
    let checkpoints = format!("{out}.ck");
    let mut args = vec![
        "train",
        "tiny.games",
        "--epochs",
        "2",
        "--batch-size",
        "256",
        "--threads",
        "1",
        "--val-every-games",
        "5",
        "--checkpoint-dir",
        &checkpoints,
        "--out",
        out,
    ];
    args.extend_from_slice(extra);
    let output = run_cli(dir, &args);
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{stdout}{}", text(&output.stderr));
    stdout
}

#[test]
fn nets_of_other_widths_train_load_through_eval_file_and_play_a_game() {
    let dir = tempfile::tempdir().unwrap();
    let made = run_cli(
        dir.path(),
        &[
            "datagen",
            "tiny.games",
            "--games",
            "50",
            "--nodes",
            "400",
            "--threads",
            "1",
        ],
    );
    assert!(made.status.success(), "{}", text(&made.stderr));
    for (out, hidden, layout, extra) in [
        ("h128.nnue", 128, Layout::Plain, &["--hidden", "128"][..]),
        (
            "h64m.nnue",
            64,
            Layout::KingMirrored,
            &["--hidden", "64", "--mirror"][..],
        ),
    ] {
        let stdout = train(dir.path(), out, extra);
        assert!(
            stdout.contains(&format!(
                "net (768 → {hidden}) × 2 → 1, {} inputs",
                layout.name()
            )),
            "{stdout}"
        );
        let path = dir.path().join(out);
        let net = NetFile::load(&path)
            .expect("the engine reads the trained net")
            .net;
        assert_eq!((net.hidden(), net.layout()), (hidden, layout));
        let positions: usize = stdout
            .lines()
            .find_map(|l| l.split(" positions in ").next()?.parse().ok())
            .expect("the data line");
        assert!(positions > 2000, "a few thousand positions: {positions}");

        let mut e = Engine::spawn();
        e.send("setoption name Use NNUE value true");
        e.send(&format!("setoption name EvalFile value {}", path.display()));
        // Named as it loads: its width and layout, as the file says.
        let said = e.sync();
        let news = format!(
            "info string NNUE evaluation using net {} (width {hidden}, {} inputs, sha256 ",
            path.display(),
            layout.name()
        );
        assert!(
            said.len() == 1 && said[0].starts_with(&news),
            "{out}: {said:?}"
        );
        e.send("d");
        let shown = e.read_until(|l| l.starts_with("Checkers:"));
        let playing = format!("Evaluation: net {} (Use NNUE true)", path.display());
        assert!(shown.contains(&playing), "{shown:?}");
        let moves = play_a_game(&mut e, 16);
        assert_eq!(moves.len(), 16, "{moves:?}");
        assert!(e.shutdown().is_empty());
    }
}
