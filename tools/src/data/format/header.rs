//! The header of a game file (`games.rs`): what the file is, and the
//! settings that made its games, so that a resumed run can refuse to
//! append games made otherwise, and `shears data stats` can show them.
//!
//! ```text
//! bytes 0..8      magic: the ASCII text "SHEARSGM"
//! bytes 8..10     format version, u16 little-endian (1)
//! bytes 10..14    length n of the settings, u32 little-endian (at most 65,536)
//! bytes 14..14+n  the settings: UTF-8 text, one `key = value` TOML line each
//! ```
//!
//! The settings of a `datagen` file, in this order (a key whose value is
//! not set is left out):
//!
//! ```toml
//! source = "datagen"
//! build = "0.1.0 4f179d7"          # the version and commit of the binary
//! seed = 64
//! nodes = 5000                     # each move's node budget
//! depth = 12                       # each move's depth limit
//! random_plies = 2
//! min_ply = 16                     # the quiet filter's first game ply
//! book = "8moves_v3_min.pgn (34715 lines), 2moves_v2.pgn (1000 lines)"
//! eval = "net <default> (digest 5c1e…)"  # only with a net: its file and digest
//! probe_nodes = 1000              # only with a probe (`--probe-nodes`)
//! adjudication = "resign at 700 cp for 4 plies, …"  # only when not the default
//! ```
//!
//! Two runs are the same run when their settings are the same text, byte
//! for byte. The number of games and of threads is not a setting: neither
//! changes which game `i` is.

use std::io::{self, Read};

use thiserror::Error;

use super::games::read_exact_or_end;

/// The first bytes of every game file.
pub const MAGIC: [u8; 8] = *b"SHEARSGM";
/// The version this build writes and reads.
pub const VERSION: u16 = 1;
/// Longest settings text read.
pub const MAX_SETTINGS: usize = 1 << 16;
/// Bytes before the settings.
const FIXED: usize = 14;
/// The build, as a header names it: the crate's version and the commit it
/// is built from (`build.rs`).
pub const BUILD: &str = concat!(env!("CARGO_PKG_VERSION"), " ", env!("SHEARS_COMMIT"));

/// Why a header cannot be read.
#[derive(Debug, Error)]
pub enum HeaderError {
    /// The file does not start with [`MAGIC`].
    #[error("not a Shears game file (it does not start with \"SHEARSGM\")")]
    Magic,
    /// A version this build does not read.
    #[error("game file version {0}: this build reads version {VERSION}")]
    Version(u16),
    /// The file ends inside its header.
    #[error("the file ends inside its {needed}-byte header ({found} bytes)")]
    Truncated {
        /// Bytes the header needs.
        needed: u64,
        /// Bytes there.
        found: u64,
        /// Those bytes (all of the input): a run stopped while it wrote
        /// its header left the start of that header.
        bytes: Vec<u8>,
    },
    /// The settings are too long, not UTF-8 or not TOML.
    #[error("the header's settings cannot be read: {0}")]
    Settings(String),
    /// The file cannot be read.
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// A game file's header: its settings text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    settings: String,
}

impl Header {
    /// A header of `settings`, each `(key, value)` one line in this order.
    pub fn new(settings: &[(&str, toml::Value)]) -> Header {
        let settings = settings
            .iter()
            .map(|(key, value)| format!("{key} = {value}\n"))
            .collect();
        Header { settings }
    }

    /// The settings text.
    pub fn settings(&self) -> &str {
        &self.settings
    }

    /// The settings as a TOML table.
    ///
    /// # Errors
    ///
    /// When the text is not TOML (a header this build did not write).
    pub fn table(&self) -> Result<toml::Table, HeaderError> {
        self.settings
            .parse()
            .map_err(|e: toml::de::Error| HeaderError::Settings(e.message().to_owned()))
    }

    /// One setting, when the header has it.
    pub fn get(&self, key: &str) -> Option<toml::Value> {
        self.table().ok()?.remove(key)
    }

    /// This header with the setting `key` set to `value`, in its place
    /// (added last when the header has none).
    pub fn with_setting(&self, key: &str, value: &toml::Value) -> Header {
        let line = format!("{key} = {value}");
        let mut found = false;
        let mut settings: String = self
            .settings
            .lines()
            .map(|l| {
                let own = l.split_once('=').is_some_and(|(k, _)| k.trim() == key);
                found |= own;
                if own {
                    format!("{line}\n")
                } else {
                    format!("{l}\n")
                }
            })
            .collect();
        if !found {
            settings.push_str(&line);
            settings.push('\n');
        }
        Header { settings }
    }

