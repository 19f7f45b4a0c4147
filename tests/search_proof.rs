//! Proof tests for the searcher.
//!
//! * With every technique off (`SearchConfig::plain()`) the engine's
//!   alpha-beta gives exactly the value of a plain minimax written here,
//!   with the same draw rules (50-move rule, insufficient material,
//!   repetition of the game history or of the search path) and the same
//!   leaf evaluation.
//! * PVS, and then the transposition table with move ordering and
//!   aspiration windows, do not change that value at depths 1 to 4.
//! * The full engine finds verified mates in 1 to 4 with the right score
//!   and move, and scores the mated side correctly; its quiescence search
//!   sees a quiet mating check one ply past the horizon.
//! * `searchmoves`, MultiPV and determinism behave.
//!
//! The positions come from short reproducible random games from varied
//! start positions, played with `Position::play` so that the key history is
//! carried into the search (which exercises repetition).

use std::sync::{Mutex, OnceLock};
use std::time::Instant;

use rayon::prelude::*;
use shakmaty::{Chess, Move, Position as _};
use shears::chess::random::RandomGame;
use shears::chess::{Position, START_FEN, move_to_uci, zobrist::full_key};
use shears::eval::evaluate;
use shears::search::params::SearchConfig;
use shears::search::{
    MATE, MATE_BOUND, Score, SearchInfo, SearchLimits, SearchOutcome, SearchReport, SearchRequest,
    SearchSettings, Searcher, Signals,
};

// ---------------------------------------------------------------------------
// Positions
// ---------------------------------------------------------------------------

/// Start positions of the random games.
const START_FENS: &[&str] = &[
    START_FEN,
    // Kiwipete.
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    // Perft position 3: rook and pawns, en passant and discovered checks.
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    // Perft position 4: promotions, castling, pins.
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    // Perft position 5: a promotion with capture available at once.
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    // Promotions for both sides, under-promotions.
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1",
    // Few pieces, close to the 50-move rule.
    "8/8/4k3/8/8/3QK3/8/8 w - - 94 120",
    "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 90 80",
    // Endgames with few pieces.
    "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",
    "8/8/3k4/8/8/3K4/3R4/3r4 w - - 0 1",
    "8/8/8/3k4/8/8/2b5/B3K3 w - - 0 1",
    "8/1k6/8/8/8/8/5N2/4K1B1 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    // In check.
    "rnbqkbnr/ppp2ppp/8/1B1pp3/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 3",
    "4k3/8/8/8/1b6/8/8/R3K2R w KQ - 0 1",
    // In check by a pawn that can be taken en passant.
    "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
    // White mates in one (Qxf7#).
    "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3",
];

/// Positions used as they are, without a random game: the 50-move rule at
/// its edge (a mate given on the 100th halfmove is a mate, not a draw; a
/// mate one ply later is never reached).
const FIXED_FENS: &[&str] = &[
    "6k1/8/6K1/8/8/8/8/R7 w - - 99 100",
    "6k1/8/6K1/8/8/8/8/R7 w - - 98 100",
    "6k1/8/6K1/8/8/8/8/R7 b - - 99 100",
    "7k/8/5K2/8/8/8/8/Q7 w - - 97 100",
    "7k/8/5K2/8/8/8/8/Q7 w - - 99 100",
    "kbK5/pp6/1P6/8/8/8/8/R7 w - - 99 100",
];

/// How many random-game positions the equivalence tests use.
const RANDOM_CASES: usize = 450;

/// A test position with how it was reached.
struct Case {
    pos: Position,
    start: &'static str,
    moves: Vec<String>,
}

impl Case {
    /// Enough to reproduce the position with its history.
    fn describe(&self) -> String {
        format!(
            "fen {}\n  reached by: position fen {} moves {}",
            self.pos.fen(),
            self.start,
            self.moves.join(" ")
        )
    }
}

