//! [`Net`]: the quantised weights the engine evaluates with, as the net
//! file stores them (`file.rs` reads and writes them, `float.rs` makes
//! them from float weights), for one hidden width `H`; [`AnyNet`]
//! (`any.rs`) holds a net of any width the engine plays.
//!
//! The first layer is kept feature-major, one aligned [`Column`] of `H`
//! weights per input, so that a move adds and removes whole columns. The
//! weights live on the heap (about 390 KB at `H` = 256).
//!
//! [`AnyNet`]: super::AnyNet

use super::arch::{INPUTS, Layout, OUTPUT_WEIGHT_LIMIT};
use super::column::Column;
use super::error::NetError;

/// A quantised net of `H` hidden neurons per perspective: `W1` and `b1`
/// scaled by `QA`, `W2` by `QB`, `b2` by `QA · QB` (see docs/nnue.md), and
/// the input layout its first layer reads.
///
/// Every output weight lies within ±[`OUTPUT_WEIGHT_LIMIT`]: the
/// constructors refuse anything else, and the output layer relies on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Net<const H: usize> {
    /// First layer: the column of each input (feature-major).
    w1: Box<[Column<H>; INPUTS]>,
    /// First layer's biases.
    b1: Column<H>,
    /// Output weights: the side to move's half, then the other side's.
    w2: [Column<H>; 2],
    /// Output bias.
    b2: i32,
    /// How the perspectives see the board.
    layout: Layout,
}

impl<const H: usize> Net<H> {
    /// A net from its quantised weights: `w1` feature-major, `w2` the side
    /// to move's half first, read with `layout`.
    ///
    /// # Errors
    ///
    /// [`NetError::OutputWeightOutOfRange`] when an output weight lies
    /// outside ±[`OUTPUT_WEIGHT_LIMIT`].
    pub fn new(
        w1: Box<[Column<H>; INPUTS]>,
        b1: Column<H>,
        w2: [Column<H>; 2],
        b2: i32,
        layout: Layout,
    ) -> Result<Net<H>, NetError> {
        let flat = w2.iter().flat_map(|half| half.0.iter());
        if let Some((index, &value)) = flat
            .enumerate()
            .find(|(_, w)| w.unsigned_abs() > OUTPUT_WEIGHT_LIMIT.unsigned_abs())
        {
            return Err(NetError::OutputWeightOutOfRange { index, value });
        }
        Ok(Net {
            w1,
            b1,
            w2,
            b2,
            layout,
        })
    }

    /// The first layer with every weight zero (to be filled in).
    pub fn zero_first_layer() -> Box<[Column<H>; INPUTS]> {
        vec![Column::ZERO; INPUTS]
            .into_boxed_slice()
            .try_into()
            .expect("the vector holds exactly INPUTS columns")
    }

    /// The first-layer weights of input `feature` (`0..INPUTS`).
    ///
    /// # Panics
    ///
    /// When `feature` is not below `INPUTS`.
    #[inline]
    pub fn column(&self, feature: usize) -> &Column<H> {
        &self.w1[feature]
    }

    /// The first layer, feature-major.
    pub fn first_layer(&self) -> &[Column<H>; INPUTS] {
        &self.w1
    }

    /// The first layer's biases.
    #[inline]
    pub fn biases(&self) -> &Column<H> {
        &self.b1
    }

    /// The output weights: the side to move's half, then the other side's.
    #[inline]
    pub fn output_weights(&self) -> &[Column<H>; 2] {
        &self.w2
    }

    /// The output bias.
    #[inline]
    pub fn output_bias(&self) -> i32 {
        self.b2
    }

    /// How the perspectives see the board.
    #[inline]
    pub fn layout(&self) -> Layout {
        self.layout
    }
}
