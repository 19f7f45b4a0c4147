//! Static evaluation: a tapered hand-set evaluation, from the side to move's
//! point of view.
//!
//! Every term has a midgame and an endgame value ([`S`]); the two are blended
//! by the game phase (24 = all minor and major pieces on the board, 0 = none).
//! Terms are computed per colour from that colour's point of view (ranks
//! relative to it), so the evaluation of a position and its colour-mirrored
//! twin agree by construction. The weights are hand-set starting values: the
//! evaluation issue fits them to data.

use shakmaty::attacks::{
    bishop_attacks, king_attacks, knight_attacks, queen_attacks, rook_attacks,
};
use shakmaty::{Bitboard, Board, Chess, Color, File, Position as _, Role, Square};

/// A midgame/endgame pair of centipawn values.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct S(pub i32, pub i32);

impl std::ops::Add for S {
    type Output = S;
    fn add(self, o: S) -> S {
        S(self.0 + o.0, self.1 + o.1)
    }
}
impl std::ops::AddAssign for S {
    fn add_assign(&mut self, o: S) {
        self.0 += o.0;
        self.1 += o.1;
    }
}
impl std::ops::Sub for S {
    type Output = S;
    fn sub(self, o: S) -> S {
        S(self.0 - o.0, self.1 - o.1)
    }
}
impl std::ops::Mul<i32> for S {
    type Output = S;
    fn mul(self, k: i32) -> S {
        S(self.0 * k, self.1 * k)
    }
}

/// Material, pawn to queen.
pub const MATERIAL: [S; 5] = [
    S(90, 115),
    S(320, 300),
    S(335, 320),
    S(470, 530),
    S(950, 1000),
];
/// Phase weight of each piece type, pawn to queen (the sum at the start is 24).
pub const PHASE_WEIGHTS: [i32; 5] = [0, 1, 1, 2, 4];
/// Phase of the full set of pieces.
pub const MAX_PHASE: i32 = 24;
/// Bonus for the side to move.
pub const TEMPO: S = S(12, 6);
/// Both bishops.
pub const BISHOP_PAIR: S = S(30, 55);
/// A second pawn on a file.
pub const DOUBLED_PAWN: S = S(-10, -22);
/// A pawn with no friendly pawn on the neighbouring files.
pub const ISOLATED_PAWN: S = S(-12, -14);
/// A passed pawn, by relative rank (index 1 = second rank).
pub const PASSED_PAWN: [S; 8] = [
    S(0, 0),
    S(0, 8),
    S(4, 12),
    S(10, 22),
    S(22, 40),
    S(40, 70),
    S(65, 115),
    S(0, 0),
];
/// A rook on a file with no pawns.
pub const ROOK_OPEN_FILE: S = S(28, 10);
/// A rook on a file with only enemy pawns.
pub const ROOK_HALF_OPEN_FILE: S = S(13, 6);
/// Mobility per reachable square beyond the typical count, per piece type
/// (knight, bishop, rook, queen), and that typical count.
pub const MOBILITY: [(S, i32); 4] = [(S(4, 4), 4), (S(5, 5), 6), (S(2, 5), 7), (S(1, 2), 13)];
/// A friendly pawn in front of the castled king (midgame).
pub const KING_SHELTER_PAWN: S = S(14, 0);
/// Weight of each enemy piece type attacking the king zone (knight..queen).
pub const KING_ATTACK_WEIGHT: [i32; 4] = [2, 2, 3, 5];
/// Attack units → midgame penalty: units² / this.
pub const KING_ATTACK_DIVISOR: i32 = 4;

/// Names of the terms, in the order [`terms`] returns them.
pub const TERM_NAMES: [&str; 8] = [
    "Material",
    "Placement",
    "Mobility",
    "Pawns",
    "Bishops",
    "Rooks",
    "King safety",
    "Tempo",
];

