//! The endgame knowledge laid over a net's output: where the outcome is
//! known, the known value replaces or bounds what the net says.
//!
//! | position | the score |
//! |---|---|
//! | a known win against a bare king (KQ, KR, KBB, KBN and more: [`known_win`](super::known_win)) | the known-win score, which grows as the lone king nears its mating squares |
//! | king and pawn against king ([`kpk`](super::kpk)) | a win: [`KNOWN_WIN`] + a pawn + [`KPK_RANK`] a rank; a draw: 0 |
//! | a side that cannot mate (no pawn, no rook or queen, at most one minor piece; or two knights against a bare king) | at most 0 for it: the net's score when it favours the other side, else 0 |
//! | bishop and rook pawns of the wrong colour against a bare king in the corner | 0 |
//! | the side ahead has no pawn and at most a bishop's worth more pieces (KRvKB, KRBvKR) | an eighth of the net's score against at most a minor piece, else a quarter |
//! | anything else | the net's score |
//!
//! The checks cost a few bitboard tests: most positions pass the first two
//! (both sides keep a pawn, a rook, a queen or two minor pieces, and the
//! side ahead has a pawn).

use shakmaty::{Bitboard, Board, Chess, Color, File, Position as _, Rank, Role, Square};

use super::known_win::{KNOWN_WIN, known_win};
use super::kpk;
use crate::chess::values::piece_value;

/// A won king-and-pawn ending's score rises by this much for each rank
/// the pawn has advanced (from its second rank), so that the search
/// pushes it; the queen it becomes is worth more than any of these.
pub const KPK_RANK: i32 = 20;

/// The net's score `net` (side to move's view) of `pos`, with what is
/// known about the ending laid over it (see the module documentation).
#[inline]
pub fn net_with_knowledge(pos: &Chess, net: i32) -> i32 {
    let board = pos.board();
    let white_net = if pos.turn() == Color::White {
        net
    } else {
        -net
    };
    let white = white_with_knowledge(board, pos.turn(), white_net);
    if pos.turn() == Color::White {
        white
    } else {
        -white
    }
}

/// [`net_with_knowledge`] from White's point of view, given `white_net`,
/// the net's score for White.
fn white_with_knowledge(board: &Board, turn: Color, white_net: i32) -> i32 {
    // Both sides with a pawn, a rook, a queen or two minor pieces: only the
    // pawnless edge may apply (the other rules need a side with less, or a
    // bare king).
    let plenty = |c: Color| {
        let us = board.by_color(c);
        (us & (board.rooks() | board.queens() | board.pawns())).any()
            || (us & (board.knights() | board.bishops())).count() >= 2
    };
    let bounded = if plenty(Color::White) && plenty(Color::Black) {
        white_net
    } else {
        if let Some(win) = known_win(board) {
            return win;
        }
        if let Some(win) = kpk::probe(board, turn) {
            return kpk_score(board, win);
        }
        match (can_win(board, Color::White), can_win(board, Color::Black)) {
            (false, false) => 0,
            (false, true) => white_net.min(0),
            (true, false) => white_net.max(0),
            (true, true) => white_net,
        }
    };
    let ahead = if bounded >= 0 {
        Color::White
    } else {
        Color::Black
    };
    bounded * pawnless_scale(board, ahead) / SCALE_NORMAL
}

/// The share of its score (out of [`SCALE_NORMAL`]) the side `ahead` keeps
/// when it has no pawn and at most a bishop's worth more pieces than the
/// other side (KRvKB, KRBvKR, KRNvKR: mostly drawn):
/// [`PAWNLESS_EDGE_SMALL`] against at most a minor piece, else
/// [`PAWNLESS_EDGE`]; else all of it. The hand-crafted evaluation's rule
/// (`hce/terms/endgame.rs`).
fn pawnless_scale(board: &Board, ahead: Color) -> i32 {
    if (board.pawns() & board.by_color(ahead)).any() {
        return SCALE_NORMAL;
    }
    let ours = non_pawn_material(board, ahead);
    let theirs = non_pawn_material(board, !ahead);
    let bishop = piece_value(Role::Bishop);
    if ours - theirs > bishop {
        SCALE_NORMAL
    } else if theirs <= bishop {
        PAWNLESS_EDGE_SMALL
    } else {
        PAWNLESS_EDGE
    }
}

