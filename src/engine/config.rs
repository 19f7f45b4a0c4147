//! engine.toml → [`Config`]: option defaults plus engine-level settings.
//!
//! The file has two tables, both optional:
//!
//! ```toml
//! [options]            # any UCI option, by its UCI name (any case)
//! "Move Overhead" = 30
//! UCI_Chess960 = false
//! BookFile = "/usr/share/games/gnuchess/book.bin"   # relative: to the working directory
//!
//! [engine]
//! log_file = "shears-uci.log"   # append the UCI conversation here
//! ```
//!
//! Lookup order: `--config PATH`, else `engine.toml` in the current
//! directory, else `engine.toml` next to the executable; no file means the
//! built-in defaults. Anything unknown or out of range is an error that names
//! the file, the key, the value and what is allowed; so are two keys that
//! name the same option (`Hash` and `hash`: option names ignore case).
//!
//! Two ways to read: strictly ([`Config::discover`], for the command-line
//! tools: the first problem is an error) and leniently
//! ([`Config::discover_lenient`], for UCI mode: every problem is returned
//! beside a configuration that keeps each valid key and the default for
//! each refused one, so that a GUI user with a typo still gets an engine
//! that starts and says what is wrong).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::engine::options::{self, OptionKind, OptionValue, Options};
use crate::error::ConfigError;

/// The file name looked for when no `--config` is given.
pub const CONFIG_FILE_NAME: &str = "engine.toml";

/// Engine settings from engine.toml (or the defaults).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Config {
    /// Starting values of the UCI options.
    pub options: Options,
    /// Where to append the UCI conversation, if anywhere.
    pub log_file: Option<PathBuf>,
    /// The file these settings came from; `None` for the built-in defaults.
    pub source: Option<PathBuf>,
}

const ENGINE_KEYS: &[&str] = &["log_file"];

/// The first problem of a lenient reading, as the error of a strict one.
fn strict((config, mut problems): (Config, Vec<ConfigError>)) -> Result<Config, ConfigError> {
    if problems.is_empty() {
        Ok(config)
    } else {
        Err(problems.swap_remove(0))
    }
}

impl Config {
    /// Finds and loads the configuration (see the module docs for the order).
    ///
    /// # Errors
    ///
    /// [`ConfigError`] when an explicitly given file is missing, or any file
    /// found is unreadable or invalid (the first problem found).
    pub fn discover(explicit: Option<&Path>) -> Result<Config, ConfigError> {
        strict(Config::discover_lenient(explicit))
    }

    /// As [`Config::discover`], but every problem comes back beside the
    /// configuration instead of failing: an unreadable or invalid file
    /// gives the built-in defaults, a refused key its default, an unknown
    /// key is ignored; every valid key is kept.
    pub fn discover_lenient(explicit: Option<&Path>) -> (Config, Vec<ConfigError>) {
        if let Some(path) = explicit {
            return Config::load_lenient(path);
        }
        let mut candidates = vec![PathBuf::from(CONFIG_FILE_NAME)];
        if let Some(dir) = std::env::current_exe()
            .ok()
            .and_then(|p| p.parent().map(Path::to_path_buf))
        {
            candidates.push(dir.join(CONFIG_FILE_NAME));
        }
        match candidates.into_iter().find(|p| p.is_file()) {
            Some(path) => Config::load_lenient(&path),
            None => (Config::default(), Vec::new()),
        }
    }