/// Case `i`: a random game of 4–40 plies from `START_FENS[i % len]`.
/// Every other game prefers to move a piece straight back (so positions
/// repeat in the history); some games end with a check when one is
/// available. The game stops before a move that would leave no legal move.
fn make_case(i: usize) -> Case {
    let start = START_FENS[i % START_FENS.len()];
    let pos = Position::from_fen(start, false).expect("valid start FEN");
    let mut game = RandomGame::new(pos, i as u64 + 1);
    let plies = 4 + game.rng().below(37);
    let shuffle = i % 2 == 1;
    let end_in_check = game.rng().below(3) == 0;
    for ply in 0..plies {
        let own_last = game.moves().iter().rev().nth(1).copied();
        let going = game.step_with(|pos, legal, rng| {
            let mut choice = rng.pick(legal)?;
            if shuffle
                && let Some(last) = own_last
                && rng.below(3) != 0
            {
                // Undo our own last move if that is a legal quiet move.
                if let Some(back) = legal.iter().find(|m| {
                    !m.is_capture() && m.from() == Some(last.to()) && m.to() == last.from().unwrap()
                }) {
                    choice = *back;
                }
            }
            if end_in_check && ply + 1 == plies {
                let checks: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|&m| after(pos.board(), m).is_check())
                    .collect();
                if !checks.is_empty() {
                    choice = checks[rng.below(checks.len())];
                }
            }
            let ends_game = after(pos.board(), choice).legal_moves().is_empty();
            (!ends_game).then_some(choice)
        });
        if !going {
            break;
        }
    }
    let moves = game
        .moves()
        .iter()
        .map(|&m| move_to_uci(m, false))
        .collect();
    Case {
        pos: game.position().clone(),
        start,
        moves,
    }
}

fn cases() -> &'static [Case] {
    static CASES_CELL: OnceLock<Vec<Case>> = OnceLock::new();
    CASES_CELL.get_or_init(|| {
        let mut cases: Vec<Case> = (0..RANDOM_CASES).into_par_iter().map(make_case).collect();
        cases.extend(FIXED_FENS.iter().map(|&fen| Case {
            pos: Position::from_fen(fen, false).expect("valid FEN"),
            start: fen,
            moves: Vec::new(),
        }));
        cases
    })
}

// ---------------------------------------------------------------------------
// Plain minimax reference
// ---------------------------------------------------------------------------

/// Deepest reference search of the equivalence tests.
const MAX_REF_DEPTH: usize = 4;

/// Deepest depth [`Minimax::values`] can search (the mate checks go to 5).
const MAX_VALUES_DEPTH: usize = 7;

/// Minimax values of one node at depths `0..=MAX_VALUES_DEPTH` (index =
/// depth; entries beyond the depth searched are meaningless).
type Values = [i32; MAX_VALUES_DEPTH + 1];

/// Negamax without any pruning, with the engine's draw rules.
struct Minimax {
    /// Keys of the game history, then of the path from the root.
    keys: Vec<u64>,
    /// Nodes visited.
    nodes: u64,
    /// Draws met: by the 50-move rule, insufficient material, repetition.
    draws: [u64; 3],
}

impl Minimax {
    fn new(root: &Position) -> Minimax {
        let mut keys = root.history().to_vec();
        keys.push(root.key());
        Minimax {
            keys,
            nodes: 0,
            draws: [0; 3],
        }
    }

    /// 50-move rule (unless checkmated), insufficient material, or the
    /// current key equal to one 4, 6, 8… plies back within the halfmove
    /// clock and the available history.
    fn is_draw(&mut self, board: &Chess) -> bool {
        if board.halfmoves() >= 100 && !board.is_checkmate() {
            self.draws[0] += 1;
            return true;
        }
        if board.is_insufficient_material() {
            self.draws[1] += 1;
            return true;
        }
        let current = self.keys.len() - 1;
        let reach = (board.halfmoves() as usize).min(current);
        let key = self.keys[current];
        let repeated = (4..=reach)
            .step_by(2)
            .any(|back| self.keys[current - back] == key);
        self.draws[2] += u64::from(repeated);
        repeated
    }

