//! The net file: reading it (every check of the format, a typed error for
//! each way a file can be wrong, never a panic; the one bounded reader
//! from disk, [`read_file`]) and writing it. A file holds a net and,
//! from version 3 on, the net's score model ([`NetFile`]).
//!
//! Little-endian throughout (docs/nnue.md has the byte map). Version 3,
//! the one written:
//!
//! ```text
//! offset  size            field
//!      0  8               magic "SHEARSNN"
//!      8  4               format version (3)
//!     12  4               inputs (768)
//!     16  4               hidden neurons H (32, 64, 128, 256 or 512)
//!     20  4               output buckets (1)
//!     24  4               activation (1 = SCReLU)
//!     28  4               QA (255)
//!     32  4               QB (64)
//!     36  4               SCALE (400)
//!     40  4               input layout (0 plain, 1 king-mirrored)
//!     44  4               score model (0 none, 1 win/draw/loss by material)
//!     48  8 * 8           its coefficients, f64: a(t) then b(t), highest power first (0 for none)
//!    112  768 * H * 2     W1, i16, feature-major (the H weights of feature 0, then 1, ...)
//!      …  H * 2           b1, i16
//!      …  2 * H * 2       W2, i16 (the side to move's half, then the other side's)
//!      …  4               b2, i32
//!      …  4               CRC-32 (IEEE) of everything before it
//! ```
//!
//! Version 2 is the same without the score model (its weights start at
//! offset 44), version 1 (the first nets) without the layout field either
//! (offset 40; plain). Both are read, never written: their nets have no
//! score model.

use std::io::Read;
use std::path::Path;

use super::any::{AnyNet, WidthFn, at_width, with_net};
use super::arch::{
    ACTIVATION_SCRELU, BUCKETS, INPUTS, Layout, QA, QB, SCALE, WIDTHS, is_supported_width,
};
use super::column::Column;
use super::crc::crc32;
use super::error::NetError;
use super::net::Net;
use crate::eval::score_model::ScoreModel;

/// The first 8 bytes of every net file.
pub const MAGIC: [u8; 8] = *b"SHEARSNN";

/// The format version this engine writes (it reads 1 to 3).
pub const VERSION: u32 = 3;

/// The first version, without the layout field.
pub const VERSION_1: u32 = 1;

/// The second version, with the layout and without the score model.
pub const VERSION_2: u32 = 2;

/// Size of the header this engine writes: the magic, the version, seven
/// architecture fields, the layout and the score model.
pub const HEADER_LEN: usize = header_len(VERSION);

/// The score model's kind in the file: none.
const NO_MODEL: u32 = 0;
/// The score model's kind in the file: Stockfish's win/draw/loss model by
/// material, its `score cp` normalised ([`ScoreModel`]).
const WDL_BY_MATERIAL: u32 = 1;

