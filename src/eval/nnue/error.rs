//! [`NetError`]: why a net file (or a set of quantised weights) cannot be
//! used. Each variant names what was found and what was expected, so that
//! `EvalFile` can say what is wrong with the file it refused.

use std::path::PathBuf;

use thiserror::Error;

use crate::eval::score_model::ScoreModelError;

/// A net that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NetError {
    /// The file cannot be read.
    #[error("net file {}: cannot read: {reason}", .path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's message.
        reason: String,
    },
    /// The file does not start with `SHEARSNN`: not a Shears net.
    #[error("not a Shears net file: it starts with \"{}\", not \"SHEARSNN\"", .found.escape_ascii())]
    BadMagic {
        /// The first bytes of the file (up to 8).
        found: Vec<u8>,
    },
    /// A format version this engine does not read.
    #[error("net file format version {found}; this engine reads versions 1 to {expected}")]
    UnsupportedVersion {
        /// The file's version.
        found: u32,
        /// The newest version this engine reads (the one it writes).
        expected: u32,
    },
    /// A hidden width the engine has no net for.
    #[error(
        "net file of hidden width {found}: this engine plays nets of {} hidden neurons",
        crate::eval::nnue::arch::widths_in_words()
    )]
    UnsupportedWidth {
        /// The file's width.
        found: u32,
    },
    /// An input layout the engine does not know (version 2's field).
    #[error(
        "net file of input layout {found}: this engine reads layouts 0 (plain) and 1 (king-mirrored)"
    )]
    UnknownLayout {
        /// The file's layout code.
        found: u32,
    },
    /// A score model kind the engine does not know (version 3's field).
    #[error(
        "net file of score model kind {found}: this engine reads kinds 0 (none) and 1 \
         (win/draw/loss by material)"
    )]
    UnknownScoreModel {
        /// The file's kind.
        found: u32,
    },
    /// A file without a score model (kind 0) whose coefficients are not
    /// all zero: written by something else than this engine.
    #[error("net file has no score model (kind 0) but coefficients that are not 0")]
    StrayScoreModel,
    /// The file's score model is not one the engine can read scores with.
    #[error("net file's {0}")]
    BadScoreModel(#[from] ScoreModelError),
    /// A header field (inputs, buckets, activation, QA, QB, SCALE) other
    /// than this engine's nets have.
    #[error("wrong net architecture: {field} is {found} in the file, {expected} in this engine")]
    WrongArchitecture {
        /// The header field.
        field: &'static str,
        /// The file's value.
        found: u32,
        /// This engine's value.
        expected: u32,
    },
    /// The file is larger than any net file this engine reads (read no
    /// further than that).
    #[error(
        "net file too large: {found} bytes or more; the largest net file this engine reads has {limit}"
    )]
    TooLarge {
        /// The file's size (for a device that never ends, the bytes read).
        found: u64,
        /// The largest net file's size.
        limit: usize,
    },
    /// The file ends early.
    #[error("net file truncated: {found} bytes, a net of this architecture has {expected}")]
    Truncated {
        /// The file's size.
        found: usize,
        /// The size of a net file of the header's architecture (the size
        /// of the header, while it is not whole).
        expected: usize,
    },
    /// The file goes on after the checksum.
    #[error(
        "net file has {} bytes after its end ({found} bytes, a net of this architecture has {expected})",
        .found - .expected
    )]
    TrailingBytes {
        /// The file's size.
        found: usize,
        /// The size of a net file of this architecture.
        expected: usize,
    },
    /// The checksum does not match the contents: the file is corrupt.
    #[error("net file corrupt: checksum {stored:08x} in the file, {computed:08x} computed")]
    ChecksumMismatch {
        /// The checksum the file ends with.
        stored: u32,
        /// The checksum of the header and weights.
        computed: u32,
    },
    /// An output weight too large for the output layer's integer
    /// arithmetic (training clips them well inside the limit).
    #[error("output weight {index} is {value}, outside ±127")]
    OutputWeightOutOfRange {
        /// Its index in the output weights (the side to move's half first).
        index: usize,
        /// Its value.
        value: i16,
    },
}
