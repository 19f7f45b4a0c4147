//! The training commands: `datagen` (self-play data) and `tune` (fit the
//! evaluation weights to it).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use crate::tools::datagen::{self, DatagenConfig};
use crate::tools::progress::bar;
use crate::tools::tune;

pub(super) fn run_datagen(
    file: &Path,
    games: u64,
    nodes: u64,
    threads: Option<u32>,
    seed: u64,
) -> ExitCode {
    let config = DatagenConfig {
        games,
        nodes,
        threads: threads.map_or_else(rayon::current_num_threads, |t| t as usize),
        seed,
    };
    let existing = match datagen::resume(file) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("shears datagen: {}: {e}", file.display());
            return ExitCode::from(2);
        }
    };
    let have = existing.games.len() as u64;
    eprintln!(
        "{}: {have} games, {} positions already; playing {} more at {nodes} nodes per move on {} threads",
        file.display(),
        existing.positions,
        games.saturating_sub(have),
        config.threads
    );
    let progress = bar(
        games,
        "{bar:40} {pos}/{len} games {msg} {elapsed_precise} eta {eta}",
    );
    progress.set_position(have.min(games));
    let start = Instant::now();
    let positions = std::sync::atomic::AtomicU64::new(0);
    let result = datagen::run(file, &config, &|game| {
        let p = positions.fetch_add(
            game.positions.len() as u64,
            std::sync::atomic::Ordering::Relaxed,
        );
        progress.set_message(format!("(+{} positions)", p + game.positions.len() as u64));
        progress.inc(1);
    });
    progress.finish_and_clear();
    match result {
        Ok((games, positions)) => {
            println!(
                "wrote {games} games, {positions} positions in {:.0} s to {}",
                start.elapsed().as_secs_f64(),
                file.display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("shears datagen: {e}");
            ExitCode::from(2)
        }
    }
}

pub(super) fn run_tune(
    files: &[PathBuf],
    config: tune::AdamConfig,
    validation: u32,
    out: &Path,
    threads: Option<u32>,
) -> ExitCode {
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(threads.map_or_else(rayon::current_num_threads, |t| t as usize))
        .build()
    {
        Ok(p) => p,
        Err(e) => {
            eprintln!("shears tune: cannot start threads: {e}");
            return ExitCode::from(2);
        }
    };
    pool.install(|| tune_with(files, config, validation, out))
}

fn tune_with(files: &[PathBuf], config: tune::AdamConfig, validation: u32, out: &Path) -> ExitCode {
    let start = Instant::now();
    let loading = bar(0, "{spinner} loading: {pos} lines {elapsed_precise}");
    let loaded = tune::load(files, &|n| loading.set_position(n));
    loading.finish_and_clear();
    let (samples, bad) = match loaded {
        Ok(x) => x,
        Err(e) => {
            eprintln!("shears tune: {e}");
            return ExitCode::from(2);
        }
    };
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
    println!(
        "{} quiet positions loaded in {:.1} s",
        samples.len(),
        start.elapsed().as_secs_f64()
    );
    // The last `validation` percent of the positions (whole games, as the
    // files hold them in order) are held out to measure overfitting.
    let held = samples.len() * validation as usize / 100;
    let (train, test) = samples.split_at(samples.len() - held);
    println!("{} positions to fit, {} held out", train.len(), test.len());
    let start_weights = tune::current_weights();
    let k = tune::fit_k(train, &start_weights);
    let before = tune::loss(train, &start_weights, k);
    let test_before = (!test.is_empty()).then(|| tune::loss(test, &start_weights, k));
    println!("K = {k:.6} per cp; loss with the current weights {before:.6}");

    let epochs = config.epochs;
    let progress = bar(
        u64::from(epochs),
        "{bar:40} {pos}/{len} epochs {msg} eta {eta}",
    );
    let fitted = tune::adam(train, &start_weights, k, config, &mut |epoch, loss| {
        progress.set_position(u64::from(epoch));
        progress.set_message(format!("loss {loss:.6}"));
        if epoch.is_multiple_of(250) {
            progress.suspend(|| eprintln!("epoch {epoch}: loss {loss:.6}"));
        }
    });
    progress.finish_and_clear();
    let weights = tune::rounded(&fitted);
    let as_float: Vec<[f64; 2]> = weights
        .iter()
        .map(|s| [f64::from(s.0), f64::from(s.1)])
        .collect();
    let after = tune::loss(train, &as_float, k);
    println!("loss after {epochs} epochs (rounded weights): {after:.6} (was {before:.6})");
    if let Some(test_before) = test_before {
        let test_after = tune::loss(test, &as_float, k);
        println!("held-out loss: {test_after:.6} (was {test_before:.6})");
    }
    if let Err(e) = tune::write_weights(out, &weights) {
        eprintln!("shears tune: {e}");
        return ExitCode::from(2);
    }
    println!("weights written to {}", out.display());
    ExitCode::SUCCESS
}
