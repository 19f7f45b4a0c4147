//! engine.toml → [`Config`]: option defaults plus engine-level settings.
//!
//! The file has two tables, both optional:
//!
//! ```toml
//! [options]            # any UCI option, by its UCI name (any case)
//! "Move Overhead" = 30
//! UCI_Chess960 = false
//!
//! [engine]
//! log_file = "shears-uci.log"   # append the UCI conversation here
//! ```
//!
//! Lookup order: `--config PATH`, else `engine.toml` in the current
//! directory, else `engine.toml` next to the executable; no file means the
//! built-in defaults. Anything unknown or out of range is an error that names
//! the file, the key, the value and what is allowed.

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

impl Config {
    /// Finds and loads the configuration (see the module docs for the order).
    ///
    /// # Errors
    ///
    /// [`ConfigError`] when an explicitly given file is missing, or any file
    /// found is unreadable or invalid.
    pub fn discover(explicit: Option<&Path>) -> Result<Config, ConfigError> {
        if let Some(path) = explicit {
            return Config::load(path);
        }
        let mut candidates = vec![PathBuf::from(CONFIG_FILE_NAME)];
        if let Some(dir) = std::env::current_exe()
            .ok()
            .and_then(|p| p.parent().map(Path::to_path_buf))
        {
            candidates.push(dir.join(CONFIG_FILE_NAME));
        }
        match candidates.into_iter().find(|p| p.is_file()) {
            Some(path) => Config::load(&path),
            None => Ok(Config::default()),
        }
    }

    /// Loads one file.
    ///
    /// # Errors
    ///
    /// [`ConfigError`] when the file cannot be read or is invalid.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let mut config = Config::parse(&text, path)?;
        config.source = Some(path.to_path_buf());
        Ok(config)
    }

    /// Parses the text of a config file; `path` is used in messages.
    ///
    /// # Errors
    ///
    /// [`ConfigError`] naming the key, value and what is allowed.
    pub fn parse(text: &str, path: &Path) -> Result<Config, ConfigError> {
        let table: toml::Table = text
            .parse()
            .map_err(|e: toml::de::Error| ConfigError::Toml {
                path: path.to_path_buf(),
                message: e.to_string().trim().replace('\n', " "),
            })?;
        let mut config = Config::default();
        for (key, value) in &table {
            match key.as_str() {
                "options" => parse_options(value, path, &mut config.options)?,
                "engine" => parse_engine(value, path, &mut config)?,
                _ => {
                    return Err(ConfigError::UnknownKey {
                        path: path.to_path_buf(),
                        key: key.clone(),
                        allowed: "[options], [engine]".to_owned(),
                    });
                }
            }
        }
        Ok(config)
    }
}

fn expect_table<'a>(
    value: &'a toml::Value,
    key: &str,
    path: &Path,
) -> Result<&'a toml::Table, ConfigError> {
    value.as_table().ok_or_else(|| ConfigError::BadValue {
        path: path.to_path_buf(),
        key: key.to_owned(),
        value: value.to_string(),
        expected: "a table".to_owned(),
    })
}

fn parse_options(value: &toml::Value, path: &Path, out: &mut Options) -> Result<(), ConfigError> {
    for (key, value) in expect_table(value, "options", path)? {
        let full_key = format!("options.{key}");
        let Some((index, spec)) = options::find(key) else {
            let allowed: Vec<&str> = options::option_table()
                .iter()
                .filter(|s| s.kind != OptionKind::Button)
                .map(|s| s.name)
                .collect();
            return Err(ConfigError::UnknownKey {
                path: path.to_path_buf(),
                key: full_key,
                allowed: allowed.join(", "),
            });
        };
        let typed = match (spec.kind, value) {
            (OptionKind::Check { .. }, toml::Value::Boolean(b)) => Some(OptionValue::Bool(*b)),
            (OptionKind::Spin { .. }, toml::Value::Integer(n)) => Some(OptionValue::Int(*n)),
            (OptionKind::Combo { .. }, toml::Value::String(s)) => spec.parse_value(Some(s)).ok(),
            (OptionKind::String { .. }, toml::Value::String(s)) => {
                Some(OptionValue::Str(s.clone()))
            }
            _ => None,
        };
        let fits = typed.is_some_and(|v| out.set_typed(index, v));
        if !fits {
            let expected = if spec.kind == OptionKind::Button {
                "nothing: a button cannot be set in engine.toml".to_owned()
            } else {
                spec.expected()
            };
            return Err(ConfigError::BadValue {
                path: path.to_path_buf(),
                key: full_key,
                value: value.to_string(),
                expected,
            });
        }
    }
    Ok(())
}

fn parse_engine(value: &toml::Value, path: &Path, config: &mut Config) -> Result<(), ConfigError> {
    for (key, value) in expect_table(value, "engine", path)? {
        match key.as_str() {
            "log_file" => match value.as_str() {
                Some(s) if !s.trim().is_empty() => config.log_file = Some(PathBuf::from(s)),
                _ => {
                    return Err(ConfigError::BadValue {
                        path: path.to_path_buf(),
                        key: "engine.log_file".to_owned(),
                        value: value.to_string(),
                        expected: "a non-empty file path string".to_owned(),
                    });
                }
            },
            _ => {
                return Err(ConfigError::UnknownKey {
                    path: path.to_path_buf(),
                    key: format!("engine.{key}"),
                    allowed: ENGINE_KEYS.join(", "),
                });
            }
        }
    }
    Ok(())
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
        let e = parse("[options\n").unwrap_err().to_string();
        assert!(e.contains("invalid TOML"), "{e}");
    }
}
