//! Properties of the evaluation over many positions from random games, and
//! checks of single terms on hand-made positions.

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Position as _};

use super::accumulator::Sum;
use super::terms::{endgame, material, pawns};
use super::*;
use crate::chess::Position;
use crate::chess::random::RandomGame;
use crate::eval::endgame::known_win::KNOWN_WIN;

fn position(fen: &str) -> Chess {
    let fen: Fen = fen.parse().expect("test FEN parses");
    fen.into_position(CastlingMode::Standard)
        .expect("test FEN is legal")
}

/// About `games * plies` positions from random games out of a few starts.
fn random_positions(games: usize, plies: usize) -> Vec<Chess> {
    const STARTS: [&str; 5] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R b KQ - 3 9",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "4k3/pp3ppp/2n5/8/3B4/8/PPP2PPP/4K3 w - - 0 1",
    ];
    let mut out = Vec::new();
    for g in 0..games {
        let start = Position::from_fen(STARTS[g % STARTS.len()], false).expect("start FEN");
        let mut game = RandomGame::new(start, g as u64 + 1);
        while game.plies() < plies && game.step() {
            out.push(game.position().board().clone());
        }
    }
    out
}

fn mirrored(pos: &Chess) -> Chess {
    let mut setup = pos.to_setup(EnPassantMode::Legal);
    setup.mirror();
    setup
        .position(CastlingMode::Standard)
        .expect("the mirror of a legal position is legal")
}

