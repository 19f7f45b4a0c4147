//! Limited strength, pinned: with a fixed `StrengthSeed`, the games a
//! limited engine plays (every `go`'s `info` lines and `bestmove`, times
//! left out) are exactly the recorded ones in
//! `tests/data/strength/pinned.txt`.
//!
//! The record was first made with the engine of commit 1850f1d (Bench:
//! 18689773 at bench's old default depth 14), before the answer path was
//! rebuilt (issue 37), so the rebuilt path was held to play the same games,
//! move for move and line for line; it was written anew with the
//! evaluation of issue 36 (Bench: 3481955), and again with its weights
//! fitted to Ethereal 12's scores (Bench: 3357428). It covers several
//! levels, `MultiPV` below and at the level's own lines, a game after
//! `ucinewgame`, clock moves that wait, `go ponder` with `ponderhit` and
//! `go infinite` with `stop`.
//!
//! The games follow from the search and the evaluation, so a change that
//! moves the bench signature (a functional change) changes them too. Then,
//! and only then, write the record anew and commit it with the change:
//!
//! ```sh
//! SHEARS_PIN_WRITE=1 cargo test --release --test uci_strength_pinned
//! ```
//!
//! Every search here is bounded by the level's node budget (at most about
//! 90,000 nodes, well under a second even on a loaded machine), so no line
//! depends on the clock: `currmove` lines and the bound lines of an
//! aspiration window, which come only after a second, never appear. (A
//! `lowerbound` line may: the final line of a move proven better in an
//! iteration the node budget cut short.)

mod common;

use common::{Engine, is_bestmove};

/// The record.
const RECORD: &str = "tests/data/strength/pinned.txt";
/// The seed of every limited choice here.
const SEED: u32 = 7;
/// The `go` of the budget-bound moves.
const GO_BUDGET: &str = "go depth 30";
/// The `go` of a game move on a clock: the level waits before moving.
const GO_CLOCK: &str = "go wtime 2000 btime 2000 winc 20 binc 20";
/// How long a `go infinite` searches before `stop`: far more than any
/// level's node budget takes.
const STOP_AFTER: std::time::Duration = std::time::Duration::from_millis(1500);

/// An `info` or `bestmove` line without what the clock decides (`time`,
/// `nps`).
fn normalise(line: &str) -> String {
    let mut out = Vec::new();
    let mut words = line.split(' ');
    while let Some(word) = words.next() {
        if word == "time" || word == "nps" {
            words.next();
        } else {
            out.push(word);
        }
    }
    out.join(" ")
}

/// The transcript of one session: each command sent, and each line that
/// answered a `go`.
struct Transcript {
    engine: Engine,
    lines: Vec<String>,
}

impl Transcript {
    fn new() -> Transcript {
        Transcript {
            engine: Engine::spawn(),
            lines: Vec::new(),
        }
    }

    /// Sends `line` (an option, `position`, `ucinewgame`): nothing may
    /// answer it.
    fn send(&mut self, line: &str) {
        self.lines.push(format!("> {line}"));
        self.engine.send(line);
        let said = self.engine.sync();
        assert!(said.is_empty(), "{line}: {said:?}");
    }

    /// Sends `go` and, once the search is under way, each of `then` (such
    /// as `ponderhit` or `stop`); records the answer; returns the move.
    fn go(&mut self, go: &str, then: &[&str]) -> String {
        self.lines.push(format!("> {go}"));
        self.engine.send(go);
        let mut answer = Vec::new();
        for command in then {
            // isready first: the search has started; the answer waits for
            // this command.
            answer.extend(self.engine.sync());
            if *command == "stop" {
                // isready is answered at once, mid-search: give the level's
                // search time to finish its small budget, so that `stop`
                // never cuts it short at a point the clock would decide.
                std::thread::sleep(STOP_AFTER);
            }
            self.lines.push(format!("> {command}"));
            self.engine.send(command);
        }
        answer.extend(self.engine.read_until_bestmove());
        for line in &answer {
            assert!(
                !line.contains(" currmove "),
                "a line that depends on the clock: {line}"
            );
            self.lines.push(format!("< {}", normalise(line)));
        }
        let last = answer.last().expect("a bestmove line");
        assert!(is_bestmove(last), "{last}");
        last.split(' ').nth(1).expect("a move").to_owned()
    }

