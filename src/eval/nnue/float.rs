//! [`FloatNet`]: the net in f32, of any width, with the exact float forward
//! pass the quantised net approximates, and its quantisation into a net
//! the engine plays ([`AnyNet`]). The trainer learns a `FloatNet` and
//! exports it through [`FloatNet::quantise`]; the tests measure the
//! quantised net against it.

use shakmaty::{Board, Color};

use super::any::{AnyNet, WidthFn, at_width};
use super::arch::{INPUTS, Layout, OUTPUT_WEIGHT_LIMIT, QA, QB, SCALE, feature_seen};
use super::column::Column;
use super::error::NetError;
use super::net::Net;

/// The activation in float: `clamp(x, 0, 1)²`.
#[inline]
pub fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

/// A net with f32 weights, shaped as [`Net`], `hidden` neurons wide (a
/// run-time value: the width is checked when the net is quantised).
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    /// Hidden neurons per perspective.
    pub hidden: usize,
    /// How the perspectives see the board.
    pub layout: Layout,
    /// First layer, feature-major: `w1[f * hidden..(f + 1) * hidden]` is
    /// the weights of input `f`.
    pub w1: Vec<f32>,
    /// First layer's biases.
    pub b1: Vec<f32>,
    /// Output weights: the side to move's half, then the other side's.
    pub w2: [Vec<f32>; 2],
    /// Output bias.
    pub b2: f32,
}

impl FloatNet {
    /// A net `hidden` wide with every weight zero.
    pub fn zeroed(hidden: usize, layout: Layout) -> FloatNet {
        FloatNet {
            hidden,
            layout,
            w1: vec![0.0; INPUTS * hidden],
            b1: vec![0.0; hidden],
            w2: [vec![0.0; hidden], vec![0.0; hidden]],
            b2: 0.0,
        }
    }

    /// The first-layer weights of input `f`.
    pub fn row(&self, f: usize) -> &[f32] {
        &self.w1[f * self.hidden..(f + 1) * self.hidden]
    }

    /// The hidden layer before activation for `perspective`: `b1` plus the
    /// first-layer weights of every piece as that side sees it.
    pub fn hidden(&self, board: &Board, perspective: Color) -> Vec<f32> {
        let orientation = self.layout.orientation_on(perspective, board);
        let mut acc = self.b1.clone();
        for (sq, piece) in board {
            let w = self.row(feature_seen(perspective, orientation, piece, sq));
            for (a, w) in acc.iter_mut().zip(w) {
                *a += w;
            }
        }
        acc
    }

    /// The output from the hidden layers of the side to move (`us`) and
    /// of the other side (`them`), in units of [`SCALE`] centipawns:
    /// `Σ screlu(us) · W2[0] + Σ screlu(them) · W2[1] + b2`.
    pub fn output(&self, us: &[f32], them: &[f32]) -> f32 {
        let half = |acc: &[f32], w: &[f32]| -> f32 {
            acc.iter().zip(w).map(|(&a, &w)| screlu(a) * w).sum()
        };
        half(us, &self.w2[0]) + half(them, &self.w2[1]) + self.b2
    }

    /// The evaluation in centipawns from the side to move's view (not
    /// rounded): the output times [`SCALE`].
    pub fn evaluate(&self, board: &Board, stm: Color) -> f32 {
        let us = self.hidden(board, stm);
        let them = self.hidden(board, !stm);
        self.output(&us, &them) * SCALE as f32
    }

    /// The quantised net: `W1`, `b1` as `round(w · QA)`, `W2` as
    /// `round(w · QB)`, `b2` as `round(b · QA · QB)`. Values that do not
    /// fit are clamped to the nearest that does (i16, ±127 for `W2`, i32);
    /// a net trained with the weight clip never needs it.
    ///
    /// # Errors
    ///
    /// [`NetError::UnsupportedWidth`] for a width the engine does not play.
    pub fn quantise(&self) -> Result<AnyNet, NetError> {
        /// [`FloatNet::quantise_to`] at the width of the dispatch.
        struct Quantise<'a>(&'a FloatNet);

        impl WidthFn for Quantise<'_> {
            type Output = AnyNet;

            fn call<const H: usize>(self) -> AnyNet
            where
                AnyNet: From<Net<H>>,
            {
                AnyNet::from(self.0.quantise_to::<H>())
            }
        }

        at_width(self.hidden, Quantise(self)).ok_or(NetError::UnsupportedWidth {
            found: u32::try_from(self.hidden).unwrap_or(u32::MAX),
        })
    }

    /// [`FloatNet::quantise`] into a net `H` wide.
    ///
    /// # Panics
    ///
    /// When the net is not `H` wide.
    pub fn quantise_to<const H: usize>(&self) -> Net<H> {
        assert_eq!(self.hidden, H, "quantising a net into another width");
        let round = |x: f32, scale: i32| (f64::from(x) * f64::from(scale)).round();
        // `as` saturates (and sends NaN to 0).
        let column = |row: &[f32], scale: i32, limit: i16| {
            let mut col = Column::<H>::ZERO;
            for (q, &w) in col.0.iter_mut().zip(row) {
                *q = (round(w, scale) as i16).clamp(-limit, limit);
            }
            col
        };
        let mut w1 = Net::zero_first_layer();
        for (col, row) in w1.iter_mut().zip(self.w1.chunks_exact(H)) {
            *col = column(row, QA, i16::MAX);
        }
        let b1 = column(&self.b1, QA, i16::MAX);
        let w2 = [
            column(&self.w2[0], QB, OUTPUT_WEIGHT_LIMIT),
            column(&self.w2[1], QB, OUTPUT_WEIGHT_LIMIT),
        ];
        let b2 = round(self.b2, QA * QB) as i32;
        Net::new(w1, b1, w2, b2, self.layout).expect("output weights were clamped to the limit")
    }
}
