//! Our `Position`: the line of play from a known start to the current
//! position, each board with its zobrist key.
//!
//! Owns: applying trusted moves with the incremental key update, the null
//! move, taking moves back, and the rules that end a game (checkmate,
//! stalemate, the 50-move rule, insufficient material, repetition). Loading
//! positions from FEN lives in `fen.rs`, move and board text in
//! `notation.rs`. It deliberately does not evaluate or search.
//!
//! shakmaty positions are copy-make: [`Position::play`] copies the current
//! board into the next slot and plays the move there, and
//! [`Position::undo`] just drops the last slot, so a search can play and
//! take back moves on one `Position` without copying anything twice.
//!
//! ```
//! use shears::chess::Position;
//! let mut pos = Position::startpos();
//! let m = pos.parse_move("e2e4", false).unwrap();
//! pos.play(m);
//! assert_eq!(pos.fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
//! pos.undo();
//! assert_eq!(pos.key(), Position::startpos().key());
//! ```

use shakmaty::{Chess, Color, KnownOutcome, Move, Position as _};

use super::zobrist::{full_key, key_after, key_finish, key_moved, null_key};

/// A chess position with the line of play that led to it.
#[derive(Clone, Debug)]
pub struct Position {
    /// The boards from the first known position to the current one (last);
    /// never empty.
    boards: Vec<Chess>,
    /// The zobrist key of each board.
    keys: Vec<u64>,
}

impl Default for Position {
    fn default() -> Self {
        Self::startpos()
    }
}

impl Position {
    /// The standard start position.
    pub fn startpos() -> Position {
        Position::from_chess(Chess::default())
    }

    /// Wraps a shakmaty position, computing its key from scratch.
    pub fn from_chess(board: Chess) -> Position {
        let key = full_key(&board);
        Position {
            boards: vec![board],
            keys: vec![key],
        }
    }

    /// The shakmaty board.
    #[inline]
    pub fn board(&self) -> &Chess {
        self.boards
            .last()
            .expect("a position always holds its current board")
    }

    /// The zobrist key of the current position.
    #[inline]
    pub fn key(&self) -> u64 {
        *self
            .keys
            .last()
            .expect("a position always holds its current key")
    }

    /// Keys of all earlier positions, oldest first.
    pub fn history(&self) -> &[u64] {
        &self.keys[..self.keys.len() - 1]
    }

    /// Moves played since the first known position.
    pub fn plies(&self) -> usize {
        self.keys.len() - 1
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.board().turn()
    }

    /// Makes room for `plies` more moves without reallocating (a search
    /// calls this once at its root).
    pub fn reserve(&mut self, plies: usize) {
        self.boards.reserve(plies);
        self.keys.reserve(plies);
    }

    /// Plays a move that is known to be legal here (it came from
    /// `legal_moves()`, the move picker or [`Position::parse_move`]).
    #[inline]
    pub fn play(&mut self, m: Move) {
        self.play_hinting(m, |_| {});
    }

    /// [`Position::play`] that hands `key_hint` the child's key as far as
    /// it is known before the move is made ([`key_moved`]: exact unless
    /// castling rights or an en passant right change), so that a search can
    /// start loading the child's table entry while the board is updated,
    /// and hands it the exact key again only when that differs.
    #[inline]
    pub fn play_hinting(&mut self, m: Move, mut key_hint: impl FnMut(u64)) {
        debug_assert!(self.board().is_legal(m), "play() needs a legal move");
        let n = self.boards.len();
        let partial = key_moved(&self.boards[n - 1], self.keys[n - 1], m);
        key_hint(partial);
        // Clone straight into the next slot and play there: no second copy.
        self.boards.extend_from_within(n - 1..);
        let (parents, child) = self.boards.split_at_mut(n);
        let (parent, child) = (&parents[n - 1], &mut child[0]);
        child.play_unchecked(m);
        let key = key_finish(partial, parent, child);
        debug_assert_eq!(key, key_after(parent, self.keys[n - 1], m, child));
        if key != partial {
            key_hint(key);
        }
        self.keys.push(key);
    }

    /// The null move: the side to move passes. Returns false, changing
    /// nothing, when passing would leave an illegal position (the side to
    /// move is in check).
    pub fn play_null(&mut self) -> bool {
        let Ok(passed) = self.board().clone().swap_turn() else {
            return false;
        };
        let key = null_key(self.board(), self.key());
        self.boards.push(passed);
        self.keys.push(key);
        true
    }

    /// Takes back the last move (or null move).
    ///
    /// # Panics
    ///
    /// In debug builds, when there is no move to take back.
    #[inline]
    pub fn undo(&mut self) {
        debug_assert!(self.boards.len() > 1, "undo() without a move to take back");
        let n = self.boards.len() - 1;
        self.boards.truncate(n);
        self.keys.truncate(n);
    }

