//! [`Model`]: the float net being trained, its weights in one flat vector
//! (which the optimiser, the gradient and the checkpoints share), and its
//! forward pass over a sample's active inputs.
//!
//! The layout of the vector, for `H` hidden neurons:
//!
//! ```text
//! [0, 768·H)          W1, feature-major: the H weights of input 0, then of input 1, …
//! [768·H, 769·H)      b1
//! [769·H, 770·H)      W2, the side to move's half
//! [770·H, 771·H)      W2, the other side's half
//! 771·H               b2
//! ```
//!
//! The same shape as the engine's `FloatNet` (docs/nnue.md), the hidden
//! size a run-time value (the tests train tiny nets); a net is exported
//! only at a width the engine plays (`arch::WIDTHS`). The input layout
//! (plain or king-mirrored) is the model's too: it says which inputs a
//! sample activates.

use shears::chess::random::Rng;
use shears::eval::nnue::arch::{INPUTS, Layout, SCALE, WEIGHT_CLIP, is_supported_width};
use shears::eval::nnue::{FloatNet, screlu};

use super::error::TrainError;
use super::sample::{MAX_PIECES, Sample};

/// The first layer's weights start uniform in ±this: about one over the
/// square root of the inputs active at once (up to 32 pieces), so that an
/// accumulator starts near unit spread.
const W1_INIT: f32 = 0.176_776_7; // 1 / sqrt(32)

/// Partial sums of the output's dot product (one AVX-512 register).
const LANES: usize = 16;

/// A net in f32.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    hidden: usize,
    layout: Layout,
    /// Every weight, laid out as the module's documentation says.
    pub params: Vec<f32>,
}

/// Buffers of one forward pass (one per thread).
#[derive(Clone, Debug)]
pub struct Scratch {
    /// The side to move's hidden layer before activation.
    pub us: Vec<f32>,
    /// The other side's.
    pub them: Vec<f32>,
}

impl Scratch {
    /// Buffers for a net of `hidden` neurons.
    pub fn new(hidden: usize) -> Scratch {
        Scratch {
            us: vec![0.0; hidden],
            them: vec![0.0; hidden],
        }
    }
}

/// The weights of a net of `hidden` neurons.
pub fn param_count(hidden: usize) -> usize {
    INPUTS * hidden + 3 * hidden + 1
}

impl Model {
    /// A net with every weight zero.
    pub fn zeroed(hidden: usize) -> Model {
        Model {
            hidden,
            layout: Layout::Plain,
            params: vec![0.0; param_count(hidden)],
        }
    }

    /// A net from its weights (`params.len()` must be
    /// [`param_count`]`(hidden)`).
    pub fn from_params(hidden: usize, params: Vec<f32>) -> Model {
        debug_assert_eq!(params.len(), param_count(hidden));
        Model {
            hidden,
            layout: Layout::Plain,
            params,
        }
    }

    /// This net reading its inputs with `layout` (the constructors make
    /// plain nets).
    pub fn with_layout(self, layout: Layout) -> Model {
        Model { layout, ..self }
    }

    /// How the perspectives see the board.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// The starting net of seed `seed`: first-layer weights uniform in
    /// ±[`W1_INIT`], output weights uniform in ±1/√(2H), biases zero.
    pub fn random(hidden: usize, seed: u64) -> Model {
        let mut rng = Rng::new(seed);
        let mut uniform = |half: f32| {
            let unit = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
            (2.0 * unit - 1.0) * half
        };
        let mut model = Model::zeroed(hidden);
        let w2_init = 1.0 / ((2 * hidden) as f32).sqrt();
        let b1 = model.b1_start();
        for w in &mut model.params[..b1] {
            *w = uniform(W1_INIT);
        }
        let w2 = model.w2_start();
        for w in &mut model.params[w2..w2 + 2 * hidden] {
            *w = uniform(w2_init);
        }
        model
    }

    /// Hidden neurons per side.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Where `b1` starts in [`Model::params`] (`W1` ends).
    pub fn b1_start(&self) -> usize {
        INPUTS * self.hidden
    }

    /// Where `W2` starts.
    pub fn w2_start(&self) -> usize {
        self.b1_start() + self.hidden
    }

    /// Where `b2` is.
    pub fn b2_index(&self) -> usize {
        self.w2_start() + 2 * self.hidden
    }

    /// The first-layer weights of input `f`.
    #[inline]
    pub fn row(&self, f: u16) -> &[f32] {
        let start = usize::from(f) * self.hidden;
        &self.params[start..start + self.hidden]
    }

    /// The first layer's biases.
    pub fn b1(&self) -> &[f32] {
        &self.params[self.b1_start()..self.w2_start()]
    }

    /// The output weights of the side to move (`them = false`) or of the
    /// other side.
    pub fn w2(&self, them: bool) -> &[f32] {
        let start = self.w2_start() + usize::from(them) * self.hidden;
        &self.params[start..start + self.hidden]
    }

    /// The output bias.
    pub fn b2(&self) -> f32 {
        self.params[self.b2_index()]
    }

    /// The hidden layer before activation: `b1` plus the rows of the
    /// active inputs.
    #[inline]
    pub fn accumulate(&self, features: &[u16], acc: &mut [f32]) {
        debug_assert!(features.len() <= MAX_PIECES);
        acc.copy_from_slice(self.b1());
        for &f in features {
            for (a, w) in acc.iter_mut().zip(self.row(f)) {
                *a += w;
            }
        }
    }

    /// The output (units of `SCALE` centipawns) from the two hidden layers.
    #[inline]
    pub fn output(&self, us: &[f32], them: &[f32]) -> f32 {
        // Partial sums in LANES lanes, added up at the end: the compiler
        // keeps a float sum in order, which it cannot vectorise.
        let mut lanes = [0.0f32; LANES];
        for (acc, w) in [(us, self.w2(false)), (them, self.w2(true))] {
            for (a, w) in acc.chunks(LANES).zip(w.chunks(LANES)) {
                for ((sum, &a), &w) in lanes.iter_mut().zip(a).zip(w) {
                    *sum += screlu(a) * w;
                }
            }
        }
        lanes.iter().sum::<f32>() + self.b2()
    }

    /// The evaluation of `sample` in centipawns, side to move's view.
    pub fn evaluate(&self, sample: &Sample, scratch: &mut Scratch) -> f32 {
        let features = sample.features(self.layout);
        self.accumulate(features.us(), &mut scratch.us);
        self.accumulate(features.them(), &mut scratch.them);
        self.output(&scratch.us, &scratch.them) * SCALE as f32
    }

    /// Keeps `W1`, `b1` and `W2` within ±[`WEIGHT_CLIP`], where the
    /// quantised weights fit their integers (`b2` is an i32 in the file and
    /// needs no clip).
    pub fn clip(&mut self) {
        let end = self.b2_index();
        for w in &mut self.params[..end] {
            *w = w.clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
        }
    }

    /// The engine's float net of these weights.
    ///
    /// # Errors
    ///
    /// [`TrainError::WrongHidden`] unless the engine plays nets of this
    /// width.
    pub fn to_float_net(&self) -> Result<FloatNet, TrainError> {
        if !is_supported_width(self.hidden) {
            return Err(TrainError::WrongHidden { given: self.hidden });
        }
        let mut net = FloatNet::zeroed(self.hidden, self.layout);
        net.w1.copy_from_slice(&self.params[..self.b1_start()]);
        net.b1.copy_from_slice(self.b1());
        net.w2[0].copy_from_slice(self.w2(false));
        net.w2[1].copy_from_slice(self.w2(true));
        net.b2 = self.b2();
        Ok(net)
    }
}
