//! The net file: reading it (every check of the format, a typed error for
//! each way a file can be wrong, never a panic) and writing it.
//!
//! Little-endian throughout (docs/nnue.md has the byte map). Version 2,
//! the one written:
//!
//! ```text
//! offset  size            field
//!      0  8               magic "SHEARSNN"
//!      8  4               format version (2)
//!     12  4               inputs (768)
//!     16  4               hidden neurons H (32, 64, 128, 256 or 512)
//!     20  4               output buckets (1)
//!     24  4               activation (1 = SCReLU)
//!     28  4               QA (255)
//!     32  4               QB (64)
//!     36  4               SCALE (400)
//!     40  4               input layout (0 plain, 1 king-mirrored)
//!     44  768 * H * 2     W1, i16, feature-major (the H weights of feature 0, then 1, ...)
//!      …  H * 2           b1, i16
//!      …  2 * H * 2       W2, i16 (the side to move's half, then the other side's)
//!      …  4               b2, i32
//!      …  4               CRC-32 (IEEE) of everything before it
//! ```
//!
//! Version 1 (the first nets) is the same without the layout field: its
//! weights start at offset 40 and its layout is plain. It is read, never
//! written.

use std::io::Read;
use std::path::Path;

use super::any::{AnyNet, WidthFn, at_width};
use super::arch::{
    ACTIVATION_SCRELU, BUCKETS, INPUTS, Layout, QA, QB, SCALE, WIDTHS, is_supported_width,
};
use super::column::Column;
use super::crc::crc32;
use super::error::NetError;
use super::net::Net;

/// The first 8 bytes of every net file.
pub const MAGIC: [u8; 8] = *b"SHEARSNN";

/// The format version this engine writes (it reads 1 and 2).
pub const VERSION: u32 = 2;

/// The first version, without the layout field.
pub const VERSION_1: u32 = 1;

/// Size of the header this engine writes: the magic, the version, seven
/// architecture fields and the layout.
pub const HEADER_LEN: usize = header_len(VERSION);

/// Size of the header of a file of `version` (1 or 2).
pub const fn header_len(version: u32) -> usize {
    if version == VERSION_1 {
        8 + 8 * 4
    } else {
        8 + 9 * 4
    }
}

/// Size of the weights of a net `hidden` wide: W1, b1, W2 (i16) and b2
/// (i32).
pub const fn payload_len(hidden: usize) -> usize {
    (INPUTS * hidden + hidden + 2 * hidden) * 2 + 4
}

/// Size of a whole net file, `hidden` wide, as this engine writes it.
pub const fn file_len(hidden: usize) -> usize {
    HEADER_LEN + payload_len(hidden) + 4
}

/// The largest net file this engine reads (the widest net, version 2).
pub const MAX_FILE_LEN: usize = file_len(WIDTHS[WIDTHS.len() - 1]);

/// The header fields after the version, with the values this engine
/// plays, in file order (`hidden` is checked against [`WIDTHS`]).
const ARCHITECTURE: [(&str, Option<u32>); 7] = [
    ("inputs", Some(INPUTS as u32)),
    ("hidden", None),
    ("buckets", Some(BUCKETS as u32)),
    ("activation", Some(ACTIVATION_SCRELU)),
    ("QA", Some(QA as u32)),
    ("QB", Some(QB as u32)),
    ("SCALE", Some(SCALE as u32)),
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

    fn column<const H: usize>(&mut self, col: &mut Column<H>) {
        for w in &mut col.0 {
            *w = i16::from_le_bytes(self.take());
        }
    }

    /// The weights of a net `H` wide (the length was checked).
    fn net<const H: usize>(&mut self, layout: Layout) -> Result<Net<H>, NetError> {
        let mut w1 = Net::zero_first_layer();
        for col in w1.iter_mut() {
            self.column(col);
        }
        let mut b1 = Column::ZERO;
        self.column(&mut b1);
        let mut w2 = [Column::ZERO; 2];
        for half in &mut w2 {
            self.column(half);
        }
        let b2 = self.i32();
        Net::new(w1, b1, w2, b2, layout)
    }
}

/// Reads the weights of a net of the width of the dispatch.
struct ReadNet<'r, 'a> {
    reader: &'r mut Reader<'a>,
    layout: Layout,
}

impl WidthFn for ReadNet<'_, '_> {
    type Output = Result<AnyNet, NetError>;

    fn call<const H: usize>(self) -> Result<AnyNet, NetError>
    where
        AnyNet: From<Net<H>>,
    {
        self.reader.net::<H>(self.layout).map(AnyNet::from)
    }
}

/// What the header says: the version, the width and the layout.
struct Header {
    version: u32,
    hidden: usize,
    layout: Layout,
}