fn relative_rank(color: Color, sq: Square) -> i32 {
    let r = sq.rank() as i32;
    if color == Color::White { r } else { 7 - r }
}

/// Distance from the four centre squares, 0 (centre) to 3 (edge).
fn centre_distance(sq: Square) -> i32 {
    let f = sq.file() as i32;
    let r = sq.rank() as i32;
    let df = if f < 4 { 3 - f } else { f - 4 };
    let dr = if r < 4 { 3 - r } else { r - 4 };
    df.max(dr)
}

/// Piece placement by rule of thumb: centralisation, pawn advance, a safe
/// king in the midgame and an active one in the endgame.
fn placement(color: Color, role: Role, sq: Square) -> S {
    let rank = relative_rank(color, sq);
    let centre = 3 - centre_distance(sq);
    let file = sq.file() as i32;
    let central_file = i32::from(file == 3 || file == 4);
    match role {
        Role::Pawn => S(rank * 3 + central_file * rank * 4 - 6, rank * 6 - 6),
        Role::Knight => S(
            centre * 10 - 15 + i32::from(rank == 0) * -10,
            centre * 8 - 12,
        ),
        Role::Bishop => S(centre * 5 - 5 + i32::from(rank == 0) * -8, centre * 4 - 6),
        Role::Rook => S(
            i32::from(rank == 6) * 18 + central_file * 4,
            i32::from(rank == 6) * 10,
        ),
        Role::Queen => S(centre * 2 - 3, centre * 5 - 8),
        Role::King => {
            let sheltered = i32::from(rank == 0) * if file <= 2 || file >= 6 { 25 } else { 0 };
            S(sheltered - rank * 18, centre * 12 - 20)
        }
    }
}

/// [`placement`] for every colour, piece type and square, computed once.
static PLACEMENT: std::sync::LazyLock<[[[S; 64]; 6]; 2]> = std::sync::LazyLock::new(|| {
    let mut t = [[[S::default(); 64]; 6]; 2];
    for color in Color::ALL {
        for (r, role) in Role::ALL.into_iter().enumerate() {
            for sq in Square::ALL {
                t[color as usize][r][sq as usize] = placement(color, role, sq);
            }
        }
    }
    t
});

fn file_mask(file: File) -> Bitboard {
    Bitboard::from_file(file)
}

/// The files beside each file.
const ADJACENT_FILES: [u64; 8] = {
    let mut t = [0u64; 8];
    let mut f = 0;
    while f < 8 {
        let file = 0x0101_0101_0101_0101u64 << f;
        t[f] = (if f > 0 { file >> 1 } else { 0 }) | (if f < 7 { file << 1 } else { 0 });
        f += 1;
    }
    t
};

/// `FRONT_SPAN[color][square]`: squares ahead of the square (from that
/// colour's side) on its own and the neighbouring files.
const FRONT_SPAN: [[u64; 64]; 2] = {
    let mut t = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = (sq % 8, sq / 8);
        let files = (0x0101_0101_0101_0101u64 << f) | ADJACENT_FILES[f];
        let white_ahead = if r < 7 { u64::MAX << (8 * (r + 1)) } else { 0 };
        let black_ahead = (1u64 << (8 * r)) - 1;
        t[0][sq] = files & black_ahead;
        t[1][sq] = files & white_ahead;
        sq += 1;
    }
    t
};

fn adjacent_files(file: File) -> Bitboard {
    Bitboard(ADJACENT_FILES[file as usize])
}

/// Squares in front of `sq` (from `color`'s view) on the same and the
/// neighbouring files.
fn front_span(color: Color, sq: Square) -> Bitboard {
    Bitboard(FRONT_SPAN[color as usize][sq as usize])
}

/// Squares attacked by the pawns of `color`.
fn pawn_attack_span(color: Color, pawns: Bitboard) -> Bitboard {
    let p = pawns.0;
    let (not_a, not_h) = (!0x0101_0101_0101_0101u64, !0x8080_8080_8080_8080u64);
    Bitboard(match color {
        Color::White => ((p & not_a) << 7) | ((p & not_h) << 9),
        Color::Black => ((p & not_a) >> 9) | ((p & not_h) >> 7),
    })
}

