//! [`Sample`]: one training position as the trainer keeps it in memory,
//! 32 bytes, and its first-layer inputs ([`Features`]), built when a batch
//! needs them.
//!
//! Tens of millions of positions must fit in memory, so a sample keeps
//! only the board (an occupancy bitboard and a 4-bit piece code per
//! occupied square, as the packed data records do), the side to move and
//! the two labels, both from the side to move's view: the search score
//! and the game result. Castling rights, en passant and the clocks are not
//! inputs of the net and are not kept.

use shakmaty::{Bitboard, Board, Color, Piece, Role, Square};

use crate::data::format::white_view;
use shears::eval::nnue::arch::Layout;

/// The most pieces a sample holds (a legal game never has more).
pub const MAX_PIECES: usize = 32;

/// The piece codes of the kings.
const WHITE_KING: u8 = 5;
const BLACK_KING: u8 = 11;

/// Flag: Black is to move.
const BLACK_TO_MOVE: u8 = 1;
/// Flag: the search score is known.
const HAS_SCORE: u8 = 2;

/// A labelled position, compact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// Bit `s` set when square `s` holds a piece.
    occupied: u64,
    /// One 4-bit code per occupied square, in square order, low nibble
    /// first: `6 · colour + role` (White 0, Black 1; pawn 0 … king 5).
    codes: [u8; MAX_PIECES / 2],
    /// The search score, centipawns, side to move's view (0 when unknown).
    score: i16,
    /// The game result for the side to move: 0 loss, 1 draw, 2 win.
    result: u8,
    /// [`BLACK_TO_MOVE`], [`HAS_SCORE`].
    flags: u8,
}

/// The first-layer inputs of a sample, per perspective: the side to move's
/// (`us`) and the other side's (`them`), `len` of each.
#[derive(Clone, Copy, Debug)]
pub struct Features {
    /// The side to move's active inputs.
    pub us: [u16; MAX_PIECES],
    /// The other side's active inputs.
    pub them: [u16; MAX_PIECES],
    /// How many of each (the pieces on the board).
    pub len: usize,
}

impl Features {
    /// The side to move's active inputs.
    pub fn us(&self) -> &[u16] {
        &self.us[..self.len]
    }

    /// The other side's active inputs.
    pub fn them(&self) -> &[u16] {
        &self.them[..self.len]
    }
}

/// The input of a piece (`code`: `6 · colour + role`) on `sq`, seen from
/// `perspective` (docs/nnue.md: `384 · (colour ≠ perspective) + 64 · role
/// + square`, Black seeing the board flipped). Equals
/// `shears::eval::nnue::arch::feature` (a test checks every case).
#[inline]
fn feature(perspective: Color, code: u8, sq: u32) -> u16 {
    PIECE_BASE[perspective as usize][usize::from(code)] + (sq ^ FLIP[perspective as usize]) as u16
}

/// `384 · (colour ≠ perspective) + 64 · role` by perspective (shakmaty's
/// order: Black 0, White 1) and piece code.
const PIECE_BASE: [[u16; 16]; 2] = {
    let mut table = [[0; 16]; 2];
    let mut code = 0;
    while code < 12 {
        let role = 64 * (code as u16 % 6);
        let white_piece = code < 6;
        table[Color::White as usize][code] = role + if white_piece { 0 } else { 384 };
        table[Color::Black as usize][code] = role + if white_piece { 384 } else { 0 };
        code += 1;
    }
    table
};

/// What a perspective XORs a square with: Black sees the board flipped.
const FLIP: [u32; 2] = {
    let mut flip = [0; 2];
    flip[Color::Black as usize] = 56;
    flip
};

impl Sample {
    /// The sample of `board` with `turn` to move, labelled with the search
    /// score and the game result from White's view (the data files' view);
    /// `None` for a board of more than [`MAX_PIECES`] pieces.
    pub fn new(
        board: &Board,
        turn: Color,
        white_score: Option<i32>,
        white_result: f32,
    ) -> Option<Sample> {
        let occupied = board.occupied();
        if occupied.count() > MAX_PIECES {
            return None;
        }
        let mut codes = [0u8; MAX_PIECES / 2];
        for (i, sq) in occupied.into_iter().enumerate() {
            let piece = board.piece_at(sq)?;
            let code = 6 * u8::from(piece.color == Color::Black) + (piece.role as u8 - 1);
            codes[i / 2] |= code << (4 * (i % 2));
        }
        let white = turn == Color::White;
        let score = white_score.map(|s| {
            let s = white_view(turn, s);
            s.clamp(i32::from(i16::MIN) + 1, i32::from(i16::MAX)) as i16
        });
        let white_result = if white_result >= 1.0 {
            2
        } else if white_result > 0.0 {
            1
        } else {
            0
        };
        Some(Sample {
            occupied: occupied.0,
            codes,
            score: score.unwrap_or(0),
            result: if white {
                white_result
            } else {
                2 - white_result
            },
            flags: if white { 0 } else { BLACK_TO_MOVE }
                | if score.is_some() { HAS_SCORE } else { 0 },
        })
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        if self.flags & BLACK_TO_MOVE != 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The search score in centipawns, side to move's view, when known.
    pub fn score(&self) -> Option<i32> {
        (self.flags & HAS_SCORE != 0).then_some(i32::from(self.score))
    }

    /// The game result for the side to move: 1, ½ or 0.
    pub fn result(&self) -> f32 {
        f32::from(self.result) / 2.0
    }

    /// The pieces, in square order, with their codes.
    fn pieces(&self) -> impl Iterator<Item = (u32, u8)> + '_ {
        Bitboard(self.occupied)
            .into_iter()
            .enumerate()
            .map(|(i, sq)| (u32::from(sq), (self.codes[i / 2] >> (4 * (i % 2))) & 0xF))
    }

