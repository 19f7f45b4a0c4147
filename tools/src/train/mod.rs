//! `shears train`: trains the engine's net (docs/nnue.md) on `datagen`
//! data, read by the one reader (`crate::data`), and exports it as a net
//! file the engine loads.
//!
//! A sparse trainer: each position activates ~30 of the 768 inputs of each
//! side, and only their rows of the first layer are read in the forward
//! pass and given a gradient in the backward pass. The positions of a batch
//! are spread over the threads (rayon), each summing into a gradient of its
//! own; AdamW steps once per batch, and the weights are clipped to the
//! quantisation range after each step. docs/nnue.md § Training has the
//! command, the loss, the options and the measured speed.
//!
//! | file | what |
//! |---|---|
//! | `sample.rs` | one position in 32 bytes, and its active inputs ([`Sample`], [`Features`]) |
//! | `dataset.rs` | every position in memory, its games, the held-out games ([`Dataset`], [`Split`]) |
//! | `model.rs` | the float net in one flat vector, its forward pass ([`Model`]) |
//! | `loss.rs` | the loss and its derivative against `data::target`'s [`Target`], fitting K on the scores |
//! | `gradient.rs` | the sparse gradient of a batch over the threads, the loss of a set ([`Worker`]) |
//! | `adamw.rs` | the optimiser ([`AdamW`]) |
//! | `schedule.rs` | the learning rate along the run ([`Schedule`]) |
//! | `trainer.rs` | the settings, the shuffled batches of an epoch ([`Trainer`]) |
//! | `checkpoint.rs` | the run saved after an epoch ([`Checkpoint`]) |
//! | `export.rs` | the net file, and the quantised net against the float net ([`Agreement`]) |
//! | `score_fit.rs` | the net's own score model, fitted to its evaluations of the data ([`ScoreFit`]) |
//! | `run.rs` | one run from the files to the net file, with its output ([`run()`]) |
//! | `error.rs` | [`TrainError`] |

mod adamw;
mod checkpoint;
mod dataset;
mod error;
mod export;
mod gradient;
mod loss;
mod model;
mod run;
mod sample;
mod schedule;
mod score_fit;
mod trainer;

#[cfg(test)]
mod tests;

pub use adamw::AdamW;
pub use checkpoint::Checkpoint;
pub use dataset::{Dataset, Parts, Split, load};
pub use error::TrainError;
pub use export::{Agreement, Exported, agreement, export};
pub use gradient::{Worker, batch_gradient, mean_losses};
pub use loss::{Target, fit_scale, score_loss, sigmoid};
pub use model::{Model, Scratch, param_count};
pub use run::{RunConfig, Summary, run};
pub use sample::{Features, MAX_PIECES, Sample};
pub use schedule::Schedule;
pub use score_fit::{ScoreFit, fit as fit_score_model};
pub use trainer::{EpochReport, Settings, Trainer};
