//! The learned evaluation: a perspective net, `(768 → H) × 2 → 1` with
//! SCReLU, `H` any of the widths of `arch::WIDTHS` (the file's), the
//! inputs plain or king-mirrored, quantised to integers, and its
//! accumulators updated move by move (docs/nnue.md: the architecture, the
//! feature index, the quantisation, the file format byte by byte, the
//! tests).
//!
//! | file | what |
//! |---|---|
//! | `arch.rs` | the shape, the widths, the input layouts and the quantisation constants, the feature index |
//! | `column.rs` | an aligned column of `H` i16 values |
//! | `crc.rs` | the CRC-32 of the file ([`crc32`]) |
//! | `net.rs` | the quantised weights of one width ([`Net`]) |
//! | `any.rs` | a net of any width, chosen when read ([`AnyNet`]), and its stack ([`AnyStack`]) |
//! | `file.rs` | the net file: the net and its score model ([`NetFile`]), every check, the one bounded reader ([`read_file`]) |
//! | `error.rs` | why a net is refused ([`NetError`]) |
//! | `float.rs` | the float net, its exact forward pass, its quantisation ([`FloatNet`]) |
//! | `delta.rs` | the pieces a move adds and removes ([`Delta`]) |
//! | `accumulator.rs` | the hidden layer of both perspectives: from scratch, after a move ([`Accumulator`]) |
//! | `output.rs` | the evaluation from the accumulators ([`Net::evaluate`]) |
//! | `stack.rs` | the accumulators of a search, one per ply, brought up to date lazily ([`AccumulatorStack`]) |
//! | `simd/` | the two kernels: scalar, and once for the SIMD registers (AVX2, AVX-512), chosen at compile time |
//!
//! Use, as the search will:
//!
//! ```
//! use shakmaty::{Chess, Position as _};
//! use shears::eval::nnue::arch::Layout;
//! use shears::eval::nnue::{Accumulator, AnyNet, FloatNet, Net};
//!
//! let any: AnyNet = FloatNet::zeroed(256, Layout::Plain).quantise().unwrap(); // or AnyNet::from_bytes(file)?
//! let net = Net::<256>::try_from(any).unwrap();
//! let board = Chess::default();
//! let root = Accumulator::refresh(&net, board.board());
//! let m = board.legal_moves()[0];
//! let after = board.clone().play(m).unwrap();
//! let child = root.after_move(&net, board.turn(), m, after.board()); // or update_into a frame
//! assert_eq!(child, Accumulator::refresh(&net, after.board()));
//! assert_eq!(net.evaluate(&child, after.turn()), 0);
//! ```
//!
//! Not here: choosing between this and the hand-crafted evaluation, the
//! net built into the binary and `EvalFile` (`eval/evaluation.rs`), and
//! the hooks the search calls (`eval/evaluator.rs`, which keeps an
//! [`AnyStack`] per search thread).

mod accumulator;
mod any;
pub mod arch;
mod column;
mod crc;
mod delta;
mod error;
mod file;
mod float;
mod net;
mod output;
mod simd;
mod stack;

#[cfg(test)]
mod tests;

pub use accumulator::Accumulator;
pub use any::{AnyNet, AnyStack};
pub use column::Column;
pub use crc::crc32;
pub use delta::{Delta, Placed};
pub use error::NetError;
pub use file::{
    HEADER_LEN, MAGIC, MAX_FILE_LEN, NetFile, VERSION, VERSION_1, VERSION_2, file_len, header_len,
    payload_len, read_file,
};
pub use float::{FloatNet, screlu};
pub use net::Net;
pub use simd::PATH as SIMD_PATH;
pub use stack::{AccumulatorStack, REFRESH_DISTANCE};
