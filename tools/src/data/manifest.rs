//! The manifest of the data sets: a TOML file in the repository
//! (`docs/data/manifest.toml`, explained in `docs/data.md`) that lists
//! every set with the build and the exact command that made it, so that a
//! set made on a machine that is later lost can be made again, and a copy
//! can be checked (`shears data verify`).
//!
//! ```toml
//! [[set]]
//! name = "sp31"                          # unique
//! file = "sp31.bin"                      # the data file's name
//! location = "../shared/data/sp31.bin.xz"  # where it lives, from the repository
//! format = "packed"                      # text, packed or games
//! commit = "1d28540"                     # the build that made it
//! command = "shears datagen data/sp31.bin …"  # the exact command
//! seed = 31
//! games = 36561
//! positions = 2461648                    # every move (games); the records (packed, text)
//! kept = 2461648                         # training positions
//! bytes = 79848448                       # the file's size (unpacked)
//! sha256 = "3e36…"                       # of the file (unpacked)
//! notes = "…"                            # optional
//! ```

use std::path::Path;

use thiserror::Error;

use super::format::Format;
use super::stats::Stats;

/// The manifest's place in the repository.
pub const MANIFEST_PATH: &str = "docs/data/manifest.toml";

/// One data set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataSet {
    /// Its name.
    pub name: String,
    /// The data file's name.
    pub file: String,
    /// Where the file lives, relative to the repository.
    pub location: String,
    /// Its format.
    pub format: Format,
    /// The commit of the build that made it.
    pub commit: String,
    /// The command that made it.
    pub command: String,
    /// The seed of the command.
    pub seed: u64,
    /// Complete games.
    pub games: u64,
    /// Positions (see [`Stats::positions`]).
    pub positions: u64,
    /// Training positions (see [`Stats::kept`]).
    pub kept: u64,
    /// The file's size.
    pub bytes: u64,
    /// The file's sha256, lowercase hex.
    pub sha256: String,
    /// Anything else worth knowing.
    pub notes: Option<String>,
}

/// The manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Manifest {
    /// The sets, in the file's order.
    pub sets: Vec<DataSet>,
}

/// Why a manifest cannot be used.
#[derive(Debug, Error)]
pub enum ManifestError {
    /// The file cannot be read.
    #[error("{path}: {source}")]
    Read {
        /// The manifest.
        path: String,
        /// What went wrong.
        source: std::io::Error,
    },
    /// Not TOML.
    #[error("{path}: {reason}")]
    Toml {
        /// The manifest.
        path: String,
        /// The parser's message.
        reason: String,
    },
    /// A set lacks a field or has a bad one.
    #[error("{path}: set {index} ({name}): {reason}")]
    BadSet {
        /// The manifest.
        path: String,
        /// The set's place, from 1.
        index: usize,
        /// Its name, if it has one.
        name: String,
        /// What is wrong.
        reason: String,
    },
}

impl Manifest {
    /// Reads the manifest at `path`.
    ///
    /// # Errors
    ///
    /// When it cannot be read, is not TOML, or a set lacks a field, has one
    /// of the wrong type, or repeats another set's name.
    pub fn load(path: &Path) -> Result<Manifest, ManifestError> {
        let text = std::fs::read_to_string(path).map_err(|source| ManifestError::Read {
            path: path.display().to_string(),
            source,
        })?;
        Manifest::parse(&text, &path.display().to_string())
    }

