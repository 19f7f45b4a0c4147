//! One `shears train` run from start to end, with what it prints: the
//! data, K, the epochs (a progress bar on a terminal, one line per epoch on
//! stdout), a checkpoint after each epoch, the export with the net's score
//! model and the agreement of the quantised net with the float net.

use std::path::PathBuf;
use std::time::Instant;

use shears::eval::nnue::arch::{INPUTS, is_supported_width};

use super::checkpoint::{self, Checkpoint};
use super::dataset::{self, Dataset, Parts, Split};
use super::error::TrainError;
use super::export::{Agreement, agreement, export};
use super::gradient::mean_losses;
use super::loss::{Target, fit_scale, score_loss};
use super::trainer::{Settings, Trainer};
use crate::util::progress::bar;

/// What a run is asked to do.
#[derive(Clone, Debug)]
pub struct RunConfig {
    /// The data files.
    pub files: Vec<PathBuf>,
    /// Only the first this many positions of the files (`--positions`).
    pub first: Option<u64>,
    /// The training settings; `target.scale` is used only when `scale` is
    /// given.
    pub settings: Settings,
    /// K, when given (else the checkpoint's, else fitted).
    pub scale: Option<f32>,
    /// Which games are held out.
    pub split: Split,
    /// Worker threads.
    pub threads: usize,
    /// The net file to write.
    pub out: PathBuf,
    /// Whether an existing `out` may be replaced.
    pub replace: bool,
    /// Where the checkpoints go.
    pub checkpoint_dir: PathBuf,
    /// The checkpoint to go on from.
    pub resume: Option<PathBuf>,
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// Epochs done.
    pub epochs: u32,
    /// The float net's held-out loss: against the target, against the
    /// results.
    pub validation: [f64; 2],
    /// The quantised net against the float net on the held-out positions.
    pub agreement: Agreement,
}

/// Runs `config` on a pool of its threads.
///
/// # Errors
///
/// Bad options, data, checkpoint or output file (each [`TrainError`] names
/// what and where; an existing output without `replace`); a loss that
/// diverges or explodes, a net that cannot be exported or that no step
/// trained. No net is written then.
pub fn run(config: &RunConfig) -> Result<Summary, TrainError> {
    if !config.replace && config.out.exists() {
        return Err(TrainError::OutExists {
            path: config.out.clone(),
        });
    }
    if !is_supported_width(config.settings.hidden) {
        return Err(TrainError::WrongHidden {
            given: config.settings.hidden,
        });
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads)
        .build()
        .map_err(|e| TrainError::Threads {
            threads: config.threads,
            reason: e.to_string(),
        })?;
    pool.install(|| run_in_pool(config))
}

/// Reads the data files and splits them, saying what they hold.
fn read_data(config: &RunConfig) -> Result<(Dataset, Parts), TrainError> {
    let start = Instant::now();
    let loading = bar(0, "{spinner} loading: {pos} positions {elapsed_precise}");
    let data = dataset::load(
        &config.files,
        config.settings.target.lambda > 0.0,
        config.first,
        &mut |n| loading.set_position(n as u64),
    );
    loading.finish_and_clear();
    let data = data?;
    let parts = data.split(config.split)?;
    if let Some(first) = config.first {
        println!("the first {first} positions of the data (--positions {first})");
    }
    println!(
        "{} positions in {} games from {} file{} in {:.1} s: training on {} positions ({} games), \
         {} held out ({} games, {})",
        data.samples.len(),
        data.games(),
        config.files.len(),
        if config.files.len() == 1 { "" } else { "s" },
        start.elapsed().as_secs_f64(),
        parts.train.len(),
        parts.train_games,
        parts.validation.len(),
        parts.validation_games,
        config.split.describe()
    );
    if data.crowded > 0 {
        println!(
            "{} positions with more than 32 pieces left out",
            data.crowded
        );
    }
    Ok((data, parts))
}