fn fen(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

#[test]
fn start_position_is_level_but_for_tempo() {
    let e = evaluate(&Chess::default());
    assert_eq!(e, taper(weights::TEMPO, MAX_PHASE));
}

#[test]
fn evaluation_equals_coefficients_times_weights() {
    let weights = layout::all();
    let positions = random_positions(12, 100);
    assert!(positions.len() >= 1000);
    for pos in &positions {
        let coefs = coefficients(pos);
        assert_eq!(
            coefs.evaluate(&weights),
            evaluate_white(pos),
            "{}",
            fen(pos)
        );
    }
}

#[test]
fn pawn_cache_changes_no_evaluation() {
    let mut big = PawnCache::new();
    let mut tiny = PawnCache::with_entries(4);
    let positions = random_positions(12, 100);
    // Twice: the second round hits the big cache.
    for pos in positions.iter().chain(&positions) {
        let plain = evaluate(pos);
        assert_eq!(evaluate_cached(pos, &mut big), plain, "{}", fen(pos));
        assert_eq!(evaluate_cached(pos, &mut tiny), plain, "{}", fen(pos));
    }
}

#[test]
fn cheap_part_and_rest_make_the_whole_evaluation() {
    let mut cache = PawnCache::new();
    let mut checked = (0, 0);
    for pos in random_positions(12, 100) {
        let partial = partial_cached(&pos, &mut cache);
        assert_eq!(complete(&pos, partial), evaluate(&pos), "{}", fen(&pos));
        if partial.is_exact() {
            checked.0 += 1;
            assert_eq!(partial.estimate(), evaluate(&pos), "{}", fen(&pos));
            continue;
        }
        checked.1 += 1;
        // The cheap part is the evaluation with only the pawn cache's, the
        // piece counts' and the pieces' material and table terms, tapered.
        let board = pos.board();
        let mut acc = Sum::default();
        terms::pawn_terms(board, &mut acc);
        terms::count_terms(board, &mut acc);
        material::pieces(board, &mut acc);
        let white = taper(acc.total(), phase(board));
        let stm = if pos.turn() == Color::White {
            white
        } else {
            -white
        };
        assert_eq!(partial.estimate(), stm, "{}", fen(&pos));
    }
    assert!(checked.1 > 1000, "{checked:?}");
    for fen in [
        "7k/8/5K2/8/8/8/8/2B2N2 w - - 0 1",
        "4k3/8/4K3/8/8/8/8/7R b - - 0 1",
    ] {
        let pos = position(fen);
        let partial = partial_cached(&pos, &mut cache);
        assert!(partial.is_exact(), "{fen}");
        assert_eq!(partial.estimate(), evaluate(&pos), "{fen}");
    }
}

#[test]
fn mirrored_position_has_same_eval() {
    for pos in random_positions(12, 100) {
        assert_eq!(evaluate(&pos), evaluate(&mirrored(&pos)), "{}", fen(&pos));
    }
}

#[test]
fn trace_ends_with_the_evaluation_for_white() {
    for pos in random_positions(3, 60) {
        let text = trace(&pos);
        let last = text.lines().last().unwrap();
        assert_eq!(
            last,
            format!(
                "Hand-crafted evaluation: {} (white side; its own centipawns, which score cp \
                 shows as they are)",
                evaluate_white(&pos)
            )
        );
    }
}

#[test]
fn trace_has_a_row_per_term_and_a_total() {
    let text = trace(&position(
        "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R b KQ - 3 9",
    ));
    for term in Term::ALL {
        assert!(
            text.lines()
                .any(|l| l.trim_start().starts_with(term.name())),
            "{text}"
        );
    }
    assert!(text.contains("       Total |"), "{text}");
    assert!(text.contains("Phase: 24 of 24"), "{text}");
}

/// The coefficient of `index` in `fen`.
fn coef(fen: &str, index: usize) -> i16 {
    coefficients(&position(fen))
        .features
        .iter()
        .find(|&&(i, _)| i as usize == index)
        .map_or(0, |&(_, c)| c)
}

#[test]
fn pawn_structure_terms_count_what_they_name() {
    use layout as w;
    // White: a4 isolated, c3/c2 doubled and isolated, e4/f4 a phalanx;
    // Black: g6 supported by h7.
    let fen = "4k3/7p/6p1/8/P3PP2/2P5/2P5/4K3 w - - 0 1";
    assert_eq!(coef(fen, w::DOUBLED_PAWN), 1);
    assert_eq!(coef(fen, w::ISOLATED_PAWN), 3);
    assert_eq!(coef(fen, w::PHALANX_PAWN.at(3)), 2);
    assert_eq!(coef(fen, w::SUPPORTED_PAWN.at(2)), -1);
    // d3 is backward: c4 has gone past it and e5 hits d4.
    let backward = "4k3/8/8/4p3/2P5/3P4/8/4K3 w - - 0 1";
    assert_eq!(coef(backward, w::BACKWARD_PAWN), 1);
    // Not backward: d4 not attacked, or a neighbour level with it.
    for fen in [
        "4k3/8/8/3p4/2P1P3/3P4/8/4K3 w - - 0 1",
        "4k3/8/2p5/8/2P1P3/3P4/8/4K3 w - - 0 1",
        "4k3/8/8/4p3/2P5/2PP4/8/4K3 w - - 0 1",
    ] {
        assert_eq!(coef(fen, w::BACKWARD_PAWN), 0, "{fen}");
    }
}

#[test]
fn passed_pawns_are_found_and_scored_by_rank() {
    use layout as w;
    // White a6 passed (rank index 5), Black h3 passed (rank index 5 for
    // Black); the e-pawns block each other.
    let fen = "4k3/8/P3p3/4P3/8/7p/8/4K3 w - - 0 1";
    assert_eq!(coef(fen, w::PASSED_PAWN.at(5)), 0);
    let fen = "4k3/8/P3p3/4P3/8/8/7p/4K3 w - - 0 1";
    assert_eq!(coef(fen, w::PASSED_PAWN.at(5)), 1);
    assert_eq!(coef(fen, w::PASSED_PAWN.at(6)), -1);
    // a7 with its path free; Black's h2 is blockaded by a white rook.
    let fen = "4k3/8/P7/8/8/8/7p/4K2R w - - 0 1";
    assert_eq!(coef(fen, w::PASSED_FREE_PATH.at(5)), 1);
    assert_eq!(coef(fen, w::PASSED_BLOCKED.at(6)), -1);
}

#[test]
fn material_that_cannot_mate_is_a_draw() {
    for fen in [
        "8/8/4k3/8/8/3NK3/8/8 w - - 0 1",
        "8/8/4k3/8/8/3BK3/8/8 b - - 0 1",
        "8/8/4k3/8/8/2NNK3/8/8 w - - 0 1",
    ] {
        assert_eq!(evaluate(&position(fen)), 0, "{fen}");
    }
    // A rook mates: not scaled.
    assert!(evaluate(&position("8/8/4k3/8/8/3RK3/8/8 w - - 0 1")) > 300);
}

#[test]
fn opposite_bishops_and_pawnless_edges_are_scaled_down() {
    let scale = |fen: &str| {
        let pos = position(fen);
        let passed = pawns::structure(pos.board(), &mut Sum::default());
        endgame::scale_factor(pos.board(), passed, Color::White)
    };
    // Bishops on d7 (light) and e3 (dark), no passed pawn.
    assert_eq!(scale("8/3b1k2/8/1p6/1P6/4B3/5K2/8 w - - 0 1"), 16);
    // The same with a white passed pawn on h4.
    assert_eq!(scale("8/3b1k2/8/1p6/1P5P/4B3/5K2/8 w - - 0 1"), 24);
    // Bishops on the same colour: only the few-pawns rule, 36 + 7 per pawn.
    assert_eq!(scale("8/5k2/3b4/1p6/1P6/4B3/5K2/8 w - - 0 1"), 43);
    // Four pawns or more: no scaling.
    assert_eq!(
        scale("8/5k2/3b4/1pp5/1P6/4B3/PPP2K2/8 w - - 0 1"),
        SCALE_NORMAL
    );
    // Three pawns up, a piece each, no queens: scaled up.
    assert_eq!(scale("8/5k2/3b4/1p6/1P6/4B3/PPP2K2/8 w - - 0 1"), 72);
    // A lone queen against rook and knight: scaled down.
    assert_eq!(scale("4k3/p7/3rn3/8/8/8/P2Q4/4K3 w - - 0 1"), 44);
    // Against one piece: the few-pawns rule only.
    assert_eq!(scale("4k3/p7/3r4/8/8/8/P2Q4/4K3 w - - 0 1"), 43);
    // The wrong bishop for the a-pawn, the king in the corner: a draw; the
    // right bishop, or the king away: the few-pawns rule only.
    assert_eq!(scale("k7/8/8/P7/8/8/8/2B1K3 w - - 0 1"), 0);
    assert_eq!(scale("k7/8/8/P7/8/8/8/4KB2 w - - 0 1"), 43);
    assert_eq!(scale("8/8/6k1/P7/8/8/8/2B1K3 w - - 0 1"), 43);
    // Rook against bishop, no pawns.
    assert_eq!(scale("8/5k2/3b4/8/8/4R3/5K2/8 w - - 0 1"), 8);
}

#[test]
fn king_danger_counts_attackers_weak_squares_and_safe_checks() {
    use super::terms::danger::Feature as F;
    // Black's queen and knight attack White's king area (f1-h4): the queen
    // hits f2, the knight f2 and g3. f2 is defended by the king alone
    // (weak); g3 twice, by pawns. The queen checks safely on d1 and a1 and,
    // as f2 is weak and doubly attacked, by taking on f2. Nothing attacks Black's
    // king: no danger count there.
    let fen = "6k1/5ppp/8/8/3qn3/8/5PPP/6K1 w - - 0 1";
    let c = coefficients(&position(fen));
    let white = c.danger[Color::White as usize];
    let expect = |f: F, n: i16| assert_eq!(white[f as usize], n, "{f:?}");
    expect(F::KnightAttackers, 2);
    expect(F::BishopAttackers, 0);
    expect(F::QueenAttackers, 2);
    expect(F::AreaHits, 3);
    expect(F::WeakSquares, 1);
    expect(F::KnightChecks, 0);
    expect(F::QueenChecks, 3);
    expect(F::ShelterPawns, 2);
    expect(F::MinorGuards, 0);
    expect(F::NoQueen, 0);
    expect(F::Constant, 1);
    assert_eq!(
        c.danger[Color::Black as usize],
        [0; crate::eval::DANGER_FEATURES]
    );
    // One attacker counts only with a queen on the board.
    let lone_knight = "6k1/5ppp/8/8/4n3/8/5PPP/6K1 w - - 0 1";
    let c = coefficients(&position(lone_knight));
    assert_eq!(c.danger[Color::White as usize][F::Constant as usize], 0);
    let lone_queen = "6k1/5ppp/8/8/3q4/8/5PPP/6K1 w - - 0 1";
    let c = coefficients(&position(lone_queen));
    assert_eq!(c.danger[Color::White as usize][F::Constant as usize], 1);
    assert_eq!(
        c.danger[Color::White as usize][F::QueenAttackers as usize],
        1
    );
}

#[test]
fn material_balance_counts_the_material_weights_only() {
    assert_eq!(material_balance(&Chess::default()), 0);
    // White has an extra knight: the knight's weight at this phase, from
    // White's side and, with Black to move, from Black's.
    let up_a_knight = position("4k3/pppppppp/8/8/8/8/PPPPPPPP/1N2K3 w - - 0 1");
    let knight = taper(weights::MATERIAL[1], 1);
    assert_eq!(material_balance(&up_a_knight), knight);
    let black_to_move = position("4k3/pppppppp/8/8/8/8/PPPPPPPP/1N2K3 b - - 0 1");
    assert_eq!(material_balance(&black_to_move), -knight);
    for pos in random_positions(4, 60) {
        assert_eq!(
            material_balance(&pos),
            material_balance(&mirrored(&pos)),
            "{}",
            fen(&pos)
        );
    }
}

#[test]
fn known_wins_replace_the_terms_in_evaluation_trace_and_mirror() {
    let weights = layout::all();
    for fen in [
        "7k/8/5K2/8/8/8/8/2B2N2 w - - 0 1",
        "8/k7/8/7n/2K5/b7/8/8 w - - 0 1",
        "4k3/8/4K3/8/8/8/8/7R b - - 0 1",
        "8/8/8/3k4/8/8/2Q5/6K1 w - - 0 1",
    ] {
        let pos = position(fen);
        let coefs = coefficients(&pos);
        let win = coefs.known_win.expect("a known win");
        assert!(win.abs() > KNOWN_WIN, "{fen}");
        assert_eq!(coefs.evaluate(&weights), evaluate_white(&pos), "{fen}");
        assert_eq!(evaluate_white(&pos), win, "{fen}");
        assert!(trace(&pos).contains(&format!("Hand-crafted evaluation: {win} (white side; ")));
        assert!(trace(&pos).contains("Known win against a bare king"));
        assert_eq!(evaluate(&pos), evaluate(&mirrored(&pos)), "{fen}");
    }
}

#[test]
fn new_passed_pawn_terms_count_what_they_name() {
    use layout as w;
    // a6 runs: the black king on e8 is outside its square, and no black
    // piece attacks a7 or a8.
    let runner = "4k3/8/P7/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(coef(runner, w::PASSED_UNSTOPPABLE), 1);
    assert_eq!(coef(runner, w::PASSED_SAFE_STOP.at(5)), 1);
    assert_eq!(coef(runner, w::PASSED_SAFE_PATH.at(5)), 1);
    assert_eq!(coef(runner, w::PASSED_DEFENDED_STOP.at(5)), 0);
    // The king on b8 catches it and guards a7; with Black to move, one
    // square further off still catches it.
    let caught = "1k6/8/P7/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(coef(caught, w::PASSED_UNSTOPPABLE), 0);
    assert_eq!(coef(caught, w::PASSED_SAFE_STOP.at(5)), 0);
    assert_eq!(
        coef("5k2/8/8/8/P7/8/8/4K3 w - - 0 1", w::PASSED_UNSTOPPABLE),
        1
    );
    assert_eq!(
        coef("5k2/8/8/8/P7/8/8/4K3 b - - 0 1", w::PASSED_UNSTOPPABLE),
        0
    );
    // Rooks behind the pawn: White's, or Black's.
    assert_eq!(
        coef(
            "4k3/8/P7/8/8/8/8/R3K3 w - - 0 1",
            w::ROOK_BEHIND_PASSER.at(0)
        ),
        1
    );
    assert_eq!(
        coef(
            "4k3/8/P7/8/8/8/8/r3K3 w - - 0 1",
            w::ROOK_BEHIND_PASSER.at(1)
        ),
        1
    );
    // c4: one stopper (d6), one helper (b3): a candidate on the 4th rank.
    let candidate = "4k3/8/p2p4/8/2P5/1P6/8/4K3 w - - 0 1";
    assert_eq!(coef(candidate, w::CANDIDATE_PASSER.at(3)), 1);
    assert_eq!(coef(candidate, w::CANDIDATE_PASSER.at(2)), 0);
}

#[test]
fn new_piece_terms_count_what_they_name() {
    use layout as w;
    // The knight on c3 can reach the outpost d5 (defended by e4), two
    // squares from its king.
    let knight = "4k3/8/8/8/4P3/2N5/8/4K3 w - - 0 1";
    assert_eq!(coef(knight, w::KNIGHT_REACHABLE_OUTPOST), 1);
    assert_eq!(coef(knight, w::KNIGHT_OUTPOST), 0);
    assert_eq!(coef(knight, w::KNIGHT_KING_DISTANCE), 2);
    // The dark bishop on c1, own pawns on d2 (blocked by the knight) and e3.
    let bishop = "4k3/8/8/8/8/3NP3/3P4/2B1K3 w - - 0 1";
    assert_eq!(coef(bishop, w::BISHOP_PAWNS.at(0)), 2);
    assert_eq!(coef(bishop, w::BISHOP_PAWNS.at(1)), 1);
    // g2 sees e4 and d5; a knight on d4 behind the d5 pawn.
    assert_eq!(
        coef("4k3/8/8/8/8/8/6B1/4K3 w - - 0 1", w::BISHOP_LONG_DIAGONAL),
        1
    );
    assert_eq!(
        coef("4k3/8/8/3P4/3N4/8/8/4K3 w - - 0 1", w::KNIGHT_BEHIND_PAWN),
        1
    );
    // The rook on g1 is shut in by the king on f1 and cannot castle: twice.
    assert_eq!(coef("4k3/8/8/8/8/8/6PP/5KR1 w - - 0 1", w::ROOK_TRAPPED), 2);
    assert_eq!(
        coef("3qk3/8/8/8/8/8/8/3RK3 w - - 0 1", w::ROOK_ON_QUEEN_FILE),
        1
    );
}

#[test]
fn new_threats_king_zone_space_and_imbalance_count_what_they_name() {
    use layout as w;
    // d4-d5 would attack the knight on c6.
    assert_eq!(
        coef("4k3/8/2n5/8/3P4/8/8/4K3 w - - 0 1", w::THREAT_PAWN_PUSH),
        1
    );
    // The king attacks the loose pawn on d2.
    assert_eq!(
        coef("4k3/8/8/8/8/8/3p4/4K3 w - - 0 1", w::THREAT_BY_KING),
        1
    );
    // White: 8 safe squares of c2-f4, all 8 behind its pawns: 16, with 5
    // pieces and pawns. Black: 8 (c5-f5 attacked by White's pawns), 1 piece.
    let space = "4k3/8/8/8/2PPPP2/8/8/4K3 w - - 0 1";
    assert_eq!(coef(space, w::SPACE.at(4)), 16);
    assert_eq!(coef(space, w::SPACE.at(0)), -8);
    // A knight: knights squared; against a pawn: knights times pawns.
    let imbalance = "4k3/p7/8/8/8/8/8/1N2K3 w - - 0 1";
    assert_eq!(coef(imbalance, w::IMBALANCE_OURS.at(5)), 1);
    assert_eq!(coef(imbalance, w::IMBALANCE_THEIRS.at(2)), 1);
    assert_eq!(coef(imbalance, w::IMBALANCE_OURS.at(2)), -1);
}

#[test]
fn batteries_and_trapped_bishops_count_what_they_name() {
    use layout as w;
    // Rooks doubled on the open d-file: counted once, by the rear rook.
    let rooks = "4k3/pp3ppp/8/8/8/8/PP1R1PPP/3R2K1 w - - 0 1";
    assert_eq!(coef(rooks, w::BATTERY.at(0)), 1);
    // The same with a white pawn on d4 in front: no battery.
    assert_eq!(
        coef(
            "4k3/pp3ppp/8/8/3P4/8/PP1R1PPP/3R2K1 w - - 0 1",
            w::BATTERY.at(0)
        ),
        0
    );
    // Queen behind a rook on the half-open c-file (Black: rook e8, queen
    // e7 is a battery too, in front of the queen from Black's side).
    let queen = "4r1k1/pp2qppp/8/2p5/8/8/PPR2PPP/2Q3K1 w - - 0 1";
    assert_eq!(coef(queen, w::BATTERY.at(1)), 0);
    assert_eq!(
        coef(
            "6k1/pp3ppp/8/2p5/8/8/PPR2PPP/2Q3K1 w - - 0 1",
            w::BATTERY.at(1)
        ),
        1
    );
    // Queen c2 and bishop d3 aimed at h7, beside Black's king on g8.
    let diagonal = "6k1/5ppp/8/8/8/3B4/2Q2PPP/6K1 w - - 0 1";
    assert_eq!(coef(diagonal, w::BATTERY.at(2)), 1);
    // Aimed away from the king (king on b8): no.
    assert_eq!(
        coef("1k6/5ppp/8/8/8/3B4/2Q2PPP/6K1 w - - 0 1", w::BATTERY.at(2)),
        0
    );
    // The bishop took on a7 and ...b6 (defended by c7) shut it in.
    let trapped = "4k3/2p5/1p6/8/8/8/B7/4K3 w - - 0 1";
    assert_eq!(coef(trapped, w::BISHOP_TRAPPED), 0);
    let trapped = "4k3/B1p5/1p6/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(coef(trapped, w::BISHOP_TRAPPED), 1);
    // b6 undefended: not trapped. Black's bishop on h2 with g3 held by f2.
    assert_eq!(
        coef("4k3/B7/1p6/8/8/8/8/4K3 w - - 0 1", w::BISHOP_TRAPPED),
        0
    );
    assert_eq!(
        coef("4k3/8/8/8/8/6P1/5P1b/4K3 w - - 0 1", w::BISHOP_TRAPPED),
        -1
    );
}

#[test]
fn drawish_rook_endings_are_scaled_down() {
    let scale = |fen: &str, color: Color| {
        let pos = position(fen);
        let passed = pawns::structure(pos.board(), &mut Sum::default());
        endgame::scale_factor(pos.board(), passed, color)
    };
    // Four pawns against three on the king's wing, Black's king beside
    // its pawns: a drawish rook ending.
    let rook_ending = "6k1/5pp1/7p/8/4P3/5PPP/r7/3R2K1 w - - 0 1";
    assert_eq!(scale(rook_ending, Color::White), 36);
    // The black king far from its pawns: only the few-pawns rule (36 + 7
    // per pawn: four pawns keep everything).
    assert_eq!(
        scale("8/5pp1/7p/1k6/4P3/5PPP/r7/3R2K1 w - - 0 1", Color::White),
        SCALE_NORMAL
    );
    // Three pawns each: 36 + 7 * 3, whether on one wing or not.
    assert_eq!(
        scale("6k1/5ppp/4n3/8/8/4B3/5PPP/6K1 w - - 0 1", Color::White),
        57
    );
    // Pawns on both wings: neither rule; four pawns keep everything.
    assert_eq!(
        scale("6k1/p4pp1/7p/8/4P3/P4PPP/r7/3R2K1 w - - 0 1", Color::White),
        SCALE_NORMAL
    );
}

#[test]
fn king_danger_counts_pins_discoveries_unsafe_checks_and_the_flank() {
    use super::terms::danger::Feature as F;
    // White's king on g1. Black's bishop on a7 pins the f2 pawn; Black's
    // knight on g5 alone stands between the king and Black's rook on g7
    // (a discovered check); the bishop's capture on f2 would check but the
    // king defends f2 (an unsafe check); the h4 pawn storms the king's
    // flank (files e–h, ranks 1–5). Knight and bishop attack the area.
    let fen = "6k1/b5r1/8/6n1/7p/8/5P1P/6K1 w - - 0 1";
    let c = coefficients(&position(fen));
    let white = c.danger[Color::White as usize];
    let expect = |f: F, n: i16| assert_eq!(white[f as usize], n, "{f:?}");
    expect(F::Constant, 1);
    expect(F::NoQueen, 1);
    expect(F::PinnedPieces, 1);
    expect(F::DiscoveredChecks, 1);
    expect(F::UnsafeChecks, 1);
    expect(F::KnightChecks, 2);
    expect(F::FlankStorm, 1);
    // Black attacks g3 (pawn), e4, f3 and h3 (knight), e3 and f2 (bishop)
    // and g5 (rook, behind its knight) on the flank, none twice; White's
    // king and pawns attack f1, f2, g2, h1, h2, e3 and g3 there.
    expect(F::FlankAttacks, 7);
    expect(F::FlankDefence, 7);
}
