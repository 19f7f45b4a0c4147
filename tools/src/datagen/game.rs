//! One self-play game: the opening (checked for balance), the moves of the
//! engine's own search on both sides, the adjudication, and which of its
//! positions are kept for tuning.
//!
//! **Tablebase-free.** The searcher is built without Syzygy tables and
//! games are adjudicated by the search's own scores only, so the data never
//! depends on tables that one machine has and another has not.
//!
//! **Adjudication**, besides the rules (mate, stalemate, repetition, the
//! 50-move rule, insufficient material): by the search's scores, with the
//! run's thresholds (`adjudication.rs`; by default a score of at least 1000
//! for the same side on 6 consecutive plies wins, and from ply 80 on,
//! scores within 10 of zero on 12 consecutive plies draw); [`MAX_PLIES`]
//! plies draw.
//!
//! **Quiet filter** (`data/filter.rs`): the positions kept are those the
//! reader of the game file keeps, never one of the opening (the book line
//! and the random plies come before the game's start).

use shakmaty::{Color, KnownOutcome, Move};

use super::opening::{Openings, TRIES_PER_LINE};
use super::{DatagenConfig, DatagenError, GameRecord, Labelled};
use crate::data::adjudication::Adjudicator;
use crate::data::filter::{keep, quiet};
use crate::data::format::white_view;
use shears::chess::Position;
use shears::chess::random::Rng;
use shears::eval::Evaluation;
use shears::search::params::SearchConfig;
use shears::search::tt::TtError;
use shears::search::{SearchLimits, SearchRequest, SearchSettings, Searcher};

/// An opening whose first search scores beyond this (centipawns) is thrown
/// away and drawn again.
pub const MAX_OPENING_SCORE: i32 = 300;
/// Tries at an opening before the game is given up as an error (only a
/// book whose every line is lost, or over, gets there).
pub const MAX_OPENING_TRIES: u32 = 200;
/// Games longer than this are drawn.
pub const MAX_PLIES: u32 = 400;
/// Hash table of each game's searches, MB.
pub const HASH_MB: usize = 16;

/// The engine's own searcher, one thread, no tables, fixed nodes or depth,
/// with the run's evaluation: what both sides play with.
pub(super) struct Player {
    searcher: Searcher,
    limits: SearchLimits,
    /// The probe's limits (`--probe-nodes`), if any: see [`Player::play`].
    probe: Option<SearchLimits>,
    /// The quiet filter's first game ply (a probe is enough before it).
    min_ply: u32,
    evaluation: Evaluation,
}

impl Player {
    pub(super) fn new(config: &DatagenConfig, evaluation: &Evaluation) -> Result<Player, TtError> {
        let limits = SearchLimits {
            nodes: config.nodes,
            depth: config.depth,
            ..SearchLimits::default()
        };
        Ok(Player {
            searcher: Searcher::new(HASH_MB)?,
            limits,
            probe: config.probe_nodes.map(SearchLimits::nodes),
            min_ply: config.min_ply,
            evaluation: evaluation.clone(),
        })
    }

    fn new_game(&mut self) {
        self.searcher.new_game();
    }

    /// The full search's move and score for the side to move.
    fn search(&mut self, pos: &Position) -> Option<(Move, i32)> {
        let request = request(pos, &self.limits).with_evaluation(&self.evaluation);
        let outcome = self.searcher.think(&request);
        Some((outcome.best()?, outcome.score()?))
    }

    /// The move played in `pos` and its score for the side to move.
    ///
    /// **Probe first** (with a probe): a position that the quiet filter
    /// drops whatever the move (in check, or before its first ply), or
    /// whose probe chose a move that makes the filter drop it (a capture, a
    /// promotion, a check), is played by the probe's small search; only
    /// the others get the full search (its table warm from the probe).
    /// The full search can still choose a move the filter drops.
    fn play(&mut self, pos: &Position) -> Option<(Move, i32)> {
        if let Some(probe) = &self.probe {
            let request = request(pos, probe).with_evaluation(&self.evaluation);
            let outcome = self.searcher.think(&request);
            let (best, score) = (outcome.best()?, outcome.score()?);
            if !quiet(pos.board(), best, self.min_ply) {
                return Some((best, score));
            }
        }
        self.search(pos)
    }
}

/// The search of `pos` that both sides play: one thread, the engine's
/// configuration, no tables.
fn request<'a>(pos: &'a Position, limits: &'a SearchLimits) -> SearchRequest<'a> {
    let settings = SearchSettings::single(SearchConfig::default());
    SearchRequest::new(pos, limits, settings)
}

