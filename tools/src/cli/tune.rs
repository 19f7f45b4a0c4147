//! `shears tune`: the hand-crafted evaluation's weights fitted to data
//! files (the fitter is `crate::tune`) and written as Rust source.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use super::fit_args::FitArgs;
use crate::data::{Target, split_games};
use crate::tune;
use crate::util::progress::bar;

/// `shears tune`.
#[derive(Debug, clap::Args)]
// A negative value after a space (`--rate -1`) is a value, so that the
// option's own check names what is allowed.
#[command(allow_negative_numbers = true)]
pub struct TuneArgs {
    /// Data files: game files (`.games`), packed records (`.bin`) or text.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Full-batch Adam steps.
    #[arg(long, default_value_t = 2_000, value_parser = clap::value_parser!(u32).range(1..))]
    pub epochs: u32,
    /// Adam step size, centipawns.
    #[arg(long, default_value_t = 1.0)]
    pub rate: f64,
    /// L2 penalty on each weight's distance from its anchor
    /// (`--l2-anchor`).
    #[arg(long, default_value_t = 0.0)]
    pub l2: f64,
    /// What the L2 penalty pulls toward: each weight's current value, or
    /// zero.
    #[arg(long, value_enum, default_value_t = CliAnchor::Start)]
    pub l2_anchor: CliAnchor,
    /// λ, K, the held-out games, the first N positions, the threads: the
    /// options `train` shares.
    #[command(flatten)]
    pub fit: FitArgs,
    /// Fit only this weight group (a name of `eval/hce/layout.rs`, e.g.
    /// `KNIGHT_OUTPOST`; repeat for several): every other weight keeps its
    /// current value. A new term is fitted on top of the committed weights.
    #[arg(long, value_name = "GROUP")]
    pub only: Vec<String>,
    /// Where to write the weights (the engine's own file by default).
    #[arg(long, default_value = "src/eval/hce/weights.rs")]
    pub out: PathBuf,
}

/// `--l2-anchor`: what the L2 penalty pulls toward.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CliAnchor {
    /// Each weight's current value.
    Start,
    /// Zero.
    Zero,
}

impl From<CliAnchor> for tune::L2Anchor {
    fn from(a: CliAnchor) -> tune::L2Anchor {
        match a {
            CliAnchor::Start => tune::L2Anchor::Start,
            CliAnchor::Zero => tune::L2Anchor::Zero,
        }
    }
}

/// Runs `shears tune`: exit 0 when the weights are written, 2 on bad
/// input.
pub(super) fn run(args: &TuneArgs) -> ExitCode {
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(args.fit.threads())
        .build()
    {
        Ok(p) => p,
        Err(e) => {
            eprintln!("shears tune: cannot start threads: {e}");
            return ExitCode::from(2);
        }
    };
    pool.install(|| match tune_with(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("shears tune: {e}");
            ExitCode::from(2)
        }
    })
}

/// Loads the data, reporting bad lines (skipped) on stderr.
fn load(args: &TuneArgs) -> Result<tune::Loaded, tune::TuneError> {
    let start = Instant::now();
    let loading = bar(0, "{spinner} loading: {pos} lines {elapsed_precise}");
    let loaded = tune::load(
        &args.files,
        args.fit.lambda > 0.0,
        args.fit.positions,
        &|n| loading.set_position(n),
    );
    loading.finish_and_clear();
    let loaded = loaded?;
    let bad = &loaded.bad;
    for b in bad.iter().take(10) {
        eprintln!(
            "shears tune: {}:{}: {} (skipped)",
            b.path.display(),
            b.line,
            b.reason
        );
    }
    if bad.len() > 10 {
        eprintln!("shears tune: … {} bad lines in all (skipped)", bad.len());
    }
    if let Some(first) = args.fit.positions {
        println!("the first {first} positions of the data (--positions {first})");
    }
    println!(
        "{} quiet positions loaded in {:.1} s ({} with a search score)",
        loaded.samples.len(),
        start.elapsed().as_secs_f64(),
        tune::scored(&loaded.samples)
    );
    Ok(loaded)
}

