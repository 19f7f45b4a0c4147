//! The score vocabulary of the search, in one place: the bounds of the
//! score range, mate scores and their distance to the root, tablebase
//! scores, how both are re-rooted for the transposition table, and the
//! [`Score`] a report shows.
//!
//! Internal scores are centipawns from the side to move's view. A mate
//! found `n` plies from the root scores `MATE - n` (being mated:
//! `-(MATE - n)`), so a nearer mate is always preferred; everything beyond
//! [`MATE_BOUND`] in absolute value is a mate score.
//!
//! Just below the mates lies the tablebase band: a position the tables
//! call won, `n` plies from the root, scores `TB_WIN - n` (lost:
//! `-(TB_WIN - n)`), between [`TB_WIN_BOUND`] and [`MATE_BOUND`]. A
//! tablebase win is certain but its mate is not known, so it ranks below
//! every mate and above every evaluation (which stays below
//! [`TB_WIN_BOUND`]). Reports show it as Stockfish does, as centipawns
//! `20000 - n` ([`TB_CP`]).
//!
//! ```text
//!  -INFINITE  -MATE … -MATE_BOUND  -TB_WIN … -TB_WIN_BOUND   evaluations   TB_WIN_BOUND … TB_WIN  MATE_BOUND … MATE  INFINITE
//!             mated                tablebase loss                          tablebase win          mate
//! ```

/// Longest path from the root the searcher keeps state for.
pub const MAX_PLY: usize = 128;
/// Deepest iteration the searcher will start; `go depth` beyond it is
/// clamped.
pub const MAX_DEPTH: u32 = 100;
/// Score of a mate at the root; a mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 32_000;
/// Scores at least this large (in absolute value) are mate scores: a mate
/// can be at most [`MAX_PLY`] plies away.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// A score beyond every real score (the bounds of a full window).
pub const INFINITE: i32 = MATE + 1;
/// Score of a tablebase win at the root; a tablebase win `n` plies from
/// the root scores `TB_WIN - n`.
pub const TB_WIN: i32 = MATE_BOUND - 1;
/// Scores at least this large (in absolute value) are tablebase wins (or
/// mates); evaluations stay below it.
pub const TB_WIN_BOUND: i32 = TB_WIN - MAX_PLY as i32;
/// What a report shows for a tablebase win at the root, in centipawns
/// (Stockfish's convention): `TB_CP - n` for a win `n` plies away.
pub const TB_CP: i32 = 20_000;

/// The score of the side that wins by the tables `ply` plies from the
/// root.
#[inline]
pub const fn tb_win_in(ply: usize) -> i32 {
    TB_WIN - ply as i32
}

/// Whether `score` is decided: a mate or a tablebase win or loss (for
/// either side).
#[inline]
pub const fn is_decisive(score: i32) -> bool {
    score.abs() >= TB_WIN_BOUND
}

/// The score of the side that mates `ply` plies from the root.
#[inline]
pub const fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// The score of the side that is mated `ply` plies from the root.
#[inline]
pub const fn mated_in(ply: usize) -> i32 {
    -mate_in(ply)
}

/// Whether `score` is a mate score (for either side).
#[inline]
pub const fn is_mate(score: i32) -> bool {
    score.abs() >= MATE_BOUND
}

/// `1` for "we mate" (or win by the tables) scores, `-1` for "we are
/// mated" (or lose by the tables), else `0`: the scores that count plies
/// from the root.
fn mate_sign(score: i32) -> i32 {
    i32::from(score >= TB_WIN_BOUND) - i32::from(score <= -TB_WIN_BOUND)
}

