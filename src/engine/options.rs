//! The option table: one list of UCI options that serves the `uci` listing,
//! `setoption` and the `[options]` table of engine.toml.
//!
//! Names are Stockfish's and are matched case-insensitively. An option is
//! listed only once something in the engine uses it. Each row says what a
//! change does ([`Effect`]); the engine acts on that, and reads the value
//! through a getter of [`Options`]. The `spsa` build adds a spin option per
//! search tunable ([`option_table`]), named as in `search/params/values.rs`.

pub use super::option_spec::{Effect, OptionKind, OptionSpec, OptionValue};
use super::strength::{self, Level};
use crate::error::OptionError;
use crate::eval::BUILT_IN_NAME;
use crate::search::params::SearchConfig;
use crate::search::theory::{Algorithm, Leaf, MoveOrdering, TheoryConfig};
use crate::search::{SearchSettings, TbSettings};

/// `UCI_Chess960`: castling moves are written king-takes-rook, and
/// Shredder-FEN / X-FEN castling is accepted.
pub const UCI_CHESS960: &str = "UCI_Chess960";
/// `UCI_ShowWDL`: every `info … score` line also gives the win/draw/loss
/// chances, `wdl W D L` in per mille.
pub const UCI_SHOW_WDL: &str = "UCI_ShowWDL";
/// `Move Overhead`: milliseconds kept back from every move for GUI and
/// pipe latency.
pub const MOVE_OVERHEAD: &str = "Move Overhead";
/// `Hash`: transposition table size in MB.
pub const HASH: &str = "Hash";
/// `Threads`: search threads (Lazy SMP).
pub const THREADS: &str = "Threads";
/// `Clear Hash`: empties the transposition table.
pub const CLEAR_HASH: &str = "Clear Hash";
/// `MultiPV`: number of principal variations reported.
pub const MULTI_PV: &str = "MultiPV";
/// `Ponder`: the GUI may send `go ponder` (the engine needs nothing more).
pub const PONDER: &str = "Ponder";
/// `NullMove`: the safety flag of null-move pruning.
pub const NULL_MOVE: &str = "NullMove";
/// `SearchAlgorithm`: the engine's own search, or one of the textbook
/// searches of `search::theory`, for teaching.
pub const SEARCH_ALGORITHM: &str = "SearchAlgorithm";
/// The engine's own search: the default of `SearchAlgorithm`.
pub const ENGINE_SEARCH: &str = "Engine";
/// The values of `SearchAlgorithm`, the default first.
pub const SEARCH_ALGORITHMS: &[&str] = &[
    ENGINE_SEARCH,
    "Minimax",
    "AlphaBeta",
    "AlphaBetaOrdered",
    "NegaScout",
    "SSS",
    "MTDf",
];
/// `OwnBook`: play from the opening book (`BookFile`) when it has a move.
pub const OWN_BOOK: &str = "OwnBook";
/// `BookFile`: the Polyglot book, loaded and checked when set.
pub const BOOK_FILE: &str = "BookFile";
/// `BookDepth`: the book is asked during the first this many plies of the
/// game.
pub const BOOK_DEPTH: &str = "BookDepth";
/// `BookVariety`: pick book moves at random by weight (else always the
/// highest weight).
pub const BOOK_VARIETY: &str = "BookVariety";
/// `BookSeed`: the seed of the random book choices (0: a new seed on every
/// start).
pub const BOOK_SEED: &str = "BookSeed";
/// `UCI_LimitStrength`: play at the strength `UCI_Elo` asks for.
pub const UCI_LIMIT_STRENGTH: &str = "UCI_LimitStrength";
/// `UCI_Elo`: the strength to play at (with `UCI_LimitStrength`), on the
/// CCRL Blitz scale.
pub const UCI_ELO: &str = "UCI_Elo";
/// `StrengthSeed`: the seed of a limited strength's random choices (0: a
/// new seed on every start).
pub const STRENGTH_SEED: &str = "StrengthSeed";
/// `SyzygyPath`: folders of Syzygy tables, joined by `:` (`;` on
/// Windows); `<empty>` for none.
pub const SYZYGY_PATH: &str = "SyzygyPath";
/// `SyzygyProbeDepth`: positions with as many pieces as `SyzygyProbeLimit`
/// are probed only from this depth on.
pub const SYZYGY_PROBE_DEPTH: &str = "SyzygyProbeDepth";
/// `SyzygyProbeLimit`: positions with more pieces are not probed.
pub const SYZYGY_PROBE_LIMIT: &str = "SyzygyProbeLimit";
/// `Syzygy50MoveRule`: cursed wins and blessed losses are draws.
pub const SYZYGY_50_MOVE_RULE: &str = "Syzygy50MoveRule";
/// `Use NNUE`: play with the net (`EvalFile`) instead of the hand-crafted
/// evaluation (a limited strength keeps the hand-crafted one).
pub const USE_NNUE: &str = "Use NNUE";
/// `EvalFile`: the net; `<default>` is the one built into the engine.
pub const EVAL_FILE: &str = "EvalFile";
/// Largest `Hash`, MB.
pub const MAX_HASH_MB: i64 = 65_536;

