//! The weight layout: every group of weights in `weights.rs`, in one flat
//! index space, for the evaluation terms and for the tuner.
//!
//! Each group is declared once below (name, shape, the trace row it belongs
//! to, and its documentation). From that list come:
//!
//! - a handle per group (`handles.rs`): the index of a one-weight group
//!   (`layout::TEMPO`), else a typed handle that gives the index of one of
//!   its weights and checks it in debug builds
//!   (`layout::PASSED_PAWN.at(rank)`, `layout::PAWN_SHELTER.at(edge, rank)`);
//! - [`ALL`], every weight flattened in index order, which the fast evaluation
//!   reads and a tuner starts from ([`all`]);
//! - [`name`], a readable name per index (`PASSED_PAWN[3]`);
//! - [`render`], the text of `weights.rs` for any set of values, so that a
//!   tuner rewrites the file and nothing else. A test checks that rendering
//!   the current weights reproduces `weights.rs` byte for byte.
//!
//! To add a weight: add its group here and its starting values to
//! `weights.rs` (in the same order), then use the index in a term.

use shakmaty::{Color, Role, Square};

pub use super::handles::{Array, Table};
use super::tapered::S;
use super::weights;

/// The rows of the evaluation trace; each weight group belongs to one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Term {
    /// Piece values.
    Material,
    /// Piece-square tables.
    Psqt,
    /// Pawn structure (passed pawns excepted).
    Pawns,
    /// Passed pawns.
    Passed,
    /// Knight terms (outposts).
    Knights,
    /// Bishop terms (pair, outposts).
    Bishops,
    /// Rook terms (files, seventh rank).
    Rooks,
    /// Rooks doubled or with the queen on a file, queen and bishop aimed
    /// at the king.
    Batteries,
    /// Mobility of knights, bishops, rooks and queens.
    Mobility,
    /// Attacks on the king, safe checks, pawn shelter and storm.
    KingSafety,
    /// Attacked and hanging pieces, threats of pawn pushes, restricted
    /// squares.
    Threats,
    /// Space behind the pawns in the middlegame.
    Space,
    /// The quadratic material imbalance.
    Imbalance,
    /// The complexity adjustment of the endgame score.
    Complexity,
    /// The side to move's bonus.
    Tempo,
}

impl Term {
    /// Every term, in trace order.
    pub const ALL: [Term; 15] = [
        Term::Material,
        Term::Psqt,
        Term::Pawns,
        Term::Passed,
        Term::Knights,
        Term::Bishops,
        Term::Rooks,
        Term::Batteries,
        Term::Mobility,
        Term::KingSafety,
        Term::Threats,
        Term::Space,
        Term::Imbalance,
        Term::Complexity,
        Term::Tempo,
    ];

    /// The row name in the trace.
    pub const fn name(self) -> &'static str {
        match self {
            Term::Material => "Material",
            Term::Psqt => "PSQT",
            Term::Pawns => "Pawns",
            Term::Passed => "Passed",
            Term::Knights => "Knights",
            Term::Bishops => "Bishops",
            Term::Rooks => "Rooks",
            Term::Batteries => "Batteries",
            Term::Mobility => "Mobility",
            Term::KingSafety => "King safety",
            Term::Threats => "Threats",
            Term::Space => "Space",
            Term::Imbalance => "Imbalance",
            Term::Complexity => "Complexity",
            Term::Tempo => "Tempo",
        }
    }
}

/// The shape of a weight group, as declared in `weights.rs`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// `S`
    Scalar,
    /// `[S; n]`
    Array(usize),
    /// `[[S; columns]; rows]`
    Table(usize, usize),
}

impl Shape {
    /// Number of weights.
    pub const fn len(self) -> usize {
        match self {
            Shape::Scalar => 1,
            Shape::Array(n) => n,
            Shape::Table(r, c) => r * c,
        }
    }

    /// Whether the group is empty (never, for a declared group).
    pub const fn is_empty(self) -> bool {
        self.len() == 0
    }
}

