//! Tests of the trainer on small data made here: seeded random games, each
//! position labelled with its material balance as the "search score" and
//! the game's final balance as its result, which a net can learn.

mod checkpoint;
mod data;
mod export;
mod gradient;
mod training;

use shakmaty::{Chess, Color, Position as _, Role};

use super::sample::Sample;
use crate::data::format::packed;
use shears::chess::Position;
use shears::chess::random::RandomGame;

/// A labelled position: the board, White's score, White's result.
pub(super) type Labelled = (Chess, i32, f32);

/// The material balance for White, centipawns (1, 3, 3, 5, 9 pawns).
fn material(board: &Chess) -> i32 {
    let board = board.board();
    let value = |role| match role {
        Role::Pawn => 100,
        Role::Knight | Role::Bishop => 300,
        Role::Rook => 500,
        Role::Queen => 900,
        Role::King => 0,
    };
    board
        .iter()
        .map(|(_, piece)| {
            let v = value(piece.role);
            if piece.color == Color::White { v } else { -v }
        })
        .sum()
}

/// `count` seeded random games of up to 100 plies, their positions from ply
/// 6 on, labelled.
pub(super) fn games(count: u64, seed: u64) -> Vec<Vec<Labelled>> {
    (0..count)
        .map(|g| {
            let mut game = RandomGame::new(Position::startpos(), seed * 1000 + g);
            let mut boards = Vec::new();
            while game.plies() < 100 && game.step() {
                if game.plies() >= 6 {
                    boards.push(game.position().board().clone());
                }
            }
            let last = boards.last().map_or(0, material);
            let result = match last {
                m if m >= 300 => 1.0,
                m if m <= -300 => 0.0,
                _ => 0.5,
            };
            boards
                .into_iter()
                .map(|b| {
                    let score = material(&b);
                    (b, score, result)
                })
                .collect()
        })
        .collect()
}

/// The samples of `games`, in order.
pub(super) fn samples(games: &[Vec<Labelled>]) -> Vec<Sample> {
    games
        .iter()
        .flatten()
        .map(|(b, score, result)| Sample::new(b.board(), b.turn(), Some(*score), *result).unwrap())
        .collect()
}

/// `games` as a packed data file: each game's records, then its end.
pub(super) fn packed_file(games: &[Vec<Labelled>]) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, game) in games.iter().enumerate() {
        for (b, score, result) in game {
            out.extend_from_slice(&packed::pack(b, *result, Some(*score)));
        }
        let result = game.first().map_or(0.5, |p| p.2);
        out.extend_from_slice(&packed::pack_game_end(i as u64, result, game.len() as u32));
    }
    out
}

/// Every index of `n` samples.
pub(super) fn all(n: usize) -> Vec<u32> {
    (0..n as u32).collect()
}