/// Checks the magic and the header, in the order docs/nnue.md gives.
fn read_header(bytes: &[u8]) -> Result<(Header, Reader<'_>), NetError> {
    let start = &bytes[..bytes.len().min(MAGIC.len())];
    if start != &MAGIC[..start.len()] {
        return Err(NetError::BadMagic {
            found: start.to_vec(),
        });
    }
    let truncated = |expected| NetError::Truncated {
        found: bytes.len(),
        expected,
    };
    if bytes.len() < MAGIC.len() + 4 {
        return Err(truncated(HEADER_LEN));
    }
    let mut reader = Reader {
        bytes,
        at: MAGIC.len(),
    };
    let version = reader.u32();
    if version != VERSION_1 && version != VERSION {
        return Err(NetError::UnsupportedVersion {
            found: version,
            expected: VERSION,
        });
    }
    if bytes.len() < header_len(version) {
        return Err(truncated(header_len(version)));
    }
    let mut hidden = 0;
    for (field, expected) in ARCHITECTURE {
        let found = reader.u32();
        match expected {
            None if !is_supported_width(found as usize) => {
                return Err(NetError::UnsupportedWidth { found });
            }
            None => hidden = found as usize,
            Some(expected) if found != expected => {
                return Err(NetError::WrongArchitecture {
                    field,
                    found,
                    expected,
                });
            }
            Some(_) => {}
        }
    }
    let layout = if version == VERSION_1 {
        Layout::Plain
    } else {
        let code = reader.u32();
        Layout::from_code(code).ok_or(NetError::UnknownLayout { found: code })?
    };
    let header = Header {
        version,
        hidden,
        layout,
    };
    Ok((header, reader))
}

impl AnyNet {
    /// Reads a net file's bytes, of either version and any width the
    /// engine plays, checking everything: magic, version, architecture,
    /// width, layout, size, checksum and the output weights' range.
    ///
    /// # Errors
    ///
    /// The [`NetError`] that says what is wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<AnyNet, NetError> {
        let (header, mut reader) = read_header(bytes)?;
        let len = header_len(header.version) + payload_len(header.hidden) + 4;
        if bytes.len() < len {
            return Err(NetError::Truncated {
                found: bytes.len(),
                expected: len,
            });
        }
        if bytes.len() > len {
            return Err(NetError::TrailingBytes {
                found: bytes.len(),
                expected: len,
            });
        }
        let (body, trailer) = bytes.split_at(len - 4);
        let stored = u32::from_le_bytes(trailer.try_into().expect("4 bytes are left"));
        let computed = crc32(body);
        if stored != computed {
            return Err(NetError::ChecksumMismatch { stored, computed });
        }
        let net = at_width(
            header.hidden,
            ReadNet {
                reader: &mut reader,
                layout: header.layout,
            },
        )
        .ok_or(NetError::UnsupportedWidth {
            found: header.hidden as u32,
        })??;
        debug_assert_eq!(reader.at, len - 4);
        Ok(net)
    }

    /// Reads a net file ([`read_file`]) and checks it
    /// ([`AnyNet::from_bytes`]).
    ///
    /// # Errors
    ///
    /// As [`read_file`], then as [`AnyNet::from_bytes`].
    pub fn load(path: &Path) -> Result<AnyNet, NetError> {
        AnyNet::from_bytes(&read_file(path)?)
    }
}

/// The bytes of the net file `path`: the one place a net file is read
/// from disk (`EvalFile`, the tools, the trainer's read-back). At most one
/// byte more than the largest net file ([`MAX_FILE_LEN`]) is read, so that
/// a huge file, or a device that never ends, is refused at once without
/// filling the memory.
///
/// # Errors
///
/// [`NetError::Io`] when the file cannot be opened or read,
/// [`NetError::TooLarge`] when it is larger than any net file.
pub fn read_file(path: &Path) -> Result<Vec<u8>, NetError> {
    let io = |e: std::io::Error| NetError::Io {
        path: path.to_owned(),
        reason: e.to_string(),
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_LEN as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() > MAX_FILE_LEN {
        // A device has no size: what was read is as much as is known.
        let size = std::fs::metadata(path).map_or(0, |m| m.len());
        return Err(NetError::TooLarge {
            found: size.max(bytes.len() as u64),
            limit: MAX_FILE_LEN,
        });
    }
    Ok(bytes)
}

impl<const H: usize> Net<H> {
    /// The net as a net file of version [`VERSION`] ([`file_len`]`(H)`
    /// bytes).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(file_len(H));
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        for (_, value) in ARCHITECTURE {
            out.extend_from_slice(&value.unwrap_or(H as u32).to_le_bytes());
        }
        out.extend_from_slice(&self.layout().code().to_le_bytes());
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
        debug_assert_eq!(out.len(), file_len(H));
        out
    }
}
