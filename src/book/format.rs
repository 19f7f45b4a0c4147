//! The Polyglot book format: the 16-byte entry, the position key and the
//! move code. Reading whole books is `reader.rs`, writing them `make.rs`.
//!
//! An entry, all fields big-endian:
//!
//! ```text
//! bytes  0..8   key     the Polyglot key of the position (see below)
//! bytes  8..10  move    bits 0-5 to, 6-11 from (a1 = 0 … h8 = 63),
//!                       12-14 promotion (0 none, 1 N, 2 B, 3 R, 4 Q)
//! bytes 10..12  weight  how good or frequent the move is (relative)
//! bytes 12..16  learn   free for learning; make-book writes 0
//! ```
//!
//! A book is its entries sorted by key (ascending), so the moves of a
//! position are found by binary search. Castling is written king takes
//! rook (`e1h1`); readers in the wild also accept the king's two-step
//! (`e1g1`), and so do we.
//!
//! The key is shakmaty's `Zobrist64` hash, whose 781 random numbers are
//! Polyglot's, with the en passant file hashed when a pawn of the side to
//! move stands beside the pawn that just advanced two squares, whether or
//! not the capture would be legal (shakmaty's `EnPassantMode::PseudoLegal`).
//! The engine's own keys (`chess::zobrist`) count the file only for a legal
//! capture, so the two differ in positions where the capturing pawn is
//! pinned.
//!
//! ```
//! use shakmaty::{Chess, Square, Move, Role};
//! use shears::book::format::{polyglot_key, encode_move};
//! assert_eq!(polyglot_key(&Chess::default()), 0x463b96181691fc9c);
//! let e2e4 = Move::Normal {
//!     role: Role::Pawn, from: Square::E2, capture: None, to: Square::E4, promotion: None,
//! };
//! assert_eq!(encode_move(e2e4), (12 << 6) | 28);
//! ```

use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingSide, Chess, EnPassantMode, Move, Position as _, Role, Square};

/// Bytes in one book entry.
pub const ENTRY_SIZE: usize = 16;

/// One book entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Entry {
    /// The Polyglot key of the position ([`polyglot_key`]).
    pub key: u64,
    /// The move, Polyglot-coded ([`encode_move`], [`decode_move`]).
    pub raw_move: u16,
    /// Its weight, relative to the other moves of the position.
    pub weight: u16,
    /// The learning field (0 unless some program has learned into it).
    pub learn: u32,
}

impl Entry {
    /// An entry from its 16 bytes.
    pub fn from_bytes(bytes: &[u8; ENTRY_SIZE]) -> Entry {
        let (key, rest) = bytes.split_at(8);
        let (raw_move, rest) = rest.split_at(2);
        let (weight, learn) = rest.split_at(2);
        // The slices have the lengths split off just above.
        Entry {
            key: u64::from_be_bytes(key.try_into().expect("8 bytes")),
            raw_move: u16::from_be_bytes(raw_move.try_into().expect("2 bytes")),
            weight: u16::from_be_bytes(weight.try_into().expect("2 bytes")),
            learn: u32::from_be_bytes(learn.try_into().expect("4 bytes")),
        }
    }

    /// The entry's 16 bytes.
    pub fn to_bytes(&self) -> [u8; ENTRY_SIZE] {
        let mut out = [0; ENTRY_SIZE];
        out[..8].copy_from_slice(&self.key.to_be_bytes());
        out[8..10].copy_from_slice(&self.raw_move.to_be_bytes());
        out[10..12].copy_from_slice(&self.weight.to_be_bytes());
        out[12..].copy_from_slice(&self.learn.to_be_bytes());
        out
    }
}

/// The Polyglot key of a position.
pub fn polyglot_key(board: &Chess) -> u64 {
    board
        .zobrist_hash::<Zobrist64>(EnPassantMode::PseudoLegal)
        .0
}

/// The Polyglot code of a move: castling as king takes rook.
pub fn encode_move(m: Move) -> u16 {
    let (from, to, promotion) = match m {
        Move::Normal {
            from,
            to,
            promotion,
            ..
        } => (from, to, promotion),
        Move::EnPassant { from, to } => (from, to, None),
        Move::Castle { king, rook } => (king, rook, None),
        // Standard chess has no drops; code them as the null move.
        Move::Put { .. } => return 0,
    };
    let promotion = match promotion {
        Some(Role::Knight) => 1,
        Some(Role::Bishop) => 2,
        Some(Role::Rook) => 3,
        Some(Role::Queen) => 4,
        _ => 0,
    };
    (promotion << 12) | (u16::from(from) << 6) | u16::from(to)
}