    /// Loads one file.
    ///
    /// # Errors
    ///
    /// [`ConfigError`] when the file cannot be read or is invalid.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        strict(Config::load_lenient(path))
    }

    /// Loads one file leniently (see [`Config::discover_lenient`]).
    pub fn load_lenient(path: &Path) -> (Config, Vec<ConfigError>) {
        let (mut config, problems) = match std::fs::read_to_string(path) {
            Ok(text) => Config::parse_lenient(&text, path),
            Err(source) => {
                let error = ConfigError::Io {
                    path: path.to_path_buf(),
                    source,
                };
                (Config::default(), vec![error])
            }
        };
        config.source = Some(path.to_path_buf());
        (config, problems)
    }

    /// Parses the text of a config file; `path` is used in messages.
    ///
    /// # Errors
    ///
    /// [`ConfigError`] naming the key, value and what is allowed (the first
    /// problem found).
    pub fn parse(text: &str, path: &Path) -> Result<Config, ConfigError> {
        strict(Config::parse_lenient(text, path))
    }

    /// Parses the text of a config file leniently: every problem (in each
    /// table the unknown keys first, then the refused values), beside the
    /// configuration of the valid keys.
    pub fn parse_lenient(text: &str, path: &Path) -> (Config, Vec<ConfigError>) {
        let mut config = Config::default();
        let mut problems = Vec::new();
        let table: toml::Table = match text.parse() {
            Ok(table) => table,
            Err(e) => {
                let e: toml::de::Error = e;
                problems.push(ConfigError::Toml {
                    path: path.to_path_buf(),
                    message: e.to_string().trim().replace('\n', " "),
                });
                return (config, problems);
            }
        };
        for (key, value) in &table {
            match key.as_str() {
                "options" => parse_options(value, path, &mut config.options, &mut problems),
                "engine" => parse_engine(value, path, &mut config, &mut problems),
                _ => problems.push(ConfigError::UnknownKey {
                    path: path.to_path_buf(),
                    key: key.clone(),
                    allowed: "[options], [engine]".to_owned(),
                }),
            }
        }
        (config, problems)
    }
}

fn expect_table<'a>(
    value: &'a toml::Value,
    key: &str,
    path: &Path,
    problems: &mut Vec<ConfigError>,
) -> Option<&'a toml::Table> {
    let table = value.as_table();
    if table.is_none() {
        problems.push(ConfigError::BadValue {
            path: path.to_path_buf(),
            key: key.to_owned(),
            value: value.to_string(),
            expected: "a table".to_owned(),
        });
    }
    table
}

fn parse_options(
    value: &toml::Value,
    path: &Path,
    out: &mut Options,
    problems: &mut Vec<ConfigError>,
) {
    let Some(table) = expect_table(value, "options", path, problems) else {
        return;
    };
    // The keys of each option: option names ignore case (and surrounding
    // spaces), so `Hash` and `hash` are the same option, given twice.
    let mut by_option: BTreeMap<usize, Vec<(&String, &toml::Value)>> = BTreeMap::new();
    for (key, value) in table {
        match options::find(key) {
            Some((index, _)) => by_option.entry(index).or_default().push((key, value)),
            None => {
                let allowed: Vec<&str> = options::option_table()
                    .iter()
                    .filter(|s| s.kind != OptionKind::Button)
                    .map(|s| s.name)
                    .collect();
                problems.push(ConfigError::UnknownKey {
                    path: path.to_path_buf(),
                    key: format!("options.{key}"),
                    allowed: allowed.join(", "),
                });
            }
        }
    }
    for (index, keys) in by_option {
        let spec = &options::option_table()[index];
        if keys.len() > 1 {
            problems.push(ConfigError::DuplicateKey {
                path: path.to_path_buf(),
                keys: keys.iter().map(|(k, _)| format!("options.{k}")).collect(),
                option: spec.name.to_owned(),
            });
            continue;
        }
        let (key, value) = keys[0];
        let typed = match (spec.kind, value) {
            (OptionKind::Check { .. }, toml::Value::Boolean(b)) => Some(OptionValue::Bool(*b)),
            (OptionKind::Spin { .. }, toml::Value::Integer(n)) => Some(OptionValue::Int(*n)),
            (OptionKind::Combo { .. }, toml::Value::String(s)) => spec.parse_value(Some(s)).ok(),
            (OptionKind::String { .. }, toml::Value::String(s)) => spec.parse_value(Some(s)).ok(),
            _ => None,
        };
        if !typed.is_some_and(|v| out.set_typed(index, v)) {
            let expected = if spec.kind == OptionKind::Button {
                "nothing: a button cannot be set in engine.toml".to_owned()
            } else {
                spec.expected()
            };
            problems.push(ConfigError::BadValue {
                path: path.to_path_buf(),
                key: format!("options.{key}"),
                value: value.to_string(),
                expected,
            });
        }
    }
}

