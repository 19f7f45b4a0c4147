//! The manifest of the nets: a TOML file in the repository
//! (`docs/nets/manifest.toml`, beside the data manifest) that lists every
//! net kept in `nets/` with the data sets it learned from (by their names
//! in the data manifest), the exact `shears train` command and build that
//! made it, what it measured and the match that adopted it, so that a net
//! can be made again and checked (`shears net verify`).
//!
//! ```toml
//! [[net]]
//! name = "s6-g2"                     # unique
//! file = "default.nnue"              # in nets/
//! sha256 = "f5a0…"                   # of that file
//! bytes = 394872
//! version = 3                        # its net file format version
//! width = 256
//! layout = "plain"                   # or "king-mirrored"
//! data = [{ set = "sp31", positions = 2461648 }, …]  # the data manifest's sets, in order
//! command = "shears train data/sp31.bin … --out data/s6-g2.nnue"
//! commit = "8f6d045"                 # the build that trained it
//! held_out_loss = 0.003358
//! held_out_loss_quantised = 0.003378
//! adopted = "…"                      # the match that adopted it
//! log = "docs/strength.md#…"         # where the strength log tells it
//! score_model = "…"                  # how its scores read
//! model = { a = […], b = […] }       # optional: set into the file after training
//! notes = "…"                        # optional
//! ```

use std::path::Path;

use serde::Deserialize;
use thiserror::Error;

use shears::eval::ScoreModel;
use shears::eval::nnue::arch::{Layout, is_supported_width};
use shears::eval::nnue::{VERSION, VERSION_1};

/// The nets manifest's place in the repository.
pub const NETS_MANIFEST_PATH: &str = "docs/nets/manifest.toml";

/// The folder of the kept nets, from the repository's root.
pub const NETS_DIR: &str = "nets";

/// The manifest.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetsManifest {
    /// The nets, in the file's order.
    #[serde(rename = "net", default)]
    pub nets: Vec<NetEntry>,
}

/// One net.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetEntry {
    /// Its name.
    pub name: String,
    /// Its file's name in `nets/`.
    pub file: String,
    /// The sha256 of the file, lowercase hex.
    pub sha256: String,
    /// The file's size.
    pub bytes: u64,
    /// The file's format version.
    pub version: u32,
    /// Hidden neurons per perspective.
    pub width: usize,
    /// Its input layout's name (`plain`, `king-mirrored`).
    pub layout: String,
    /// The data it learned from, in the command's order.
    pub data: Vec<DataPrefix>,
    /// The `shears train` command that made it.
    pub command: String,
    /// The commit of the build that made it.
    pub commit: String,
    /// The float net's held-out loss at the end of its run.
    pub held_out_loss: f64,
    /// The quantised net's.
    pub held_out_loss_quantised: f64,
    /// The match that adopted it, and what it became.
    pub adopted: String,
    /// Where the strength log tells it (`docs/strength.md#…`).
    pub log: String,
    /// How its scores read, in words.
    pub score_model: String,
    /// The score model written into its file after training, if any.
    pub model: Option<ModelCoefficients>,
    /// Anything else worth knowing.
    pub notes: Option<String>,
}

/// The positions a net read from one data set.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DataPrefix {
    /// The set's name in the data manifest.
    pub set: String,
    /// The positions read from it (its kept positions, or the first of
    /// them where `--positions` cut the data).
    pub positions: u64,
}

/// A score model's coefficients, centipawns, highest power first.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelCoefficients {
    /// Of `a(t)`.
    pub a: [f64; 4],
    /// Of `b(t)`.
    pub b: [f64; 4],
}

/// Why the nets manifest cannot be used.
#[derive(Debug, Error)]
pub enum NetsManifestError {
    /// The file cannot be read.
    #[error("{path}: {source}")]
    Read {
        /// The manifest.
        path: String,
        /// What went wrong.
        source: std::io::Error,
    },
    /// Not TOML of the manifest's shape (a missing, unknown or mistyped
    /// field: the parser names it and its line).
    #[error("{path}: {reason}")]
    Toml {
        /// The manifest.
        path: String,
        /// The parser's message.
        reason: String,
    },
    /// A net with a field that makes no sense.
    #[error("{path}: net {index} ({name}): {reason}")]
    BadNet {
        /// The manifest.
        path: String,
        /// The net's place, from 1.
        index: usize,
        /// Its name.
        name: String,
        /// What is wrong.
        reason: String,
    },
}