/// One named group of weights.
#[derive(Debug, Clone, Copy)]
pub struct Group {
    /// The constant's name in `weights.rs`.
    pub name: &'static str,
    /// Its documentation, one entry per `///` line.
    pub doc: &'static [&'static str],
    /// Its shape.
    pub shape: Shape,
    /// The trace row its weights count toward.
    pub term: Term,
    /// The current values, flattened row by row.
    pub values: &'static [S],
}

macro_rules! shape {
    (()) => {
        Shape::Scalar
    };
    ([$n:literal]) => {
        Shape::Array($n)
    };
    ([$r:literal, $c:literal]) => {
        Shape::Table($r, $c)
    };
}

macro_rules! values {
    ((), $v:expr) => {{
        const V: &S = &$v;
        std::slice::from_ref(V)
    }};
    ([$n:literal], $v:expr) => {{
        const V: &[S; $n] = &$v;
        V.as_slice()
    }};
    ([$r:literal, $c:literal], $v:expr) => {{
        const V: &[[S; $c]; $r] = &$v;
        V.as_slice().as_flattened()
    }};
}

macro_rules! handle_type {
    (()) => {
        usize
    };
    ([$n:literal]) => {
        Array
    };
    ([$r:literal, $c:literal]) => {
        Table
    };
}

macro_rules! handle {
    ((), $start:expr) => {
        $start
    };
    ([$n:literal], $start:expr) => {
        Array::new($start, $n)
    };
    ([$r:literal, $c:literal], $start:expr) => {
        Table::new($start, $r, $c)
    };
}

