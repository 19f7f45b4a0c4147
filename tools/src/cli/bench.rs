//! `shears bench`: the bench positions searched to a fixed depth on one
//! thread, the signature of the engine's search (and, with `--ordering` or
//! `--no-tt`, what a move-ordering step or the table buys). It plays with
//! the engine's default evaluation, the built-in net (`Use NNUE` true), or
//! `--eval-file`'s net; `--hce` benches the hand-crafted evaluation (the
//! flags of every command that plays, [`EvalArgs`], read against the
//! engine's defaults: the signature never reads engine.toml).

use std::process::ExitCode;

use super::eval_args::EvalArgs;
use shears::engine::bench::{self, DEFAULT_DEPTH};
use shears::engine::options::Options;
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
    /// The evaluation (`--nnue`, `--hce`, `--eval-file`), over the
    /// engine's defaults rather than engine.toml's.
    #[command(flatten)]
    pub eval: EvalArgs,
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

/// `shears bench`: each position's line as it ends, the report, and last
/// `<nodes> nodes <nps> nps`. Exit 2 when the net cannot be used.
pub(super) fn run(args: &BenchArgs) -> ExitCode {
    let evaluation = match args.eval.evaluation(&Options::default()) {
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
