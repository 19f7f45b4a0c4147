//! [`Column`]: `H` i16 values on a 64-byte boundary, `H` the net's hidden
//! width. It is the type of a first-layer weight column (the weights of one
//! input), of the hidden biases, of each half of the output weights and of
//! each perspective of an accumulator, so that the SIMD kernels read and
//! write whole cache lines.

/// `H` i16 values, aligned for the widest SIMD registers (a cache line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Column<const H: usize>(pub [i16; H]);

impl<const H: usize> Column<H> {
    /// All zeros.
    pub const ZERO: Column<H> = Column([0; H]);
}

impl<const H: usize> Default for Column<H> {
    fn default() -> Self {
        Column::ZERO
    }
}
