//! `shears data verify`: a data file checked against its set in the
//! manifest, and where the manifest is.
//!
//! **Finding the manifest.** `--manifest PATH` when given; else
//! `docs/data/manifest.toml` in the working directory or the nearest of
//! its parents that has one (anywhere in a work tree), else the one
//! beside the sources the binary was built from (their path is fixed at
//! compile time). None of them: an error naming where it looked.
//!
//! **Only the build.** A game file made again by another build of the
//! same search (another commit, or the set's commit with other files
//! changed: `-dirty`) holds the same games but another `build` in its
//! header, so its size and sha256 differ from the set's. When the file
//! with the set's build in its header is the set, byte for byte (size and
//! sha256), the verdict says that only the build string differs and that
//! every game is the same.

use std::path::{Path, PathBuf};

use thiserror::Error;

use super::manifest::{DataSet, MANIFEST_PATH, Manifest, ManifestError};
use super::reader::DataError;
use super::stats::{Stats, sha256_spliced, stats};
use crate::util::repo::find_repository_file;

/// Why a file cannot be checked.
#[derive(Debug, Error)]
pub enum VerifyError {
    /// No manifest where it was looked for.
    #[error("no manifest found (looked for {}); give --manifest PATH", .looked.join(", "))]
    NoManifest {
        /// The places looked in.
        looked: Vec<String>,
    },
    /// The manifest cannot be read.
    #[error(transparent)]
    Manifest(#[from] ManifestError),
    /// No set named so.
    #[error("no set named {0} in the manifest {1}")]
    NoSet(String, String),
    /// No set has the file's name.
    #[error("no set of the manifest {1} has the file name of {0} (give --set)")]
    NoSetForFile(String, String),
    /// The file cannot be read, or is damaged.
    #[error(transparent)]
    Data(#[from] DataError),
}

/// What a check found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The file is the set.
    Same,
    /// The file is the set but for its header's build string: the file's
    /// build, and the set's (with which it is the set, byte for byte).
    OnlyBuild {
        /// The file's `build`.
        file: String,
        /// The set's.
        set: String,
    },
    /// Facts that differ: `(what, the manifest's, the file's)`.
    Differs(Vec<(&'static str, String, String)>),
}

/// The manifest to use: `given`, else the first that exists of the
/// working directory's and its parents' `docs/data/manifest.toml`, then
/// the sources' ([`find_repository_file`]).
///
/// # Errors
///
/// [`VerifyError::NoManifest`] naming the places looked in.
pub fn find_manifest(given: Option<&Path>) -> Result<PathBuf, VerifyError> {
    match given {
        Some(path) => Ok(path.to_path_buf()),
        None => {
            find_repository_file(MANIFEST_PATH).map_err(|looked| VerifyError::NoManifest { looked })
        }
    }
}

/// Checks `file` against its set of the manifest `manifest` (the set
/// named `set`, else the one whose file has `file`'s name).
///
/// # Errors
///
/// When the manifest cannot be read or has no such set, or the file
/// cannot be read or is damaged.
pub fn verify(
    file: &Path,
    set: Option<&str>,
    manifest: &Path,
) -> Result<(DataSet, Stats, Verdict), VerifyError> {
    let shown = manifest.display().to_string();
    let sets = Manifest::load(manifest)?;
    let entry = sets.find(set, file).cloned().ok_or_else(|| match set {
        Some(name) => VerifyError::NoSet(name.to_owned(), shown.clone()),
        None => VerifyError::NoSetForFile(file.display().to_string(), shown.clone()),
    })?;
    let stats = stats(file)?;
    let mismatches = entry.mismatches(&stats);
    if mismatches.is_empty() {
        return Ok((entry, stats, Verdict::Same));
    }
    let verdict = match only_build(file, &entry, &stats)? {
        Some((file, set)) => Verdict::OnlyBuild { file, set },
        None => Verdict::Differs(mismatches),
    };
    Ok((entry, stats, verdict))
}

/// The file's build and the set's when the file with the set's build in
/// its header is the set (its size and sha256); `None` otherwise. The
/// set's build is its commit after the file's version, plain or `-dirty`.
fn only_build(
    file: &Path,
    entry: &DataSet,
    stats: &Stats,
) -> Result<Option<(String, String)>, DataError> {
    let Some(header) = &stats.header else {
        return Ok(None);
    };
    let Some(toml::Value::String(build)) = header.get("build") else {
        return Ok(None);
    };
    let version = build.split_whitespace().next().unwrap_or_default();
    for candidate in [
        format!("{version} {}", entry.commit),
        format!("{version} {}-dirty", entry.commit),
    ] {
        if candidate == build {
            continue;
        }
        let theirs = header.with_setting("build", &candidate.clone().into());
        let bytes = stats.bytes - header.len() + theirs.len();
        if bytes != entry.bytes {
            continue;
        }
        let sha256 = sha256_spliced(&theirs.to_bytes(), file, header.len()).map_err(|source| {
            DataError::Io {
                path: file.to_owned(),
                source,
            }
        })?;
        if sha256 == entry.sha256 {
            return Ok(Some((build, candidate)));
        }
    }
    Ok(None)
}
