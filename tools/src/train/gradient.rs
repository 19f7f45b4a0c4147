//! The gradient of the loss, sparse in the first layer, and the loss of a
//! set of positions.
//!
//! One position: the forward pass touches only the rows of `W1` of the
//! ~30 active inputs of each side, and so does the backward pass (the
//! derivative by a row is the derivative by its side's hidden layer; the
//! rows of inactive inputs get nothing). A batch is split into one slice
//! per thread; each thread sums its positions' gradients into a [`Worker`]
//! of its own (a dense vector of every weight: 786 KB of `W1` at `H` =
//! 256, cheap to clear and to add up once a batch), and the workers are
//! added up in a fixed order, so that the same batch on the same number of
//! threads always gives the same gradient.

use rayon::prelude::*;

use shears::eval::nnue::screlu;

use super::loss::Target;
use super::model::{Model, Scratch, param_count};
use super::sample::Sample;

/// Positions per work item when only the loss is computed.
const LOSS_CHUNK: usize = 4096;

/// One thread's share of a batch: its gradient and its buffers.
#[derive(Clone, Debug)]
pub struct Worker {
    /// The summed gradient, laid out as [`Model::params`].
    pub grad: Vec<f32>,
    /// The summed loss.
    pub loss: f64,
    scratch: Scratch,
    d_us: Vec<f32>,
    d_them: Vec<f32>,
}

/// The derivative of `screlu` at `x`.
#[inline]
fn screlu_slope(x: f32) -> f32 {
    if x > 0.0 && x < 1.0 { 2.0 * x } else { 0.0 }
}

impl Worker {
    /// A worker for a net of `hidden` neurons.
    pub fn new(hidden: usize) -> Worker {
        Worker {
            grad: vec![0.0; param_count(hidden)],
            loss: 0.0,
            scratch: Scratch::new(hidden),
            d_us: vec![0.0; hidden],
            d_them: vec![0.0; hidden],
        }
    }

    /// Forgets the sums.
    pub fn clear(&mut self) {
        self.grad.fill(0.0);
        self.loss = 0.0;
    }

    /// Adds the loss of `sample` and `weight` times its gradient.
    pub fn add(&mut self, model: &Model, sample: &Sample, target: &Target, weight: f32) {
        let hidden = model.hidden();
        let features = sample.features(model.layout());
        let Scratch { us, them } = &mut self.scratch;

        // Forward: the two hidden layers, the output, the loss.
        model.accumulate(features.us(), us);
        model.accumulate(features.them(), them);
        let out = model.output(us, them);
        let (loss, slope) = target.loss(out, target.of(sample));
        self.loss += f64::from(loss);
        let g = slope * weight;

        // Output layer.
        let w2 = model.w2_start();
        let (grad_w2_us, grad_w2_them) = self.grad[w2..w2 + 2 * hidden].split_at_mut(hidden);
        for (d, &a) in grad_w2_us.iter_mut().zip(us.iter()) {
            *d += g * screlu(a);
        }
        for (d, &a) in grad_w2_them.iter_mut().zip(them.iter()) {
            *d += g * screlu(a);
        }
        self.grad[model.b2_index()] += g;

        // Back through the activation to each hidden layer.
        for ((d, &a), &w) in self.d_us.iter_mut().zip(us.iter()).zip(model.w2(false)) {
            *d = g * w * screlu_slope(a);
        }
        for ((d, &a), &w) in self.d_them.iter_mut().zip(them.iter()).zip(model.w2(true)) {
            *d = g * w * screlu_slope(a);
        }

        // First layer: the biases, and the rows of the active inputs only.
        let b1 = model.b1_start();
        for ((d, &u), &t) in self.grad[b1..b1 + hidden]
            .iter_mut()
            .zip(&self.d_us)
            .zip(&self.d_them)
        {
            *d += u + t;
        }
        for (features, delta) in [(features.us(), &self.d_us), (features.them(), &self.d_them)] {
            for &f in features {
                let start = usize::from(f) * hidden;
                for (d, &x) in self.grad[start..start + hidden].iter_mut().zip(delta) {
                    *d += x;
                }
            }
        }
    }
}

/// The gradient of the mean loss over the positions `batch` of `samples`,
/// left in `workers[0].grad`; returns the summed loss. The batch is split
/// into `workers.len()` slices, one per worker, run in parallel.
pub fn batch_gradient(
    model: &Model,
    samples: &[Sample],
    batch: &[u32],
    target: &Target,
    workers: &mut [Worker],
) -> f64 {
    debug_assert!(!workers.is_empty() && !batch.is_empty());
    let weight = 1.0 / batch.len() as f32;
    let slice = batch.len().div_ceil(workers.len());
    workers.par_iter_mut().enumerate().for_each(|(i, worker)| {
        worker.clear();
        let start = (i * slice).min(batch.len());
        let end = (start + slice).min(batch.len());
        for &index in &batch[start..end] {
            worker.add(model, &samples[index as usize], target, weight);
        }
    });
    let (first, rest) = workers.split_at_mut(1);
    let total = &mut first[0];
    for worker in rest.iter() {
        total
            .grad
            .par_chunks_mut(LOSS_CHUNK)
            .zip(worker.grad.par_chunks(LOSS_CHUNK))
            .for_each(|(t, w)| {
                for (t, w) in t.iter_mut().zip(w) {
                    *t += w;
                }
            });
        total.loss += worker.loss;
    }
    total.loss
}

/// The mean loss over the positions `indices` of `samples` against each of
/// `targets`, in parallel (summed in a fixed order: the same every run).
pub fn mean_losses<const N: usize>(
    model: &Model,
    samples: &[Sample],
    indices: &[u32],
    targets: [Target; N],
) -> [f64; N] {
    let sums: Vec<[f64; N]> = indices
        .par_chunks(LOSS_CHUNK)
        .map(|chunk| {
            let mut scratch = Scratch::new(model.hidden());
            let mut sums = [0.0; N];
            for &i in chunk {
                let sample = &samples[i as usize];
                let features = sample.features(model.layout());
                model.accumulate(features.us(), &mut scratch.us);
                model.accumulate(features.them(), &mut scratch.them);
                let out = model.output(&scratch.us, &scratch.them);
                for (sum, target) in sums.iter_mut().zip(&targets) {
                    *sum += f64::from(target.loss(out, target.of(sample)).0);
                }
            }
            sums
        })
        .collect();
    let n = indices.len().max(1) as f64;
    let mut total = [0.0; N];
    for s in sums {
        for (t, s) in total.iter_mut().zip(s) {
            *t += s;
        }
    }
    total.map(|t| t / n)
}
