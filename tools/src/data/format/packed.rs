//! The packed binary format of the training data: 32 bytes a record, for
//! data files whose name ends in `.bin` (`data convert` writes it from a
//! game file, as older `datagen` runs did; the reader reads it as the text
//! format's equal).
//!
//! A **position record** (all numbers little-endian):
//!
//! ```text
//! bytes  0..8   occupancy: bit s set when square s (a1 = 0 … h8 = 63) holds a piece
//! bytes  8..24  one 4-bit code per occupied square, in square order, low nibble first
//!               0-5 white pawn, knight, bishop, rook, queen, king; 6-11 the same, black;
//!               12 a pawn that may be taken en passant (of the side not to move),
//!               13 a white rook with castling rights, 14 the same, black
//! byte  24      side to move: 0 White, 1 Black
//! byte  25      halfmove clock (50-move rule), at most 255
//! bytes 26..28  fullmove number, u16
//! bytes 28..30  search score, centipawns from White's side, i16
//! byte  30      game result for White: 0 loss, 1 draw, 2 win
//! byte  31      flags: bit 0 the score is known, bit 1 an end-of-game record
//! ```
//!
//! A board has at most 32 pieces, so 16 bytes of codes always suffice. The
//! en-passant pawn is marked only when the capture is legal, so equal
//! positions pack equally.
//!
//! An **end-of-game record** (flag bit 1) closes each game as the `# game`
//! line does in the text format: bytes 0..8 the game's index (u64), bytes
//! 8..12 its plies (u32), byte 30 its result, every other byte zero.
//! Resuming counts these, and cuts the file after the last one.

use std::num::NonZeroU32;

use shakmaty::{
    Bitboard, Board, CastlingMode, Chess, Color, EnPassantMode, FromSetup, Piece, Position as _,
    Role, Setup,
};

use shears::search::TB_WIN_BOUND;

/// Bytes of a record.
pub const RECORD: usize = 32;

const EP_PAWN: u8 = 12;
const CASTLING_ROOK: [u8; 2] = [13, 14];
const HAS_SCORE: u8 = 1;
const GAME_END: u8 = 2;

/// One record read back.
#[derive(Debug, Clone, PartialEq)]
pub enum Record {
    /// A labelled position.
    Position {
        /// The board.
        board: Chess,
        /// The game result for White: 1.0, 0.5 or 0.0.
        result: f32,
        /// The search score for White, centipawns, when known.
        score: Option<i32>,
    },
    /// The end of a game.
    GameEnd {
        /// The game's index.
        index: u64,
        /// Its result for White.
        result: f32,
        /// Its plies.
        plies: u32,
    },
}

fn result_byte(result: f32) -> u8 {
    if result >= 1.0 {
        2
    } else if result > 0.0 {
        1
    } else {
        0
    }
}

fn piece_code(piece: Piece) -> u8 {
    let role = piece.role as u8 - 1; // shakmaty's roles count from pawn = 1
    role + if piece.color == Color::White { 0 } else { 6 }
}

/// The record of `board` labelled with `result` and `white_score`.
pub fn pack(board: &Chess, result: f32, white_score: Option<i32>) -> [u8; RECORD] {
    let setup = board.to_setup(EnPassantMode::Legal);
    let mut out = [0u8; RECORD];
    let occupied = setup.board.occupied();
    out[0..8].copy_from_slice(&occupied.0.to_le_bytes());
    // The pawn that just moved two squares stands behind the target square.
    let ep_pawn = setup.ep_square.map(|sq| match setup.turn {
        Color::White => sq.offset(-8),
        Color::Black => sq.offset(8),
    });
    for (i, sq) in occupied.into_iter().enumerate() {
        let piece = setup
            .board
            .piece_at(sq)
            .expect("an occupied square has a piece");
        let code = if Some(Some(sq)) == ep_pawn {
            EP_PAWN
        } else if setup.castling_rights.contains(sq) && piece.role == Role::Rook {
            CASTLING_ROOK[usize::from(piece.color == Color::Black)]
        } else {
            piece_code(piece)
        };
        out[8 + i / 2] |= code << (4 * (i % 2));
    }
    out[24] = u8::from(setup.turn == Color::Black);
    out[25] = setup.halfmoves.min(255) as u8;
    out[26..28]
        .copy_from_slice(&(setup.fullmoves.get().min(u32::from(u16::MAX)) as u16).to_le_bytes());
    if let Some(score) = white_score {
        let clamped = score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
        out[28..30].copy_from_slice(&clamped.to_le_bytes());
        out[31] |= HAS_SCORE;
    }
    out[30] = result_byte(result);
    out
}

/// The end-of-game record.
pub fn pack_game_end(index: u64, result: f32, plies: u32) -> [u8; RECORD] {
    let mut out = [0u8; RECORD];
    out[0..8].copy_from_slice(&index.to_le_bytes());
    out[8..12].copy_from_slice(&plies.to_le_bytes());
    out[30] = result_byte(result);
    out[31] = GAME_END;
    out
}

/// The game index of an end-of-game record (`None` for a position): what
/// resuming needs, without decoding the board.
pub fn game_end_index(bytes: &[u8; RECORD]) -> Option<u64> {
    (bytes[31] == GAME_END).then(|| u64::from_le_bytes(bytes[0..8].try_into().expect("8 bytes")))
}