/// Every option the engine has.
pub const OPTION_TABLE: &[OptionSpec] = &[
    OptionSpec {
        name: HASH,
        kind: OptionKind::Spin {
            default: 16,
            min: 1,
            max: MAX_HASH_MB,
        },
        effect: Effect::ResizeHash,
        doc: "transposition table size in MB (a size that cannot be allocated is refused, the old table kept)",
    },
    OptionSpec {
        name: THREADS,
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: 256,
        },
        effect: Effect::ResizeThreads,
        doc: "search threads (Lazy SMP, sharing the hash table)",
    },
    OptionSpec {
        name: CLEAR_HASH,
        kind: OptionKind::Button,
        effect: Effect::ClearHash,
        doc: "empties the hash table",
    },
    OptionSpec {
        name: MULTI_PV,
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: 256,
        },
        effect: Effect::NextSearch,
        doc: "number of best lines reported (info … multipv k …)",
    },
    OptionSpec {
        name: PONDER,
        kind: OptionKind::Check { default: false },
        effect: Effect::NextSearch,
        doc: "lets the GUI send go ponder; the engine thinks on the opponent's time",
    },
    OptionSpec {
        name: MOVE_OVERHEAD,
        kind: OptionKind::Spin {
            default: 10,
            min: 0,
            max: 5000,
        },
        effect: Effect::NextSearch,
        doc: "milliseconds subtracted from every move's time budget for GUI and pipe latency",
    },
    OptionSpec {
        name: UCI_CHESS960,
        kind: OptionKind::Check { default: false },
        effect: Effect::OutputStyle,
        doc: "Chess960: castling written king-takes-rook (e1h1); Shredder-FEN and X-FEN accepted",
    },
    OptionSpec {
        name: UCI_SHOW_WDL,
        kind: OptionKind::Check { default: false },
        effect: Effect::OutputStyle,
        doc: "adds wdl W D L (per mille, from Shears' own games) after every info score",
    },
    OptionSpec {
        name: NULL_MOVE,
        kind: OptionKind::Check { default: true },
        effect: Effect::NextSearch,
        doc: "safety flag: false turns null-move pruning off",
    },
    OptionSpec {
        name: SEARCH_ALGORITHM,
        kind: OptionKind::Combo {
            default: ENGINE_SEARCH,
            vars: SEARCH_ALGORITHMS,
        },
        effect: Effect::NextSearch,
        doc: "Engine (the real search) or a textbook search that plays at a fixed depth, for teaching",
    },
    OptionSpec {
        name: OWN_BOOK,
        kind: OptionKind::Check { default: false },
        effect: Effect::UseBook,
        doc: "play a move of the opening book (BookFile) at once when it has one",
    },
    OptionSpec {
        name: BOOK_FILE,
        kind: OptionKind::String { default: "" },
        effect: Effect::LoadBook,
        doc: "Polyglot book (.bin), loaded and checked when set; a bad file is refused and the old book kept; empty: none",
    },
    OptionSpec {
        name: BOOK_DEPTH,
        kind: OptionKind::Spin {
            default: 255,
            min: 0,
            max: 1024,
        },
        effect: Effect::NextSearch,
        doc: "the book is asked in the first N plies of the game (counted from the position's move number)",
    },
    OptionSpec {
        name: BOOK_VARIETY,
        kind: OptionKind::Check { default: true },
        effect: Effect::NextSearch,
        doc: "true: a book move at random, in proportion to its weight; false: always the highest weight",
    },
    OptionSpec {
        name: BOOK_SEED,
        kind: OptionKind::Spin {
            default: 0,
            min: 0,
            max: 2_147_483_647,
        },
        effect: Effect::ReseedBook,
        doc: "seed of the random book choices, for repeatable games; 0: a different seed on every start",
    },
    OptionSpec {
        name: UCI_LIMIT_STRENGTH,
        kind: OptionKind::Check { default: false },
        effect: Effect::Strength,
        doc: "play at the strength of UCI_Elo: a smaller search, a simpler evaluation, a human choice among the best moves and human think times",
    },
    OptionSpec {
        name: UCI_ELO,
        kind: OptionKind::Spin {
            default: strength::ELO_DEFAULT,
            min: strength::ELO_MIN,
            max: strength::ELO_MAX,
        },
        effect: Effect::Strength,
        doc: "the strength to play at with UCI_LimitStrength, CCRL Blitz Elo",
    },
    OptionSpec {
        name: STRENGTH_SEED,
        kind: OptionKind::Spin {
            default: 0,
            min: 0,
            max: 2_147_483_647,
        },
        effect: Effect::ReseedStrength,
        doc: "seed of a limited strength's random choices, for repeatable games; 0: a different seed on every start",
    },
    OptionSpec {
        name: SYZYGY_PATH,
        kind: OptionKind::String { default: "" },
        effect: Effect::OpenTables,
        doc: "folders of Syzygy tables joined by ':' (';' on Windows); <empty> for none",
    },
    OptionSpec {
        name: SYZYGY_PROBE_DEPTH,
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: 100,
        },
        effect: Effect::NextSearch,
        doc: "positions with SyzygyProbeLimit pieces are probed only from this depth on",
    },
    OptionSpec {
        name: SYZYGY_50_MOVE_RULE,
        kind: OptionKind::Check { default: true },
        effect: Effect::NextSearch,
        doc: "the 50-move rule counts: cursed wins and blessed losses are draws",
    },
    OptionSpec {
        name: SYZYGY_PROBE_LIMIT,
        kind: OptionKind::Spin {
            default: 7,
            min: 0,
            max: 7,
        },
        effect: Effect::NextSearch,
        doc: "positions with more pieces are not probed (0: the tables are not used)",
    },
    OptionSpec {
        name: USE_NNUE,
        kind: OptionKind::Check { default: true },
        effect: Effect::UseNet,
        doc: "play with the net of EvalFile (the default) instead of the hand-crafted evaluation (the strength levels and the teaching searches keep the hand-crafted one)",
    },
    OptionSpec {
        name: EVAL_FILE,
        kind: OptionKind::String {
            default: BUILT_IN_NAME,
        },
        effect: Effect::LoadNet,
        doc: "the net: <default> is the one built into the engine, a path loads another (checked at once; a bad file is refused and the previous net kept)",
    },
];

