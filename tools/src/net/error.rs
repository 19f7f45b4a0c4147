//! [`NetToolError`]: why `shears net` cannot show, write or make a net.
//! Each variant names the file, the net or the command at fault.

use std::path::{Path, PathBuf};

use thiserror::Error;

use super::manifest::NetsManifestError;
use crate::train::TrainError;
use shears::eval::nnue::NetError;

/// Why a net tool cannot go on.
#[derive(Debug, Error)]
pub enum NetToolError {
    /// A file or folder cannot be read or written.
    #[error("{}: {reason}", .path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The operating system's message.
        reason: String,
    },
    /// A file is not a net the engine reads.
    #[error("{}: {source}", .path.display())]
    Net {
        /// The file.
        path: PathBuf,
        /// The reader's error.
        source: NetError,
    },
    /// A net written did not read back as itself (a bug here).
    #[error("{}: the net written does not read back as itself", .0.display())]
    ReadBack(PathBuf),
    /// A file or folder that must not be overwritten exists.
    #[error("{} exists: give another path (or --force to replace a net file)", .0.display())]
    Exists(PathBuf),
    /// The nets manifest cannot be used.
    #[error(transparent)]
    Manifest(#[from] NetsManifestError),
    /// No manifest where it was looked for.
    #[error("no nets manifest found (looked for {}); give --manifest PATH", .looked.join(", "))]
    NoManifest {
        /// The places looked in.
        looked: Vec<String>,
    },
    /// No net of the manifest has that name (or file name).
    #[error("no net named {name} in the nets manifest {manifest}")]
    NoNet {
        /// The name asked for.
        name: String,
        /// The manifest.
        manifest: String,
    },
    /// A net's command cannot be run as it is.
    #[error("net {name}: its command {problem}")]
    BadCommand {
        /// The net.
        name: String,
        /// What is wrong with it.
        problem: String,
    },
    /// Coefficients that are not a score model.
    #[error("{what}: {reason}")]
    BadModel {
        /// Whose coefficients (`--a/--b`, a net of the manifest).
        what: String,
        /// Why they are no model.
        reason: String,
    },
    /// A data file the command reads is not there.
    #[error(
        "{}: no such data file (the set {set} of the data manifest: make it by its command, \
         docs/data.md, or give --data-dir)",
        .path.display()
    )]
    NoData {
        /// Where it was looked for.
        path: PathBuf,
        /// The data set it holds.
        set: String,
    },
    /// The training failed.
    #[error(transparent)]
    Train(#[from] TrainError),
}

impl NetToolError {
    /// An I/O error on `path`.
    pub fn io(path: &Path, e: &std::io::Error) -> NetToolError {
        NetToolError::Io {
            path: path.to_path_buf(),
            reason: e.to_string(),
        }
    }
}
