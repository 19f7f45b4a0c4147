//! The trained net into the engine's net file (docs/nnue.md § The net
//! file), with the score model fitted to it, through the engine's own
//! quantisation and writer, read back by the engine's own reader; and how
//! far the quantised net is from the float net on the held-out positions
//! ([`Agreement`]).

use std::fs;
use std::path::Path;

use rayon::prelude::*;

use shears::eval::nnue::arch::{QA, QB, SCALE};
use shears::eval::nnue::{AnyNet, NetFile};

use super::error::TrainError;
use super::loss::Target;
use super::model::{Model, Scratch};
use super::sample::Sample;
use super::score_fit::{self, ScoreFit};

/// Positions per parallel work item.
const CHUNK: usize = 4096;

/// A net exported: the net the engine will play, and its score model's
/// fit (or why there is none).
#[derive(Clone, Debug, PartialEq)]
pub struct Exported {
    /// The net, as the engine read it back.
    pub net: AnyNet,
    /// The score model written with it, fitted on the data's positions
    /// ([`score_fit::fit`]), or why there is none.
    pub fit: Result<ScoreFit, String>,
}

/// Quantises `model`, fits its score model on `samples` (the run's
/// positions: [`score_fit::fit`]), writes both to `path` (making its
/// folder) through a temporary file beside it and a rename, so that a run
/// stopped while it writes leaves the old file as it was, and reads it back
/// with the engine's reader: the net the engine will play. An existing
/// `path` is replaced only when `replace` is set.
///
/// # Errors
///
/// A net of a width the engine does not play; a weight that is not a
/// number or an output bias beyond the quantised range; `path` exists and
/// `replace` is not set; a file that cannot be written; a file the reader
/// refuses (which would be a bug here).
pub fn export(
    model: &Model,
    path: &Path,
    replace: bool,
    samples: &[Sample],
) -> Result<Exported, TrainError> {
    exportable(model)?;
    let net = model
        .to_float_net()?
        .quantise()
        .map_err(|_| TrainError::WrongHidden {
            given: model.hidden(),
        })?;
    if !replace && path.exists() {
        return Err(TrainError::OutExists {
            path: path.to_path_buf(),
        });
    }
    let fit = score_fit::fit(&net, samples);
    let file = NetFile::new(net, fit.as_ref().ok().map(|f| f.model));
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir).map_err(|e| TrainError::io(dir, e))?;
    }
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let temporary = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    let written = fs::write(&temporary, file.to_bytes())
        .map_err(|e| TrainError::io(&temporary, e))
        .and_then(|()| {
            NetFile::load(&temporary).map_err(|source| TrainError::Export {
                path: temporary.clone(),
                source,
            })
        })
        .and_then(|loaded| {
            fs::rename(&temporary, path).map_err(|e| TrainError::io(path, e))?;
            Ok(loaded)
        });
    if written.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    let loaded = written?;
    debug_assert_eq!(loaded, file);
    Ok(Exported {
        net: loaded.net,
        fit,
    })
}

/// Whether the net file can hold `model`'s weights: every one a number,
/// and the output bias within the quantised range (`round(b2 · QA · QB)`
/// an i32; the others are clipped during training).
fn exportable(model: &Model) -> Result<(), TrainError> {
    if let Some(k) = model.params.iter().position(|w| !w.is_finite()) {
        return Err(TrainError::Unexportable {
            what: format!("weight {k} is {}", model.params[k]),
        });
    }
    let b2 = model.params[model.b2_index()];
    let limit = f64::from(i32::MAX) / f64::from(QA * QB);
    if f64::from(b2).abs() > limit {
        return Err(TrainError::Unexportable {
            what: format!("the output bias is {b2}, beyond ±{limit:.0}"),
        });
    }
    Ok(())
}

/// The float net against the quantised net on a set of positions.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Agreement {
    /// Positions compared.
    pub positions: usize,
    /// The mean |quantised − float| evaluation, centipawns.
    pub mean_cp: f64,
    /// The largest.
    pub max_cp: f64,
    /// The float net's loss: against the target, against the results.
    pub float_loss: [f64; 2],
    /// The quantised net's.
    pub quantised_loss: [f64; 2],
}

/// Compares `model` with `net` (its quantisation) on the positions
/// `indices` of `samples`: the engine's integer evaluation from a fresh
/// accumulator against the float one.
pub fn agreement(
    model: &Model,
    net: &AnyNet,
    samples: &[Sample],
    indices: &[u32],
    target: &Target,
) -> Agreement {
    let targets = [*target, target.results_only()];
    let parts: Vec<Agreement> = indices
        .par_chunks(CHUNK)
        .map(|chunk| {
            let mut scratch = Scratch::new(model.hidden());
            let mut part = Agreement::default();
            for &i in chunk {
                let sample = &samples[i as usize];
                let float = model.evaluate(sample, &mut scratch);
                let quantised = net.evaluate_board(&sample.board(), sample.side_to_move()) as f32;
                let diff = f64::from((quantised - float).abs());
                part.positions += 1;
                part.mean_cp += diff;
                part.max_cp = part.max_cp.max(diff);
                for (k, t) in targets.iter().enumerate() {
                    let goal = t.of(sample);
                    part.float_loss[k] += f64::from(t.loss(float / SCALE as f32, goal).0);
                    part.quantised_loss[k] += f64::from(t.loss(quantised / SCALE as f32, goal).0);
                }
            }
            part
        })
        .collect();
    let mut total = Agreement::default();
    for p in parts {
        total.positions += p.positions;
        total.mean_cp += p.mean_cp;
        total.max_cp = total.max_cp.max(p.max_cp);
        for k in 0..2 {
            total.float_loss[k] += p.float_loss[k];
            total.quantised_loss[k] += p.quantised_loss[k];
        }
    }
    let n = total.positions.max(1) as f64;
    total.mean_cp /= n;
    for k in 0..2 {
        total.float_loss[k] /= n;
        total.quantised_loss[k] /= n;
    }
    total
}