/// Reads one record.
///
/// # Errors
///
/// A message for anything a packed record cannot hold: unknown flags or
/// codes, more than 32 pieces, a result other than 0-2, a mate score, an
/// illegal position.
pub fn unpack(bytes: &[u8; RECORD]) -> Result<Record, String> {
    let flags = bytes[31];
    let result = match bytes[30] {
        0 => 0.0,
        1 => 0.5,
        2 => 1.0,
        r => return Err(format!("result byte {r} is not 0, 1 or 2")),
    };
    if flags & !(HAS_SCORE | GAME_END) != 0 {
        return Err(format!("unknown flags {flags:#04x}"));
    }
    let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
    if flags & GAME_END != 0 {
        let plies = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
        return Ok(Record::GameEnd {
            index: u64_at(0),
            result,
            plies,
        });
    }
    let occupied = Bitboard(u64_at(0));
    if occupied.count() > 32 {
        return Err(format!("{} pieces on the board", occupied.count()));
    }
    let turn = match bytes[24] {
        0 => Color::White,
        1 => Color::Black,
        t => return Err(format!("side-to-move byte {t} is not 0 or 1")),
    };
    let mut board = Board::empty();
    let (mut castling_rights, mut ep_square) = (Bitboard::EMPTY, None);
    for (i, sq) in occupied.into_iter().enumerate() {
        let code = (bytes[8 + i / 2] >> (4 * (i % 2))) & 0xF;
        let piece = match code {
            0..=11 => Piece {
                color: if code < 6 { Color::White } else { Color::Black },
                role: Role::ALL[usize::from(code % 6)],
            },
            EP_PAWN => {
                ep_square = match turn {
                    Color::White => sq.offset(8),
                    Color::Black => sq.offset(-8),
                };
                Piece {
                    color: !turn,
                    role: Role::Pawn,
                }
            }
            13 | 14 => {
                castling_rights.add(sq);
                Piece {
                    color: if code == 13 {
                        Color::White
                    } else {
                        Color::Black
                    },
                    role: Role::Rook,
                }
            }
            c => return Err(format!("piece code {c} on {sq}")),
        };
        board.set_piece_at(sq, piece);
    }
    let fullmoves = u16::from_le_bytes([bytes[26], bytes[27]]);
    let setup = Setup {
        board,
        turn,
        castling_rights,
        ep_square,
        halfmoves: u32::from(bytes[25]),
        fullmoves: NonZeroU32::new(u32::from(fullmoves)).ok_or("fullmove number 0")?,
        ..Setup::empty()
    };
    let board = Chess::from_setup(setup, CastlingMode::Standard)
        .map_err(|e| format!("illegal position: {e}"))?;
    let score =
        (flags & HAS_SCORE != 0).then(|| i32::from(i16::from_le_bytes([bytes[28], bytes[29]])));
    if score.is_some_and(|s| s.abs() >= TB_WIN_BOUND) {
        return Err(format!(
            "score {} is a mate or tablebase score",
            score.unwrap_or(0)
        ));
    }
    Ok(Record::Position {
        board,
        result,
        score,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use shears::chess::Position;

    fn fen(board: &Chess) -> String {
        shakmaty::fen::Fen::from_position(board, EnPassantMode::Legal).to_string()
    }

    #[test]
    fn positions_round_trip_with_castling_en_passant_and_clocks() {
        let fens = [
            shears::chess::START_FEN,
            "r3k2r/pp3ppp/2n5/3p4/3P4/2N5/PP3PPP/R3K2R w Kq - 7 15",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 2",
            "8/5pk1/6p1/8/3B4/8/5PPP/6K1 b - - 99 140",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        ];
        for (i, text) in fens.iter().enumerate() {
            let board = Position::from_fen(text, false).unwrap().board().clone();
            let score = (i % 2 == 0).then_some(i as i32 * 37 - 100);
            let bytes = pack(&board, 0.5, score);
            let Record::Position {
                board: back,
                result,
                score: back_score,
            } = unpack(&bytes).unwrap()
            else {
                panic!("{text}: not a position record");
            };
            assert_eq!(fen(&back), fen(&board), "{text}");
            assert_eq!((result, back_score), (0.5, score), "{text}");
        }
    }

    #[test]
    fn a_full_board_fits_and_an_illegal_en_passant_is_not_marked() {
        let board = Chess::default();
        let bytes = pack(&board, 1.0, Some(12));
        assert_eq!(bytes.len(), RECORD);
        assert_eq!(bytes[30], 2);
        // e4 with no black pawn beside it: no en-passant target is kept.
        let mut pos = Position::startpos();
        let m = pos.parse_move("e2e4", false).unwrap();
        pos.play(m);
        let bytes = pack(pos.board(), 0.0, None);
        assert!(
            bytes[8..24]
                .iter()
                .all(|b| b & 0xF != EP_PAWN && b >> 4 != EP_PAWN)
        );
    }

    #[test]
    fn game_ends_round_trip_and_bad_records_are_refused() {
        assert_eq!(
            unpack(&pack_game_end(12_345_678_901, 0.0, 87)).unwrap(),
            Record::GameEnd {
                index: 12_345_678_901,
                result: 0.0,
                plies: 87
            }
        );
        let good = pack(&Chess::default(), 0.5, Some(3));
        let broken = |at: usize, value: u8| {
            let mut b = good;
            b[at] = value;
            unpack(&b).unwrap_err()
        };
        assert!(broken(30, 3).contains("result"));
        assert!(broken(31, 0x81).contains("flags"));
        assert!(broken(24, 2).contains("side-to-move"));
        assert!(broken(8, 0xFF).contains("piece code 15"));
        assert!(broken(26, 0).contains("fullmove"));
        let mut no_king = good;
        no_king[8..24].fill(0); // every piece a white pawn
        assert!(unpack(&no_king).unwrap_err().contains("illegal"));
        let mut mate = good;
        mate[28..30].copy_from_slice(&31_900i16.to_le_bytes());
        assert!(unpack(&mate).unwrap_err().contains("mate"));
        let mut crowded = good;
        crowded[0..8].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(unpack(&crowded).unwrap_err().contains("64 pieces"));
    }
}