fn attacks_of(role: Role, sq: Square, occupied: Bitboard) -> Bitboard {
    match role {
        Role::Knight => knight_attacks(sq),
        Role::Bishop => bishop_attacks(sq, occupied),
        Role::Rook => rook_attacks(sq, occupied),
        Role::Queen => queen_attacks(sq, occupied),
        _ => Bitboard::EMPTY,
    }
}

/// Every term for both colours: `terms[t][color]`, each from that colour's
/// point of view.
pub fn terms(board: &Board) -> [[S; 2]; 8] {
    let mut t = [[S::default(); 2]; 8];
    let occupied = board.occupied();
    let placement_table = &*PLACEMENT;
    for color in Color::ALL {
        let c = color as usize;
        let us = board.by_color(color);
        let them = board.by_color(!color);
        let our_pawns = board.pawns() & us;
        let their_pawns = board.pawns() & them;
        let pawn_attacked = pawn_attack_span(!color, their_pawns);
        let their_king = board.king_of(!color);
        let king_zone = their_king.map_or(Bitboard::EMPTY, |k| {
            king_attacks(k) | Bitboard::from_square(k)
        });
        let mut attack_units = 0;
        let mut attackers = 0;

        for (i, role) in [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
            Role::King,
        ]
        .into_iter()
        .enumerate()
        {
            for sq in board.by_role(role) & us {
                if i < 5 {
                    t[0][c] += MATERIAL[i];
                }
                t[1][c] += placement_table[c][i][sq as usize];
                if (1..5).contains(&i) {
                    let attacks = attacks_of(role, sq, occupied);
                    let (per_square, typical) = MOBILITY[i - 1];
                    let reach = (attacks & !us & !pawn_attacked).count() as i32;
                    t[2][c] += per_square * (reach - typical);
                    let on_king = (attacks & king_zone).count() as i32;
                    if on_king > 0 {
                        attack_units += KING_ATTACK_WEIGHT[i - 1] * on_king;
                        attackers += 1;
                    }
                }
            }
        }

        // Pawn structure.
        for sq in our_pawns {
            let file = file_mask(sq.file());
            if (our_pawns & file).count() > 1 && (front_span(color, sq) & file & our_pawns).any() {
                t[3][c] += DOUBLED_PAWN;
            }
            if (our_pawns & adjacent_files(sq.file())).is_empty() {
                t[3][c] += ISOLATED_PAWN;
            }
            if (front_span(color, sq) & their_pawns).is_empty()
                && (front_span(color, sq) & file & our_pawns).is_empty()
            {
                t[3][c] += PASSED_PAWN[relative_rank(color, sq) as usize];
            }
        }

        // Bishop pair.
        if (board.bishops() & us).count() >= 2 {
            t[4][c] += BISHOP_PAIR;
        }

        // Rooks on open and half-open files.
        for sq in board.rooks() & us {
            let file = file_mask(sq.file());
            if (board.pawns() & file).is_empty() {
                t[5][c] += ROOK_OPEN_FILE;
            } else if (our_pawns & file).is_empty() {
                t[5][c] += ROOK_HALF_OPEN_FILE;
            }
        }

        // King safety: our pawn shelter, and the enemy's pressure on our
        // king (scored for the attacker, as a penalty for us below).
        if let Some(king) = board.king_of(color) {
            let shelter = front_span(color, king)
                & our_pawns
                & (king_attacks(king)
                    | king_attacks(king).shift(if color == Color::White { 8 } else { -8 }));
            t[6][c] += KING_SHELTER_PAWN * shelter.count().min(3) as i32;
        }
        if attackers >= 2 && (board.queens() & us).any() {
            let penalty = attack_units * attack_units / KING_ATTACK_DIVISOR;
            t[6][c] += S(penalty, 0);
        }
    }
    t
}

