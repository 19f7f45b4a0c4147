//! [`Column`]: `HIDDEN` i16 values on a 64-byte boundary. It is the type of
//! a first-layer weight column (the weights of one input), of the hidden
//! biases, of each half of the output weights and of each perspective of
//! an accumulator, so that the SIMD kernels read and write whole cache
//! lines.

use super::arch::HIDDEN;

/// `HIDDEN` i16 values, aligned for the widest SIMD registers (a cache
/// line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Column(pub [i16; HIDDEN]);

impl Column {
    /// All zeros.
    pub const ZERO: Column = Column([0; HIDDEN]);
}

impl Default for Column {
    fn default() -> Self {
        Column::ZERO
    }
}
