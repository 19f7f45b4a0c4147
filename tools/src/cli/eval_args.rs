//! The evaluation a command plays with, as the engine chooses it: the
//! flags `--nnue`, `--hce` and `--eval-file` first, else engine.toml's
//! `Use NNUE` and `EvalFile`, else the engine's default (the built-in
//! net). `datagen`, `epd`, `tb-play` and `bench` take these flags
//! (`bench` reads them against the engine's defaults: its signature never
//! reads engine.toml).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use shears::engine::options::Options;
use shears::eval::nnue::NetError;
use shears::eval::{Evaluation, LoadedNet, is_built_in};

/// `--nnue`, `--hce` and `--eval-file`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct EvalArgs {
    /// Play with the net (the built-in one, or --eval-file's), as the
    /// engine does by default; the flag overrides `Use NNUE = false` in
    /// engine.toml (`bench` reads none).
    #[arg(long, conflicts_with = "hce")]
    pub nnue: bool,
    /// Play with the hand-crafted evaluation instead of the net (or
    /// `Use NNUE = false` in engine.toml).
    #[arg(long)]
    pub hce: bool,
    /// The net (default: engine.toml's `EvalFile`, else the one built into
    /// the engine; `bench` reads no engine.toml).
    #[arg(long, value_name = "FILE", conflicts_with = "hce")]
    pub eval_file: Option<PathBuf>,
}

impl EvalArgs {
    /// The evaluation: the flags first, else `settings` (engine.toml's
    /// `Use NNUE` and `EvalFile`).
    ///
    /// # Errors
    ///
    /// The net file and why it cannot be used.
    pub fn evaluation(&self, settings: &Options) -> Result<Evaluation, String> {
        let nnue = !self.hce && (self.nnue || self.eval_file.is_some() || settings.use_nnue());
        let eval_file = self.eval_file.clone().or_else(|| {
            let name = settings.eval_file();
            (!is_built_in(name)).then(|| PathBuf::from(name))
        });
        if !nnue {
            return Ok(Evaluation::HandCrafted);
        }
        net(eval_file.as_deref()).map(Evaluation::Net)
    }
}

/// The net of `eval_file`, or the built-in one.
///
/// # Errors
///
/// The net file (or the built-in net) and why it cannot be used.
fn net(eval_file: Option<&Path>) -> Result<Arc<LoadedNet>, String> {
    match eval_file {
        Some(path) => LoadedNet::load(path).map(Arc::new).map_err(|e| match e {
            NetError::Io { .. } => e.to_string(),
            e => format!("{}: {e}", path.display()),
        }),
        None => LoadedNet::built_in().map_err(|e| format!("the built-in net: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_is_the_net_and_hce_the_hand_crafted_evaluation() {
        let settings = Options::default();
        let default = EvalArgs::default().evaluation(&settings).unwrap();
        assert!(matches!(default, Evaluation::Net(_)), "the built-in net");
        let hce = EvalArgs {
            hce: true,
            ..EvalArgs::default()
        };
        assert!(matches!(
            hce.evaluation(&settings).unwrap(),
            Evaluation::HandCrafted
        ));
    }

    #[test]
    fn a_missing_net_file_is_named() {
        let args = EvalArgs {
            eval_file: Some(PathBuf::from("no/such.nnue")),
            ..EvalArgs::default()
        };
        let e = args.evaluation(&Options::default()).unwrap_err();
        assert!(e.contains("no/such.nnue"), "{e}");
    }
}
