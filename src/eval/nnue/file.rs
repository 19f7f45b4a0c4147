//! The net file: reading it (every check of the format, a typed error for
//! each way a file can be wrong, never a panic) and writing it.
//!
//! Little-endian throughout (docs/nnue.md has the byte map):
//!
//! ```text
//! offset  size            field
//!      0  8               magic "SHEARSNN"
//!      8  4               format version (1)
//!     12  4               inputs (768)
//!     16  4               hidden neurons H (256)
//!     20  4               output buckets (1)
//!     24  4               activation (1 = SCReLU)
//!     28  4               QA (255)
//!     32  4               QB (64)
//!     36  4               SCALE (400)
//!     40  768 * H * 2     W1, i16, feature-major (the H weights of feature 0, then 1, ...)
//!      …  H * 2           b1, i16
//!      …  2 * H * 2       W2, i16 (the side to move's half, then the other side's)
//!      …  4               b2, i32
//!      …  4               CRC-32 (IEEE) of everything before it
//! ```

use std::path::Path;

use super::arch::{ACTIVATION_SCRELU, BUCKETS, HIDDEN, INPUTS, QA, QB, SCALE};
use super::column::Column;
use super::crc::crc32;
use super::error::NetError;
use super::net::Net;

/// The first 8 bytes of every net file.
pub const MAGIC: [u8; 8] = *b"SHEARSNN";

/// The format version this engine reads and writes.
pub const VERSION: u32 = 1;

/// Size of the header: the magic and eight u32 fields.
pub const HEADER_LEN: usize = 8 + 8 * 4;

/// Size of the weights: W1, b1, W2 (i16) and b2 (i32).
pub const PAYLOAD_LEN: usize = (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN) * 2 + 4;

/// Size of a whole net file of this engine's architecture.
pub const FILE_LEN: usize = HEADER_LEN + PAYLOAD_LEN + 4;

/// The header fields after the version, with this engine's values, in file
/// order.
const ARCHITECTURE: [(&str, u32); 7] = [
    ("inputs", INPUTS as u32),
    ("hidden", HIDDEN as u32),
    ("buckets", BUCKETS as u32),
    ("activation", ACTIVATION_SCRELU),
    ("QA", QA as u32),
    ("QB", QB as u32),
    ("SCALE", SCALE as u32),
];

/// Reads little-endian values from a slice whose length was checked.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let out = self.bytes[self.at..self.at + N]
            .try_into()
            .expect("the caller checked the length");
        self.at += N;
        out
    }

    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }

    fn i32(&mut self) -> i32 {
        i32::from_le_bytes(self.take())
    }

    fn column(&mut self, col: &mut Column) {
        for w in &mut col.0 {
            *w = i16::from_le_bytes(self.take());
        }
    }
}

impl Net {
    /// Reads a net file's bytes, checking everything: magic, version,
    /// architecture, size, checksum and the output weights' range.
    ///
    /// # Errors
    ///
    /// The [`NetError`] that says what is wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Net, NetError> {
        let start = &bytes[..bytes.len().min(MAGIC.len())];
        if start != &MAGIC[..start.len()] {
            return Err(NetError::BadMagic {
                found: start.to_vec(),
            });
        }
        let truncated = NetError::Truncated {
            found: bytes.len(),
            expected: FILE_LEN,
        };
        if bytes.len() < HEADER_LEN {
            return Err(truncated);
        }
        let mut reader = Reader {
            bytes,
            at: MAGIC.len(),
        };
        let version = reader.u32();
        if version != VERSION {
            return Err(NetError::UnsupportedVersion {
                found: version,
                expected: VERSION,
            });
        }
        for (field, expected) in ARCHITECTURE {
            let found = reader.u32();
            if found != expected {
                return Err(NetError::WrongArchitecture {
                    field,
                    found,
                    expected,
                });
            }
        }
        if bytes.len() < FILE_LEN {
            return Err(truncated);
        }
        if bytes.len() > FILE_LEN {
            return Err(NetError::TrailingBytes {
                found: bytes.len(),
                expected: FILE_LEN,
            });
        }
        let (body, trailer) = bytes.split_at(FILE_LEN - 4);
        let stored = u32::from_le_bytes(trailer.try_into().expect("4 bytes are left"));
        let computed = crc32(body);
        if stored != computed {
            return Err(NetError::ChecksumMismatch { stored, computed });
        }
        let mut w1 = Net::zero_first_layer();
        for col in w1.iter_mut() {
            reader.column(col);
        }
        let mut b1 = Column::ZERO;
        reader.column(&mut b1);
        let mut w2 = [Column::ZERO; 2];
        for half in &mut w2 {
            reader.column(half);
        }
        let b2 = reader.i32();
        debug_assert_eq!(reader.at, FILE_LEN - 4);
        Net::new(w1, b1, w2, b2)
    }

    /// Reads a net file.
    ///
    /// # Errors
    ///
    /// [`NetError::Io`] when the file cannot be read, else as
    /// [`Net::from_bytes`].
    pub fn load(path: &Path) -> Result<Net, NetError> {
        let bytes = std::fs::read(path).map_err(|e| NetError::Io {
            path: path.to_owned(),
            reason: e.to_string(),
        })?;
        Net::from_bytes(&bytes)
    }

    /// The net as a net file ([`FILE_LEN`] bytes).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(FILE_LEN);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        for (_, value) in ARCHITECTURE {
            out.extend_from_slice(&value.to_le_bytes());
        }
        let columns = self
            .first_layer()
            .iter()
            .chain([self.biases()])
            .chain(self.output_weights());
        for col in columns {
            for w in col.0 {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        out.extend_from_slice(&self.output_bias().to_le_bytes());
        let crc = crc32(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        debug_assert_eq!(out.len(), FILE_LEN);
        out
    }
}