macro_rules! layout {
    ($($(#[doc = $doc:literal])* $name:ident : $shape:tt => $term:ident,)*) => {
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[derive(Clone, Copy)]
        #[repr(usize)]
        enum Id {
            $($name,)*
        }

        /// Every weight group, in index order.
        pub const GROUPS: &[Group] = &[$(Group {
            name: stringify!($name),
            doc: &[$($doc),*],
            shape: shape!($shape),
            term: Term::$term,
            values: values!($shape, weights::$name),
        },)*];

        $(
            $(#[doc = $doc])*
            ///
            /// (The group's handle: see `handles.rs`.)
            pub const $name: handle_type!($shape) = handle!($shape, offset(Id::$name as usize));
        )*
    };
}

layout! {
    /// Material, pawn to queen.
    MATERIAL: [5] => Material,
    /// Pawn placement: 64 squares from White's side, written as White sees
    /// the board (the first row is the 8th rank). Black uses the mirrored
    /// square.
    PST_PAWN: [64] => Psqt,
    /// Knight placement (squares as for pawns).
    PST_KNIGHT: [64] => Psqt,
    /// Bishop placement.
    PST_BISHOP: [64] => Psqt,
    /// Rook placement.
    PST_ROOK: [64] => Psqt,
    /// Queen placement.
    PST_QUEEN: [64] => Psqt,
    /// King placement.
    PST_KING: [64] => Psqt,
    /// Knight mobility by the number of safe squares it attacks (not
    /// occupied by its own side, not attacked by enemy pawns), 0 to 8.
    MOBILITY_KNIGHT: [9] => Mobility,
    /// Bishop mobility, 0 to 13 safe squares.
    MOBILITY_BISHOP: [14] => Mobility,
    /// Rook mobility, 0 to 14 safe squares.
    MOBILITY_ROOK: [15] => Mobility,
    /// Queen mobility, 0 to 27 safe squares.
    MOBILITY_QUEEN: [28] => Mobility,
    /// A pawn with a pawn of its own side in front of it on its file.
    DOUBLED_PAWN: () => Pawns,
    /// A pawn with no pawn of its own side on the neighbouring files.
    ISOLATED_PAWN: () => Pawns,
    /// A pawn whose neighbours have all advanced past it and whose stop
    /// square an enemy pawn attacks.
    BACKWARD_PAWN: () => Pawns,
    /// A pawn defended by a pawn, by relative rank (index 0 = 1st rank).
    SUPPORTED_PAWN: [8] => Pawns,
    /// A pawn with a pawn of its own side beside it, by relative rank.
    PHALANX_PAWN: [8] => Pawns,
    /// A passed pawn, by relative rank.
    PASSED_PAWN: [8] => Passed,
    /// A passed pawn, by relative rank, times its own king's distance to
    /// the square in front of the pawn.
    PASSED_OWN_KING_DISTANCE: [8] => Passed,
    /// A passed pawn, by relative rank, times the enemy king's distance to
    /// the square in front of the pawn.
    PASSED_ENEMY_KING_DISTANCE: [8] => Passed,
    /// A passed pawn with no piece on the squares in front of it, by
    /// relative rank.
    PASSED_FREE_PATH: [8] => Passed,
    /// A passed pawn with an enemy piece on the square in front of it, by
    /// relative rank.
    PASSED_BLOCKED: [8] => Passed,
    /// A passed pawn whose stop square the enemy does not attack, by
    /// relative rank.
    PASSED_SAFE_STOP: [8] => Passed,
    /// A passed pawn whose squares in front are free of enemy pieces and
    /// of enemy attacks, by relative rank.
    PASSED_SAFE_PATH: [8] => Passed,
    /// A passed pawn whose stop square its own side attacks, by relative
    /// rank.
    PASSED_DEFENDED_STOP: [8] => Passed,
    /// A candidate passed pawn (no enemy pawn in front on its file, and no
    /// more enemy pawns that could stop it than own pawns that could help it
    /// through), by relative rank.
    CANDIDATE_PASSER: [8] => Passed,
    /// A rook behind a passed pawn on its file: its own side's (0) or the
    /// enemy's (1), scored for the pawn's side.
    ROOK_BEHIND_PASSER: [2] => Passed,
    /// A passed pawn the enemy king cannot catch (rule of the square; the
    /// enemy has pawns only).
    PASSED_UNSTOPPABLE: () => Passed,
    /// A knight on the 4th to 6th rank, defended by a pawn, that no enemy
    /// pawn can attack.
    KNIGHT_OUTPOST: () => Knights,
    /// A knight that attacks an outpost square not occupied by its own side.
    KNIGHT_REACHABLE_OUTPOST: () => Knights,
    /// A knight with a pawn (either side's) right in front of it.
    KNIGHT_BEHIND_PAWN: () => Knights,
    /// A knight, times its distance to its own king.
    KNIGHT_KING_DISTANCE: () => Knights,
    /// A bishop on such an outpost.
    BISHOP_OUTPOST: () => Bishops,
    /// A bishop with a pawn (either side's) right in front of it.
    BISHOP_BEHIND_PAWN: () => Bishops,
    /// A bishop, times its distance to its own king.
    BISHOP_KING_DISTANCE: () => Bishops,
    /// Own pawns on the squares of a bishop's colour, per bishop: all of
    /// them (0) and those blocked by a piece in front (1).
    BISHOP_PAWNS: [2] => Bishops,
    /// A bishop on a long diagonal that sees both centre squares of it
    /// (through pawns only).
    BISHOP_LONG_DIAGONAL: () => Bishops,
    /// Bishops on both square colours.
    BISHOP_PAIR: () => Bishops,
    /// A bishop on a7 or h7 (a6, h6) whose way back, b6 or g6 (b5, g5), is
    /// held by an enemy pawn that another enemy pawn defends.
    BISHOP_TRAPPED: () => Bishops,
    /// A rook on a file with no pawns.
    ROOK_OPEN_FILE: () => Rooks,
    /// A rook on a file with enemy pawns only.
    ROOK_HALF_OPEN_FILE: () => Rooks,
    /// A rook on the 7th rank with the enemy king on the 8th or enemy pawns
    /// on the 7th.
    ROOK_ON_SEVENTH: () => Rooks,
    /// A rook with at most three safe squares beyond its own king (toward
    /// the nearer edge); counted twice when the side can no longer castle.
    ROOK_TRAPPED: () => Rooks,
    /// A rook on the enemy queen's file.
    ROOK_ON_QUEEN_FILE: () => Rooks,
    /// Knight, by how closed the position is (0 to 8: the pawns, locked
    /// pawns three times, less four per open file, divided by 3).
    KNIGHT_CLOSEDNESS: [9] => Knights,
    /// Rook, by how closed the position is (as for knights).
    ROOK_CLOSEDNESS: [9] => Rooks,
    /// A knight 4, 5, 6 or 7 squares (king moves) from the nearer king.
    KNIGHT_FAR_FROM_KINGS: [4] => Knights,
    /// Batteries: a rook backed by a rook (0) or rook and queen (1) on a
    /// file with no own pawn in front of them; the queen and a bishop on a
    /// diagonal that runs on into the enemy king zone (2).
    BATTERY: [3] => Batteries,
    /// King danger (see `king.rs`): the weight of each feature of a king's
    /// danger count, the midgame and endgame counts apart: the area's
    /// attackers (knight, bishop, rook, queen; each times the number of
    /// attackers), area squares hit, weak area squares, safe checks (knight,
    /// bishop, rook, queen), own pawns in the area, own minors guarding it, no
    /// enemy queen, a constant; unsafe checks, pinned pieces, discovered
    /// check candidates, flank attacks, flank defence, flank storm pawns.
    KING_DANGER: [20] => KingSafety,
    /// Pawn shelter on each of the three files around the king: by the
    /// file's distance from the edge (a/h = 0 … d/e = 3), then the
    /// relative rank of the side's rearmost pawn on the file in front of or
    /// beside the king (0 = none).
    PAWN_SHELTER: [4, 8] => KingSafety,
    /// Pawn storm on the same three files: by edge distance, then the
    /// relative rank (from the king's side) of the nearest enemy pawn in
    /// front of or beside the king (0 = none).
    PAWN_STORM: [4, 8] => KingSafety,
    /// A storming pawn blocked by a shelter pawn right in front of it, by
    /// the storming pawn's relative rank (from the king's side).
    BLOCKED_STORM: [8] => KingSafety,
    /// A file with no pawns among the three around the king.
    KING_OPEN_FILE: () => KingSafety,
    /// A file with enemy pawns only among the three around the king.
    KING_HALF_OPEN_FILE: () => KingSafety,
    /// The king, by the distance in files to the nearest file with a pawn
    /// (0 to 7), when there are pawns.
    KING_PAWN_FILE_DISTANCE: [8] => KingSafety,
    /// An enemy knight, bishop, rook or queen attacked by a pawn (scored
    /// for the attacker).
    THREAT_BY_PAWN: [4] => Threats,
    /// An enemy rook or queen attacked by a knight or bishop.
    THREAT_BY_MINOR: [2] => Threats,
    /// An enemy queen attacked by a rook.
    THREAT_BY_ROOK: () => Threats,
    /// An enemy pawn, knight, bishop, rook or queen attacked and not
    /// defended.
    HANGING: [5] => Threats,
    /// An enemy knight, bishop, rook or queen that a safe pawn push would
    /// attack (and no pawn attacks yet).
    THREAT_PAWN_PUSH: () => Threats,
    /// An enemy pawn or piece attacked by the king and not defended.
    THREAT_BY_KING: () => Threats,
    /// A square the enemy attacks that is attacked by this side too and
    /// not defended by an enemy pawn (the enemy's restricted squares).
    RESTRICTED: () => Threats,
    /// Threats that need the attacked-twice maps: an enemy pawn no enemy
    /// pawn defends that is poorly defended (attacked and not defended, or
    /// attacked twice and defended once by no pawn) (0); an enemy knight or
    /// bishop attacked by a knight or bishop (1); a poorly defended enemy
    /// knight or bishop attacked by a rook or queen (2); an enemy queen
    /// attacked by anything (3); an enemy knight, bishop, rook or queen
    /// attacked once and defended once (4).
    THREAT_TWICE: [5] => Threats,
    /// Space: safe squares in the centre files behind and among the own
    /// pawns (ranks 2 to 4; those behind a pawn count twice), by the number
    /// of the side's pieces and pawns (1 to 16).
    SPACE: [16] => Space,
    /// Material imbalance: products of the side's own piece counts (bishop
    /// pair, pawns, knights, bishops, rooks, queens; pairs i >= j in that
    /// order, row by row: (0,0), (1,0), (1,1), (2,0), ...).
    IMBALANCE_OURS: [21] => Imbalance,
    /// Material imbalance: the side's count of kind i times the enemy's
    /// count of kind j, for i > j (same order, (1,0), (2,0), (2,1), ...).
    IMBALANCE_THEIRS: [15] => Imbalance,
    /// Complexity: how far the endgame score may grow or shrink, from the
    /// number of pawns (0), pawns on both wings (1), no pieces but kings and
    /// pawns (2), passed pawns (3), the kings' file distance minus their rank
    /// distance (4), a king past the middle (5), and a constant (6). The
    /// endgame value of each is used (see `complexity.rs`).
    COMPLEXITY: [7] => Complexity,
    /// The side to move.
    TEMPO: () => Tempo,
}

const fn offset(group: usize) -> usize {
    let mut sum = 0;
    let mut g = 0;
    while g < group {
        sum += GROUPS[g].values.len();
        g += 1;
    }
    sum
}

/// Number of weights.
pub const COUNT: usize = offset(GROUPS.len());

const fn flatten() -> [S; COUNT] {
    let mut out = [S::ZERO; COUNT];
    let mut i = 0;
    let mut g = 0;
    while g < GROUPS.len() {
        let values = GROUPS[g].values;
        let mut j = 0;
        while j < values.len() {
            out[i] = values[j];
            i += 1;
            j += 1;
        }
        g += 1;
    }
    out
}

const fn terms() -> [Term; COUNT] {
    let mut out = [Term::Material; COUNT];
    let mut i = 0;
    let mut g = 0;
    while g < GROUPS.len() {
        let mut j = 0;
        while j < GROUPS[g].values.len() {
            out[i] = GROUPS[g].term;
            i += 1;
            j += 1;
        }
        g += 1;
    }
    out
}

/// Every weight, in index order: what the evaluation uses.
pub static ALL: [S; COUNT] = flatten();

/// The trace row of every weight, in index order.
pub static TERM_OF: [Term; COUNT] = terms();

/// The piece-square table of each piece type, pawn to king.
const PST: [Array; 6] = [
    PST_PAWN, PST_KNIGHT, PST_BISHOP, PST_ROOK, PST_QUEEN, PST_KING,
];

/// The index of the piece-square weight of `role` on `sq` for `color`:
/// tables are written from White's side with the 8th rank first, so White
/// flips the rank and Black (seen mirrored) uses the square as it is.
#[inline(always)]
pub const fn piece_square(color: Color, role: Role, sq: Square) -> usize {
    let square = match color {
        Color::White => sq as usize ^ 56,
        Color::Black => sq as usize,
    };
    PST[role as usize - 1].at(square)
}

/// The current weights as a vector, for a tuner to start from.
pub fn all() -> Vec<S> {
    ALL.to_vec()
}

/// The group holding weight `index` and the position inside it.
///
/// # Panics
///
/// If `index >= COUNT`.
pub fn group_of(index: usize) -> (&'static Group, usize) {
    let mut start = 0;
    for g in GROUPS {
        if index < start + g.values.len() {
            return (g, index - start);
        }
        start += g.values.len();
    }
    panic!("weight index {index} out of range (COUNT = {COUNT})");
}

/// A readable name for weight `index`: `TEMPO`, `PASSED_PAWN[3]`,
/// `PAWN_SHELTER[1][4]`.
///
/// # Panics
///
/// If `index >= COUNT`.
pub fn name(index: usize) -> String {
    let (g, i) = group_of(index);
    match g.shape {
        Shape::Scalar => g.name.to_owned(),
        Shape::Array(_) => format!("{}[{i}]", g.name),
        Shape::Table(_, c) => format!("{}[{}][{}]", g.name, i / c, i % c),
    }
}

/// Values per line when an array is written out.
const PER_LINE: usize = 8;

fn s_text(s: S) -> String {
    format!("S({:>4}, {:>4})", s.0, s.1)
}

fn row_text(values: &[S]) -> String {
    values
        .iter()
        .map(|&s| s_text(s))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The text of `weights.rs` with `values` (in index order) as the weights.
///
/// # Panics
///
/// If `values.len() != COUNT`.
pub fn render(values: &[S]) -> String {
    assert_eq!(values.len(), COUNT, "one value per weight");
    let mut out = String::from(
        "//! Evaluation weights: generated by `shears tune`; hand-set starting values until then.\n\
         //!\n\
         //! Pure data, one `S(midgame, endgame)` pair per weight, in centipawns. What\n\
         //! each group means, its shape and its place in the flat index space are\n\
         //! declared in `layout.rs`; `layout::render` writes this file, so a tuner\n\
         //! rewrites it whole. Edit values by hand only until the first tuning run.\n\
         \n\
         use super::tapered::S;\n",
    );
    let mut start = 0;
    for g in GROUPS {
        let v = &values[start..start + g.values.len()];
        start += g.values.len();
        out.push('\n');
        for line in g.doc {
            out.push_str(&format!("///{line}\n"));
        }
        match g.shape {
            Shape::Scalar => {
                out.push_str(&format!("pub const {}: S = {};\n", g.name, s_text(v[0])));
            }
            Shape::Array(n) => {
                out.push_str(&format!("pub const {}: [S; {n}] = [\n", g.name));
                for chunk in v.chunks(PER_LINE) {
                    out.push_str(&format!("    {},\n", row_text(chunk)));
                }
                out.push_str("];\n");
            }
            Shape::Table(r, c) => {
                out.push_str(&format!("pub const {}: [[S; {c}]; {r}] = [\n", g.name));
                for row in v.chunks(c) {
                    out.push_str(&format!("    [{}],\n", row_text(row)));
                }
                out.push_str("];\n");
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rendering_the_weights_reproduces_weights_rs() {
        let text = render(&ALL);
        let file = include_str!("weights.rs");
        if text != file {
            for (i, (a, b)) in text.lines().zip(file.lines()).enumerate() {
                assert_eq!(a, b, "weights.rs line {}", i + 1);
            }
            assert_eq!(text.lines().count(), file.lines().count());
        }
    }

    #[test]
    fn groups_match_their_shapes() {
        for g in GROUPS {
            assert_eq!(g.values.len(), g.shape.len(), "{}", g.name);
            assert!(!g.doc.is_empty(), "{} is documented", g.name);
        }
        assert_eq!(name(0), "MATERIAL[0]");
        assert_eq!(name(TEMPO), "TEMPO");
        assert_eq!(name(PAWN_SHELTER.at(1, 4)), "PAWN_SHELTER[1][4]");
        assert_eq!(name(COUNT - 1), "TEMPO");
        assert_eq!(ALL[TEMPO], weights::TEMPO);
        assert_eq!(ALL[PASSED_PAWN.at(5)], weights::PASSED_PAWN[5]);
        assert_eq!(TERM_OF[MOBILITY_QUEEN.at(3)], Term::Mobility);
        // Each handle covers exactly its group, and the groups tile the
        // index space.
        assert_eq!(PST_PAWN.indices().end, PST_KNIGHT.at(0));
        assert_eq!(PAWN_SHELTER.indices().len(), 32);
        assert_eq!(MATERIAL.len(), 5);
    }
}
