//! The option table: one list of UCI options that serves the `uci` listing,
//! `setoption` and the `[options]` table of engine.toml.
//!
//! Names are Stockfish's and are matched case-insensitively. An option is
//! listed only once something in the engine uses it. The `spsa` build adds
//! a spin option per search tunable ([`option_table`]), named as in
//! `search/params.rs`.

use std::fmt;

use crate::error::OptionError;
use crate::search::TbSettings;
use crate::search::theory::{Algorithm, Leaf, MoveOrdering, TheoryConfig};

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
/// Largest `Hash`, MB.
pub const MAX_HASH_MB: i64 = 65_536;

/// What kind of value an option holds, with its default and range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OptionKind {
    /// `type check`: true or false.
    Check {
        /// Default value.
        default: bool,
    },
    /// `type spin`: an integer in `min..=max`.
    Spin {
        /// Default value.
        default: i64,
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// `type button`: an action with no value.
    Button,
    /// `type combo`: one of a list of words.
    Combo {
        /// Default value.
        default: &'static str,
        /// The allowed values.
        vars: &'static [&'static str],
    },
    /// `type string`: any text (`<empty>` or nothing is the empty string).
    String {
        /// Default value.
        default: &'static str,
    },
}

/// One row of the option table.
#[derive(Debug, Clone, Copy)]
pub struct OptionSpec {
    /// The UCI name.
    pub name: &'static str,
    /// Type, default and range.
    pub kind: OptionKind,
    /// One line for the README and `--help`.
    pub doc: &'static str,
}

/// Every option the engine has.
pub const OPTION_TABLE: &[OptionSpec] = &[
    OptionSpec {
        name: HASH,
        kind: OptionKind::Spin {
            default: 16,
            min: 1,
            max: MAX_HASH_MB,
        },
        doc: "transposition table size in MB (a size that cannot be allocated is refused, the old table kept)",
    },
    OptionSpec {
        name: THREADS,
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: 256,
        },
        doc: "search threads (Lazy SMP, sharing the hash table)",
    },
    OptionSpec {
        name: CLEAR_HASH,
        kind: OptionKind::Button,
        doc: "empties the hash table",
    },
    OptionSpec {
        name: MULTI_PV,
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: 256,
        },
        doc: "number of best lines reported (info … multipv k …)",
    },
    OptionSpec {
        name: PONDER,
        kind: OptionKind::Check { default: false },
        doc: "lets the GUI send go ponder; the engine thinks on the opponent's time",
    },
    OptionSpec {
        name: MOVE_OVERHEAD,
        kind: OptionKind::Spin {
            default: 10,
            min: 0,
            max: 5000,
        },
        doc: "milliseconds subtracted from every move's time budget for GUI and pipe latency",
    },
    OptionSpec {
        name: UCI_CHESS960,
        kind: OptionKind::Check { default: false },
        doc: "Chess960: castling written king-takes-rook (e1h1); Shredder-FEN and X-FEN accepted",
    },
    OptionSpec {
        name: UCI_SHOW_WDL,
        kind: OptionKind::Check { default: false },
        doc: "adds wdl W D L (per mille, from Shears' own games) after every info score",
    },
    OptionSpec {
        name: NULL_MOVE,
        kind: OptionKind::Check { default: true },
        doc: "safety flag: false turns null-move pruning off",
    },
    OptionSpec {
        name: SEARCH_ALGORITHM,
        kind: OptionKind::Combo {
            default: ENGINE_SEARCH,
            vars: SEARCH_ALGORITHMS,
        },
        doc: "Engine (the real search) or a textbook search that plays at a fixed depth, for teaching",
    },
    OptionSpec {
        name: OWN_BOOK,
        kind: OptionKind::Check { default: false },
        doc: "play a move of the opening book (BookFile) at once when it has one",
    },
    OptionSpec {
        name: BOOK_FILE,
        kind: OptionKind::String { default: "" },
        doc: "Polyglot book (.bin), loaded and checked when set; a bad file is refused and the old book kept; empty: none",
    },
    OptionSpec {
        name: BOOK_DEPTH,
        kind: OptionKind::Spin {
            default: 255,
            min: 0,
            max: 1024,
        },
        doc: "the book is asked in the first N plies of the game (counted from the position's move number)",
    },
    OptionSpec {
        name: BOOK_VARIETY,
        kind: OptionKind::Check { default: true },
        doc: "true: a book move at random, in proportion to its weight; false: always the highest weight",
    },
    OptionSpec {
        name: BOOK_SEED,
        kind: OptionKind::Spin {
            default: 0,
            min: 0,
            max: 2_147_483_647,
        },
        doc: "seed of the random book choices, for repeatable games; 0: a different seed on every start",
    },
    OptionSpec {
        name: SYZYGY_PATH,
        kind: OptionKind::String { default: "" },
        doc: "folders of Syzygy tables joined by ':' (';' on Windows); <empty> for none",
    },
    OptionSpec {
        name: SYZYGY_PROBE_DEPTH,
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: 100,
        },
        doc: "positions with SyzygyProbeLimit pieces are probed only from this depth on",
    },
    OptionSpec {
        name: SYZYGY_50_MOVE_RULE,
        kind: OptionKind::Check { default: true },
        doc: "the 50-move rule counts: cursed wins and blessed losses are draws",
    },
    OptionSpec {
        name: SYZYGY_PROBE_LIMIT,
        kind: OptionKind::Spin {
            default: 7,
            min: 0,
            max: 7,
        },
        doc: "positions with more pieces are not probed (0: the tables are not used)",
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
                doc: "search tunable (spsa build)",
            });
            OPTION_TABLE.iter().copied().chain(tunables).collect()
        });
        &ALL
    }
    #[cfg(not(feature = "spsa"))]
    OPTION_TABLE
}