    /// Parses manifest text (`path` names it in errors).
    ///
    /// # Errors
    ///
    /// As [`Manifest::load`].
    pub fn parse(text: &str, path: &str) -> Result<Manifest, ManifestError> {
        let table: toml::Table =
            text.parse()
                .map_err(|e: toml::de::Error| ManifestError::Toml {
                    path: path.to_owned(),
                    reason: e.to_string().trim().to_owned(),
                })?;
        let bad = |index: usize, name: &str, reason: String| ManifestError::BadSet {
            path: path.to_owned(),
            index,
            name: name.to_owned(),
            reason,
        };
        if let Some(key) = table.keys().find(|k| *k != "set") {
            return Err(ManifestError::Toml {
                path: path.to_owned(),
                reason: format!("unknown key `{key}` (the sets are `[[set]]` tables)"),
            });
        }
        let sets = match table.get("set") {
            None => Vec::new(),
            Some(toml::Value::Array(sets)) => sets.clone(),
            Some(_) => {
                return Err(ManifestError::Toml {
                    path: path.to_owned(),
                    reason: "`set` is not an array of tables (`[[set]]`)".to_owned(),
                });
            }
        };
        let mut out: Vec<DataSet> = Vec::with_capacity(sets.len());
        for (i, set) in sets.iter().enumerate() {
            let index = i + 1;
            let toml::Value::Table(set) = set else {
                return Err(bad(index, "?", "not a table".to_owned()));
            };
            let name = set.get("name").and_then(toml::Value::as_str).unwrap_or("?");
            let parsed = parse_set(set).map_err(|reason| bad(index, name, reason))?;
            if out.iter().any(|s| s.name == parsed.name) {
                return Err(bad(index, name, "a second set of this name".to_owned()));
            }
            out.push(parsed);
        }
        Ok(Manifest { sets: out })
    }

    /// The set named `name`, else the set whose file is named as `path`'s.
    pub fn find(&self, name: Option<&str>, path: &Path) -> Option<&DataSet> {
        match name {
            Some(name) => self.sets.iter().find(|s| s.name == name),
            None => {
                let file = path.file_name()?.to_str()?;
                self.sets.iter().find(|s| s.file == file)
            }
        }
    }
}

/// The keys a set may have.
const KEYS: [&str; 14] = [
    "name",
    "file",
    "location",
    "format",
    "commit",
    "command",
    "seed",
    "games",
    "positions",
    "kept",
    "bytes",
    "sha256",
    "notes",
    "threads",
];

fn parse_set(set: &toml::Table) -> Result<DataSet, String> {
    if let Some(key) = set.keys().find(|k| !KEYS.contains(&k.as_str())) {
        return Err(format!("unknown key `{key}`"));
    }
    let text = |key: &str| -> Result<String, String> {
        match set.get(key) {
            Some(toml::Value::String(s)) if !s.trim().is_empty() => Ok(s.clone()),
            Some(toml::Value::String(_)) => Err(format!("`{key}` is empty")),
            Some(_) => Err(format!("`{key}` is not a string")),
            None => Err(format!("no `{key}`")),
        }
    };
    let count = |key: &str| -> Result<u64, String> {
        match set.get(key) {
            Some(toml::Value::Integer(n)) => {
                u64::try_from(*n).map_err(|_| format!("`{key}` is negative"))
            }
            Some(_) => Err(format!("`{key}` is not a whole number")),
            None => Err(format!("no `{key}`")),
        }
    };
    let format = match text("format")?.as_str() {
        "text" => Format::Text,
        "packed" => Format::Packed,
        "games" => Format::Games,
        other => return Err(format!("format `{other}` is not text, packed or games")),
    };
    let sha256 = text("sha256")?;
    if sha256.len() != 64
        || !sha256
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    {
        return Err(format!("sha256 `{sha256}` is not 64 lowercase hex digits"));
    }
    let commit = text("commit")?;
    if commit.len() < 7 || !commit.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(format!(
            "commit `{commit}` is not a commit hash (7 hex digits or more)"
        ));
    }
    let location = text("location")?;
    if location.starts_with('/') {
        return Err(format!(
            "location `{location}` is not relative to the repository"
        ));
    }
    let (positions, kept) = (count("positions")?, count("kept")?);
    if kept > positions {
        return Err(format!("kept {kept} is more than positions {positions}"));
    }
    Ok(DataSet {
        name: text("name")?,
        file: text("file")?,
        location,
        format,
        commit,
        command: text("command")?,
        seed: count("seed")?,
        games: count("games")?,
        positions,
        kept,
        bytes: count("bytes")?,
        sha256,
        notes: set
            .get("notes")
            .and_then(toml::Value::as_str)
            .map(str::to_owned),
    })
}