/// Every option of this build: [`OPTION_TABLE`], and in the `spsa` build
/// a spin option per search tunable after it.
pub fn option_table() -> &'static [OptionSpec] {
    #[cfg(feature = "spsa")]
    {
        static ALL: std::sync::LazyLock<Vec<OptionSpec>> = std::sync::LazyLock::new(|| {
            let tunables = crate::search::tunable_specs().map(|t| OptionSpec {
                name: t.name,
                kind: OptionKind::Spin {
                    default: i64::from(t.default),
                    min: i64::from(t.min),
                    max: i64::from(t.max),
                },
                effect: Effect::Tunable,
                doc: "search tunable (spsa build)",
            });
            OPTION_TABLE.iter().copied().chain(tunables).collect()
        });
        &ALL
    }
    #[cfg(not(feature = "spsa"))]
    OPTION_TABLE
}

/// Finds an option by name, ignoring case and surrounding spaces.
pub fn find(name: &str) -> Option<(usize, &'static OptionSpec)> {
    let name = name.trim();
    option_table()
        .iter()
        .enumerate()
        .find(|(_, spec)| spec.name.eq_ignore_ascii_case(name))
}

/// The current value of every option, in table order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    values: Vec<OptionValue>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            values: option_table()
                .iter()
                .map(OptionSpec::default_value)
                .collect(),
        }
    }
}

