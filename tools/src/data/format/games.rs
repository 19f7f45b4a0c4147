//! The game format of the training data: whole games, about 4 bytes a
//! position, for data files whose name ends in `.games` (`datagen` writes
//! them, `shears data from-pgn` converts match PGNs into them, and the
//! reader in `data/` replays them into training positions).
//!
//! A file is a header (`header.rs`: magic, version, the settings that made
//! the games) followed by its games back to back, in game order (game `i`
//! is the `i`-th in the file). A game (all numbers little-endian):
//!
//! ```text
//! 32 bytes   the start position: a position record of packed.rs (board, side to
//!            move, clocks) with no score (bytes 28..30 zero, flags byte 31 zero) and
//!            byte 30 the game's result for White (0 loss, 1 draw, 2 win)
//! 4 bytes    each move played, in order:
//!              bytes 0..2  the move, u16: bits 0-5 from square, bits 6-11 to square
//!                          (a1 = 0 … h8 = 63; castling as the king's own move, e1g1),
//!                          bits 12-14 the promotion (0 none, 2 knight, 3 bishop,
//!                          4 rook, 5 queen), bit 15 zero
//!              bytes 2..4  the score of the search that chose it, i16, centipawns from
//!                          the side to move's view (the engine's internal units, mates
//!                          included); -32768 when the move has no score (a book move)
//! 4 bytes    zero: the end of the game (no move goes from a square to itself)
//! ```
//!
//! The scores are kept as the search returned them, from the side to
//! move, so that a game replays exactly; the reader turns them to White's
//! view, as the other formats hold them.
//!
//! A `datagen` game starts where the engine starts playing (after the book
//! line and the random plies), so every move has a score; a converted PGN
//! game starts at its first position and its book moves have none. Which
//! positions are training positions is decided on reading (the quiet
//! filter, `data/filter.rs`), so nothing is lost at generation.
//!
//! A game of 150 moves takes 32 + 150 × 4 + 4 = 636 bytes: 100 million
//! positions take some 430 MB.

use std::io::{self, Read};

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position as _, Role, Square};

use super::packed;

/// Bytes of the start record.
pub const START: usize = packed::RECORD;
/// Bytes of a move (and of the end marker).
pub const PLY: usize = 4;
/// The score of a move that has none.
pub const NO_SCORE: i16 = i16::MIN;
/// A game longer than this is taken for a damaged file (datagen's games
/// end by ply 400 past their opening).
pub const MAX_GAME_PLIES: usize = 8192;

/// One game.
#[derive(Debug, Clone, PartialEq)]
pub struct Game {
    /// Where it starts.
    pub start: Chess,
    /// The result for White: 1.0, 0.5 or 0.0.
    pub result: f32,
    /// Each move with its search score (side to move's view), when it has
    /// one.
    pub moves: Vec<(Move, Option<i32>)>,
}

/// The 16-bit code of `m` (see the module docs).
pub fn encode_move(m: Move) -> u16 {
    match UciMove::from_move(m, CastlingMode::Standard) {
        UciMove::Normal {
            from,
            to,
            promotion,
        } => u16::from(from) | (u16::from(to) << 6) | (promotion.map_or(0, |r| r as u16) << 12),
        // Never a move of standard chess.
        UciMove::Put { .. } | UciMove::Null => 0,
    }
}

/// The legal move of `board` whose code is `code`.
///
/// # Errors
///
/// A message when the code is malformed or names no legal move.
pub fn decode_move(board: &Chess, code: u16) -> Result<Move, String> {
    let square = |bits: u16| Square::new(u32::from(bits & 63));
    let (from, to) = (square(code), square(code >> 6));
    let promotion = match (code >> 12) & 0xF {
        0 => None,
        r @ 2..=5 => Some(Role::ALL[usize::from(r - 1)]),
        r => return Err(format!("move code {code:#06x}: promotion field {r}")),
    };
    let uci = UciMove::Normal {
        from,
        to,
        promotion,
    };
    uci.to_move(board)
        .map_err(|_| format!("move {uci} is not legal in {}", fen(board)))
}

