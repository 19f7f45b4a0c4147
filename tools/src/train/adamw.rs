//! [`AdamW`]: Adam with decoupled weight decay and bias correction, over
//! every weight of the net, dense (a weight whose input was in no position
//! of the batch still decays and keeps its momentum), followed by the clip
//! to the quantisation range ([`super::model::Model::clip`]).
//!
//! ```text
//! m ← β1·m + (1 − β1)·g          v ← β2·v + (1 − β2)·g²
//! w ← w − lr · ( m/(1 − β1^t) / (√(v/(1 − β2^t)) + ε) + wd · w )
//! ```

use rayon::prelude::*;

/// The decay of the mean gradient.
pub const BETA1: f32 = 0.9;
/// The decay of the mean squared gradient.
pub const BETA2: f32 = 0.999;
/// The guard against dividing by zero.
pub const EPSILON: f32 = 1e-8;

/// Weights per parallel work item.
const CHUNK: usize = 16_384;

/// The optimiser's state: the two moments of every weight and the steps
/// taken.
#[derive(Clone, Debug, PartialEq)]
pub struct AdamW {
    /// The mean gradient (first moment), per weight.
    pub m: Vec<f32>,
    /// The mean squared gradient (second moment), per weight.
    pub v: Vec<f32>,
    /// Steps taken (`t`).
    pub steps: u64,
}

impl AdamW {
    /// A fresh optimiser for `n` weights.
    pub fn new(n: usize) -> AdamW {
        AdamW {
            m: vec![0.0; n],
            v: vec![0.0; n],
            steps: 0,
        }
    }

    /// One step on `params` with the gradient `grad`, learning rate `lr`
    /// and weight decay `wd`.
    pub fn step(&mut self, params: &mut [f32], grad: &[f32], lr: f32, wd: f32) {
        debug_assert!(params.len() == grad.len() && grad.len() == self.m.len());
        self.steps += 1;
        // In f64: β2^t for a large t loses its digits in f32.
        let t = self.steps as i32;
        let correct1 = (1.0 - f64::from(BETA1).powi(t)) as f32;
        let correct2 = (1.0 - f64::from(BETA2).powi(t)) as f32;
        params
            .par_chunks_mut(CHUNK)
            .zip(grad.par_chunks(CHUNK))
            .zip(self.m.par_chunks_mut(CHUNK))
            .zip(self.v.par_chunks_mut(CHUNK))
            .for_each(|(((w, g), m), v)| {
                for (((w, &g), m), v) in w.iter_mut().zip(g).zip(m).zip(v) {
                    *m = BETA1 * *m + (1.0 - BETA1) * g;
                    *v = BETA2 * *v + (1.0 - BETA2) * g * g;
                    let m_hat = *m / correct1;
                    let v_hat = *v / correct2;
                    *w -= lr * (m_hat / (v_hat.sqrt() + EPSILON) + wd * *w);
                }
            });
    }
}