impl Options {
    /// Sets an option from `setoption` text. On error nothing changes.
    ///
    /// # Errors
    ///
    /// [`OptionError`] for an unknown name or a bad value.
    pub fn set(
        &mut self,
        name: &str,
        value: Option<&str>,
    ) -> Result<(&'static OptionSpec, OptionValue), OptionError> {
        let (index, spec) =
            find(name).ok_or_else(|| OptionError::Unknown(name.trim().to_owned()))?;
        let parsed = spec.parse_value(value)?;
        if parsed != OptionValue::Trigger {
            self.values[index] = parsed.clone();
        }
        Ok((spec, parsed))
    }

    /// Sets a typed value (engine.toml). Returns false, changing nothing,
    /// when the value does not fit.
    pub fn set_typed(&mut self, index: usize, value: OptionValue) -> bool {
        let fits = option_table()[index].check_value(&value);
        if fits {
            self.values[index] = value;
        }
        fits
    }

    /// Sets the option named `name` (a table constant) back to its
    /// default.
    ///
    /// # Panics
    ///
    /// If `name` is not in the table: a programming error.
    pub fn reset(&mut self, name: &str) {
        let (index, spec) = find(name).expect("option names passed to reset() come from the table");
        self.values[index] = spec.default_value();
    }

    /// The values in table order, beside their specs.
    pub fn iter(&self) -> impl Iterator<Item = (&'static OptionSpec, &OptionValue)> + '_ {
        option_table().iter().zip(self.values.iter())
    }

    /// The value of the option named `name` (a table constant).
    ///
    /// # Panics
    ///
    /// If `name` is not in the table: a programming error.
    pub fn get(&self, name: &str) -> &OptionValue {
        let (index, _) = find(name).expect("option names passed to get() come from the table");
        &self.values[index]
    }

    /// A `check` option's value.
    pub fn bool(&self, name: &str) -> bool {
        matches!(self.get(name), OptionValue::Bool(true))
    }

    /// A `spin` option's value.
    pub fn int(&self, name: &str) -> i64 {
        match self.get(name) {
            OptionValue::Int(n) => *n,
            _ => 0,
        }
    }

    /// Whether castling is written and read in Chess960 form.
    pub fn chess960(&self) -> bool {
        self.bool(UCI_CHESS960)
    }

    /// Whether `info` lines carry `wdl W D L`.
    pub fn show_wdl(&self) -> bool {
        self.bool(UCI_SHOW_WDL)
    }

    /// `Hash` in MB.
    pub fn hash_mb(&self) -> usize {
        self.int(HASH).max(1) as usize
    }

    /// `Threads`.
    pub fn threads(&self) -> usize {
        self.int(THREADS).max(1) as usize
    }

    /// `MultiPV`.
    pub fn multipv(&self) -> usize {
        self.int(MULTI_PV).max(1) as usize
    }

    /// `NullMove`.
    pub fn null_move(&self) -> bool {
        self.bool(NULL_MOVE)
    }

    /// `SearchAlgorithm`: `None` for the engine's own search, else the
    /// textbook search to play with (quiescence leaves, so that it does not
    /// hang pieces at its horizon; the full move ordering but for
    /// `AlphaBeta`, which shows alpha-beta without any).
    pub fn search_algorithm(&self) -> Option<TheoryConfig> {
        let OptionValue::Text(name) = self.get(SEARCH_ALGORITHM) else {
            return None;
        };
        let (algorithm, ordering) = match *name {
            "Minimax" => (Algorithm::Minimax, MoveOrdering::None),
            "AlphaBeta" => (Algorithm::AlphaBeta, MoveOrdering::None),
            "AlphaBetaOrdered" => (Algorithm::AlphaBeta, MoveOrdering::Full),
            "NegaScout" => (Algorithm::NegaScout, MoveOrdering::Full),
            "SSS" => (Algorithm::Sss, MoveOrdering::Full),
            "MTDf" => (Algorithm::Mtdf, MoveOrdering::Full),
            _ => return None,
        };
        Some(TheoryConfig {
            algorithm,
            ordering,
            leaf: Leaf::Qsearch,
        })
    }

    /// `Move Overhead` in milliseconds.
    pub fn move_overhead_ms(&self) -> u64 {
        self.int(MOVE_OVERHEAD).max(0) as u64
    }

    /// A `string` option's value.
    pub fn text(&self, name: &str) -> &str {
        match self.get(name) {
            OptionValue::Str(s) => s,
            _ => "",
        }
    }

    /// `OwnBook`.
    pub fn own_book(&self) -> bool {
        self.bool(OWN_BOOK)
    }

    /// `BookFile` (empty: no book).
    pub fn book_file(&self) -> &str {
        self.text(BOOK_FILE)
    }

    /// `BookDepth` in plies.
    pub fn book_depth(&self) -> u32 {
        self.int(BOOK_DEPTH).clamp(0, i64::from(u32::MAX)) as u32
    }

    /// `BookVariety`.
    pub fn book_variety(&self) -> bool {
        self.bool(BOOK_VARIETY)
    }

    /// `BookSeed` (0: none given).
    pub fn book_seed(&self) -> u64 {
        self.int(BOOK_SEED).max(0) as u64
    }

    /// The level to play at: `None` unless `UCI_LimitStrength` is on.
    pub fn strength_level(&self) -> Option<Level> {
        self.bool(UCI_LIMIT_STRENGTH)
            .then(|| Level::from_elo(self.int(UCI_ELO)))
    }

    /// `StrengthSeed` (0: none given).
    pub fn strength_seed(&self) -> u64 {
        self.int(STRENGTH_SEED).max(0) as u64
    }

    /// `SyzygyPath` as given (`<empty>` or empty: no tables).
    pub fn syzygy_path(&self) -> &str {
        self.text(SYZYGY_PATH)
    }

    /// `SyzygyProbeDepth`, `SyzygyProbeLimit` and `Syzygy50MoveRule`.
    pub fn tb_settings(&self) -> TbSettings {
        TbSettings {
            probe_depth: self.int(SYZYGY_PROBE_DEPTH).clamp(1, 100) as i32,
            probe_limit: self.int(SYZYGY_PROBE_LIMIT).clamp(0, 7) as usize,
            rule50: self.bool(SYZYGY_50_MOVE_RULE),
        }
    }

    /// `Use NNUE`.
    pub fn use_nnue(&self) -> bool {
        self.bool(USE_NNUE)
    }

    /// `EvalFile` as given (`<default>` or empty: the built-in net).
    pub fn eval_file(&self) -> &str {
        self.text(EVAL_FILE)
    }

    /// The search settings the options give: `Threads`, `MultiPV`, `Move
    /// Overhead`, `NullMove` (the rest of the search's switches at their
    /// defaults) and the tables' settings.
    pub fn search_settings(&self) -> SearchSettings {
        SearchSettings {
            threads: self.threads(),
            multipv: self.multipv(),
            config: SearchConfig {
                null_move: self.null_move(),
                ..SearchConfig::default()
            },
            tb: self.tb_settings(),
        }
    }
}

#[cfg(test)]
#[path = "options_tests.rs"]
mod tests;