/// A scale factor's whole (the score unchanged).
const SCALE_NORMAL: i32 = 64;
/// The scale of a pawnless small edge against more than a minor piece.
const PAWNLESS_EDGE: i32 = 16;
/// The scale of a pawnless small edge against at most a minor piece.
const PAWNLESS_EDGE_SMALL: i32 = 8;

/// The knights, bishops, rooks and queens of `side`, in centipawns.
fn non_pawn_material(board: &Board, side: Color) -> i32 {
    [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .into_iter()
        .map(|r| (board.by_role(r) & board.by_color(side)).count() as i32 * piece_value(r))
        .sum()
}

/// The score for White of a king-and-pawn ending the bitbase says is a
/// `win` for the pawn's side, or a draw.
fn kpk_score(board: &Board, win: bool) -> i32 {
    if !win {
        return 0;
    }
    let pawn_side = board
        .pawns()
        .first()
        .and_then(|sq| board.color_at(sq))
        .unwrap_or(Color::White);
    let rank = kpk::relative_rank(board).unwrap_or(2) as i32;
    let score = KNOWN_WIN + piece_value(Role::Pawn) + KPK_RANK * (rank - 2);
    if pawn_side == Color::White {
        score
    } else {
        -score
    }
}

/// Whether `side` has the material to win at all: not when it has no
/// pawn, rook or queen and at most one minor piece, nor with two knights
/// alone against a bare king, nor with bishops of one colour and pawns on
/// one rook file whose queening square is of the other colour when the
/// bare enemy king stands on it or next to it.
fn can_win(board: &Board, side: Color) -> bool {
    let us = board.by_color(side);
    let them_bare = (board.by_color(!side) & !board.kings()).is_empty();
    let count = |role: Role| (board.by_role(role) & us).count();
    if count(Role::Pawn) == 0 && count(Role::Rook) == 0 && count(Role::Queen) == 0 {
        let minors = count(Role::Knight) + count(Role::Bishop);
        if minors <= 1 {
            return false;
        }
        if them_bare && count(Role::Bishop) == 0 && count(Role::Knight) == 2 {
            return false;
        }
    }
    !(them_bare && wrong_rook_pawn(board, side))
}

/// Whether `side` has only a king, bishops of one colour and pawns on one
/// rook file whose queening square the bishops never reach, with the enemy
/// king on that square or next to it.
fn wrong_rook_pawn(board: &Board, side: Color) -> bool {
    let us = board.by_color(side);
    let pawns = board.pawns() & us;
    let bishops = board.bishops() & us;
    if pawns.is_empty()
        || bishops.is_empty()
        || (us & (board.knights() | board.rooks() | board.queens())).any()
    {
        return false;
    }
    let file = if (pawns & !Bitboard::from(File::A)).is_empty() {
        File::A
    } else if (pawns & !Bitboard::from(File::H)).is_empty() {
        File::H
    } else {
        return false;
    };
    let rank = if side == Color::White {
        Rank::Eighth
    } else {
        Rank::First
    };
    let queening = Square::from_coords(file, rank);
    let colour = if Bitboard::LIGHT_SQUARES.contains(queening) {
        Bitboard::LIGHT_SQUARES
    } else {
        Bitboard::DARK_SQUARES
    };
    (bishops & colour).is_empty()
        && board
            .king_of(!side)
            .is_some_and(|k| k.distance(queening) <= 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .expect("test FEN")
            .into_position(CastlingMode::Standard)
            .expect("legal")
    }

    #[test]
    fn ordinary_positions_keep_the_nets_score() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "8/5kp1/8/3r4/8/2R5/5KP1/8 b - - 0 1",
            "8/5k2/4p3/8/8/2B5/4PK2/8 w - - 0 1",
            "8/5kp1/8/3nn3/8/2R5/4PK2/8 w - - 0 1",
        ] {
            assert_eq!(net_with_knowledge(&pos(fen), 123), 123, "{fen}");
            assert_eq!(net_with_knowledge(&pos(fen), -77), -77, "{fen}");
        }
    }

    #[test]
    fn known_wins_replace_the_nets_score_for_either_side_to_move() {
        let white_mates = pos("8/8/8/4k3/8/8/8/2B1KN2 w - - 0 1");
        assert!(net_with_knowledge(&white_mates, 300) > KNOWN_WIN);
        let black_to_move = pos("8/8/8/4k3/8/8/8/2B1KN2 b - - 0 1");
        assert!(net_with_knowledge(&black_to_move, -300) < -KNOWN_WIN);
    }

    #[test]
    fn king_and_pawn_is_exact_and_pushes_the_pawn() {
        let drawn = pos("k7/8/1K6/P7/8/8/8/8 w - - 0 1");
        assert_eq!(net_with_knowledge(&drawn, 271), 0);
        let won = pos("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1");
        let further = pos("4k3/4P3/4K3/8/8/8/8/8 w - - 0 1");
        let w = net_with_knowledge(&won, 50);
        assert!(w > KNOWN_WIN && net_with_knowledge(&further, 50) > w);
        let black_wins = pos("8/8/8/8/4p3/4k3/8/4K3 w - - 0 1");
        assert!(net_with_knowledge(&black_wins, 0) < -KNOWN_WIN);
    }

    #[test]
    fn a_side_that_cannot_mate_is_never_ahead() {
        // A bishop against a pawn: the bishop's side cannot win, the
        // pawn's may.
        let bishop = pos("8/5k2/4p3/8/8/2B5/5K2/8 w - - 0 1");
        assert_eq!(net_with_knowledge(&bishop, 123), 0);
        assert_eq!(net_with_knowledge(&bishop, -40), -40);
        let knight_vs_bare = pos("8/5k2/8/8/8/2N5/5K2/8 w - - 0 1");
        assert_eq!(net_with_knowledge(&knight_vs_bare, 250), 0);
        let two_knights = pos("8/5k2/8/8/8/2N5/5K2/5N2 w - - 0 1");
        assert_eq!(net_with_knowledge(&two_knights, 400), 0);
        let minor_each = pos("8/5k2/8/4n3/8/2B5/5K2/8 w - - 0 1");
        assert_eq!(net_with_knowledge(&minor_each, -90), 0);
        // A knight against a rook and a pawn: the knight's side is held to
        // 0, the other keeps its score.
        let knight_vs_rook = pos("8/5kp1/8/4r3/8/2N5/5K2/8 w - - 0 1");
        assert_eq!(net_with_knowledge(&knight_vs_rook, 80), 0);
        assert_eq!(net_with_knowledge(&knight_vs_rook, -80), -80);
    }

    #[test]
    fn a_pawnless_small_edge_is_scaled_down() {
        let rook_vs_bishop = pos("8/5k2/8/4b3/8/2R5/5K2/8 w - - 0 1");
        assert_eq!(net_with_knowledge(&rook_vs_bishop, 160), 20);
        let rook_bishop_vs_rook = pos("8/5k2/8/4r3/8/2RB4/5K2/8 w - - 0 1");
        assert_eq!(net_with_knowledge(&rook_bishop_vs_rook, 160), 40);
        // A queen against a rook is more than a bishop's edge.
        let queen_vs_rook = pos("8/5k2/8/4r3/8/2Q5/5K2/8 w - - 0 1");
        assert_eq!(net_with_knowledge(&queen_vs_rook, 300), 300);
    }

    #[test]
    fn the_wrong_bishop_with_a_rook_pawn_is_a_draw() {
        // Light-squared bishop, h-pawn (h8 is dark), the king on h8.
        let wrong = pos("7k/8/8/7P/8/8/4B3/5K2 w - - 0 1");
        assert_eq!(net_with_knowledge(&wrong, 500), 0);
        // The right bishop wins on.
        let right = pos("7k/8/8/7P/8/8/3B4/5K2 w - - 0 1");
        assert_eq!(net_with_knowledge(&right, 500), 500);
    }
}