/// The samples of the games to fit and of the held-out games (whole games,
/// `data::split`, as `train` holds them out).
fn split(
    args: &TuneArgs,
    loaded: tune::Loaded,
) -> Result<(Vec<tune::Sample>, Vec<tune::Sample>), tune::TuneError> {
    let rule = args.fit.split();
    let parts = split_games(&loaded.ends, rule, false)?;
    let mut held = vec![false; loaded.samples.len()];
    for &i in &parts.validation {
        held[i as usize] = true;
    }
    let (test, train): (Vec<_>, Vec<_>) = loaded
        .samples
        .into_iter()
        .zip(held)
        .partition(|(_, held)| *held);
    println!(
        "{} positions to fit ({} games), {} held out ({} games, {})",
        train.len(),
        parts.train_games,
        test.len(),
        parts.validation_games,
        rule.describe()
    );
    let strip = |v: Vec<(tune::Sample, bool)>| v.into_iter().map(|(s, _)| s).collect();
    Ok((strip(train), strip(test)))
}

fn tune_with(args: &TuneArgs) -> Result<(), tune::TuneError> {
    let config = tune::AdamConfig {
        epochs: args.epochs,
        rate: args.rate,
        l2: args.l2,
        anchor: args.l2_anchor.into(),
    };
    let lambda = args.fit.lambda;
    let free = tune::free_weights(&args.only)?;
    let (mut train, mut test) = split(args, load(args)?)?;
    let start_weights = tune::current_weights();
    let (k, whence) = match args.fit.scale {
        Some(k) => (f64::from(k), "given"),
        None => match tune::fit_k(&train, &start_weights) {
            Some((k, tune::KSource::Scores)) => (k, "fitted: the scores' best fit to the results"),
            Some((k, tune::KSource::Evaluation)) => (
                k,
                "fitted: the evaluation's best fit to the results, the data having no scores",
            ),
            // The split leaves a position to fit: not reached.
            None => {
                return Err(tune::TuneError::Empty {
                    bad: 0,
                    first: None,
                });
            }
        },
    };
    let results_before = tune::loss(&test, &start_weights, k);
    println!(
        "K = {k:.1} cp ({whence}); loss with the current weights {:.6}",
        tune::loss(&train, &start_weights, k)
    );
    let target = Target {
        scale: k as f32,
        lambda,
    };
    if lambda > 0.0 {
        tune::set_targets(&mut train, target)?;
        tune::set_targets(&mut test, target)?;
        println!(
            "targets: {:.2} * result + {lambda:.2} * sigmoid(score / K); loss against them {:.6}",
            1.0 - lambda,
            tune::loss(&train, &start_weights, k)
        );
    }
    let before = tune::loss(&train, &start_weights, k);
    let test_before = tune::loss(&test, &start_weights, k);

    let epochs = config.epochs;
    let progress = bar(
        u64::from(epochs),
        "{bar:40} {pos}/{len} epochs {msg} eta {eta}",
    );
    let fitted = tune::adam(
        &train,
        &start_weights,
        free.as_deref(),
        k,
        config,
        &mut |epoch, loss| {
            progress.set_position(u64::from(epoch));
            progress.set_message(format!("loss {loss:.6}"));
            if epoch.is_multiple_of(250) {
                progress.suspend(|| eprintln!("epoch {epoch}: loss {loss:.6}"));
            }
        },
    );
    progress.finish_and_clear();
    let weights = tune::rounded(&fitted);
    let as_float: Vec<[f64; 2]> = weights
        .iter()
        .map(|s| [f64::from(s.0), f64::from(s.1)])
        .collect();
    let after = tune::loss(&train, &as_float, k);
    println!("loss after {epochs} epochs (rounded weights): {after:.6} (was {before:.6})");
    if !test.is_empty() {
        let test_after = tune::loss(&test, &as_float, k);
        println!("held-out loss: {test_after:.6} (was {test_before:.6})");
        if lambda > 0.0 {
            tune::set_targets(&mut test, target.results_only())?;
            println!(
                "held-out loss against the results alone: {:.6} (was {results_before:.6})",
                tune::loss(&test, &as_float, k)
            );
        }
    }
    tune::write_weights(&args.out, &weights)?;
    println!("weights written to {}", args.out.display());
    Ok(())
}
