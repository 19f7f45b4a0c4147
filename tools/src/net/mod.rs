//! The nets: what a net file is ([`Facts`]), the manifest of the nets kept
//! in `nets/` ([`manifest`]), a net made again from its entry and compared
//! with it ([`verify`]), and a score model written into a net file
//! ([`set_model`]). The file format and its one reader are the engine's
//! (`shears::eval::nnue::NetFile`); `shears net` (`cli/net.rs`) prints
//! what these give.
//!
//! | file | what |
//! |---|---|
//! | `manifest.rs` | the nets manifest, read and checked ([`NetsManifest`]) |
//! | `verify.rs` | a net made again from its entry, and the verdict ([`remake`]) |
//! | `error.rs` | [`NetToolError`] |

mod error;
pub mod manifest;
pub mod verify;

use std::fs;
use std::path::{Path, PathBuf};

pub use error::NetToolError;
pub use manifest::{NETS_DIR, NETS_MANIFEST_PATH, NetEntry, NetsManifest};
pub use verify::{Remake, Verdict, remake};

use shears::eval::ScoreModel;
use shears::eval::nnue::{NetFile, VERSION};

use crate::data::stats::sha256_file;

/// What a net file is: its size and sha256, and what its reader finds.
#[derive(Debug, Clone, PartialEq)]
pub struct Facts {
    /// The file's size.
    pub bytes: u64,
    /// Its sha256, lowercase hex.
    pub sha256: String,
    /// The net and its score model, and the file's version.
    pub file: NetFile,
}

impl Facts {
    /// The facts of the net file `path`.
    ///
    /// # Errors
    ///
    /// The file cannot be read, or is not a net the engine reads.
    pub fn of(path: &Path) -> Result<Facts, NetToolError> {
        let file = NetFile::load(path).map_err(|source| NetToolError::Net {
            path: path.to_path_buf(),
            source,
        })?;
        let sha256 = sha256_file(path).map_err(|e| NetToolError::io(path, &e))?;
        let bytes = fs::metadata(path)
            .map_err(|e| NetToolError::io(path, &e))?
            .len();
        Ok(Facts {
            bytes,
            sha256,
            file,
        })
    }

    /// The facts as `name: value` lines, as `shears net show` prints them.
    pub fn lines(&self) -> Vec<String> {
        let net = &self.file.net;
        let mut lines = vec![
            format!("bytes: {}", self.bytes),
            format!("sha256: {}", self.sha256),
            format!("version: {}", self.file.version),
            format!("width: {}", net.hidden()),
            format!("layout: {}", net.layout().name()),
        ];
        lines.push(match &self.file.model {
            Some(m) => format!(
                "score model: a(t) = {}, b(t) = {} (highest power first); a pawn is {:.1} of its \
                 centipawns",
                coefficients(&m.a),
                coefficients(&m.b),
                m.pawn()
            ),
            None => "score model: none (its scores are shown in its raw centipawns)".to_owned(),
        });
        lines
    }
}

/// Four coefficients as `[c3, c2, c1, c0]`.
pub fn coefficients(c: &[f64; 4]) -> String {
    let each: Vec<String> = c.iter().map(|x| format!("{x}")).collect();
    format!("[{}]", each.join(", "))
}

/// Writes the net of `input` with `model` as its score model (`None`:
/// none) to `output`, a file of this engine's version ([`VERSION`]):
/// through a temporary file beside it, read back and renamed over it, so
/// that a failure leaves `output` as it was. `output` may be `input` (the
/// file is rewritten in place); another `output` that exists is replaced
/// only when `replace` is set.
///
/// # Errors
///
/// `input` is not a net file, `output` exists, or a file cannot be
/// written.
pub fn set_model(
    input: &Path,
    output: &Path,
    model: Option<ScoreModel>,
    replace: bool,
) -> Result<NetFile, NetToolError> {
    let read = NetFile::load(input).map_err(|source| NetToolError::Net {
        path: input.to_path_buf(),
        source,
    })?;
    let same = output == input
        || fs::canonicalize(output).ok().as_deref() == fs::canonicalize(input).ok().as_deref();
    if !same && !replace && output.exists() {
        return Err(NetToolError::Exists(output.to_path_buf()));
    }
    let file = NetFile::new(read.net, model);
    write_net(&file, output)?;
    Ok(file)
}

/// Writes `file` to `path` through a temporary file beside it, checks
/// that it reads back as `file`, and renames it over `path`.
fn write_net(file: &NetFile, path: &Path) -> Result<(), NetToolError> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let temporary: PathBuf = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    let written = fs::write(&temporary, file.to_bytes())
        .map_err(|e| NetToolError::io(&temporary, &e))
        .and_then(|()| {
            let back = NetFile::load(&temporary).map_err(|source| NetToolError::Net {
                path: temporary.clone(),
                source,
            })?;
            debug_assert_eq!(back.version, VERSION);
            if back != *file {
                return Err(NetToolError::ReadBack(temporary.clone()));
            }
            fs::rename(&temporary, path).map_err(|e| NetToolError::io(path, &e))
        });
    if written.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;
    use shears::eval::nnue::arch::Layout;
    use shears::eval::nnue::{AnyNet, FloatNet};

    fn model() -> ScoreModel {
        ScoreModel::net([0.0, 0.0, 10.0, 110.0], [0.0, 0.0, 5.0, 55.0]).unwrap()
    }

    #[test]
    fn a_score_model_is_written_into_a_net_and_taken_out_again() {
        let dir = tempfile::tempdir().unwrap();
        let net: AnyNet = FloatNet::zeroed(32, Layout::Plain).quantise().unwrap();
        let bare = dir.path().join("bare.nnue");
        fs::write(&bare, net.to_bytes()).unwrap();
        let facts = Facts::of(&bare).unwrap();
        assert_eq!(facts.file.model, None);
        assert!(
            facts
                .lines()
                .iter()
                .any(|l| l.starts_with("score model: none"))
        );

        // Into another file: the input stays as it was.
        let with = dir.path().join("with.nnue");
        let file = set_model(&bare, &with, Some(model()), false).unwrap();
        assert_eq!(file.model, Some(model()));
        assert_eq!(Facts::of(&with).unwrap().file, file);
        assert_eq!(Facts::of(&bare).unwrap(), facts);
        let lines = Facts::of(&with).unwrap().lines();
        assert!(
            lines.contains(
                &"score model: a(t) = [0, 0, 10, 110], b(t) = [0, 0, 5, 55] (highest power \
                  first); a pawn is 120.0 of its centipawns"
                    .to_owned()
            ),
            "{lines:?}"
        );
        // An existing other file is replaced only when asked; the file
        // itself is rewritten in place.
        assert!(matches!(
            set_model(&bare, &with, None, false),
            Err(NetToolError::Exists(_))
        ));
        set_model(&with, &with, None, false).unwrap();
        assert_eq!(fs::read(&with).unwrap(), fs::read(&bare).unwrap());
        assert!(
            fs::read_dir(dir.path()).unwrap().all(|e| !e
                .unwrap()
                .file_name()
                .to_string_lossy()
                .ends_with(".tmp")),
            "no temporary file is left"
        );
        // Not a net: refused, nothing written.
        let junk = dir.path().join("junk.nnue");
        fs::write(&junk, b"junk").unwrap();
        let out = dir.path().join("out.nnue");
        assert!(matches!(
            set_model(&junk, &out, Some(model()), false),
            Err(NetToolError::Net { .. })
        ));
        assert!(!out.exists());
    }
}
