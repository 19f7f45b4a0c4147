//! Static exchange evaluation (SEE): the material outcome of the capture
//! sequence a move starts on its target square.
//!
//! After the move, the two sides alternately recapture on the target square,
//! each with its least valuable attacker. Attackers are found with bitboards
//! against a shrinking occupancy: every piece that captures leaves the
//! occupancy (as does the moved piece's from-square and an en passant
//! victim), and the rook/bishop rays from the target are recomputed, so
//! sliders behind a piece that just left (x-rays, batteries) join in. A king
//! only recaptures when the other side has no attacker left afterwards. A
//! pawn recapturing on a back rank promotes to a queen. Pins are ignored.
//!
//! `Exchange` produces the mover's running balance `B0, B1, …` after each
//! capture. Either side may stop instead of capturing, so the result is the
//! nested minimax `min(B0, max(B1, min(B2, …)))` (the opponent decides after
//! even captures, the mover after odd ones). `see` evaluates it backwards
//! from a fixed-size array (the tests' reference); [`see_ge`] resolves it
//! forwards against the threshold and stops as soon as the answer is known.
//! Neither allocates.
//! Piece values are the plain ones of `values.rs`.

use shakmaty::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use shakmaty::{Bitboard, Board, Chess, Color, Move, Position, Role, Square};

use super::values::{PIECE_VALUES, piece_value};

/// What a pawn gains by promoting to a queen.
const QUEEN_PROMOTION_GAIN: i32 = PIECE_VALUES[4] - PIECE_VALUES[0];
/// Longest possible swap list: a legal position has at most 32 pieces.
#[cfg(test)]
const MAX_SWAPS: usize = 32;

/// The capture sequence on one square, one capture per [`Exchange::next`].
struct Exchange<'a> {
    board: &'a Board,
    target: Square,
    occupied: Bitboard,
    /// Pieces of both colours attacking `target` through `occupied`.
    attackers: Bitboard,
    /// Whether `attackers` still has to be computed (done lazily, since
    /// `see_ge` can often answer from the first balance alone).
    pending: bool,
    mover: Color,
    /// The side to make the next capture.
    side: Color,
    /// Value of the piece standing on `target`.
    on_target: i32,
    /// Material won by the mover so far.
    balance: i32,
}

impl<'a> Exchange<'a> {
    fn new(pos: &'a Chess, m: Move) -> Self {
        let board = pos.board();
        let mover = pos.turn();
        let mut ex = Exchange {
            board,
            target: m.to(),
            occupied: board.occupied(),
            attackers: Bitboard::EMPTY,
            pending: false,
            mover,
            side: !mover,
            on_target: 0,
            balance: 0,
        };
        let (from, captured, stands) = match m {
            Move::Normal {
                role,
                from,
                capture,
                promotion,
                ..
            } => (
                from,
                capture.map_or(0, piece_value),
                promotion.unwrap_or(role),
            ),
            Move::EnPassant { from, to } => {
                ex.occupied
                    .discard(Square::from_coords(to.file(), from.rank()));
                (from, piece_value(Role::Pawn), Role::Pawn)
            }
            // Castling cannot lose or win material; drops do not exist in chess.
            Move::Castle { .. } | Move::Put { .. } => return ex,
        };
        ex.occupied.discard(from);
        ex.pending = true;
        ex.on_target = piece_value(stands);
        ex.balance = captured + piece_value(stands) - piece_value(m.role());
        ex
    }

    /// Sliders of either colour that see `target` through `occupied`.
    fn sliders(&self) -> Bitboard {
        let b = self.board;
        (rook_attacks(self.target, self.occupied) & b.rooks_and_queens())
            | (bishop_attacks(self.target, self.occupied) & b.bishops_and_queens())
    }

    /// The most the next capture can change the balance by.
    fn max_gain(&self) -> i32 {
        let promotes = Bitboard::BACKRANKS.contains(self.target);
        self.on_target + if promotes { QUEEN_PROMOTION_GAIN } else { 0 }
    }