    /// How often the current position occurred before, since the last
    /// capture or pawn move (only positions with the same side to move are
    /// compared, four plies back and more: nothing nearer can repeat).
    pub fn repetitions(&self) -> usize {
        self.repeated_positions().count()
    }

    /// Whether the current position occurred before (see
    /// [`Position::repetitions`]).
    #[inline]
    pub fn is_repetition(&self) -> bool {
        self.repeated_positions().next().is_some()
    }

    fn repeated_positions(&self) -> impl Iterator<Item = usize> + '_ {
        let current = self.keys.len() - 1;
        let key = self.keys[current];
        let reach = (self.board().halfmoves() as usize).min(current);
        (4..=reach)
            .step_by(2)
            .filter(move |&back| self.keys[current - back] == key)
    }

    /// Whether any position of the line since the last capture or pawn move
    /// (the current one included) occurred twice in it.
    pub fn has_repeated(&self) -> bool {
        let reach = (self.board().halfmoves() as usize).min(self.keys.len() - 1);
        let line = &self.keys[self.keys.len() - 1 - reach..];
        line.iter()
            .enumerate()
            .any(|(i, key)| line[i + 1..].contains(key))
    }

    /// Whether the 50-move rule ends the game: a hundred plies without a
    /// capture or pawn move, unless the last of them mated.
    pub fn is_fifty_move_draw(&self) -> bool {
        let board = self.board();
        board.halfmoves() >= 100 && !(board.is_check() && board.legal_moves().is_empty())
    }

    /// The search's draw rule: the 50-move rule, insufficient material, or
    /// any repetition (of the game or of the line searched: a position that
    /// repeats once can repeat again, so the search scores it as a draw).
    #[inline]
    pub fn is_draw(&self) -> bool {
        let board = self.board();
        (board.halfmoves() >= 100 && self.is_fifty_move_draw())
            || board.is_insufficient_material()
            || self.is_repetition()
    }

    /// How the game stands by the rules of play: checkmate, stalemate, the
    /// 50-move rule, insufficient material or threefold repetition end it;
    /// `None` while it goes on.
    pub fn outcome(&self) -> Option<KnownOutcome> {
        let board = self.board();
        if board.legal_moves().is_empty() {
            return Some(if board.is_check() {
                KnownOutcome::Decisive {
                    winner: !board.turn(),
                }
            } else {
                KnownOutcome::Draw
            });
        }
        let drawn =
            board.halfmoves() >= 100 || board.is_insufficient_material() || self.repetitions() >= 2;
        drawn.then_some(KnownOutcome::Draw)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(pos: &mut Position, moves: &[&str]) {
        pos.play_uci_moves(moves.iter().copied(), false).unwrap();
    }

    #[test]
    fn repetition_counts_only_since_the_last_irreversible_move() {
        let mut pos = Position::startpos();
        let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
        play(&mut pos, &shuffle[..3]);
        assert!(!pos.has_repeated());
        play(&mut pos, &shuffle[3..]);
        assert_eq!(pos.repetitions(), 1);
        assert!(pos.is_draw() && pos.outcome().is_none());
        // Any position of the line repeated, not only the current one.
        let mut later = pos.clone();
        play(&mut later, &["b1c3"]);
        assert!(later.has_repeated() && later.repetitions() == 0);
        play(&mut pos, &shuffle);
        assert_eq!(pos.repetitions(), 2);
        assert_eq!(pos.outcome(), Some(KnownOutcome::Draw));
        // A pawn move: nothing before it can repeat.
        play(&mut pos, &["e2e4", "e7e5"]);
        assert_eq!(pos.repetitions(), 0);
    }

    #[test]
    fn undo_restores_board_and_key_and_null_moves_pass() {
        let mut pos = Position::startpos();
        let before = (pos.fen(), pos.key());
        play(&mut pos, &["e2e4"]);
        assert!(pos.play_null());
        assert_eq!(pos.turn(), Color::White);
        assert_eq!(pos.key(), full_key(pos.board()));
        pos.undo();
        pos.undo();
        assert_eq!((pos.fen(), pos.key()), before);
        let in_check = Position::from_fen("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", false).unwrap();
        let mut copy = in_check.clone();
        assert!(!copy.play_null());
        assert_eq!(copy.key(), in_check.key());
    }

    #[test]
    fn mate_on_the_hundredth_halfmove_is_a_mate() {
        let mated = Position::from_fen("R5k1/5ppp/8/8/8/8/8/6K1 b - - 100 80", false).unwrap();
        assert!(!mated.is_fifty_move_draw());
        assert_eq!(
            mated.outcome(),
            Some(KnownOutcome::Decisive {
                winner: Color::White
            })
        );
        let drawn = Position::from_fen("r5k1/5ppp/8/8/8/8/8/6K1 b - - 100 80", false).unwrap();
        assert!(drawn.is_fifty_move_draw() && drawn.is_draw());
    }
}