/// Converts a search score at distance `ply` from the root to the score
/// kept in the transposition table: mate scores become relative to the node
/// instead of the root.
///
/// Example: at ply 5 the search finds that the side to move mates in 3
/// plies from there, i.e. at ply 8 from the root, so the score is
/// `MATE - 8`. It is stored as `MATE - 8 + 5 = MATE - 3` ("mate in 3 plies
/// from here"). If the same position is later met at ply 7, [`from_tt`]
/// gives `MATE - 3 - 7 = MATE - 10`: mate at ply 10 from that root. Being
/// mated is symmetric (`-MATE + 8` is stored as `-MATE + 3`), and so are
/// tablebase wins and losses. Other scores are kept unchanged; everything
/// is clamped into `i16`.
pub fn to_tt(score: i32, ply: usize) -> i16 {
    clamp16(score + mate_sign(score) * ply as i32)
}

/// Converts a score read from the table back into a score at distance
/// `ply` from the root; the inverse of [`to_tt`].
pub fn from_tt(score: i16, ply: usize) -> i32 {
    let score = i32::from(score);
    score - mate_sign(score) * ply as i32
}

/// The table's static evaluation of an entry whose node never computed one
/// (a quiescence node decided by the lazy evaluation): no evaluation ever
/// reaches it (they stay within a few thousand centipawns).
pub const NO_EVAL: i32 = i16::MIN as i32;

/// `x` clamped into `i16`.
pub fn clamp16(x: i32) -> i16 {
    x.clamp(i16::MIN.into(), i16::MAX.into()) as i16
}

/// A score as a report shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the side to move's view.
    Cp(i32),
    /// Mate in this many moves (negative: we are mated).
    Mate(i32),
}

impl Score {
    /// Converts an internal score. A tablebase win `n` plies from the root
    /// shows as `cp (20000 - n)`, a loss as `cp -(20000 - n)`.
    pub fn from_internal(score: i32) -> Score {
        if score >= MATE_BOUND {
            Score::Mate((MATE - score + 1) / 2)
        } else if score <= -MATE_BOUND {
            Score::Mate(-(MATE + score) / 2)
        } else if score >= TB_WIN_BOUND {
            Score::Cp(TB_CP - (TB_WIN - score))
        } else if score <= -TB_WIN_BOUND {
            Score::Cp(-(TB_CP - (TB_WIN + score)))
        } else {
            Score::Cp(score)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_are_relative_to_the_node_in_the_table() {
        assert_eq!(to_tt(MATE - 7, 3), (MATE - 4) as i16);
        assert_eq!(to_tt(-(MATE - 7), 3), -(MATE - 4) as i16);
        assert_eq!((to_tt(150, 9), from_tt(-150, 9)), (150, -150));
        assert_eq!(from_tt(to_tt(mate_in(9), 4), 4), mate_in(9));
    }

    #[test]
    fn reported_mates_count_moves() {
        assert_eq!(Score::from_internal(mate_in(1)), Score::Mate(1));
        assert_eq!(Score::from_internal(mate_in(3)), Score::Mate(2));
        assert_eq!(Score::from_internal(mated_in(2)), Score::Mate(-1));
        assert_eq!(Score::from_internal(-35), Score::Cp(-35));
        assert!(is_mate(mated_in(MAX_PLY)) && !is_mate(MATE_BOUND - 1));
    }

    #[test]
    fn tablebase_scores_lie_between_evaluations_and_mates() {
        assert!(tb_win_in(MAX_PLY) > 10_000 && tb_win_in(0) < mate_in(MAX_PLY));
        assert!(is_decisive(tb_win_in(MAX_PLY)) && !is_mate(tb_win_in(0)));
        assert!(!is_decisive(TB_WIN_BOUND - 1));
        assert_eq!(Score::from_internal(tb_win_in(7)), Score::Cp(19_993));
        assert_eq!(Score::from_internal(-tb_win_in(4)), Score::Cp(-19_996));
        // Re-rooted for the table like mates: a win 3 plies below a node at
        // ply 5 is a win 3 plies below the same node met at ply 9.
        assert_eq!(from_tt(to_tt(tb_win_in(8), 5), 9), tb_win_in(12));
        assert_eq!(from_tt(to_tt(-tb_win_in(8), 5), 9), -tb_win_in(12));
    }
}