/// Whether the game is over by the rules: `Some(result for White)`.
fn rules_result(pos: &Position) -> Option<f32> {
    pos.outcome().map(|outcome| match outcome {
        KnownOutcome::Decisive {
            winner: Color::White,
        } => 1.0,
        KnownOutcome::Decisive {
            winner: Color::Black,
        } => 0.0,
        KnownOutcome::Draw => 0.5,
    })
}

/// The random generator of game `index` of seed `seed`: its openings and
/// nothing else.
pub(super) fn game_rng(seed: u64, index: u64) -> Rng {
    Rng::new(seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03))
}

/// A playable and roughly balanced opening for game `index` (see
/// `opening.rs` for which lines are tried in which order) that `accept`
/// takes (`genfens` refuses a position it gave already; `datagen` takes
/// all).
pub(super) fn opening(
    openings: &Openings,
    rng: &mut Rng,
    index: u64,
    player: &mut Player,
    accept: &mut dyn FnMut(&Position) -> bool,
) -> Result<Position, DatagenError> {
    for attempt in 0..MAX_OPENING_TRIES {
        let pos = openings.candidate(index, attempt, rng);
        let full = pos.plies() >= openings.random_plies(index) as usize;
        if !full || rules_result(&pos).is_some() || !accept(&pos) {
            continue;
        }
        player.new_game();
        match player.search(&pos) {
            Some((_, score)) if score.abs() <= MAX_OPENING_SCORE => return Ok(pos),
            _ => {}
        }
    }
    Err(DatagenError::NoOpening {
        index,
        tries: MAX_OPENING_TRIES,
        per_line: TRIES_PER_LINE,
    })
}

/// Plays game `index` to the end.
///
/// # Errors
///
/// When no balanced opening is found ([`MAX_OPENING_TRIES`]).
pub(super) fn play_game(
    index: u64,
    config: &DatagenConfig,
    openings: &Openings,
    player: &mut Player,
) -> Result<GameRecord, DatagenError> {
    let mut rng = game_rng(config.seed, index);
    let mut pos = opening(openings, &mut rng, index, player, &mut |_| true)?;
    player.new_game();
    let start = pos.board().clone();
    let mut plies = pos.plies() as u32;
    let mut positions = Vec::new();
    let mut moves = Vec::new();
    let mut adjudicator = Adjudicator::new(config.adjudication);
    let result = loop {
        if let Some(r) = rules_result(&pos) {
            break r;
        }
        if plies >= MAX_PLIES {
            break 0.5;
        }
        let Some((best, score)) = player.play(&pos) else {
            break 0.5;
        };
        let white_score = white_view(pos.turn(), score);
        if let Some(result) = adjudicator.observe(plies, white_score) {
            break result;
        }
        if keep(pos.board(), best, score, config.min_ply) {
            positions.push(Labelled {
                board: pos.board().clone(),
                white_score,
            });
        }
        moves.push((best, score));
        pos.play(best);
        plies += 1;
    };
    Ok(GameRecord {
        index,
        result,
        plies,
        positions,
        start,
        moves,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::filter::game_ply;
    use crate::datagen::opening::Book;
    use crate::datagen::tests::small;
    use shakmaty::Position as _;
    use shears::search::TB_WIN_BOUND;

    fn position(fen: &str) -> Position {
        Position::from_fen(fen, false).unwrap()
    }

    #[test]
    fn a_game_ends_with_a_result_and_labels_quiet_positions() {
        let config = small();
        let mut player = Player::new(&config, &Evaluation::HandCrafted).unwrap();
        let start = Position::startpos();
        let request = request(&start, &player.limits);
        assert!(request.tables.is_none(), "tablebase-free");
        let openings = Openings::new(Book::default(), 8, config.seed);
        let game = play_game(3, &config, &openings, &mut player).unwrap();
        assert!([0.0, 0.5, 1.0].contains(&game.result));
        assert!(game.plies > 8);
        assert!(!game.positions.is_empty());
        for p in &game.positions {
            let pos = position(&p.fen());
            assert!(!pos.board().is_check(), "{}", p.fen());
            assert!(game_ply(pos.board()) >= config.min_ply, "{}", p.fen());
            assert!(p.white_score.abs() < TB_WIN_BOUND);
        }
        assert_eq!(game.index, 3);
        assert_eq!(game.moves.len() as u32, game.plies - game_ply(&game.start));
    }

    #[test]
    fn the_same_index_and_seed_give_the_same_game() {
        let config = small();
        let openings = Openings::new(Book::default(), 8, config.seed);
        let mut player = Player::new(&config, &Evaluation::HandCrafted).unwrap();
        let a = play_game(4, &config, &openings, &mut player).unwrap();
        let b = play_game(4, &config, &openings, &mut player).unwrap();
        assert_eq!(a, b);
    }
}