    /// The textbook recursion, for every depth `d <= depth` at once:
    ///
    /// * at ply > 0, a draw is 0 at every depth;
    /// * no legal move: checkmate `-(MATE - ply)`, stalemate 0, at every depth;
    /// * depth 0: `evaluate`;
    /// * depth d > 0: the maximum over the children of `-(child at d - 1)`.
    ///
    /// The value at depth `d` is exactly what a separate depth-`d` minimax
    /// returns (the draw and mate rules do not depend on the depth), so one
    /// depth-4 tree gives the depth 1, 2 and 3 values too.
    fn values(&mut self, board: &Chess, depth: usize, ply: i32) -> Values {
        self.nodes += 1;
        if ply > 0 && self.is_draw(board) {
            return [0; MAX_VALUES_DEPTH + 1];
        }
        let moves = board.legal_moves();
        if moves.is_empty() {
            let v = if board.is_check() { -(MATE - ply) } else { 0 };
            return [v; MAX_VALUES_DEPTH + 1];
        }
        assert!(depth <= MAX_VALUES_DEPTH);
        let mut out = [-MATE - 1; MAX_VALUES_DEPTH + 1];
        out[0] = evaluate(board);
        if depth == 0 {
            return out;
        }
        for &m in &moves {
            let mut child = board.clone();
            child.play_unchecked(m);
            // Keys from scratch: independent of the engine's incremental key.
            self.keys.push(full_key(&child));
            let child_values = self.values(&child, depth - 1, ply + 1);
            self.keys.pop();
            for d in 1..=depth {
                out[d] = out[d].max(-child_values[d - 1]);
            }
        }
        out
    }
}

/// Reference values of the root at depths 1–3, and 4 when affordable.
struct Reference {
    /// `by_depth[d - 1]` is the minimax value at depth `d`.
    by_depth: [Option<i32>; MAX_REF_DEPTH],
    /// Draws met in the trees, by kind (see [`Minimax::draws`]).
    draws: [u64; 3],
}

/// Positions whose depth-3 tree has at most this many nodes are also
/// searched to depth 4. Full-width depth 4 costs a few seconds per
/// middlegame position, so the depth-4 set is the cheaper positions (mostly
/// endgames, positions in check and positions with few legal moves); the
/// test asserts that it still holds at least [`MIN_DEPTH4_CASES`] positions.
const DEPTH4_MAX_TREE: u64 = 25_000;
const MIN_DEPTH4_CASES: usize = 200;

fn reference(pos: &Position) -> Reference {
    let mut mm = Minimax::new(pos);
    let v3 = mm.values(pos.board(), 3, 0);
    let mut by_depth = [Some(v3[1]), Some(v3[2]), Some(v3[3]), None];
    let mut draws = mm.draws;
    if mm.nodes <= DEPTH4_MAX_TREE {
        let mut mm4 = Minimax::new(pos);
        let v4 = mm4.values(pos.board(), 4, 0);
        assert_eq!(v4[..4], v3[..4], "one tree, several depths");
        by_depth[3] = Some(v4[4]);
        draws = mm4.draws;
    }
    Reference { by_depth, draws }
}

// ---------------------------------------------------------------------------
// Running the engine
// ---------------------------------------------------------------------------

/// A search with fresh tables; `tt_mb` is the table size.
fn run(
    pos: &Position,
    limits: &SearchLimits,
    settings: SearchSettings,
    tt_mb: usize,
    report: &(dyn Fn(SearchReport) + Sync),
) -> SearchOutcome {
    let mut searcher = Searcher::new(tt_mb).expect("table");
    let request = SearchRequest::new(pos, limits, settings);
    searcher.search(&request, &Signals::new(false), report)
}

fn settings(config: SearchConfig) -> SearchSettings {
    SearchSettings {
        threads: 1,
        multipv: 1,
        config,
        ..SearchSettings::default()
    }
}

fn depth_limit(depth: u32) -> SearchLimits {
    SearchLimits {
        depth: Some(depth),
        ..Default::default()
    }
}

/// The engine's root score at `depth` with `config`, fresh tables.
///
/// The equivalence searches are small (depth ≤ 4), so a 2 MB table is far
/// more than they fill; a table that is never probed is 1 MB. (Allocating
/// and clearing 16 MB for each of the ~1200 searches would cost more than
/// the searches.)
fn engine_score(pos: &Position, depth: u32, config: SearchConfig) -> i32 {
    let tt_mb = if config.tt { 2 } else { 1 };
    let out = run(pos, &depth_limit(depth), settings(config), tt_mb, &|_| {});
    assert_eq!(out.depth(), depth, "depth {depth} not completed");
    out.score().expect("a root with legal moves has a score")
}

/// Engine scores at depths 1–4 for every case.
fn scores(config: SearchConfig) -> Vec<[i32; 4]> {
    cases()
        .par_iter()
        .map(|c| std::array::from_fn(|d| engine_score(&c.pos, d as u32 + 1, config)))
        .collect()
}

/// The plain engine's scores, shared by the equivalence tests.
fn plain_scores() -> &'static [[i32; 4]] {
    static PLAIN: OnceLock<Vec<[i32; 4]>> = OnceLock::new();
    PLAIN.get_or_init(|| scores(SearchConfig::plain()))
}