/// The trainer of this run: fresh, or from the checkpoint (saying how its
/// settings differ from the command line's).
fn start(
    config: &RunConfig,
    checkpoint: Option<Checkpoint>,
    data: &Dataset,
    parts: &Parts,
) -> Result<Trainer, TrainError> {
    let (scale, whence) = match (config.scale, &checkpoint) {
        (Some(k), _) => (k, "given"),
        (None, Some(ck)) => (ck.settings.target.scale, "the checkpoint's"),
        (None, None) => (
            fit_scale(&data.samples, &parts.train).ok_or(TrainError::NoScale(
                "no training position has a search score",
            ))?,
            "fitted: the scores' best fit to the results",
        ),
    };
    println!("K = {scale:.1} cp ({whence})");
    if let Some(loss) = score_loss(&data.samples, &parts.validation, scale) {
        println!("the search scores' own held-out loss against the results: {loss:.6}");
    }
    let settings = Settings {
        target: Target {
            scale,
            ..config.settings.target
        },
        ..config.settings
    };
    let Some(ck) = checkpoint else {
        return Ok(Trainer::new(settings));
    };
    for change in ck.settings.differences(&settings) {
        println!("resuming with a changed setting: {change}");
    }
    if ck.split != config.split
        || ck.train_positions != parts.train.len() as u64
        || ck.validation_positions != parts.validation.len() as u64
    {
        println!(
            "resuming on other data: the checkpoint's run trained on {} positions and held out {} \
             ({})",
            ck.train_positions,
            ck.validation_positions,
            ck.split.describe()
        );
    }
    println!("resuming after epoch {}", ck.epoch);
    Ok(Trainer::resume(settings, ck.model, ck.adam, ck.epoch))
}

