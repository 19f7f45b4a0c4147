//! The learned evaluation: a perspective net, `(768 → 256) × 2 → 1` with
//! SCReLU, quantised to integers, and its accumulators updated move by
//! move (docs/nnue.md: the architecture, the feature index, the
//! quantisation, the file format byte by byte, the tests).
//!
//! | file | what |
//! |---|---|
//! | `arch.rs` | the shape and the quantisation constants, the feature index |
//! | `column.rs` | an aligned column of `HIDDEN` i16 values |
//! | `crc.rs` | the CRC-32 of the file ([`crc32`]) |
//! | `net.rs` | the quantised weights ([`Net`]) |
//! | `file.rs` | reading and writing the net file, every check |
//! | `error.rs` | why a net is refused ([`NetError`]) |
//! | `float.rs` | the float net, its exact forward pass, its quantisation ([`FloatNet`]) |
//! | `delta.rs` | the pieces a move adds and removes ([`Delta`]) |
//! | `accumulator.rs` | the hidden layer of both perspectives: from scratch, after a move ([`Accumulator`]) |
//! | `output.rs` | the evaluation from the accumulators ([`Net::evaluate`]) |
//! | `stack.rs` | the accumulators of a search, one per ply, brought up to date lazily ([`AccumulatorStack`]) |
//! | `simd/` | the two kernels, scalar, AVX2 and AVX-512, chosen at compile time |
//!
//! Use, as the search will:
//!
//! ```
//! use shakmaty::{Chess, Position as _};
//! use shears::eval::nnue::{Accumulator, FloatNet, Net};
//!
//! let net: Net = FloatNet::zeroed().quantise(); // or Net::from_bytes(file)?
//! let board = Chess::default();
//! let root = Accumulator::refresh(&net, board.board());
//! let m = board.legal_moves()[0];
//! let child = root.after_move(&net, board.turn(), m); // or update_into a frame
//! let after = board.clone().play(m).unwrap();
//! assert_eq!(child, Accumulator::refresh(&net, after.board()));
//! assert_eq!(net.evaluate(&child, after.turn()), 0);
//! ```
//!
//! Not here: choosing between this and the hand-crafted evaluation, the
//! net built into the binary and `EvalFile` (`eval/evaluation.rs`), and
//! the hooks the search calls (`eval/evaluator.rs`, which keeps an
//! [`AccumulatorStack`] per search thread).

mod accumulator;
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
pub use column::Column;
pub use crc::crc32;
pub use delta::{Delta, Placed};
pub use error::NetError;
pub use file::{FILE_LEN, HEADER_LEN, MAGIC, PAYLOAD_LEN, VERSION};
pub use float::{FloatNet, screlu};
pub use net::Net;
pub use simd::PATH as SIMD_PATH;
pub use stack::{AccumulatorStack, REFRESH_DISTANCE};