/// Fails with every mismatch between `config` and the plain engine.
fn assert_same_as_plain(name: &str, config: SearchConfig) {
    let plain = plain_scores();
    let other = scores(config);
    let mut failures = Vec::new();
    for (i, c) in cases().iter().enumerate() {
        for d in 0..4 {
            if plain[i][d] != other[i][d] {
                failures.push(format!(
                    "case {i}, depth {}: plain {} vs {name} {}\n  {}",
                    d + 1,
                    plain[i][d],
                    other[i][d],
                    c.describe()
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatches between plain alpha-beta and {name}:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

// ---------------------------------------------------------------------------
// 1–3: equivalence
// ---------------------------------------------------------------------------

#[test]
fn alpha_beta_equals_minimax() {
    let start = Instant::now();
    let refs: Vec<Reference> = cases().par_iter().map(|c| reference(&c.pos)).collect();
    let plain = plain_scores();
    let mut failures = Vec::new();
    let mut compared = [0usize; 4];
    for (i, (c, r)) in cases().iter().zip(&refs).enumerate() {
        for d in 0..4 {
            let Some(expected) = r.by_depth[d] else {
                continue;
            };
            compared[d] += 1;
            if plain[i][d] != expected {
                failures.push(format!(
                    "case {i}, depth {}: minimax {expected} vs alpha-beta {}\n  {}",
                    d + 1,
                    plain[i][d],
                    c.describe()
                ));
            }
        }
    }
    // What the positions exercise.
    let draws = refs.iter().fold([0u64; 3], |acc, r| {
        std::array::from_fn(|k| acc[k] + u64::from(r.draws[k] > 0))
    });
    let values = refs.iter().flat_map(|r| r.by_depth.iter().flatten());
    let mates = values.clone().filter(|v| v.abs() >= MATE_BOUND).count();
    let zeros = values.filter(|&&v| v == 0).count();
    let in_check = cases().iter().filter(|c| c.pos.board().is_check()).count();
    let with_history = cases()
        .iter()
        .filter(|c| {
            let h = c.pos.history();
            h.iter().any(|k| *k == c.pos.key()) || (1..h.len()).any(|i| h[..i].contains(&h[i]))
        })
        .count();
    println!(
        "alpha_beta_equals_minimax: positions compared at depths 1-4: {compared:?}; \
         roots in check: {in_check}; with a repetition in the game history: {with_history}; \
         positions whose trees meet 50-move / material / repetition draws: {draws:?}; \
         mate values: {mates}; zero values: {zeros}; {:.1?}",
        start.elapsed()
    );
    assert!(
        failures.is_empty(),
        "{} mismatches between minimax and plain alpha-beta:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(compared[..3].iter().all(|&n| n >= 200), "{compared:?}");
    assert!(
        compared[3] >= MIN_DEPTH4_CASES,
        "only {} positions at depth 4",
        compared[3]
    );
    assert!(
        draws.iter().all(|&n| n >= 10),
        "draw rules barely met: {draws:?}"
    );
    assert!(mates >= 5 && in_check >= 10 && with_history >= 10);
}

#[test]
fn pvs_equals_plain_alpha_beta() {
    let config = SearchConfig {
        pvs: true,
        ..SearchConfig::plain()
    };
    assert_same_as_plain("PVS", config);
}

/// Iterative deepening is always on; aspiration windows start at depth 4
/// (where they mostly fail low: even depths score lower).
///
/// Up to depth 4, without extensions or quiescence, the value must be
/// exactly that of plain alpha-beta: a TT cutoff needs an entry at least as
/// deep, and the only positions met twice at a node with draft ≥ 1 are move
/// order transpositions at the same ply of the same iteration (a position at
/// ply 1 cannot recur at ply 3, and ply 4 is a leaf), whose subtrees see the
/// same repetition keys (the root and the game history) and draw rules.
/// From depth 5 on the value may legitimately differ: an entry of a larger
/// draft found through a shorter transposition answers a shallower node,
/// and a TT score can carry a repetition draw of another path
/// (graph-history interaction).
#[test]
fn tt_ordering_and_aspiration_do_not_change_the_value() {
    let config = SearchConfig {
        tt: true,
        ordering: true,
        pvs: true,
        aspiration: true,
        ..SearchConfig::plain()
    };
    assert_same_as_plain("TT + ordering + PVS + aspiration", config);
}

// ---------------------------------------------------------------------------
// 4: mates
// ---------------------------------------------------------------------------

fn after(board: &Chess, m: Move) -> Chess {
    let mut child = board.clone();
    child.play_unchecked(m);
    child
}

/// Whether the side to move forces mate in at most `n` moves (pure chess:
/// the positions below are far from the 50-move rule and keep mating
/// material).
fn mates_within(board: &Chess, n: u32) -> bool {
    n > 0
        && board
            .legal_moves()
            .iter()
            .any(|&m| move_mates_within(board, m, n))
}

/// Whether `m` forces mate in at most `n` moves (itself included).
fn move_mates_within(board: &Chess, m: Move, n: u32) -> bool {
    let child = after(board, m);
    let replies = child.legal_moves();
    if replies.is_empty() {
        return child.is_check();
    }
    n > 1
        && replies
            .iter()
            .all(|&r| mates_within(&after(&child, r), n - 1))
}

/// Whether the side to move is mated in at most `n` moves (0: now).
fn mated_within(board: &Chess, n: u32) -> bool {
    let moves = board.legal_moves();
    if moves.is_empty() {
        return board.is_check();
    }
    n > 0 && moves.iter().all(|&m| mates_within(&after(board, m), n))
}

/// Mates in `n` for the side to move: (FEN, n, the only mating move).
/// Each was checked with Stockfish (`go depth 24`, MultiPV 5: `score mate
/// n` for the key move, longer mates or no mate for the others) and is
/// proven again by [`mates_within`] in the test itself.
const MATES: &[(&str, i32, &str)] = &[
    // Back-rank mate.
    ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1, "a1a8"),
    // Scholar's mate.
    (
        "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3",
        1,
        "f3f7",
    ),
    // Morphy's problem: 1. Ra6! bxa6 2. b7#.
    ("kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", 2, "a1a6"),
    // Légal-style: 1. Nf6+ gxf6 2. Bxf7#.
    (
        "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 10",
        2,
        "d5f6",
    ),
    // Philidor's legacy from move 2: 1. Nh6++ Kh8 2. Qg8+ Rxg8 3. Nf7#.
    ("5rk1/5Npp/8/8/2Q5/8/8/6K1 w - - 2 2", 3, "f7h6"),
    // Philidor's legacy: 1. Nf7+ Kg8 2. Nh6++ Kh8 3. Qg8+ Rxg8 4. Nf7#.
    ("5r1k/6pp/8/6N1/2Q5/8/8/6K1 w - - 0 1", 4, "g5f7"),
];

/// The side to move is mated in `n` (Stockfish: `score mate -n`).
const MATED: &[(&str, i32)] = &[
    // Morphy's problem after 1. Ra6.
    ("kbK5/pp6/RP6/8/8/8/8/8 b - - 1 1", 1),
    // Philidor's legacy after 2. Nh6++.
    ("5rk1/6pp/7N/8/2Q5/8/8/6K1 b - - 3 2", 2),
    // Philidor's legacy after 1. Nf7+.
    ("5r1k/5Npp/8/8/2Q5/8/8/6K1 b - - 1 1", 3),
];

#[test]
fn mate_positions_are_what_they_claim() {
    let start = Instant::now();
    MATES.par_iter().for_each(|&(fen, n, key)| {
        let pos = Position::from_fen(fen, false).unwrap();
        let board = pos.board();
        let n = n as u32;
        assert!(!mates_within(board, n - 1), "{fen}: mate in fewer than {n}");
        let mating: Vec<String> = board
            .legal_moves()
            .iter()
            .filter(|&&m| move_mates_within(board, m, n))
            .map(|&m| move_to_uci(m, false))
            .collect();
        assert_eq!(mating, [key], "{fen}: moves that mate in {n}");
    });
    MATED.par_iter().for_each(|&(fen, n)| {
        let board = Position::from_fen(fen, false).unwrap().board().clone();
        let n = n as u32;
        assert!(mated_within(&board, n), "{fen}: not mated in {n}");
        assert!(
            !mated_within(&board, n - 1),
            "{fen}: mated in fewer than {n}"
        );
    });
    // The shorter ones are cheap enough for the minimax reference too.
    let by_minimax: Vec<(&str, i32)> = MATES
        .iter()
        .filter(|m| m.1 <= 3)
        .map(|m| (m.0, m.1))
        .chain(MATED.iter().filter(|m| m.1 <= 2).map(|m| (m.0, -m.1)))
        .collect();
    by_minimax.par_iter().for_each(|&(fen, n)| {
        let pos = Position::from_fen(fen, false).unwrap();
        // Mate in n: 2n - 1 plies; mated in n: 2n plies.
        let depth = if n > 0 { 2 * n - 1 } else { -2 * n } as usize;
        let v = Minimax::new(&pos).values(pos.board(), depth, 0);
        assert_eq!(Score::from_internal(v[depth]), Score::Mate(n), "{fen}");
    });
    println!("mate positions verified in {:.1?}", start.elapsed());
}

#[test]
fn finds_mates_with_the_full_engine() {
    let jobs: Vec<(&str, i32, Option<&str>, SearchLimits)> = MATES
        .iter()
        .flat_map(|&(fen, n, key)| {
            [
                SearchLimits {
                    mate: Some(n as u32),
                    ..Default::default()
                },
                depth_limit(2 * n as u32 + 1),
            ]
            .map(|limits| (fen, n, Some(key), limits))
        })
        .chain(MATED.iter().flat_map(|&(fen, n)| {
            [
                SearchLimits {
                    mate: Some(n as u32),
                    ..Default::default()
                },
                depth_limit(2 * n as u32 + 1),
            ]
            .map(|limits| (fen, -n, None, limits))
        }))
        .collect();
    let failures: Vec<String> = jobs
        .par_iter()
        .filter_map(|(fen, n, key, limits)| {
            let pos = Position::from_fen(fen, false).unwrap();
            let out = run(&pos, limits, SearchSettings::default(), 16, &|_| {});
            let score = out.score().map(Score::from_internal);
            let best = out.best().map(|m| move_to_uci(m, false));
            let ok_move = best
                .as_deref()
                .is_some_and(|b| key.is_none_or(|k| k == b) && pos.parse_move(b, false).is_ok());
            (score != Some(Score::Mate(*n)) || !ok_move).then(|| {
                format!(
                    "{fen} with {limits:?}: expected mate {n} by {key:?}, got {score:?} by {best:?} (depth {})",
                    out.depth()
                )
            })
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn quiescence_sees_a_quiet_mating_check() {
    // Qxa7 wins a knight, but Rd1 is then mate on the back rank. Rd1 is a
    // quiet move one ply past a depth-1 search: only the quiet checks of
    // the quiescence search see it (a captures-only one takes the knight).
    let pos = Position::from_fen("3r2k1/n4ppp/Q7/8/8/8/5PPP/6K1 w - - 0 1", false).unwrap();
    let out = run(
        &pos,
        &depth_limit(1),
        SearchSettings::default(),
        16,
        &|_| {},
    );
    let qxa7 = pos.parse_move("a6a7", false).unwrap();
    assert!(out.best().is_some());
    assert_ne!(out.best(), Some(qxa7), "walked into Rd1#");

    // Without extensions (which carry the quiet checks) the horizon hides it.
    let config = SearchConfig {
        extensions: false,
        ..SearchConfig::default()
    };
    let blind = run(&pos, &depth_limit(1), settings(config), 16, &|_| {});
    assert_eq!(blind.best(), Some(qxa7));
}

// ---------------------------------------------------------------------------
// 5–7: searchmoves, MultiPV, determinism
// ---------------------------------------------------------------------------

#[test]
fn searchmoves_restricts_the_root() {
    // White wins the queen with exd5; the search must still play Ke2 when
    // that is the only move it may consider.
    let pos = Position::from_fen("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1", false).unwrap();
    let free = run(
        &pos,
        &depth_limit(6),
        SearchSettings::default(),
        16,
        &|_| {},
    );
    let exd5 = pos.parse_move("e4d5", false).unwrap();
    assert_eq!(free.best(), Some(exd5));
    for only in ["e1e2", "e4e5"] {
        let m = pos.parse_move(only, false).unwrap();
        let limits = SearchLimits {
            searchmoves: vec![m],
            ..depth_limit(6)
        };
        let out = run(&pos, &limits, SearchSettings::default(), 16, &|_| {});
        assert_eq!(out.best(), Some(m), "searchmoves {only}");
        assert!(out.score().unwrap() < free.score().unwrap());
    }
    // Several moves: the best of them.
    let allowed: Vec<Move> = ["e1f2", "e1f1", "e4e5"]
        .iter()
        .map(|t| pos.parse_move(t, false).unwrap())
        .collect();
    let limits = SearchLimits {
        searchmoves: allowed.clone(),
        ..depth_limit(6)
    };
    let out = run(&pos, &limits, SearchSettings::default(), 16, &|_| {});
    assert!(allowed.contains(&out.best().unwrap()), "{:?}", out.best());

    // From the start position, with a move that is not the best.
    let start = Position::startpos();
    let best = run(
        &start,
        &depth_limit(5),
        SearchSettings::default(),
        16,
        &|_| {},
    )
    .best()
    .unwrap();
    let other = start
        .board()
        .legal_moves()
        .into_iter()
        .find(|&m| m != best)
        .unwrap();
    let limits = SearchLimits {
        searchmoves: vec![other],
        ..depth_limit(5)
    };
    let out = run(&start, &limits, SearchSettings::default(), 16, &|_| {});
    assert_eq!(out.best(), Some(other));
}

/// Orders scores as the engine does: mates for us on top, mated at the
/// bottom, the shorter the more extreme.
fn score_rank(s: Score) -> i32 {
    match s {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => MATE - (2 * n - 1),
        Score::Mate(n) => -MATE - 2 * n,
    }
}

#[test]
fn multipv_reports_distinct_lines() {
    let pos = Position::startpos();
    let reports = Mutex::new(Vec::<SearchInfo>::new());
    let settings = SearchSettings {
        multipv: 3,
        ..SearchSettings::default()
    };
    let out = run(&pos, &depth_limit(5), settings, 16, &|r| {
        if let SearchReport::Iteration(info) = r {
            reports.lock().unwrap().push(info);
        }
    });
    let reports = reports.into_inner().unwrap();
    assert_eq!(out.depth(), 5);
    let mut lines: Vec<Option<SearchInfo>> = vec![None; 3];
    for info in reports
        .iter()
        .filter(|i| i.line.depth == 5 && i.line.bound.is_none())
    {
        assert!((1..=3).contains(&info.multipv), "{info:?}");
        lines[info.multipv as usize - 1] = Some(info.clone());
    }
    let lines: Vec<SearchInfo> = lines
        .into_iter()
        .enumerate()
        .map(|(k, l)| l.unwrap_or_else(|| panic!("no depth-5 line {}", k + 1)))
        .collect();
    let firsts: Vec<Move> = lines.iter().map(|l| l.line.pv[0]).collect();
    for (k, m) in firsts.iter().enumerate() {
        assert!(pos.board().is_legal(*m), "line {}: {m:?}", k + 1);
        assert!(!firsts[..k].contains(m), "line {} repeats {m:?}", k + 1);
    }
    for pair in lines.windows(2) {
        assert!(
            score_rank(pair[0].score()) >= score_rank(pair[1].score()),
            "scores increase: {:?} then {:?}",
            pair[0].score(),
            pair[1].score()
        );
    }
    assert_eq!(out.best(), Some(firsts[0]));
    assert_eq!(
        Score::from_internal(out.score().unwrap()),
        lines[0].score(),
        "the outcome is line 1"
    );
}

#[test]
fn single_thread_search_is_deterministic() {
    let kiwipete = Position::from_fen(START_FENS[1], false).unwrap();
    let once = || {
        run(
            &kiwipete,
            &depth_limit(7),
            SearchSettings::default(),
            16,
            &|_| {},
        )
    };
    let (a, b) = (once(), once());
    assert_eq!(a.counters.nodes, b.counters.nodes);
    assert_eq!(a.best(), b.best());
    assert_eq!(a.score(), b.score());
    assert_eq!(a.line, b.line);
    assert!(kiwipete.board().is_legal(a.best().unwrap()));

    let two_threads = SearchSettings {
        threads: 2,
        ..SearchSettings::default()
    };
    // go depth caps every thread: a helper that runs ahead of the main
    // thread stops at the depth asked for, so the answer never comes from
    // deeper (it once did, depending on how the threads were scheduled).
    for _ in 0..8 {
        let out = run(&kiwipete, &depth_limit(7), two_threads, 16, &|_| {});
        assert!(kiwipete.board().is_legal(out.best().unwrap()));
        assert_eq!(out.depth(), 7);
    }
}