/// A value held by an option.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionValue {
    /// For `check`.
    Bool(bool),
    /// For `spin`.
    Int(i64),
    /// For `button` (nothing to hold).
    Trigger,
    /// For `combo`: the value as the table spells it.
    Text(&'static str),
    /// For `string`.
    Str(String),
}

impl fmt::Display for OptionValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionValue::Bool(b) => write!(f, "{b}"),
            OptionValue::Int(i) => write!(f, "{i}"),
            OptionValue::Trigger => f.write_str("(button)"),
            OptionValue::Text(t) => f.write_str(t),
            OptionValue::Str(s) if s.is_empty() => f.write_str("<empty>"),
            OptionValue::Str(s) => f.write_str(s),
        }
    }
}

impl OptionSpec {
    /// The default value.
    pub fn default_value(&self) -> OptionValue {
        match self.kind {
            OptionKind::Check { default } => OptionValue::Bool(default),
            OptionKind::Spin { default, .. } => OptionValue::Int(default),
            OptionKind::Button => OptionValue::Trigger,
            OptionKind::Combo { default, .. } => OptionValue::Text(default),
            OptionKind::String { default } => OptionValue::Str(default.to_owned()),
        }
    }

    /// A description of the allowed values, for error messages.
    pub fn expected(&self) -> String {
        match self.kind {
            OptionKind::Check { .. } => "true or false".to_owned(),
            OptionKind::Spin { min, max, .. } => format!("an integer from {min} to {max}"),
            OptionKind::Button => "no value (a button)".to_owned(),
            OptionKind::Combo { vars, .. } => format!("one of {}", vars.join(", ")),
            OptionKind::String { .. } => "a string".to_owned(),
        }
    }

    /// The `option name … type …` line of the `uci` answer, announcing
    /// `default` (engine.toml's value, else the built-in one).
    pub fn uci_line(&self, default: &OptionValue) -> String {
        match (self.kind, default) {
            (OptionKind::Check { .. }, OptionValue::Bool(default)) => {
                format!("option name {} type check default {default}", self.name)
            }
            (OptionKind::Spin { min, max, .. }, OptionValue::Int(default)) => format!(
                "option name {} type spin default {default} min {min} max {max}",
                self.name
            ),
            (OptionKind::String { .. }, OptionValue::Str(_)) => {
                format!("option name {} type string default {default}", self.name)
            }
            (OptionKind::Combo { vars, .. }, OptionValue::Text(default)) => {
                let mut line = format!("option name {} type combo default {default}", self.name);
                for var in vars {
                    line.push_str(" var ");
                    line.push_str(var);
                }
                line
            }
            _ => format!("option name {} type button", self.name),
        }
    }

    /// Parses a `setoption` value for this option.
    ///
    /// # Errors
    ///
    /// [`OptionError::BadValue`] when the text is not of the option's type or
    /// is out of range.
    pub fn parse_value(&self, value: Option<&str>) -> Result<OptionValue, OptionError> {
        let bad = |v: &str| OptionError::BadValue {
            name: self.name.to_owned(),
            value: v.to_owned(),
            expected: self.expected(),
        };
        match (self.kind, value.map(str::trim)) {
            (OptionKind::Button, None | Some("")) => Ok(OptionValue::Trigger),
            (OptionKind::String { .. }, None | Some("<empty>")) => {
                Ok(OptionValue::Str(String::new()))
            }
            (OptionKind::String { .. }, Some(v)) => Ok(OptionValue::Str(v.to_owned())),
            (OptionKind::Button, Some(v)) => Err(bad(v)),
            (_, None) => Err(bad("")),
            (OptionKind::Check { .. }, Some(v)) => match v.to_ascii_lowercase().as_str() {
                "true" => Ok(OptionValue::Bool(true)),
                "false" => Ok(OptionValue::Bool(false)),
                _ => Err(bad(v)),
            },
            (OptionKind::Spin { min, max, .. }, Some(v)) => match v.parse::<i64>() {
                Ok(n) if (min..=max).contains(&n) => Ok(OptionValue::Int(n)),
                _ => Err(bad(v)),
            },
            (OptionKind::Combo { vars, .. }, Some(v)) => vars
                .iter()
                .find(|var| var.eq_ignore_ascii_case(v))
                .map(|var| OptionValue::Text(var))
                .ok_or_else(|| bad(v)),
        }
    }

    /// Checks a value that came typed (from engine.toml).
    pub fn check_value(&self, value: &OptionValue) -> bool {
        match (self.kind, value) {
            (OptionKind::Check { .. }, OptionValue::Bool(_)) => true,
            (OptionKind::Spin { min, max, .. }, OptionValue::Int(n)) => (min..=max).contains(n),
            (OptionKind::Combo { vars, .. }, OptionValue::Text(t)) => vars.contains(t),
            (OptionKind::String { .. }, OptionValue::Str(_)) => true,
            _ => false,
        }
    }
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
}

#[cfg(test)]
#[path = "options_tests.rs"]
mod tests;
