//! Reproducible random games: a small seeded generator and a game that
//! plays random legal moves. The tests draw their positions from these, and
//! `datagen` its random openings, so a seed always means the same games.
//!
//! ```
//! use shears::chess::random::RandomGame;
//! use shears::chess::Position;
//! let mut game = RandomGame::new(Position::startpos(), 7);
//! while game.plies() < 10 && game.step() {}
//! assert_eq!(game.position().plies(), game.plies());
//! ```

use shakmaty::{Move, MoveList, Position as _};

use super::position::Position;

/// The five standard perft positions (the start, "Kiwipete" and three more
/// rich in pins, promotions, castling and en passant): where the tests'
/// random games start when they need every kind of move.
#[cfg(test)]
pub(crate) const TRICKY_STARTS: [&str; 5] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
];

/// SplitMix64: tiny, fast and well mixed; every seed (zero included) gives
/// a full-period sequence.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// A generator started from `seed`, or for 0 from a seed taken from
    /// the clock and the process id (a different one on every call, in
    /// practice): what options such as `BookSeed` mean by 0.
    pub fn seeded_or_clock(seed: u64) -> Rng {
        let seed = match seed {
            0 => {
                let nanos = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos() as u64);
                nanos ^ (u64::from(std::process::id()) << 32)
            }
            s => s,
        };
        Rng::new(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` must not be zero).
    pub fn below(&mut self, n: usize) -> usize {
        debug_assert!(n > 0);
        (self.next_u64() % n as u64) as usize
    }

    /// One element of `items`, or `None` when it is empty.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> Option<T> {
        (!items.is_empty()).then(|| items[self.below(items.len())])
    }
}

/// A game of random legal moves from a start position.
#[derive(Debug, Clone)]
pub struct RandomGame {
    position: Position,
    moves: Vec<Move>,
    rng: Rng,
}

impl RandomGame {
    /// A game from `start`, its moves drawn from a generator seeded with
    /// `seed`.
    pub fn new(start: Position, seed: u64) -> RandomGame {
        RandomGame {
            position: start,
            moves: Vec::new(),
            rng: Rng::new(seed),
        }
    }

    /// The position reached (with the whole game as its history).
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// How many moves were played.
    pub fn plies(&self) -> usize {
        self.moves.len()
    }

    /// The game's generator, for choices of the caller's own.
    pub fn rng(&mut self) -> &mut Rng {
        &mut self.rng
    }

    /// Plays a uniformly random legal move; false (nothing played) when
    /// there is none.
    pub fn step(&mut self) -> bool {
        self.step_with(|_, moves, rng| rng.pick(moves))
    }

    /// Plays the move `choose` picks among the legal moves (given the
    /// position and the generator); false (nothing played) when there is no
    /// legal move or `choose` declines.
    ///
    /// # Panics
    ///
    /// If `choose` returns a move that is not in the list it was given.
    pub fn step_with(
        &mut self,
        choose: impl FnOnce(&Position, &MoveList, &mut Rng) -> Option<Move>,
    ) -> bool {
        let moves = self.position.board().legal_moves();
        let Some(m) = choose(&self.position, &moves, &mut self.rng) else {
            return false;
        };
        assert!(moves.contains(&m), "the chosen move must be legal");
        self.position.play(m);
        self.moves.push(m);
        true
    }
}