impl DataSet {
    /// Each fact of the set against the file's `stats`: `(what, manifest's,
    /// file's)` for the facts that differ (empty: the file is the set).
    pub fn mismatches(&self, stats: &Stats) -> Vec<(&'static str, String, String)> {
        let format_name = |f: Format| match f {
            Format::Text => "text",
            Format::Packed => "packed",
            Format::Games => "games",
        };
        let facts = [
            (
                "format",
                format_name(self.format).to_owned(),
                format_name(stats.format).to_owned(),
            ),
            ("bytes", self.bytes.to_string(), stats.bytes.to_string()),
            ("sha256", self.sha256.clone(), stats.sha256.clone()),
            ("games", self.games.to_string(), stats.games.to_string()),
            (
                "positions",
                self.positions.to_string(),
                stats.positions.to_string(),
            ),
            ("kept", self.kept.to_string(), stats.kept.to_string()),
        ];
        facts.into_iter().filter(|(_, a, b)| a != b).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The repository's manifest.
    fn repository_manifest() -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join(MANIFEST_PATH)
    }

    #[test]
    fn every_set_of_the_repository_manifest_has_every_field() {
        let manifest = Manifest::load(&repository_manifest()).unwrap();
        assert!(!manifest.sets.is_empty());
        for set in &manifest.sets {
            // parse_set refused a set without one; these are the facts a
            // regeneration needs, checked once more for sense.
            assert!(
                set.command.starts_with("shears "),
                "{}: {}",
                set.name,
                set.command
            );
            assert!(
                set.games > 0 && set.kept > 0 && set.bytes > 0,
                "{}",
                set.name
            );
            assert!(
                set.command.contains(&format!("--seed {}", set.seed)),
                "{}: the seed is the command's",
                set.name
            );
            assert!(
                set.location.ends_with(&set.file) || set.location.contains(&set.file),
                "{}",
                set.name
            );
        }
        let sp31 = manifest.find(Some("sp31"), Path::new("")).unwrap();
        assert_eq!(sp31.commit, "1d28540");
        assert_eq!(manifest.find(None, Path::new("x/sp31.bin")), Some(sp31));
    }

    #[test]
    fn a_set_without_a_field_is_refused_by_name() {
        let text = std::fs::read_to_string(repository_manifest()).unwrap();
        let set_start = text.find("[[set]]").unwrap();
        let first_set = &text[set_start..];
        let end = first_set[7..]
            .find("[[set]]")
            .map_or(first_set.len(), |e| e + 7);
        let one = &first_set[..end];
        for key in ["command", "commit", "sha256", "games", "location"] {
            let without: String = one
                .lines()
                .filter(|l| !l.trim_start().starts_with(&format!("{key} =")))
                .map(|l| format!("{l}\n"))
                .collect();
            let err = Manifest::parse(&without, "m.toml").unwrap_err().to_string();
            assert!(err.starts_with("m.toml: set 1 ("), "{key}: {err}");
            assert!(err.contains(&format!("no `{key}`")), "{key}: {err}");
        }
        let twice = format!("{one}\n{one}");
        assert!(
            Manifest::parse(&twice, "m.toml")
                .unwrap_err()
                .to_string()
                .contains("a second set")
        );
        let bad_sha = one.replace("sha256 = \"", "sha256 = \"x");
        assert!(
            Manifest::parse(&bad_sha, "m.toml")
                .unwrap_err()
                .to_string()
                .contains("64 lowercase hex")
        );
    }
}