fn fen(board: &Chess) -> String {
    shakmaty::fen::Fen::from_position(board, shakmaty::EnPassantMode::Legal).to_string()
}

impl Game {
    /// The game's bytes in a game file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(START + PLY * (self.moves.len() + 1));
        out.extend_from_slice(&packed::pack(&self.start, self.result, None));
        for &(m, score) in &self.moves {
            out.extend_from_slice(&encode_move(m).to_le_bytes());
            let score = score.map_or(NO_SCORE, |s| {
                s.clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16
            });
            out.extend_from_slice(&score.to_le_bytes());
        }
        out.extend_from_slice(&[0; PLY]);
        out
    }

    /// The positions of the game, each with the move played from it and
    /// its score: `(board, move, score)`.
    pub fn positions(&self) -> impl Iterator<Item = (Chess, Move, Option<i32>)> + '_ {
        let mut board = self.start.clone();
        self.moves.iter().map(move |&(m, score)| {
            let before = board.clone();
            // Legal: decoded against this board, or played by the engine.
            board.play_unchecked(m);
            (before, m, score)
        })
    }
}

/// What is wrong with a game of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameDamage {
    /// The game's index (0 for the first game of the file).
    pub game: u64,
    /// The byte offset in the file of the game's first byte.
    pub offset: u64,
    /// What is wrong.
    pub reason: String,
}

/// Why the next game could not be read.
#[derive(Debug)]
pub enum ReadError {
    /// The file cannot be read.
    Io(io::Error),
    /// The game is damaged.
    Damaged(GameDamage),
}

/// Reads games one after the other from the game part of a file.
pub struct GameReader<R> {
    input: R,
    /// Offset of the next game in the file.
    offset: u64,
    /// Index of the next game.
    index: u64,
}

impl<R: Read> GameReader<R> {
    /// A reader of `input`, positioned at the first game, which is at
    /// `offset` in its file (the header's length).
    pub fn new(input: R, offset: u64) -> GameReader<R> {
        GameReader {
            input,
            offset,
            index: 0,
        }
    }

    /// Index of the next game.
    pub fn index(&self) -> u64 {
        self.index
    }

    /// Offset of the next game.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The next game with its index and offset, `None` at the end of the
    /// file.
    ///
    /// # Errors
    ///
    /// A game that is cut off, has a bad start record, an illegal move or
    /// no end within [`MAX_GAME_PLIES`] is damaged; the reader should not
    /// be used after an error.
    pub fn next_game(&mut self) -> Result<Option<(u64, u64, Game)>, ReadError> {
        let (index, offset) = (self.index, self.offset);
        let damaged = |reason: String| {
            ReadError::Damaged(GameDamage {
                game: index,
                offset,
                reason,
            })
        };
        let mut game: Option<Game> = None;
        let mut board = Chess::default();
        let walked = walk_game(&mut self.input, |record| match record {
            Part::Start(start) => {
                let (start_board, result) = match packed::unpack(start) {
                    Ok(packed::Record::Position {
                        board,
                        result,
                        score: None,
                    }) if start[31] == 0 => (board, result),
                    Ok(_) => {
                        return Err(damaged("the start record has a score or flags".to_owned()));
                    }
                    Err(reason) => return Err(damaged(format!("bad start position: {reason}"))),
                };
                board = start_board.clone();
                game = Some(Game {
                    start: start_board,
                    result,
                    moves: Vec::new(),
                });
                Ok(())
            }
            Part::Move(ply) => {
                let moves = &mut game.as_mut().expect("the start record comes first").moves;
                if moves.len() >= MAX_GAME_PLIES {
                    return Err(damaged(format!(
                        "no end marker within {MAX_GAME_PLIES} moves"
                    )));
                }
                let code = u16::from_le_bytes([ply[0], ply[1]]);
                let score = i16::from_le_bytes([ply[2], ply[3]]);
                let m = decode_move(&board, code)
                    .map_err(|e| damaged(format!("move {}: {e}", moves.len() + 1)))?;
                board.play_unchecked(m);
                moves.push((m, (score != NO_SCORE).then_some(i32::from(score))));
                Ok(())
            }
        })?;
        match walked {
            Walked::End => Ok(None),
            Walked::Cut { read, .. } if read < START as u64 => {
                Err(damaged(format!("the file ends {read} bytes into the game")))
            }
            Walked::Cut { read, moves } => Err(damaged(format!(
                "the file ends {read} bytes into the game, after {moves} moves, before its end \
                 marker"
            ))),
            Walked::Whole { len, .. } => {
                self.index += 1;
                self.offset += len;
                let game = game.expect("a whole game has had its start record");
                Ok(Some((index, offset, game)))
            }
        }
    }
}