impl NetsManifest {
    /// Reads the manifest at `path`.
    ///
    /// # Errors
    ///
    /// When it cannot be read, is not TOML of the manifest's shape, or a
    /// net has a field that makes no sense or repeats another's name.
    pub fn load(path: &Path) -> Result<NetsManifest, NetsManifestError> {
        let text = std::fs::read_to_string(path).map_err(|source| NetsManifestError::Read {
            path: path.display().to_string(),
            source,
        })?;
        NetsManifest::parse(&text, &path.display().to_string())
    }

    /// Parses manifest text (`path` names it in errors).
    ///
    /// # Errors
    ///
    /// As [`NetsManifest::load`].
    pub fn parse(text: &str, path: &str) -> Result<NetsManifest, NetsManifestError> {
        let manifest: NetsManifest =
            toml::from_str(text).map_err(|e: toml::de::Error| NetsManifestError::Toml {
                path: path.to_owned(),
                reason: e.to_string().trim().to_owned(),
            })?;
        for (i, net) in manifest.nets.iter().enumerate() {
            let reason = net.check().err().or_else(|| {
                manifest.nets[..i]
                    .iter()
                    .any(|other| other.name == net.name || other.file == net.file)
                    .then(|| "a second net of this name or file".to_owned())
            });
            if let Some(reason) = reason {
                return Err(NetsManifestError::BadNet {
                    path: path.to_owned(),
                    index: i + 1,
                    name: net.name.clone(),
                    reason,
                });
            }
        }
        Ok(manifest)
    }

    /// The net named `name`, else the net whose file has `name`'s file
    /// name (`nets/default.nnue` or `default.nnue`: the built-in net).
    pub fn find(&self, name: &str) -> Option<&NetEntry> {
        let file = Path::new(name).file_name().and_then(|f| f.to_str());
        self.nets
            .iter()
            .find(|n| n.name == name)
            .or_else(|| self.nets.iter().find(|n| Some(n.file.as_str()) == file))
    }
}

impl NetEntry {
    /// Its input layout.
    pub fn layout(&self) -> Option<Layout> {
        Layout::ALL.into_iter().find(|l| l.name() == self.layout)
    }

    /// The score model set into its file after training, checked.
    ///
    /// # Errors
    ///
    /// Why the coefficients are not a model ([`ScoreModel::net`]).
    pub fn model(&self) -> Result<Option<ScoreModel>, String> {
        self.model
            .map(|m| ScoreModel::net(m.a, m.b).map_err(|e| e.to_string()))
            .transpose()
    }