    /// Plays the next recapture, if the side to capture has a legal one, and
    /// returns the mover's new balance.
    fn next(&mut self) -> Option<i32> {
        let b = self.board;
        if self.pending {
            self.pending = false;
            let t = self.target;
            self.attackers = self.sliders()
                | (knight_attacks(t) & b.knights())
                | (king_attacks(t) & b.kings())
                | (pawn_attacks(Color::Black, t) & b.pawns() & b.white())
                | (pawn_attacks(Color::White, t) & b.pawns() & b.black());
            self.attackers &= self.occupied;
        }
        let ours = self.attackers & b.by_color(self.side);
        let (sq, role) = Role::ALL
            .into_iter()
            .find_map(|role| (ours & b.by_role(role)).first().map(|sq| (sq, role)))?;
        self.occupied.discard(sq);
        self.attackers = (self.attackers | self.sliders()) & self.occupied;
        if role == Role::King && self.attackers.intersects(b.by_color(!self.side)) {
            // The king may not capture into a defended square; as the most
            // valuable piece it is also the side's last attacker.
            self.attackers = Bitboard::EMPTY;
            return None;
        }
        let mut gain = self.on_target;
        self.on_target = piece_value(role);
        if role == Role::Pawn && Bitboard::BACKRANKS.contains(self.target) {
            gain += QUEEN_PROMOTION_GAIN;
            self.on_target = piece_value(Role::Queen);
        }
        self.balance += if self.side == self.mover { gain } else { -gain };
        self.side = !self.side;
        Some(self.balance)
    }
}

/// The static exchange value of the legal move `m`: the material the side
/// making it gains once both sides have recaptured on the target square for
/// as long as it pays (negative: the move loses material). Castling is 0.
/// The search only asks [`see_ge`]; this full value is the reference the
/// tests check `see_ge` against.
#[cfg(test)]
pub fn see(board: &Chess, m: Move) -> i32 {
    let mut ex = Exchange::new(board, m);
    let mut balances = [0i32; MAX_SWAPS];
    balances[0] = ex.balance;
    let mut len = 1;
    while len < MAX_SWAPS {
        match ex.next() {
            Some(balance) => balances[len] = balance,
            None => break,
        }
        len += 1;
    }
    // Backwards: after capture k the opponent decides when k is even (may stop
    // and keep B_k, so takes the minimum), the mover when k is odd.
    let mut value = balances[len - 1];
    for k in (0..len - 1).rev() {
        value = if k % 2 == 0 {
            value.min(balances[k])
        } else {
            value.max(balances[k])
        };
    }
    value
}