    /// The active inputs of both perspectives, read with `layout`.
    #[inline]
    pub fn features(&self, layout: Layout) -> Features {
        let stm = self.side_to_move();
        let mut out = Features {
            us: [0; MAX_PIECES],
            them: [0; MAX_PIECES],
            len: 0,
        };
        // Each side's king square (by shakmaty's colour order), for the
        // mirrored layout.
        let mut kings = [None; 2];
        let mut bits = self.occupied;
        let mut i = 0;
        while bits != 0 && i < MAX_PIECES {
            let sq = bits.trailing_zeros();
            bits &= bits - 1;
            let code = (self.codes[i / 2] >> (4 * (i % 2))) & 0xF;
            match code {
                WHITE_KING => kings[Color::White as usize] = Some(sq),
                BLACK_KING => kings[Color::Black as usize] = Some(sq),
                _ => {}
            }
            out.us[i] = feature(stm, code, sq);
            out.them[i] = feature(!stm, code, sq);
            i += 1;
        }
        out.len = i;
        if layout.is_mirrored() {
            // A perspective whose king stands on files e–h sees the board
            // flipped a↔h: the square's file bits (the index's low three,
            // as each piece's block is 64 long) are XORed with 7.
            let on_king_side = |side: Color| kings[side as usize].is_some_and(|k| k % 8 >= 4);
            if on_king_side(stm) {
                out.us[..i].iter_mut().for_each(|f| *f ^= 7);
            }
            if on_king_side(!stm) {
                out.them[..i].iter_mut().for_each(|f| *f ^= 7);
            }
        }
        out
    }

    /// The board (no castling rights, en passant or clocks: the net does
    /// not see them).
    pub fn board(&self) -> Board {
        let mut board = Board::empty();
        for (sq, code) in self.pieces() {
            let piece = Piece {
                color: if code < 6 { Color::White } else { Color::Black },
                role: Role::ALL[usize::from(code % 6)],
            };
            board.set_piece_at(Square::ALL[sq as usize], piece);
        }
        board
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::Position as _;

    use super::*;
    use shears::chess::Position;
    use shears::eval::nnue::arch;

    #[test]
    fn the_feature_index_is_the_engines() {
        for perspective in Color::ALL {
            for color in Color::ALL {
                for role in Role::ALL {
                    for sq in Square::ALL {
                        let code = 6 * u8::from(color == Color::Black) + (role as u8 - 1);
                        assert_eq!(
                            usize::from(feature(perspective, code, u32::from(sq))),
                            arch::feature(perspective, Piece { color, role }, sq)
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_sample_keeps_the_board_and_turns_the_labels_to_the_side_to_move() {
        let fen = "r3k2r/pp3ppp/2n5/3p4/3P4/2N5/PP3PPP/R3K2R b KQkq - 0 15";
        let pos = Position::from_fen(fen, false).unwrap();
        let board = pos.board().board().clone();
        let sample = Sample::new(&board, Color::Black, Some(-37), 0.0).unwrap();
        assert_eq!(sample.board(), board);
        assert_eq!(sample.side_to_move(), Color::Black);
        assert_eq!(sample.score(), Some(37));
        assert_eq!(sample.result(), 1.0);
        let features = sample.features(Layout::Plain);
        assert_eq!(features.len, board.occupied().count());
        for ((sq, piece), (&us, &them)) in
            board.iter().zip(features.us().iter().zip(features.them()))
        {
            assert_eq!(usize::from(us), arch::feature(Color::Black, piece, sq));
            assert_eq!(usize::from(them), arch::feature(Color::White, piece, sq));
        }
        let white = Sample::new(&board, Color::White, None, 0.5).unwrap();
        assert_eq!((white.score(), white.result()), (None, 0.5));
        assert_eq!(std::mem::size_of::<Sample>(), 32);
    }

    #[test]
    fn the_mirrored_inputs_are_the_engines() {
        // Kings on both halves of the board, each side to move.
        for fen in [
            "r3k2r/pp3ppp/2n5/3p4/3P4/2N5/PP3PPP/R3K2R b KQkq - 0 15",
            "6k1/5ppp/8/8/8/8/PPP5/1K6 w - - 0 1",
            "2k5/8/8/8/8/8/8/5K2 b - - 0 1",
            "3k4/8/8/8/8/8/8/3K4 w - - 0 1",
        ] {
            let pos = Position::from_fen(fen, false).unwrap();
            let board = pos.board().board().clone();
            let stm = pos.board().turn();
            let sample = Sample::new(&board, stm, Some(0), 0.5).unwrap();
            let features = sample.features(Layout::KingMirrored);
            for (side, inputs) in [(stm, features.us()), (!stm, features.them())] {
                let o = Layout::KingMirrored.orientation_on(side, &board);
                let engine: Vec<usize> = board
                    .iter()
                    .map(|(sq, piece)| arch::feature_seen(side, o, piece, sq))
                    .collect();
                let ours: Vec<usize> = inputs.iter().map(|&f| usize::from(f)).collect();
                assert_eq!(ours, engine, "{fen}, {side:?}");
            }
        }
    }

    #[test]
    fn a_board_of_more_than_32_pieces_is_refused() {
        let mut board = shakmaty::Chess::default().board().clone();
        board.set_piece_at(
            Square::E4,
            Piece {
                color: Color::White,
                role: Role::Knight,
            },
        );
        assert!(Sample::new(&board, Color::White, None, 0.5).is_none());
    }
}