fn run_in_pool(config: &RunConfig) -> Result<Summary, TrainError> {
    // The checkpoint first: a bad one is refused before the data is read.
    let checkpoint = match &config.resume {
        Some(path) => {
            let ck = Checkpoint::load(path)?;
            if ck.settings.hidden != config.settings.hidden {
                return Err(TrainError::Checkpoint {
                    path: path.clone(),
                    reason: format!(
                        "a net of {} hidden neurons, this run's has {}",
                        ck.settings.hidden, config.settings.hidden
                    ),
                });
            }
            if ck.settings.layout != config.settings.layout {
                return Err(TrainError::Checkpoint {
                    path: path.clone(),
                    reason: format!(
                        "a net of {} inputs, this run's has {} (--mirror)",
                        ck.settings.layout.name(),
                        config.settings.layout.name()
                    ),
                });
            }
            Some(ck)
        }
        None => None,
    };
    let (data, parts) = read_data(config)?;
    let mut trainer = start(config, checkpoint, &data, &parts)?;
    let settings = trainer.settings;
    let target = settings.target;
    let targets = [target, target.results_only()];
    println!(
        "net ({INPUTS} → {}) × 2 → 1, {} inputs; {} threads, batches of {}, lr {}, wd {}, λ {}, {} schedule, \
         seed {}, {} epochs",
        settings.hidden,
        settings.layout.name(),
        rayon::current_num_threads(),
        settings.batch_size,
        settings.lr,
        settings.wd,
        target.lambda,
        settings.schedule.describe(),
        settings.seed,
        settings.epochs
    );
    let samples = &data.samples;
    let mut validation = mean_losses(&trainer.model, samples, &parts.validation, targets);
    println!(
        "epoch {}: held-out loss {:.6} (against the results {:.6})",
        trainer.epoch, validation[0], validation[1]
    );
    // The loss of the run's first batch: where a loss that explodes is
    // measured from.
    let mut start_loss = None;
    while trainer.epoch < settings.epochs {
        let epoch = trainer.epoch + 1;
        let started = Instant::now();
        let progress = bar(
            parts.train.len() as u64,
            "{bar:30} {pos}/{len} positions, {msg}, eta {eta}",
        );
        let last = validation[0];
        let report = trainer.train_epoch(samples, &parts.train, &mut |done| {
            progress.set_position(done as u64);
            let speed = done as f64 / started.elapsed().as_secs_f64().max(1e-9);
            progress.set_message(format!(
                "epoch {epoch}/{}: {speed:.0} positions/s, held-out loss {last:.6}",
                settings.epochs
            ));
        });
        let seconds = started.elapsed().as_secs_f64();
        progress.finish_and_clear();
        let start = *start_loss.get_or_insert(report.first_loss);
        check_loss(epoch, report.train_loss, start)?;
        validation = mean_losses(&trainer.model, samples, &parts.validation, targets);
        if let Some(&loss) = validation.iter().find(|l| !l.is_finite()) {
            return Err(TrainError::Diverged { epoch, loss });
        }
        println!(
            "epoch {epoch}/{}: train loss {:.6}, held-out loss {:.6} (against the results {:.6}), \
             lr {:.3e}, {:.0} positions/s, {seconds:.1} s",
            settings.epochs,
            report.train_loss,
            validation[0],
            validation[1],
            report.last_rate,
            parts.train.len() as f64 / seconds.max(1e-9),
        );
        let path = checkpoint::path_for(&config.checkpoint_dir, epoch);
        Checkpoint {
            settings,
            split: config.split,
            epoch,
            train_positions: parts.train.len() as u64,
            validation_positions: parts.validation.len() as u64,
            model: trainer.model.clone(),
            adam: trainer.adam.clone(),
        }
        .save(&path)?;
    }

    if trainer.adam.steps == 0 {
        return Err(TrainError::Untrained);
    }
    let exported = export(&trainer.model, &config.out, config.replace, samples)?;
    let net = exported.net;
    match &exported.fit {
        Ok(fit) => {
            println!(
                "score model: fitted on {} positions, the net's evaluations against their \
                 games' results: a pawn is {:.1} of its centipawns; log-loss {:.4} (the \
                 results' frequencies alone: {:.4})",
                fit.positions,
                fit.model.pawn(),
                fit.log_loss,
                fit.baseline
            );
            if fit.degree < 3 {
                println!(
                    "score model: a(t) and b(t) of degree {} ({})",
                    fit.degree,
                    fit.refused.join("; ")
                );
            }
        }
        Err(reason) => println!("no score model: {reason}"),
    }
    let agreement = agreement(&trainer.model, &net, samples, &parts.validation, &target);
    println!(
        "net written to {} ({} bytes)",
        config.out.display(),
        shears::eval::nnue::file_len(net.hidden())
    );
    println!(
        "quantised against float on {} held-out positions: mean |difference| {:.2} cp, largest \
         {:.1} cp; held-out loss float {:.6}, quantised {:.6} (against the results {:.6}, {:.6})",
        agreement.positions,
        agreement.mean_cp,
        agreement.max_cp,
        agreement.float_loss[0],
        agreement.quantised_loss[0],
        agreement.float_loss[1],
        agreement.quantised_loss[1]
    );
    Ok(Summary {
        epochs: trainer.epoch,
        validation,
        agreement,
    })
}

/// A training loss above this many times the run's first batch loss (and
/// above it by [`EXPLODED_MARGIN`]) has exploded: a sound run's loss falls
/// from its start, and one whose learning rate diverges rises to that of
/// a net saturated at a win or a loss everywhere (about 0.3 where the
/// start is 0.07).
const EXPLODED_FACTOR: f64 = 2.0;
/// See [`EXPLODED_FACTOR`]: for a start near zero (a resumed, well-fitted
/// net), the rise that counts.
const EXPLODED_MARGIN: f64 = 0.01;

/// Stops a run whose training loss in `epoch` is not a number, or has
/// exploded from `start` (the loss of the run's first batch).
fn check_loss(epoch: u32, loss: f64, start: f64) -> Result<(), TrainError> {
    if !loss.is_finite() {
        return Err(TrainError::Diverged { epoch, loss });
    }
    if start.is_finite() && loss > start * EXPLODED_FACTOR && loss > start + EXPLODED_MARGIN {
        return Err(TrainError::Exploded { epoch, loss, start });
    }
    Ok(())
}
