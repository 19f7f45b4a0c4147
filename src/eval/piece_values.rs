//! What the net makes of each piece on the board, for `eval` (Stockfish
//! 15.1's `eval` shows the same for its net): a piece's value is the net's
//! evaluation of the position minus its evaluation of the same position
//! without that piece, both from White's view, so a piece that helps White
//! is worth more than zero and one that helps Black less.
//!
//! Kings get none: a position without one is no position. Every other
//! removal leaves both kings, which is all the net reads besides the
//! pieces (its king-mirrored inputs read the king's file); a removal may
//! leave a position that could not arise (the side not to move in check),
//! which the net evaluates all the same, from the same side to move.

use shakmaty::{Board, Chess, Color, Piece, Position as _, Role, Square};

use super::evaluation::{LoadedNet, NET_EVAL_LIMIT};

/// The net's value of each piece of a position, by square.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PieceValues {
    /// What stands on each square (a1 = 0 … h8 = 63), with its value in
    /// the net's centipawns from White's view (`None` for a king).
    squares: [Option<(Piece, Option<i32>)>; 64],
}

impl PieceValues {
    /// The piece on `square` and its value (`None` for a king), if a
    /// piece stands there.
    pub fn at(&self, square: Square) -> Option<(Piece, Option<i32>)> {
        self.squares[usize::from(square)]
    }
}

/// The net's own output for `board` with `turn` to move, White's view,
/// clamped as every net evaluation is (the endgame knowledge laid over it
/// in play is left out: these are the net's values).
fn white_eval(net: &LoadedNet, board: &Board, turn: Color) -> i32 {
    let stm = net
        .net()
        .evaluate_board(board, turn)
        .clamp(-NET_EVAL_LIMIT, NET_EVAL_LIMIT);
    match turn {
        Color::White => stm,
        Color::Black => -stm,
    }
}

/// The net's value of each piece of `pos` (see the module docs).
pub fn piece_values(net: &LoadedNet, pos: &Chess) -> PieceValues {
    let (board, turn) = (pos.board(), pos.turn());
    let whole = white_eval(net, board, turn);
    let mut squares = [None; 64];
    for (square, piece) in board {
        let value = (piece.role != Role::King).then(|| {
            let mut without = board.clone();
            without.discard_piece_at(square);
            whole - white_eval(net, &without, turn)
        });
        squares[usize::from(square)] = Some((piece, value));
    }
    PieceValues { squares }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    fn position(fen: &str) -> Chess {
        let fen: Fen = fen.parse().unwrap();
        fen.into_position(CastlingMode::Standard).unwrap()
    }

    #[test]
    fn each_piece_is_worth_the_net_s_score_with_it_minus_without_it() {
        let net = LoadedNet::built_in().unwrap();
        let pos = position("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 3 3");
        let values = piece_values(&net, &pos);
        let stm = net.evaluate(&pos);
        let whole = -stm;
        let mut pieces = 0;
        for square in Square::ALL {
            let Some(piece) = pos.board().piece_at(square) else {
                assert_eq!(values.at(square), None, "{square}");
                continue;
            };
            pieces += 1;
            let (shown, value) = values.at(square).unwrap();
            assert_eq!(shown, piece);
            if piece.role == Role::King {
                assert_eq!(value, None, "{square}");
                continue;
            }
            // The same position without the piece, Black to move.
            let mut board = pos.board().clone();
            board.discard_piece_at(square);
            let without = -net.net().evaluate_board(&board, Color::Black);
            assert_eq!(value, Some(whole - without), "{square}");
        }
        assert_eq!(pieces, 32);
        // The queens are worth much, for their own side.
        let (_, white_queen) = values.at(Square::D1).unwrap();
        let (_, black_queen) = values.at(Square::D8).unwrap();
        assert!(white_queen.unwrap() > 300, "{white_queen:?}");
        assert!(black_queen.unwrap() < -300, "{black_queen:?}");
    }
}