    /// The engine plays both sides of `plies` moves from `start` (a
    /// `position` command without moves) with `go`.
    fn game(&mut self, start: &str, plies: usize, go: &str) {
        let mut moves: Vec<String> = Vec::new();
        for _ in 0..plies {
            let position = match (moves.is_empty(), start.contains(" moves ")) {
                (true, _) => start.to_owned(),
                (false, true) => format!("{start} {}", moves.join(" ")),
                (false, false) => format!("{start} moves {}", moves.join(" ")),
            };
            self.send(&position);
            let best = self.go(go, &[]);
            if best == "0000" {
                // The game is over (no legal move).
                return;
            }
            moves.push(best);
        }
    }

    /// Sets the limited strength to `elo` with `multipv` lines shown.
    fn level(&mut self, elo: u32, multipv: u32) {
        self.send("setoption name UCI_LimitStrength value true");
        self.send(&format!("setoption name UCI_Elo value {elo}"));
        self.send(&format!("setoption name MultiPV value {multipv}"));
    }
}

/// The sessions of the record, played now.
fn play() -> Vec<String> {
    let mut t = Transcript::new();
    t.send(&format!("setoption name StrengthSeed value {SEED}"));

    // The lowest level: many moves other than the best, re-sent as line 1.
    t.level(1000, 1);
    t.game("position startpos", 10, GO_BUDGET);
    // A middlegame with a tactic in it, after a new game (new errors).
    t.send("ucinewgame");
    let tactic = "position fen r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
    t.game(tactic, 6, GO_BUDGET);
    // Moves on a clock: the level waits for part of its time.
    t.level(1200, 1);
    t.game("position startpos moves e2e4 c7c5", 3, GO_CLOCK);
    // MultiPV 2 of the level's 4 lines, then all 4 of them.
    t.level(1600, 2);
    t.game("position startpos moves d2d4 g8f6 c2c4", 6, GO_BUDGET);
    t.level(1800, 4);
    t.game("position startpos moves e2e4 e7e6", 4, GO_BUDGET);
    // Higher levels, one line.
    t.level(2000, 1);
    let endgame = "position fen 8/5pk1/6p1/3R4/7P/6P1/r4PK1/8 w - - 0 40";
    t.game(endgame, 6, GO_BUDGET);
    t.level(2400, 1);
    t.game("position startpos moves g1f3 d7d5", 4, GO_BUDGET);
    // go ponder, answered after ponderhit (then after its wait); go
    // infinite, answered at stop.
    t.level(1400, 1);
    t.send("position startpos moves e2e4 e7e5 g1f3");
    t.go(&format!("go ponder {}", &GO_CLOCK[3..]), &["ponderhit"]);
    t.send("position startpos moves e2e4 e7e5 g1f3 b8c6");
    t.go("go infinite", &["stop"]);
    t.engine.send("quit");
    t.lines
}

#[test]
fn a_seeded_limited_strength_plays_the_recorded_games() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(RECORD);
    let played = play();
    if std::env::var_os("SHEARS_PIN_WRITE").is_some() {
        let mut text = played.join("\n");
        text.push('\n');
        std::fs::write(&path, text).expect("the record is writable");
        return;
    }
    let recorded = std::fs::read_to_string(&path).expect("the record (see the module docs)");
    let recorded: Vec<&str> = recorded.lines().collect();
    for (i, (now, then)) in played.iter().zip(&recorded).enumerate() {
        assert_eq!(
            now,
            then,
            "line {} of {RECORD} differs (played, recorded); see the module docs",
            i + 1
        );
    }
    assert_eq!(played.len(), recorded.len(), "the number of lines differs");
}