impl From<io::Error> for ReadError {
    fn from(e: io::Error) -> Self {
        ReadError::Io(e)
    }
}

/// One record of a game (its start, or a move), as [`walk_game`] hands
/// it on.
#[derive(Debug, Clone, Copy)]
enum Part<'a> {
    /// The start record.
    Start(&'a [u8; START]),
    /// A move record (never the end marker).
    Move([u8; PLY]),
}

/// Where a walk over one game's records ended ([`walk_game`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Walked {
    /// The input ended before the game's first byte: no more games.
    End,
    /// The input ended `read` bytes into the game, after `moves` move
    /// records: a game cut off (a run stopped mid-write, or damage).
    Cut {
        /// Bytes of the game there.
        read: u64,
        /// Whole move records among them.
        moves: u64,
    },
    /// The game's end marker was read: the game took `len` bytes.
    Whole {
        /// Bytes of the game, its end marker included.
        len: u64,
        /// Its move records.
        moves: u64,
    },
}

/// The one walk over a game's records, for the reader and the count
/// ([`GameReader::next_game`], [`scan`]): reads the start record, then
/// each move record, handing each to `on_record`, until the end marker or
/// the end of the input. `on_record` may stop the walk with an error (a
/// bad record); nothing after the end marker is read.
///
/// # Errors
///
/// When the input cannot be read, or `on_record` fails.
fn walk_game<E: From<io::Error>>(
    input: &mut impl Read,
    mut on_record: impl FnMut(Part<'_>) -> Result<(), E>,
) -> Result<Walked, E> {
    let mut start = [0u8; START];
    match read_exact_or_end(input, &mut start)? {
        0 => return Ok(Walked::End),
        n if n < START => {
            return Ok(Walked::Cut {
                read: n as u64,
                moves: 0,
            });
        }
        _ => on_record(Part::Start(&start))?,
    }
    let mut read = START as u64;
    let mut moves = 0;
    loop {
        let mut ply = [0u8; PLY];
        let n = read_exact_or_end(input, &mut ply)?;
        if n < PLY {
            return Ok(Walked::Cut {
                read: read + n as u64,
                moves,
            });
        }
        read += PLY as u64;
        if ply == [0; PLY] {
            return Ok(Walked::Whole { len: read, moves });
        }
        on_record(Part::Move(ply))?;
        moves += 1;
    }
}

/// Reads into `buf` until it is full or the input ends: the bytes read.
pub(crate) fn read_exact_or_end(input: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match input.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

/// What the game part of a file holds, counted without replaying the
/// moves (the reader's `DataFile::extent` of a game file, which a resumed
/// run reads, is this).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Scan {
    /// Complete games.
    pub games: u64,
    /// Moves in the complete games.
    pub moves: u64,
    /// Bytes of the complete games (from the first game's offset).
    pub complete_len: u64,
}

/// Counts the complete games of `input` (the game part of a file). A game
/// cut off at the end is not counted: a run stopped mid-write.
///
/// # Errors
///
/// When the input cannot be read.
pub fn scan(input: &mut impl Read) -> io::Result<Scan> {
    let mut scan = Scan::default();
    loop {
        match walk_game(input, |_| Ok::<_, io::Error>(()))? {
            Walked::Whole { len, moves } => {
                scan.games += 1;
                scan.moves += moves;
                scan.complete_len += len;
            }
            Walked::End | Walked::Cut { .. } => return Ok(scan),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shears::chess::Position;

    fn play(fen: &str, moves: &[&str]) -> (Chess, Vec<Move>) {
        let mut pos = Position::from_fen(fen, false).unwrap();
        let start = pos.board().clone();
        let mut out = Vec::new();
        for text in moves {
            let m = pos.parse_move(text, false).unwrap();
            pos.play(m);
            out.push(m);
        }
        (start, out)
    }

    #[test]
    fn every_kind_of_move_round_trips() {
        // En passant, castling by either colour, a promotion with
        // a capture, then an under-promotion.
        let (start, moves) = play(
            "r3k2r/6pp/8/3pP3/8/8/1p4PP/R3K2R w KQkq d6 0 20",
            &["e5d6", "e8c8", "e1g1", "b2a1q", "d6d7"],
        );
        let mut board = start;
        for m in moves {
            let code = encode_move(m);
            assert_ne!(code, 0);
            assert_eq!(decode_move(&board, code).unwrap(), m, "{m:?}");
            board.play_unchecked(m);
        }
        let (start, moves) = play("8/2P3k1/8/8/8/8/8/4K3 w - - 0 60", &["c7c8n"]);
        assert_eq!(
            decode_move(&start, encode_move(moves[0])).unwrap(),
            moves[0]
        );
        assert_eq!(encode_move(moves[0]) >> 12, Role::Knight as u16);
    }

    #[test]
    fn a_game_round_trips_and_a_damaged_one_is_named() {
        let (start, moves) = play(shears::chess::START_FEN, &["e2e4", "c7c5", "g1f3"]);
        let game = Game {
            start,
            result: 0.0,
            moves: vec![
                (moves[0], Some(30)),
                (moves[1], None),
                (moves[2], Some(-32_000)),
            ],
        };
        let bytes = game.to_bytes();
        assert_eq!(bytes.len(), START + 4 * PLY);
        let mut two = bytes.clone();
        two.extend_from_slice(&bytes);
        let mut reader = GameReader::new(two.as_slice(), 100);
        let (i, at, back) = reader.next_game().ok().flatten().unwrap();
        assert_eq!((i, at, &back), (0, 100, &game));
        let (i, at, _) = reader.next_game().ok().flatten().unwrap();
        assert_eq!((i, at), (1, 100 + bytes.len() as u64));
        assert!(matches!(reader.next_game(), Ok(None)));
        assert_eq!(
            scan(&mut two.as_slice()).unwrap(),
            Scan {
                games: 2,
                moves: 6,
                complete_len: two.len() as u64
            }
        );

        let damage = |bytes: &[u8]| -> GameDamage {
            let mut reader = GameReader::new(bytes, 0);
            loop {
                match reader.next_game() {
                    Ok(Some(_)) => {}
                    Ok(None) => panic!("no damage found"),
                    Err(ReadError::Damaged(d)) => return d,
                    Err(ReadError::Io(e)) => panic!("{e}"),
                }
            }
        };
        // Cut in the second game: not complete, and named.
        let cut = &two[..two.len() - 3];
        let d = damage(cut);
        assert_eq!((d.game, d.offset), (1, bytes.len() as u64));
        assert!(d.reason.contains("before its end marker"), "{}", d.reason);
        assert_eq!(scan(&mut &cut[..]).unwrap().games, 1);
        // An illegal move: e2e5.
        let mut bad = two.clone();
        let e2e5 = u16::from(Square::E2) | (u16::from(Square::E5) << 6);
        bad[bytes.len() + START..bytes.len() + START + 2].copy_from_slice(&e2e5.to_le_bytes());
        let d = damage(&bad);
        assert_eq!(d.game, 1);
        assert!(
            d.reason.contains("move 1: move e2e5 is not legal"),
            "{}",
            d.reason
        );
        // A bad board: no kings.
        let mut bad = two;
        bad[8..24].fill(0);
        let d = damage(&bad);
        assert_eq!((d.game, d.offset), (0, 0));
        assert!(d.reason.contains("bad start position"), "{}", d.reason);
    }
}