/// The legal move of `board` that `raw` codes, if there is one. Castling
/// is read as king takes rook, or as the king's move to its castled square
/// when no ordinary move of the king is written so.
pub fn decode_move(raw: u16, board: &Chess) -> Option<Move> {
    let to = Square::new(u32::from(raw & 0x3f));
    let from = Square::new(u32::from((raw >> 6) & 0x3f));
    let promotion = match (raw >> 12) & 0x7 {
        0 => None,
        1 => Some(Role::Knight),
        2 => Some(Role::Bishop),
        3 => Some(Role::Rook),
        4 => Some(Role::Queen),
        _ => return None,
    };
    let moves = board.legal_moves();
    let exact = moves.iter().find(|m| match **m {
        Move::Normal {
            from: f,
            to: t,
            promotion: p,
            ..
        } => (f, t, p) == (from, to, promotion),
        Move::EnPassant { from: f, to: t } => (f, t, None) == (from, to, promotion),
        Move::Castle { king, rook } => (king, rook, None) == (from, to, promotion),
        Move::Put { .. } => false,
    });
    exact
        .or_else(|| {
            moves.iter().find(|m| match **m {
                Move::Castle { king, rook } => {
                    let side = CastlingSide::from_king_side(king < rook);
                    promotion.is_none() && king == from && side.king_to(board.turn()) == to
                }
                _ => false,
            })
        })
        .copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::uci::UciMove;
    use shakmaty::{CastlingMode, Position};

    fn play(moves: &[&str]) -> Chess {
        let mut board = Chess::default();
        for text in moves {
            let m = UciMove::from_ascii(text.as_bytes())
                .unwrap()
                .to_move(&board)
                .unwrap();
            board.play_unchecked(m);
        }
        board
    }

    /// The keys listed in the Polyglot book format specification (Michel
    /// Van den Bergh), "Test positions".
    #[test]
    fn keys_match_the_reference_keys_of_the_polyglot_specification() {
        let cases: &[(&[&str], u64)] = &[
            (&[], 0x463b96181691fc9c),
            (&["e2e4"], 0x823c9b50fd114196),
            (&["e2e4", "d7d5"], 0x0756b94461c50fb0),
            (&["e2e4", "d7d5", "e4e5"], 0x662fafb965db29d4),
            (&["e2e4", "d7d5", "e4e5", "f7f5"], 0x22a48b5a8e47ff78),
            (
                &["e2e4", "d7d5", "e4e5", "f7f5", "e1e2"],
                0x652a607ca3f242c1,
            ),
            (
                &["e2e4", "d7d5", "e4e5", "f7f5", "e1e2", "e8f7"],
                0x00fdd303c946bdd9,
            ),
            (
                &["a2a4", "b7b5", "h2h4", "b5b4", "c2c4"],
                0x3c8123ea7b067637,
            ),
            (
                &["a2a4", "b7b5", "h2h4", "b5b4", "c2c4", "b4c3", "a1a3"],
                0x5c3f9b829b279560,
            ),
        ];
        for (moves, key) in cases {
            assert_eq!(polyglot_key(&play(moves)), *key, "after {moves:?}");
        }
    }

    #[test]
    fn en_passant_counts_when_pseudo_legal_even_if_the_pawn_is_pinned() {
        // White's e5 pawn is pinned by the queen on h5: exd6 is illegal, but
        // Polyglot (and python-chess 1.11's zobrist_hash, which gave the
        // number below) hash the d-file all the same.
        let fen: Fen = "8/8/8/K2pP2q/8/8/8/7k w - d6 0 1".parse().unwrap();
        let board: Chess = fen.into_position(CastlingMode::Standard).unwrap();
        assert_eq!(polyglot_key(&board), 0x8d765a85ba990671);
        let legal = board.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0;
        assert_ne!(polyglot_key(&board), legal);
    }

    #[test]
    fn entries_round_trip_through_their_big_endian_bytes() {
        let e = Entry {
            key: 0x0102_0304_0506_0708,
            raw_move: 0x090a,
            weight: 0x0b0c,
            learn: 0x0d0e_0f10,
        };
        let bytes = e.to_bytes();
        assert_eq!(bytes.to_vec(), (1..=16).collect::<Vec<u8>>());
        assert_eq!(Entry::from_bytes(&bytes), e);
    }

    #[test]
    fn every_legal_move_round_trips_through_its_code() {
        // Castling both ways, en passant, promotions of every kind.
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/Pp2P3/2N2Q1p/1PPBBPPP/R3K2R b KQkq a3 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - - 0 1",
        ];
        for fen in fens {
            let board: Chess = fen
                .parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap();
            for m in board.legal_moves() {
                assert_eq!(decode_move(encode_move(m), &board), Some(m), "{fen} {m}");
            }
        }
    }

    #[test]
    fn castling_reads_as_king_takes_rook_or_the_kings_two_steps() {
        let board = play(&["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"]);
        let castle = Move::Castle {
            king: Square::E1,
            rook: Square::H1,
        };
        let e1h1 = (u16::from(Square::E1) << 6) | u16::from(Square::H1);
        let e1g1 = (u16::from(Square::E1) << 6) | u16::from(Square::G1);
        assert_eq!(encode_move(castle), e1h1);
        assert_eq!(decode_move(e1h1, &board), Some(castle));
        assert_eq!(decode_move(e1g1, &board), Some(castle));
        // Not legal here (e2e5), or no such promotion code.
        let e2e5 = (u16::from(Square::E2) << 6) | u16::from(Square::E5);
        assert_eq!(decode_move(e2e5, &board), None);
        assert_eq!(decode_move(e1g1 | (5 << 12), &board), None);
    }
}
