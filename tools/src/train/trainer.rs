//! [`Trainer`]: the net, its optimiser and the epochs done, and one epoch
//! of training: the training positions in a seeded shuffled order, cut
//! into batches, one AdamW step (then the clip) per batch at the rate the
//! schedule gives.
//!
//! Everything a run depends on is in [`Settings`] and the epoch number: the
//! order of epoch `e` is drawn from the seed and `e` alone, and the
//! schedule is a function of the position in the run, so a run resumed
//! from a checkpoint takes the same steps as one straight through (on the
//! same number of threads, which fixes how each batch's gradient is
//! summed).

use shears::chess::random::Rng;
use shears::eval::nnue::arch::Layout;

use super::adamw::AdamW;
use super::gradient::{Worker, batch_gradient};
use super::loss::Target;
use super::model::{Model, param_count};
use super::sample::Sample;
use super::schedule::Schedule;

/// What shapes a training run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Hidden neurons per side.
    pub hidden: usize,
    /// The input layout (`--mirror`: king-mirrored).
    pub layout: Layout,
    /// Epochs of the whole run.
    pub epochs: u32,
    /// Positions per step.
    pub batch_size: usize,
    /// The base learning rate.
    pub lr: f32,
    /// The decoupled weight decay.
    pub wd: f32,
    /// The loss's target: K and λ.
    pub target: Target,
    /// The learning rate along the run.
    pub schedule: Schedule,
    /// The seed of the starting net and of the shuffles.
    pub seed: u64,
}

impl Settings {
    /// The settings that differ between `self` and `other`, as
    /// `name: self's value → other's`, the number of epochs left out (a
    /// resumed run may go on for longer).
    pub fn differences(&self, other: &Settings) -> Vec<String> {
        let mut out = Vec::new();
        let mut check = |name: &str, a: String, b: String| {
            if a != b {
                out.push(format!("{name} {a} → {b}"));
            }
        };
        check(
            "--hidden",
            self.hidden.to_string(),
            other.hidden.to_string(),
        );
        check(
            "--mirror",
            self.layout.is_mirrored().to_string(),
            other.layout.is_mirrored().to_string(),
        );
        check(
            "--batch-size",
            self.batch_size.to_string(),
            other.batch_size.to_string(),
        );
        check("--lr", self.lr.to_string(), other.lr.to_string());
        check("--wd", self.wd.to_string(), other.wd.to_string());
        check(
            "--scale",
            self.target.scale.to_string(),
            other.target.scale.to_string(),
        );
        check(
            "--lambda",
            self.target.lambda.to_string(),
            other.target.lambda.to_string(),
        );
        check(
            "--schedule",
            self.schedule.describe(),
            other.schedule.describe(),
        );
        check("--seed", self.seed.to_string(), other.seed.to_string());
        out
    }
}

/// The net being trained and where its training is.
#[derive(Clone, Debug)]
pub struct Trainer {
    /// What shapes the run.
    pub settings: Settings,
    /// The net.
    pub model: Model,
    /// The optimiser's state.
    pub adam: AdamW,
    /// Epochs done.
    pub epoch: u32,
    workers: Vec<Worker>,
}

/// What one epoch did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochReport {
    /// The mean loss of the batches, each taken before its step; not a
    /// number when a batch's loss was not (the epoch stopped there).
    pub train_loss: f64,
    /// The loss of the epoch's first batch, before its step.
    pub first_loss: f64,
    /// The learning rate of the last step.
    pub last_rate: f32,
}

impl Trainer {
    /// A fresh run: the starting net of the seed, a fresh optimiser, one
    /// worker per thread of the current rayon pool.
    pub fn new(settings: Settings) -> Trainer {
        let model = Model::random(settings.hidden, settings.seed).with_layout(settings.layout);
        let adam = AdamW::new(model.params.len());
        Trainer::resume(settings, model, adam, 0)
    }

    /// A run that has done `epoch` epochs with these weights and optimiser.
    pub fn resume(settings: Settings, model: Model, adam: AdamW, epoch: u32) -> Trainer {
        debug_assert_eq!(model.params.len(), param_count(settings.hidden));
        let model = model.with_layout(settings.layout);
        let workers = (0..rayon::current_num_threads().max(1))
            .map(|_| Worker::new(settings.hidden))
            .collect();
        Trainer {
            settings,
            model,
            adam,
            epoch,
            workers,
        }
    }

    /// The order in which epoch `epoch` visits the positions `train`: a
    /// Fisher-Yates shuffle drawn from the seed and the epoch alone.
    pub fn order(&self, train: &[u32], epoch: u32) -> Vec<u32> {
        let mix = (u64::from(epoch) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut rng = Rng::new(self.settings.seed ^ mix);
        let mut order = train.to_vec();
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        order
    }

    /// Trains one epoch on the positions `train` of `samples`;
    /// `on_batch` gets the positions done so far in the epoch after each
    /// step. A batch whose loss is not a number ends the epoch before its
    /// step, with that loss as the epoch's.
    pub fn train_epoch(
        &mut self,
        samples: &[Sample],
        train: &[u32],
        on_batch: &mut dyn FnMut(usize),
    ) -> EpochReport {
        let settings = self.settings;
        let order = self.order(train, self.epoch);
        let batches = order.len().div_ceil(settings.batch_size).max(1);
        let (mut loss, mut rate, mut done) = (0.0, settings.lr, 0);
        let mut first_loss = f64::NAN;
        for (b, batch) in order.chunks(settings.batch_size).enumerate() {
            rate = settings.schedule.rate(
                settings.lr,
                self.epoch,
                b as f64 / batches as f64,
                settings.epochs,
            );
            let batch_loss = batch_gradient(
                &self.model,
                samples,
                batch,
                &settings.target,
                &mut self.workers,
            );
            if b == 0 {
                first_loss = batch_loss / batch.len() as f64;
            }
            if !batch_loss.is_finite() {
                self.epoch += 1;
                return EpochReport {
                    train_loss: batch_loss,
                    first_loss,
                    last_rate: rate,
                };
            }
            loss += batch_loss;
            self.adam.step(
                &mut self.model.params,
                &self.workers[0].grad,
                rate,
                settings.wd,
            );
            self.model.clip();
            done += batch.len();
            on_batch(done);
        }
        self.epoch += 1;
        EpochReport {
            train_loss: loss / order.len().max(1) as f64,
            first_loss,
            last_rate: rate,
        }
    }
}
