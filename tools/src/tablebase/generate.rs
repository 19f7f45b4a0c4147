//! `shears tb-gen`: a reproducible EPD of endgame positions labelled by the
//! Syzygy tables, for `shears tb-play`.
//!
//! The materials are those of the tables given (a WDL and a DTZ table
//! each) with the piece counts asked for, or the materials named. Position
//! `i` wants a win for the side to move when `i` is even and a draw when it
//! is odd (or only wins, or only draws); it picks a piece count, then a
//! material of that count (or one of the named), gives the stronger side to
//! White or Black at random, places the pieces on random squares (pawns
//! off the first and last ranks) with a random side to move, and keeps the
//! position when it is legal, the side to move is not in check and has no
//! capture (so the material is what it says), and the tables give the
//! wanted value (a plain win or draw: no cursed win). Everything is drawn
//! from one seeded generator, so a seed always gives the same file.
//!
//! Each line is `<FEN, four fields> id "tb.NNN"; c0 "<material> <win|draw>";
//! c1 "dtz <n>";`.

use shakmaty::{
    Bitboard, Board, CastlingMode, Chess, Color, FromSetup, Piece, Position as _, Rank, Role,
    Setup, Square,
};

use shears::chess::Position;
use shears::chess::random::Rng;
use shears::tb::{Tablebases, Wdl};

/// Tries at one material before another is picked.
const TRIES_PER_MATERIAL: usize = 5_000;
/// Materials tried for one position before giving up.
const MATERIALS_PER_POSITION: usize = 100;

/// One generated position.
#[derive(Debug, Clone)]
pub struct Generated {
    /// The position (halfmove clock 0).
    pub position: Position,
    /// Its material, as the table is named.
    pub material: String,
    /// The tables' value for the side to move.
    pub wdl: Wdl,
    /// Its DTZ.
    pub dtz: i32,
}

impl Generated {
    /// The EPD line, named `tb.{index:03}` (1-based).
    pub fn epd_line(&self, index: usize) -> String {
        let fen = self.position.fen();
        let four: Vec<&str> = fen.split_whitespace().take(4).collect();
        format!(
            "{} id \"tb.{index:03}\"; c0 \"{} {}\"; c1 \"dtz {}\";",
            four.join(" "),
            self.material,
            self.wdl,
            self.dtz
        )
    }
}

/// Why nothing could be generated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GenError {
    /// No material of the piece counts asked for.
    #[error("the tables have no material with {0:?} pieces (and both WDL and DTZ tables)")]
    NoMaterial(Vec<usize>),
    /// A material asked for by name that the tables do not have.
    #[error("the tables have no material {0} (with both WDL and DTZ tables; names as KBNvK)")]
    UnknownMaterial(String),
    /// No position with the wanted value was found.
    #[error(
        "found no {wanted} position for position {index} after trying {MATERIALS_PER_POSITION} materials"
    )]
    NotFound {
        /// The value wanted.
        wanted: Wdl,
        /// Which position (1-based).
        index: usize,
    },
}

/// Which materials the positions are drawn from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Materials {
    /// Every material of the tables with one of these piece counts (each
    /// count equally likely, then each of its materials).
    Pieces(Vec<usize>),
    /// These materials, as the tables name them (`KBNvK`), each equally
    /// likely.
    Named(Vec<String>),
}

/// Which values the positions have for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcomes {
    /// A win, a draw, a win, … (the default).
    Alternate,
    /// Wins only.
    Wins,
    /// Draws only.
    Draws,
}

/// `count` positions of `materials`, with the values `outcomes` asks for
/// the side to move, from `seed`.
///
/// # Errors
///
/// [`GenError`] when the tables have no such material, or no position with
/// the wanted value turns up.
pub fn generate(
    tables: &Tablebases,
    materials: &Materials,
    outcomes: Outcomes,
    count: usize,
    seed: u64,
) -> Result<Vec<Generated>, GenError> {
    let known = tables.materials();
    let groups: Vec<Vec<String>> = match materials {
        Materials::Pieces(pieces) => pieces
            .iter()
            .map(|&n| known.iter().filter(|m| m.len() - 1 == n).cloned().collect())
            .filter(|list: &Vec<String>| !list.is_empty())
            .collect(),
        Materials::Named(names) => {
            if let Some(missing) = names.iter().find(|n| !known.contains(n)) {
                return Err(GenError::UnknownMaterial(missing.clone()));
            }
            vec![names.clone()]
        }
    };
    if groups.is_empty() {
        let Materials::Pieces(pieces) = materials else {
            unreachable!("named materials make one group");
        };
        return Err(GenError::NoMaterial(pieces.clone()));
    }
    let by_count = groups;
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(count);
    for i in 0..count {
        let wanted = match outcomes {
            Outcomes::Wins => Wdl::Win,
            Outcomes::Draws => Wdl::Draw,
            Outcomes::Alternate if i % 2 == 0 => Wdl::Win,
            Outcomes::Alternate => Wdl::Draw,
        };
        let found = (0..MATERIALS_PER_POSITION).find_map(|_| {
            let list = &by_count[rng.below(by_count.len())];
            let material = &list[rng.below(list.len())];
            (0..TRIES_PER_MATERIAL).find_map(|_| try_one(tables, &mut rng, material, wanted))
        });
        out.push(found.ok_or(GenError::NotFound {
            wanted,
            index: i + 1,
        })?);
    }
    Ok(out)
}

/// One random placement of `material`, kept if it fits (see the module
/// documentation).
fn try_one(tables: &Tablebases, rng: &mut Rng, material: &str, wanted: Wdl) -> Option<Generated> {
    let (strong, weak) = material.split_once('v')?;
    let strong_color = if rng.below(2) == 0 {
        Color::White
    } else {
        Color::Black
    };
    let mut board = Board::empty();
    for (side, color) in [(strong, strong_color), (weak, !strong_color)] {
        for ch in side.chars() {
            let role = Role::from_char(ch.to_ascii_lowercase())?;
            let allowed = if role == Role::Pawn {
                !(Bitboard::from_rank(Rank::First) | Bitboard::from_rank(Rank::Eighth))
            } else {
                Bitboard::FULL
            };
            let free: Vec<Square> = (allowed & !board.occupied()).into_iter().collect();
            let square = free[rng.below(free.len())];
            board.set_piece_at(square, Piece { color, role });
        }
    }
    let setup = Setup {
        board,
        turn: if rng.below(2) == 0 {
            Color::White
        } else {
            Color::Black
        },
        ..Setup::empty()
    };
    let chess = Chess::from_setup(setup, CastlingMode::Standard).ok()?;
    if chess.is_check()
        || chess.legal_moves().iter().any(|m| m.is_capture())
        || chess.legal_moves().is_empty()
    {
        return None;
    }
    let wdl = tables.probe_wdl(&chess)?;
    if wdl != wanted {
        return None;
    }
    let dtz = tables.probe_dtz(&chess)?.plies;
    Some(Generated {
        position: Position::from_chess(chess),
        material: material.to_owned(),
        wdl,
        dtz,
    })
}