/// Size of the header of a file of `version` (1 to 3).
pub const fn header_len(version: u32) -> usize {
    match version {
        VERSION_1 => 8 + 8 * 4,
        VERSION_2 => 8 + 9 * 4,
        _ => 8 + 10 * 4 + 8 * 8,
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

/// The largest net file this engine reads (the widest net, version 3).
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

    fn f64s<const N: usize>(&mut self) -> [f64; N] {
        std::array::from_fn(|_| f64::from_le_bytes(self.take()))
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

/// What the header says: the version, the width, the layout and the
/// score model's kind and coefficients (not yet checked).
struct Header {
    version: u32,
    hidden: usize,
    layout: Layout,
    model: Option<([f64; 4], [f64; 4])>,
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
    if !(VERSION_1..=VERSION).contains(&version) {
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
    let model = if version < VERSION {
        None
    } else {
        let kind = reader.u32();
        let (a, b) = (reader.f64s(), reader.f64s());
        match kind {
            NO_MODEL if a.iter().chain(&b).any(|c| c.to_bits() != 0) => {
                return Err(NetError::StrayScoreModel);
            }
            NO_MODEL => None,
            WDL_BY_MATERIAL => Some((a, b)),
            found => return Err(NetError::UnknownScoreModel { found }),
        }
    };
    let header = Header {
        version,
        hidden,
        layout,
        model,
    };
    Ok((header, reader))
}

/// A net file read and checked: the net, its score model and the version
/// it was read from.
#[derive(Clone, Debug, PartialEq)]
pub struct NetFile {
    /// The weights.
    pub net: AnyNet,
    /// The net's score model (normalised, [`ScoreModel::net`]); `None`
    /// when the file has none (every file before version 3).
    pub model: Option<ScoreModel>,
    /// The format version the file was read from ([`VERSION`] for a file
    /// made here).
    pub version: u32,
}

impl NetFile {
    /// A net and its score model, as a file of this engine's version
    /// would hold them.
    pub fn new(net: AnyNet, model: Option<ScoreModel>) -> NetFile {
        NetFile {
            net,
            model,
            version: VERSION,
        }
    }

    /// Reads a net file's bytes, of any version and any width the engine
    /// plays, checking everything: magic, version, architecture, width,
    /// layout, the score model's kind, size, checksum, the output
    /// weights' range and the score model's coefficients.
    ///
    /// # Errors
    ///
    /// The [`NetError`] that says what is wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<NetFile, NetError> {
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
        let model = match header.model {
            Some((a, b)) => Some(ScoreModel::net(a, b)?),
            None => None,
        };
        Ok(NetFile {
            net,
            model,
            version: header.version,
        })
    }

    /// Reads the net file `path` ([`read_file`]: bounded in size) and
    /// checks it.
    ///
    /// # Errors
    ///
    /// As [`read_file`], then as [`NetFile::from_bytes`].
    pub fn load(path: &Path) -> Result<NetFile, NetError> {
        NetFile::from_bytes(&read_file(path)?)
    }

    /// The file of version [`VERSION`] ([`file_len`] of its width): the
    /// net and its score model (written as normalised: a file's model
    /// always is).
    pub fn to_bytes(&self) -> Vec<u8> {
        with_net!(&self.net, net => write(net, self.model.as_ref()))
    }
}

impl AnyNet {
    /// The net of a net file's bytes ([`NetFile::from_bytes`]), without
    /// its score model.
    ///
    /// # Errors
    ///
    /// As [`NetFile::from_bytes`].
    pub fn from_bytes(bytes: &[u8]) -> Result<AnyNet, NetError> {
        NetFile::from_bytes(bytes).map(|file| file.net)
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
    /// The net as a net file of version [`VERSION`] without a score model
    /// ([`file_len`]`(H)` bytes).
    pub fn to_bytes(&self) -> Vec<u8> {
        write(self, None)
    }
}

/// `net` and `model` as a file of version [`VERSION`].
fn write<const H: usize>(net: &Net<H>, model: Option<&ScoreModel>) -> Vec<u8> {
    let mut out = Vec::with_capacity(file_len(H));
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    for (_, value) in ARCHITECTURE {
        out.extend_from_slice(&value.unwrap_or(H as u32).to_le_bytes());
    }
    out.extend_from_slice(&net.layout().code().to_le_bytes());
    let (kind, coefficients) = match model {
        Some(m) => (WDL_BY_MATERIAL, [m.a, m.b]),
        None => (NO_MODEL, [[0.0; 4]; 2]),
    };
    out.extend_from_slice(&kind.to_le_bytes());
    for c in coefficients.iter().flatten() {
        out.extend_from_slice(&c.to_le_bytes());
    }
    debug_assert_eq!(out.len(), HEADER_LEN);
    let columns = net
        .first_layer()
        .iter()
        .chain([net.biases()])
        .chain(net.output_weights());
    for col in columns {
        for w in col.0 {
            out.extend_from_slice(&w.to_le_bytes());
        }
    }
    out.extend_from_slice(&net.output_bias().to_le_bytes());
    let crc = crc32(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    debug_assert_eq!(out.len(), file_len(H));
    out
}