/// Whether the static exchange value of the legal move `m` is at least
/// `threshold` centipawns; same result as `see(board, m) >= threshold`, but
/// usually decided after a capture or two.
pub fn see_ge(board: &Chess, m: Move, threshold: i32) -> bool {
    let mut ex = Exchange::new(board, m);
    let mut balance = ex.balance;
    let mut opponent_decides = true;
    loop {
        // min(B_k, rest) >= t needs B_k >= t, and holds if even the
        // opponent's best next balance does; max(B_k, rest) >= t conversely.
        if opponent_decides {
            if balance < threshold {
                return false;
            }
            if balance - ex.max_gain() >= threshold {
                return true;
            }
        } else {
            if balance >= threshold {
                return true;
            }
            if balance + ex.max_gain() < threshold {
                return false;
            }
        }
        match ex.next() {
            Some(next) => balance = next,
            None => return balance >= threshold,
        }
        opponent_decides = !opponent_decides;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;
    use shakmaty::uci::UciMove;

    use crate::chess::random::RandomGame;

    fn pos(fen: &str) -> Chess {
        let fen = Fen::from_ascii(fen.as_bytes()).expect("fen");
        fen.into_position(CastlingMode::Standard)
            .expect("legal position")
    }

    /// Checks SEE of each `(fen, uci move, expected)`, and `see_ge` around it.
    fn check(cases: &[(&str, &str, i32)]) {
        for &(fen, uci, expected) in cases {
            let p = pos(fen);
            let m = UciMove::from_ascii(uci.as_bytes())
                .unwrap()
                .to_move(&p)
                .unwrap();
            let v = see(&p, m);
            assert_eq!(v, expected, "{fen} {uci}");
            assert!(see_ge(&p, m, v) && !see_ge(&p, m, v + 1), "{fen} {uci}");
        }
    }

    #[test]
    fn captures() {
        check(&[
            // Free pawn; a pawn defended by a pawn taken by the queen (PxQ).
            ("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", 100),
            ("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5", 100 - 900),
            // Classic: the e5 pawn has no defender, Rxe5 wins it.
            (
                "1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1",
                "e1e5",
                100,
            ),
            // Rd8 joins through the vacated d7: NxP RxN RxR RxR, so P - N.
            ("3r2k1/3r4/8/3p4/5N2/8/8/3R2K1 w - - 0 1", "f4d5", -220),
            // Classic x-rays: NxP NxN RxN BxR QxB QxQ, with Qe1 behind Re2 and
            // Qh8 behind Bf6. Balances 100, -220, 100, -400, -70, -970: White
            // stops after NxN (RxN would end at -400), so P - N = 100 - 320.
            (
                "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
                "d3e5",
                -220,
            ),
        ]);
    }

    #[test]
    fn en_passant() {
        check(&[
            ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 100),
            ("4k3/2p5/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 0),
            // The captured d5 pawn leaves the d-file: Rd1 now guards d6, so
            // Black's Rxd6 would lose the rook.
            ("4k3/8/4r3/3pP3/8/8/8/3R2K1 w - d6 0 1", "e5d6", 100),
        ]);
    }

    #[test]
    fn promotions() {
        check(&[
            // Captures a rook and promotes: 500 + 800, undefended.
            ("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8q", 1300),
            // Quiet promotion into Ra8: 800 - 900, or 220 - 320 as a knight.
            ("r6k/4P3/8/8/8/8/8/5K2 w - - 0 1", "e7e8q", -100),
            ("r6k/4P3/8/8/8/8/8/5K2 w - - 0 1", "e7e8n", -100),
            // Re1 x-rays through the vacated e7: 800 - 900 + 500.
            ("r6k/4P3/8/8/8/8/8/4RK2 w - - 0 1", "e7e8q", 400),
            // A pawn recapturing on the back rank promotes too: RxR dxe8=Q is
            // 500 - (500 + 800), not the 0 of a plain rook trade.
            ("r3R2k/3P4/8/8/8/8/8/5K2 b - - 0 1", "a8e8", -800),
        ]);
    }

    #[test]
    fn king_recaptures_only_safely() {
        check(&[
            // Only the king defends d5: Kxd5 wins the rook.
            ("8/8/4k3/3p4/8/8/8/3RK3 w - - 0 1", "d1d5", 100 - 500),
            // Bb3 also attacks d5, so the king cannot recapture.
            ("8/8/4k3/3p4/8/1B6/8/3RK3 w - - 0 1", "d1d5", 100),
            // Rd1 x-rays through the vacated d2: same.
            ("8/8/4k3/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 100),
            // A legal king capture is always safe.
            ("8/8/8/3Pk3/8/8/8/4K3 b - - 0 1", "e5d5", 100),
        ]);
    }

    #[test]
    fn quiet_moves_and_castling() {
        check(&[
            ("4k3/8/2p5/8/8/8/8/3QK3 w - - 0 1", "d1d5", -900),
            // Defended by e4: cxd5 exd5 still loses queen for pawn.
            ("4k3/8/2p5/8/4P3/8/8/3QK3 w - - 0 1", "d1d5", -800),
            ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "d1d5", 0),
            ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", 0),
        ]);
    }

    #[test]
    fn random_positions_are_consistent() {
        const FENS: [&str; 6] = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R1BQKB1R w KQ - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
        ];
        let mut checked = 0;
        for (seed, fen) in FENS.iter().cycle().take(60).enumerate() {
            let start = crate::chess::Position::from_fen(fen, false).unwrap();
            let mut game = RandomGame::new(start, seed as u64);
            loop {
                let p = game.position().board().clone();
                let moves = p.legal_moves();
                let sample: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|_| game.rng().below(3) == 0)
                    .collect();
                for m in sample {
                    let v = see(&p, m);
                    for t in [-1000, -100, 0, 100, 1000, v, v + 1] {
                        assert_eq!(see_ge(&p, m, t), v >= t, "{m:?} t={t}");
                    }
                    let promotion = m
                        .promotion()
                        .map_or(0, |r| piece_value(r) - piece_value(Role::Pawn));
                    assert!(
                        v <= m.capture().map_or(0, piece_value) + promotion,
                        "{m:?}: {v}"
                    );
                    checked += 1;
                }
                if game.plies() == 40 || !game.step() {
                    break;
                }
            }
        }
        assert!(checked >= 2000, "only {checked} moves checked");
    }
}
