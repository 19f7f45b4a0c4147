//! [`FloatNet`]: the net in f32, with the exact float forward pass the
//! quantised net approximates, and its quantisation into a [`Net`]. The
//! trainer learns a `FloatNet` and exports it through [`FloatNet::quantise`];
//! the tests measure the quantised net against it.

use shakmaty::{Board, Color};

use super::arch::{HIDDEN, INPUTS, OUTPUT_WEIGHT_LIMIT, QA, QB, SCALE, feature};
use super::column::Column;
use super::net::Net;

/// The activation in float: `clamp(x, 0, 1)²`.
#[inline]
pub fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

/// A net with f32 weights, shaped as [`Net`].
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    /// First layer, feature-major: `w1[f]` is the weights of input `f`.
    pub w1: Box<[[f32; HIDDEN]; INPUTS]>,
    /// First layer's biases.
    pub b1: [f32; HIDDEN],
    /// Output weights: the side to move's half, then the other side's.
    pub w2: [[f32; HIDDEN]; 2],
    /// Output bias.
    pub b2: f32,
}

impl FloatNet {
    /// A net with every weight zero.
    pub fn zeroed() -> FloatNet {
        FloatNet {
            w1: vec![[0.0; HIDDEN]; INPUTS]
                .into_boxed_slice()
                .try_into()
                .expect("the vector holds exactly INPUTS rows"),
            b1: [0.0; HIDDEN],
            w2: [[0.0; HIDDEN]; 2],
            b2: 0.0,
        }
    }

    /// The hidden layer before activation for `perspective`: `b1` plus the
    /// first-layer weights of every piece as that side sees it.
    pub fn hidden(&self, board: &Board, perspective: Color) -> [f32; HIDDEN] {
        let mut acc = self.b1;
        for (sq, piece) in board {
            let w = &self.w1[feature(perspective, piece, sq)];
            for (a, w) in acc.iter_mut().zip(w) {
                *a += w;
            }
        }
        acc
    }

    /// The output from the hidden layers of the side to move (`us`) and
    /// of the other side (`them`), in units of [`SCALE`] centipawns:
    /// `Σ screlu(us) · W2[0] + Σ screlu(them) · W2[1] + b2`.
    pub fn output(&self, us: &[f32; HIDDEN], them: &[f32; HIDDEN]) -> f32 {
        let half = |acc: &[f32; HIDDEN], w: &[f32; HIDDEN]| -> f32 {
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
    pub fn quantise(&self) -> Net {
        let round = |x: f32, scale: i32| (f64::from(x) * f64::from(scale)).round();
        // `as` saturates (and sends NaN to 0).
        let column = |row: &[f32; HIDDEN], scale: i32, limit: i16| {
            let mut col = Column::ZERO;
            for (q, &w) in col.0.iter_mut().zip(row) {
                *q = (round(w, scale) as i16).clamp(-limit, limit);
            }
            col
        };
        let mut w1 = Net::zero_first_layer();
        for (col, row) in w1.iter_mut().zip(self.w1.iter()) {
            *col = column(row, QA, i16::MAX);
        }
        let b1 = column(&self.b1, QA, i16::MAX);
        let w2 = self.w2.map(|row| column(&row, QB, OUTPUT_WEIGHT_LIMIT));
        let b2 = round(self.b2, QA * QB) as i32;
        Net::new(w1, b1, w2, b2).expect("output weights were clamped to the limit")
    }
}