fn parse_engine(
    value: &toml::Value,
    path: &Path,
    config: &mut Config,
    problems: &mut Vec<ConfigError>,
) {
    let Some(table) = expect_table(value, "engine", path, problems) else {
        return;
    };
    for (key, value) in table {
        match key.as_str() {
            "log_file" => match value.as_str() {
                Some(s) if !s.trim().is_empty() => config.log_file = Some(PathBuf::from(s)),
                _ => problems.push(ConfigError::BadValue {
                    path: path.to_path_buf(),
                    key: "engine.log_file".to_owned(),
                    value: value.to_string(),
                    expected: "a non-empty file path string".to_owned(),
                }),
            },
            _ => problems.push(ConfigError::UnknownKey {
                path: path.to_path_buf(),
                key: format!("engine.{key}"),
                allowed: ENGINE_KEYS.join(", "),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Config, ConfigError> {
        Config::parse(text, Path::new("test.toml"))
    }

    #[test]
    fn empty_file_gives_defaults() {
        assert_eq!(parse("").unwrap(), Config::default());
    }

    #[test]
    fn options_are_read_case_insensitively() {
        let c = parse("[options]\n\"move overhead\" = 77\nuci_chess960 = true\n[engine]\nlog_file = \"x.log\"\n").unwrap();
        assert_eq!(c.options.move_overhead_ms(), 77);
        assert!(c.options.chess960());
        assert_eq!(c.log_file, Some(PathBuf::from("x.log")));
    }

    #[test]
    fn errors_name_file_key_value_and_range() {
        let e = parse("[options]\n\"Move Overhead\" = 999999\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("test.toml")
                && e.contains("options.Move Overhead")
                && e.contains("999999")
                && e.contains("0 to 5000"),
            "{e}"
        );
        let c = parse("[options]\nsearchalgorithm = \"negascout\"\n").unwrap();
        assert!(c.options.search_algorithm().is_some());
        let e = parse("[options]\nSearchAlgorithm = \"best\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("one of Engine, Minimax"), "{e}");
        let e = parse("[options]\nUCI_Chess960 = 3\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("true or false"), "{e}");
        let e = parse("[options]\nHashh = 3\n").unwrap_err().to_string();
        assert!(e.contains("unknown key \"options.Hashh\""), "{e}");
        let e = parse("colour = 1\n").unwrap_err().to_string();
        assert!(e.contains("unknown key \"colour\""), "{e}");
        let e = parse("[engine]\nlogfile = \"a\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("engine.logfile"), "{e}");
        let c = parse("[options]\nBookFile = \"b.bin\"\nOwnBook = true\n").unwrap();
        assert_eq!(c.options.book_file(), "b.bin");
        assert!(c.options.own_book());
        let e = parse("[options]\nBookFile = 3\n").unwrap_err().to_string();
        assert!(e.contains("expected a string"), "{e}");
        let e = parse("[options\n").unwrap_err().to_string();
        assert!(e.contains("invalid TOML"), "{e}");
    }

    #[test]
    fn a_lenient_reading_keeps_the_valid_keys_and_lists_every_problem() {
        let text = "[options]\nHash = 32\nhash = 64\n\"Move Overhead\" = 40\nThreads = 0\n\
                    Nope = 1\n[engine]\nlog_file = \"\"\n";
        let (config, problems) = Config::parse_lenient(text, Path::new("test.toml"));
        assert_eq!(config.options.move_overhead_ms(), 40);
        assert_eq!(config.options, {
            let mut o = Options::default();
            o.set("Move Overhead", Some("40")).unwrap();
            o
        });
        assert_eq!(config.log_file, None);
        let messages: Vec<String> = problems.iter().map(ToString::to_string).collect();
        assert_eq!(messages.len(), 4, "{messages:?}");
        assert!(messages[0].contains("engine.log_file"), "{messages:?}");
        assert!(messages[1].contains("unknown key \"options.Nope\""));
        assert!(messages[2].contains("\"options.Hash\", \"options.hash\""));
        assert!(messages[3].contains("options.Threads"));
        // The strict reading fails on the first of them.
        assert_eq!(parse(text).unwrap_err().to_string(), messages[0]);
    }
}