    /// Whether the fields make sense, each on its own: a plain file name,
    /// a sha256, a commit, a version, width and layout the engine reads, a
    /// `shears train` command, some data and a usable model.
    fn check(&self) -> Result<(), String> {
        let filled = [
            ("name", &self.name),
            ("adopted", &self.adopted),
            ("log", &self.log),
            ("score_model", &self.score_model),
        ];
        if let Some((key, _)) = filled.iter().find(|(_, v)| v.trim().is_empty()) {
            return Err(format!("`{key}` is empty"));
        }
        let plain = Path::new(&self.file)
            .file_name()
            .is_some_and(|f| f == self.file.as_str());
        if !plain || !self.file.ends_with(".nnue") {
            return Err(format!(
                "file `{}` is not a file name in nets/ ending in .nnue",
                self.file
            ));
        }
        let hex = |s: &str| {
            s.bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        };
        if self.sha256.len() != 64 || !hex(&self.sha256) {
            return Err(format!(
                "sha256 `{}` is not 64 lowercase hex digits",
                self.sha256
            ));
        }
        if self.commit.len() < 7 || !hex(&self.commit) {
            return Err(format!(
                "commit `{}` is not a commit hash (7 hex digits or more)",
                self.commit
            ));
        }
        if !(VERSION_1..=VERSION).contains(&self.version) {
            return Err(format!(
                "version {} is not a net file version (1 to {VERSION})",
                self.version
            ));
        }
        if !is_supported_width(self.width) {
            return Err(format!("width {} is not one the engine plays", self.width));
        }
        if self.layout().is_none() {
            return Err(format!(
                "layout `{}` is not plain or king-mirrored",
                self.layout
            ));
        }
        if !self.command.starts_with("shears train ") {
            return Err(format!(
                "command `{}` is not a `shears train` command",
                self.command
            ));
        }
        if self.data.is_empty() || self.data.iter().any(|d| d.positions == 0) {
            return Err("no data, or a set of no positions".to_owned());
        }
        if !self.log.starts_with("docs/") {
            return Err(format!("log `{}` is not a page of docs/", self.log));
        }
        self.model()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ONE: &str = r#"
[[net]]
name = "n"
file = "n.nnue"
sha256 = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
bytes = 49468
version = 3
width = 32
layout = "plain"
data = [{ set = "sp31", positions = 1000 }]
command = "shears train data/sp31.bin --positions 1000 --out data/n.nnue"
commit = "abcdef1"
held_out_loss = 0.01
held_out_loss_quantised = 0.011
adopted = "none"
log = "docs/strength.md#x"
score_model = "the trainer's"
"#;

    #[test]
    fn a_net_is_read_with_every_field_and_found_by_name_or_file() {
        let manifest = NetsManifest::parse(ONE, "m.toml").unwrap();
        let net = &manifest.nets[0];
        assert_eq!(
            (net.width, net.layout(), net.model),
            (32, Some(Layout::Plain), None)
        );
        assert_eq!(manifest.find("n"), Some(net));
        assert_eq!(manifest.find("nets/n.nnue"), Some(net));
        assert_eq!(manifest.find("m"), None);
    }

    #[test]
    fn a_bad_field_is_refused_by_name() {
        let refused = |from: &str, to: &str| {
            assert!(ONE.contains(from), "{from}");
            NetsManifest::parse(&ONE.replace(from, to), "m.toml")
                .unwrap_err()
                .to_string()
        };
        let missing = refused("commit = \"abcdef1\"\n", "");
        assert!(
            missing.starts_with("m.toml: ") && missing.contains("commit"),
            "{missing}"
        );
        let unknown = refused("bytes = ", "size = 1\nbytes = ");
        assert!(unknown.contains("unknown field `size`"), "{unknown}");
        for (from, to, reason) in [
            ("\"n.nnue\"", "\"../n.nnue\"", "is not a file name in nets/"),
            (
                "\"0123456789abcdef0123",
                "\"X123456789abcdef0123",
                "64 lowercase hex",
            ),
            ("version = 3", "version = 4", "not a net file version"),
            ("width = 32", "width = 100", "not one the engine plays"),
            ("\"plain\"", "\"mirrored\"", "not plain or king-mirrored"),
            (
                "\"shears train data",
                "\"shears datagen data",
                "not a `shears train` command",
            ),
            (
                "positions = 1000 }",
                "positions = 0 }",
                "a set of no positions",
            ),
            (
                "\"docs/strength.md#x\"",
                "\"strength.md\"",
                "not a page of docs/",
            ),
            (
                "score_model = \"the trainer's\"",
                "score_model = \"x\"\nmodel = { a = [0.0, 0.0, 0.0, 0.0], b = [0.0, 0.0, 0.0, 50.0] }",
                "must be at least 1 cp",
            ),
        ] {
            let err = refused(from, to);
            assert!(err.starts_with("m.toml: net 1 (n): "), "{err}");
            assert!(err.contains(reason), "{from}: {err}");
        }
        let twice = NetsManifest::parse(&format!("{ONE}{ONE}"), "m.toml").unwrap_err();
        assert!(twice.to_string().contains("a second net"), "{twice}");
    }
}
