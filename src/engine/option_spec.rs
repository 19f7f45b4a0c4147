//! What an option is: its kind (check, spin, button, combo, string) with
//! the default and range, what a change of it does ([`Effect`]), one row of
//! the option table ([`OptionSpec`]), a value it can hold ([`OptionValue`]),
//! and how a value is parsed, checked and announced. The table itself and
//! the current values are in `options.rs`; the engine applies an effect by
//! the row's [`Effect`], never by the option's name.

use std::fmt;

use crate::error::OptionError;

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

/// What a change of an option does, beyond holding its new value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// Nothing at once: the next `go` (or the command that uses it) reads
    /// the value.
    NextSearch,
    /// Reallocates the hash table (refused while a search runs).
    ResizeHash,
    /// Resizes the search threads' states (refused while a search runs).
    ResizeThreads,
    /// Empties the hash table (a button; refused while a search runs).
    ClearHash,
    /// Loads and checks the opening book at once.
    LoadBook,
    /// Restarts the book's random choices from the new seed.
    ReseedBook,
    /// Turns the book on or off: a game may be told again that there is no
    /// book to use.
    UseBook,
    /// Changes the strength level: the table and the histories are cleared
    /// before the next search when the level is a new one.
    Strength,
    /// Restarts a limited strength's random choices from the new seed.
    ReseedStrength,
    /// Opens the Syzygy tables at once.
    OpenTables,
    /// Changes how reports are written (castling notation, win/draw/loss).
    OutputStyle,
    /// Chooses the evaluation of the next searches (refused when the net
    /// cannot be used).
    UseNet,
    /// Loads and checks the net at once (refused, the previous net kept,
    /// when the file cannot be used).
    LoadNet,
    /// Sets a search tunable (the `spsa` build).
    Tunable,
}

impl Effect {
    /// Whether the change touches the searcher, so that no search may be
    /// running.
    pub fn needs_idle(self) -> bool {
        matches!(
            self,
            Effect::ResizeHash | Effect::ResizeThreads | Effect::ClearHash
        )
    }
}

/// One row of the option table.
#[derive(Debug, Clone, Copy)]
pub struct OptionSpec {
    /// The UCI name.
    pub name: &'static str,
    /// Type, default and range.
    pub kind: OptionKind,
    /// What a change does.
    pub effect: Effect,
    /// One line for the README and `--help`.
    pub doc: &'static str,
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