/// The game phase, 0 (no pieces) to [`MAX_PHASE`].
pub fn phase(board: &Board) -> i32 {
    let roles = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
    ];
    let p: i32 = roles
        .iter()
        .zip(PHASE_WEIGHTS)
        .map(|(&r, w)| board.by_role(r).count() as i32 * w)
        .sum();
    p.min(MAX_PHASE)
}

/// Blends a midgame/endgame pair by phase.
pub fn taper(s: S, phase: i32) -> i32 {
    (s.0 * phase + s.1 * (MAX_PHASE - phase)) / MAX_PHASE
}

/// The evaluation for White, in centipawns (tempo for the side to move
/// included).
pub fn evaluate_white(board: &Chess) -> i32 {
    let b = board.board();
    let t = terms(b);
    let mut total = S::default();
    for term in &t {
        total += term[Color::White as usize] - term[Color::Black as usize];
    }
    total += if board.turn() == Color::White {
        TEMPO
    } else {
        TEMPO * -1
    };
    taper(total, phase(b))
}

/// The evaluation from the side to move's point of view.
pub fn evaluate(board: &Chess) -> i32 {
    let white = evaluate_white(board);
    if board.turn() == Color::White {
        white
    } else {
        -white
    }
}

/// A human-readable breakdown for the UCI `eval` command, like Stockfish's
/// classical trace. The last line is `Final evaluation: <cp> (white side)`.
pub fn trace(board: &Chess) -> String {
    let b = board.board();
    let t = terms(b);
    let ph = phase(b);
    let mut out = format!("Phase: {ph}/{MAX_PHASE}\n\n");
    out.push_str("     Term    |    White    |    Black    |    Total\n");
    out.push_str("             |   MG    EG  |   MG    EG  |   MG    EG\n");
    out.push_str(" ------------+-------------+-------------+------------\n");
    let mut row = |name: &str, w: S, bl: S| {
        let d = w - bl;
        out.push_str(&format!(
            "{name:>12} | {:>5} {:>5} | {:>5} {:>5} | {:>5} {:>5}\n",
            w.0, w.1, bl.0, bl.1, d.0, d.1
        ));
    };
    for (i, name) in TERM_NAMES.iter().enumerate() {
        let (w, bl) = if i == 7 {
            if board.turn() == Color::White {
                (TEMPO, S::default())
            } else {
                (S::default(), TEMPO)
            }
        } else {
            (t[i][Color::White as usize], t[i][Color::Black as usize])
        };
        row(name, w, bl);
    }
    out.push_str(" ------------+-------------+-------------+------------\n\n");
    out.push_str(&format!(
        "Final evaluation: {} (white side)",
        evaluate_white(board)
    ));
    out
}

/// Centipawn value of a role for simple uses (pawn 100 … queen 900, king 0).
pub fn piece_value(role: Role) -> i32 {
    [100, 320, 330, 500, 900, 0][role as usize - 1]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    #[test]
    fn start_position_is_level_but_for_tempo() {
        let e = evaluate(&Chess::default());
        assert_eq!(e, taper(TEMPO, MAX_PHASE));
    }

    #[test]
    fn mirrored_position_has_same_eval() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R b KQ - 3 9",
        ] {
            let pos = Position::from_fen(fen, false).unwrap();
            let mut m = pos.board().to_setup(shakmaty::EnPassantMode::Legal);
            m.mirror();
            let mpos: Chess = m.position(shakmaty::CastlingMode::Standard).unwrap();
            assert_eq!(evaluate(pos.board()), evaluate(&mpos), "{fen}");
        }
    }

    #[test]
    fn trace_ends_with_final_evaluation() {
        let t = trace(&Chess::default());
        assert!(t.lines().last().unwrap().starts_with("Final evaluation: "));
    }
}
