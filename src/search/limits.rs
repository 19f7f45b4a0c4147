//! What a search is asked to do: the limits of one `go` ([`SearchLimits`]),
//! the settings that come from options ([`SearchSettings`]), and the two
//! with the position, the tables, the evaluation and an evaluation
//! handicap as one request ([`SearchRequest`]). What a handicap does to an evaluation is the
//! strength code's business (`engine/strength/handicap.rs`): the search
//! knows it only as an [`EvalHandicap`].

use std::time::Instant;

use shakmaty::{Chess, Move};

use super::params::SearchConfig;
use super::time::Clock;
use crate::chess::Position;
use crate::eval::{Evaluation, HAND_CRAFTED};
use crate::tb::Tablebases;

/// One search, as one `go` asks for it: the position, the limits, the
/// settings and the tables. Nothing of it outlives the search: the
/// [`Searcher`](super::Searcher) keeps only what persists between searches
/// (the table, the threads' states).
#[derive(Clone, Copy)]
pub struct SearchRequest<'a> {
    /// The position to search.
    pub position: &'a Position,
    /// What `go` asked for.
    pub limits: &'a SearchLimits,
    /// Threads, lines, techniques, the tables' use.
    pub settings: SearchSettings,
    /// The Syzygy tables, if any (used as `settings.tb` says).
    pub tables: Option<&'a Tablebases>,
    /// What a limited strength does to every static evaluation (`None`:
    /// the full evaluation).
    pub handicap: Option<&'a dyn EvalHandicap>,
    /// The evaluation to play with (the hand-crafted one unless
    /// [`SearchRequest::with_evaluation`] says otherwise).
    pub evaluation: &'a Evaluation,
}

/// A change to every static evaluation of a search: a limited strength's
/// handicap. Without one the search evaluates exactly as always (one
/// branch on the `Option` per evaluation).
pub trait EvalHandicap: Sync {
    /// The handicapped evaluation of `pos` (key `key`) whose full static
    /// evaluation is `eval`, from the side to move's point of view.
    fn apply(&self, eval: i32, pos: &Chess, key: u64) -> i32;
}

impl<'a> SearchRequest<'a> {
    /// A search of `position` under `limits` with `settings`, without
    /// tables.
    pub fn new(
        position: &'a Position,
        limits: &'a SearchLimits,
        settings: SearchSettings,
    ) -> SearchRequest<'a> {
        SearchRequest {
            position,
            limits,
            settings,
            tables: None,
            handicap: None,
            evaluation: &HAND_CRAFTED,
        }
    }

    /// The same search with `tables`.
    pub fn with_tables(self, tables: Option<&'a Tablebases>) -> SearchRequest<'a> {
        SearchRequest { tables, ..self }
    }

    /// The same search with `handicap`.
    pub fn with_handicap(self, handicap: Option<&'a dyn EvalHandicap>) -> SearchRequest<'a> {
        SearchRequest { handicap, ..self }
    }

    /// The same search with `evaluation`.
    pub fn with_evaluation(self, evaluation: &'a Evaluation) -> SearchRequest<'a> {
        SearchRequest { evaluation, ..self }
    }
}

/// What `go` asked for, in our own types.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SearchLimits {
    /// `go depth`: iterations to complete.
    pub depth: Option<u32>,
    /// `go nodes`: stop after about this many nodes.
    pub nodes: Option<u64>,
    /// `go mate`: look for a mate in this many moves.
    pub mate: Option<u32>,
    /// `go infinite`: search until `stop`.
    pub infinite: bool,
    /// `go ponder`: search on the opponent's time until `ponderhit`/`stop`.
    pub ponder: bool,
    /// Clock parameters (`wtime btime winc binc movestogo movetime`), and
    /// `Move Overhead` (set by the engine).
    pub clock: Clock,
    /// `go searchmoves`: only these root moves (empty: all).
    pub searchmoves: Vec<Move>,
    /// When `go` arrived: the clock runs from here, not from when the search
    /// thread got going (`None`: from the start of the search).
    pub received: Option<Instant>,
}

impl SearchLimits {
    /// Limits of a search to a fixed depth.
    pub fn depth(depth: u32) -> SearchLimits {
        SearchLimits {
            depth: Some(depth),
            ..SearchLimits::default()
        }
    }

    /// Limits of a search to about `nodes` nodes.
    pub fn nodes(nodes: u64) -> SearchLimits {
        SearchLimits {
            nodes: Some(nodes),
            ..SearchLimits::default()
        }
    }
}

/// Settings of a search that come from options, not from `go`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchSettings {
    /// Search threads (Lazy SMP).
    pub threads: usize,
    /// Principal variations to report.
    pub multipv: usize,
    /// Which techniques are on.
    pub config: SearchConfig,
    /// How tablebases are used, when the searcher has some.
    pub tb: TbSettings,
}

impl Default for SearchSettings {
    fn default() -> Self {
        SearchSettings {
            threads: 1,
            multipv: 1,
            config: SearchConfig::default(),
            tb: TbSettings::default(),
        }
    }
}

/// How the search uses tablebases (the Syzygy options but the path).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TbSettings {
    /// `SyzygyProbeDepth`: positions with exactly [`TbSettings::probe_limit`]
    /// pieces are probed only at this depth or more (fewer pieces: at any
    /// depth).
    pub probe_depth: i32,
    /// `SyzygyProbeLimit`: positions with more pieces are never probed (0:
    /// the tables are not used).
    pub probe_limit: usize,
    /// `Syzygy50MoveRule`: the 50-move rule counts, so a cursed win or a
    /// blessed loss is a draw.
    pub rule50: bool,
}

impl Default for TbSettings {
    fn default() -> Self {
        TbSettings {
            probe_depth: 1,
            probe_limit: 7,
            rule50: true,
        }
    }
}

impl SearchSettings {
    /// One thread, one line, with `config`: what the tools and
    /// the tests search with.
    pub fn single(config: SearchConfig) -> SearchSettings {
        SearchSettings {
            config,
            ..SearchSettings::default()
        }
    }
}
