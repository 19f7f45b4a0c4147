//! `shears bench`: the bench positions searched to a fixed depth on one
//! thread, the signature of the engine's search (and, with `--ordering` or
//! `--no-tt`, what a move-ordering step or the table buys). It plays with
//! the engine's default evaluation, the built-in net (`Use NNUE` true), or
//! `--eval-file`'s net; `--hce` benches the hand-crafted evaluation.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use shears::engine::bench::{self, DEFAULT_DEPTH};
use shears::eval::nnue::NetError;
use shears::eval::{Evaluation, LoadedNet};
use shears::search::params::SearchConfig;
use shears::search::{OrderingStep, Signals};

/// Move-ordering steps for `bench --ordering`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum BenchOrdering {
    /// Generation order (no TT move first either).
    None,
    /// TT move, then captures by MVV-LVA.
    Mvv,
    /// Plus SEE: losing captures last.
    See,
    /// Plus killers and countermove.
    Killers,
    /// Plus history for quiets.
    History,
    /// Plus quiet checks first: the engine's ordering.
    Full,
}

/// `shears bench`.
#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    /// Search depth.
    #[arg(long, default_value_t = DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: u32,
    /// The depth as a bare word (`shears bench 13`, as the UCI command
    /// `bench 13` and Stockfish take it); the same as --depth.
    #[arg(value_name = "DEPTH", conflicts_with = "depth", value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth_word: Option<u32>,
    /// Use the move ordering only up to this step (to measure what each
    /// step buys); the engine plays with `full`.
    #[arg(long, value_enum, default_value_t = BenchOrdering::Full)]
    pub ordering: BenchOrdering,
    /// Turn the transposition table off (probes and stores).
    #[arg(long)]
    pub no_tt: bool,
    /// Play with the net, as the engine does by default (`Use NNUE`
    /// true): the bench without a flag already does; kept for scripts.
    #[arg(long, conflicts_with = "hce")]
    pub nnue: bool,
    /// Play with the hand-crafted evaluation instead of the net (as
    /// `Use NNUE` false does).
    #[arg(long)]
    pub hce: bool,
    /// The net (default: the one built into the engine).
    #[arg(long, value_name = "FILE", conflicts_with = "hce")]
    pub eval_file: Option<PathBuf>,
}

impl BenchArgs {
    /// The depth, given either way.
    pub fn depth(&self) -> u32 {
        self.depth_word.unwrap_or(self.depth)
    }

    /// The search's switches: the ordering up to `--ordering`, the table
    /// unless `--no-tt`.
    pub fn config(&self) -> SearchConfig {
        SearchConfig {
            ordering: self.ordering != BenchOrdering::None,
            ordering_step: match self.ordering {
                BenchOrdering::None | BenchOrdering::Mvv => OrderingStep::MvvLva,
                BenchOrdering::See => OrderingStep::See,
                BenchOrdering::Killers => OrderingStep::Killers,
                BenchOrdering::History => OrderingStep::History,
                BenchOrdering::Full => OrderingStep::Full,
            },
            tt: !self.no_tt,
            ..SearchConfig::default()
        }
    }
}

/// The evaluation to play with: the hand-crafted one unless `nnue`, else
/// `eval_file`'s net or the built-in one.
///
/// # Errors
///
/// The net file and why it cannot be used.
pub fn evaluation(nnue: bool, eval_file: Option<&PathBuf>) -> Result<Evaluation, String> {
    if !nnue {
        return Ok(Evaluation::HandCrafted);
    }
    let net = match eval_file {
        Some(path) => LoadedNet::load(path).map(Arc::new).map_err(|e| match e {
            NetError::Io { .. } => e.to_string(),
            e => format!("{}: {e}", path.display()),
        }),
        None => LoadedNet::built_in().map_err(|e| format!("the built-in net: {e}")),
    };
    net.map(Evaluation::Net)
}

/// `shears bench`: each position's line as it ends, the report, and last
/// `<nodes> nodes <nps> nps`. Exit 2 when the net cannot be used.
pub(super) fn run(args: &BenchArgs) -> ExitCode {
    let evaluation = match evaluation(!args.hce, args.eval_file.as_ref()) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("shears bench: {e}");
            return ExitCode::from(2);
        }
    };
    let signals = Signals::new(false);
    let (depth, config) = (args.depth(), args.config());
    let result = bench::run_with(depth, config, &evaluation, &signals, &mut |p| {
        println!("{p}")
    });
    for line in result.report() {
        println!("{line}");
    }
    println!("{}", result.summary());
    ExitCode::SUCCESS
}
