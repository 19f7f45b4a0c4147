//! `shears data convert`: a game file's training positions written as a
//! packed (`.bin`) or text file, for tools that read those.
//!
//! Only that way. A packed or text file holds the positions `datagen`
//! kept, without the moves between them and without the positions it did
//! not keep, so it cannot become a game file: the games cannot be
//! replayed from it.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use shakmaty::fen::Fen;
use shakmaty::{EnPassantMode, Position as _};
use thiserror::Error;

use super::adjudication::{Adjudication, Adjudicator};
use super::filter::{Filter, game_ply};
use super::format::games::Game;
use super::format::{Format, packed, text, white_view};
use super::reader::{DataError, open};

/// Why a conversion could not be made.
#[derive(Debug, Error)]
pub enum ConvertError {
    /// The input cannot be read, or is damaged.
    #[error(transparent)]
    Data(#[from] DataError),
    /// The output cannot be written.
    #[error("{path}: {source}")]
    Write {
        /// The output.
        path: String,
        /// What went wrong.
        source: std::io::Error,
    },
    /// A conversion that cannot be made.
    #[error("{0}")]
    Impossible(String),
}

/// What a conversion wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Converted {
    /// Games.
    pub games: u64,
    /// Positions.
    pub positions: u64,
    /// Moves of the games as written (those after a cut left out): the
    /// searches that playing them took.
    pub moves: u64,
    /// Moves of the games in the input.
    pub moves_in: u64,
    /// Games that a stricter adjudication ended early.
    pub cut: u64,
    /// Of those, games whose result the adjudication changed.
    pub changed: u64,
}

/// Where a stricter adjudication ends `game`: the number of its moves
/// played, and the result then (the game as it is when the rule does not
/// end it earlier).
fn cut_by(game: &Game, rule: Adjudication) -> (usize, f32) {
    let mut adjudicator = Adjudicator::new(rule);
    for (i, (board, _, score)) in game.positions().enumerate() {
        match score {
            Some(s) => {
                let white = white_view(board.turn(), s);
                if let Some(result) = adjudicator.observe(game_ply(&board), white) {
                    return (i, result);
                }
            }
            None => adjudicator.skip(),
        }
    }
    (game.moves.len(), game.result)
}

/// Writes the positions of the game file `input` that pass `filter` (the
/// file's own quiet filter when `None`) to `output`, packed or text by its
/// name, each game closed by its end-of-game record or line (its plies:
/// the start position's game ply plus the moves). `output` must not exist.
///
/// With `cut`, a rule at least as strict as `datagen`'s
/// ([`Adjudication::is_within`]), each game ends where that rule ends it,
/// with the rule's result: the file that `datagen` would have written with
/// it (`adjudication.rs`).
///
/// # Errors
///
/// When the input is not a game file, cannot be read or is damaged, the
/// rule is looser than `datagen`'s, or the output exists, is a game file,
/// or cannot be written.
pub fn convert(
    input: &Path,
    output: &Path,
    filter: Option<Filter>,
    cut: Option<Adjudication>,
) -> Result<Converted, ConvertError> {
    if let Some(rule) = cut
        && !rule.is_within(&Adjudication::default())
    {
        return Err(ConvertError::Impossible(format!(
            "the adjudication ({rule}) is looser than datagen's ({}) in some threshold: a game \
             file's games can be cut shorter, never played on",
            Adjudication::default()
        )));
    }
    if Format::of(input) != Format::Games {
        return Err(ConvertError::Impossible(format!(
            "{}: only a game file (.games) can be converted: a packed or text file holds the \
             positions datagen kept, not the moves between them, so its games cannot be \
             replayed into a game file",
            input.display()
        )));
    }
    let out_format = Format::of(output);
    if out_format == Format::Games {
        return Err(ConvertError::Impossible(format!(
            "{}: the output is a game file; give a name ending in .bin (packed) or another \
             (text)",
            output.display()
        )));
    }
    let write_error = |source| ConvertError::Write {
        path: output.display().to_string(),
        source,
    };
    let file = open(input)?;
    let filter = filter.unwrap_or(Filter::Quiet {
        min_ply: file.min_ply(),
    });
    let mut games = file.games().expect("a game file has games");
    let out = File::options()
        .write(true)
        .create_new(true)
        .open(output)
        .map_err(write_error)?;
    let mut out = BufWriter::new(out);
    let mut done = Converted::default();
    loop {
        let (index, _, mut game) = match games.next_game() {
            Ok(Some(g)) => g,
            Ok(None) => break,
            Err(e) => return Err(DataError::of_game(input, e).into()),
        };
        done.moves_in += game.moves.len() as u64;
        if let Some(rule) = cut {
            let (moves, result) = cut_by(&game, rule);
            if moves < game.moves.len() {
                done.cut += 1;
                done.changed += u64::from(result != game.result);
                game.moves.truncate(moves);
                game.result = result;
            }
        }
        done.moves += game.moves.len() as u64;
        for (board, m, score) in game.positions() {
            if !filter.keeps(&board, m, score) {
                continue;
            }
            let white = score.map(|s| white_view(board.turn(), s));
            match out_format {
                Format::Packed => out.write_all(&packed::pack(&board, game.result, white)),
                _ => {
                    let fen = Fen::from_position(&board, EnPassantMode::Legal);
                    let line = match white {
                        Some(s) => text::format_line(&fen.to_string(), game.result, s),
                        None => format!("{fen} | {:.1}", game.result),
                    };
                    writeln!(out, "{line}")
                }
            }
            .map_err(write_error)?;
            done.positions += 1;
        }
        let plies = game_ply(&game.start) + game.moves.len() as u32;
        match out_format {
            Format::Packed => out.write_all(&packed::pack_game_end(index, game.result, plies)),
            _ => writeln!(out, "# game {index} {:.1} {plies}", game.result),
        }
        .map_err(write_error)?;
        done.games += 1;
    }
    out.flush().map_err(write_error)?;
    Ok(done)
}