    /// The header's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(FIXED + self.settings.len());
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(self.settings.len() as u32).to_le_bytes());
        out.extend_from_slice(self.settings.as_bytes());
        out
    }

    /// Bytes of the header in the file.
    pub fn len(&self) -> u64 {
        (FIXED + self.settings.len()) as u64
    }

    /// Whether the settings are empty (never, for a header this build
    /// writes).
    pub fn is_empty(&self) -> bool {
        self.settings.is_empty()
    }

    /// Reads a header from the start of `input`; `Ok(None)` for an empty
    /// input.
    ///
    /// # Errors
    ///
    /// [`HeaderError`] for anything but a whole header of this version.
    pub fn read(input: &mut impl Read) -> Result<Option<Header>, HeaderError> {
        let mut fixed = [0u8; FIXED];
        let got = read_exact_or_end(input, &mut fixed)?;
        if got == 0 {
            return Ok(None);
        }
        if got < MAGIC.len() || fixed[..MAGIC.len()] != MAGIC {
            return Err(if MAGIC.starts_with(&fixed[..got.min(MAGIC.len())]) {
                HeaderError::Truncated {
                    needed: FIXED as u64,
                    found: got as u64,
                    bytes: fixed[..got].to_vec(),
                }
            } else {
                HeaderError::Magic
            });
        }
        if got < FIXED {
            return Err(HeaderError::Truncated {
                needed: FIXED as u64,
                found: got as u64,
                bytes: fixed[..got].to_vec(),
            });
        }
        let version = u16::from_le_bytes([fixed[8], fixed[9]]);
        if version != VERSION {
            return Err(HeaderError::Version(version));
        }
        let n = u32::from_le_bytes(fixed[10..14].try_into().expect("4 bytes")) as usize;
        if n > MAX_SETTINGS {
            return Err(HeaderError::Settings(format!(
                "{n} bytes of settings (at most {MAX_SETTINGS})"
            )));
        }
        let mut text = vec![0u8; n];
        let got = read_exact_or_end(input, &mut text)?;
        if got < n {
            let mut bytes = fixed.to_vec();
            bytes.extend_from_slice(&text[..got]);
            return Err(HeaderError::Truncated {
                needed: (FIXED + n) as u64,
                found: (FIXED + got) as u64,
                bytes,
            });
        }
        let settings = String::from_utf8(text)
            .map_err(|_| HeaderError::Settings("not UTF-8 text".to_owned()))?;
        let header = Header { settings };
        header.table()?;
        Ok(Some(header))
    }

    /// The settings that differ between `self` (a file's) and `other` (a
    /// run's), one `key: file's value, run's value` each; empty when the
    /// headers are the same.
    pub fn differences(&self, other: &Header) -> Vec<String> {
        if self == other {
            return Vec::new();
        }
        let (Ok(mine), Ok(theirs)) = (self.table(), other.table()) else {
            return vec!["the settings text".to_owned()];
        };
        let shown =
            |v: Option<&toml::Value>| v.map_or_else(|| "(none)".to_owned(), ToString::to_string);
        let mut keys: Vec<&String> = mine.keys().chain(theirs.keys()).collect();
        keys.sort();
        keys.dedup();
        let mut out: Vec<String> = keys
            .into_iter()
            .filter(|k| mine.get(*k) != theirs.get(*k))
            .map(|k| {
                format!(
                    "{k}: {} in the file, {} now",
                    shown(mine.get(k)),
                    shown(theirs.get(k))
                )
            })
            .collect();
        if out.is_empty() {
            out.push("the order or spelling of the settings".to_owned());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(seed: i64) -> Header {
        Header::new(&[
            ("source", "datagen".into()),
            ("seed", seed.into()),
            ("book", "a.pgn (3 lines)".into()),
        ])
    }

    #[test]
    fn a_header_reads_back_and_names_its_differences() {
        let h = header(5);
        assert_eq!(
            h.settings(),
            "source = \"datagen\"\nseed = 5\nbook = \"a.pgn (3 lines)\"\n"
        );
        let bytes = h.to_bytes();
        assert_eq!(bytes.len() as u64, h.len());
        let back = Header::read(&mut bytes.as_slice()).unwrap().unwrap();
        assert_eq!(back, h);
        assert_eq!(back.get("seed"), Some(toml::Value::Integer(5)));
        assert!(h.differences(&header(5)).is_empty());
        assert_eq!(
            h.differences(&header(6)),
            vec!["seed: 5 in the file, 6 now".to_owned()]
        );
    }

    #[test]
    fn a_bad_header_is_refused_with_a_reason() {
        assert!(Header::read(&mut &b""[..]).unwrap().is_none());
        let bytes = header(1).to_bytes();
        for cut in [3, 12, bytes.len() - 1] {
            let err = Header::read(&mut &bytes[..cut]).unwrap_err();
            assert!(matches!(err, HeaderError::Truncated { .. }), "{cut}: {err}");
            // The bytes found come with the error (a resumed run compares
            // them with its own header).
            match err {
                HeaderError::Truncated {
                    found, bytes: got, ..
                } => {
                    assert_eq!((found, got.as_slice()), (cut as u64, &bytes[..cut]));
                }
                _ => unreachable!("checked above"),
            }
        }
        assert!(matches!(
            Header::read(&mut &b"rnbqkbnr/pppppppp"[..]).unwrap_err(),
            HeaderError::Magic
        ));
        let mut other = bytes.clone();
        other[8] = 9;
        assert!(
            Header::read(&mut other.as_slice())
                .unwrap_err()
                .to_string()
                .contains("version 9")
        );
        let mut broken = bytes;
        broken[14] = b'=';
        assert!(matches!(
            Header::read(&mut broken.as_slice()).unwrap_err(),
            HeaderError::Settings(_)
        ));
    }
}
