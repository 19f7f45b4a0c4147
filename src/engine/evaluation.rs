//! Which evaluation the engine plays with: the net `EvalFile` names (read
//! and checked when the option is set, and at start-up), `Use NNUE`, and
//! the strength levels, which keep the hand-crafted evaluation whatever
//! `Use NNUE` says (their calibration was made with it). Also what `d` and
//! `eval` say about it.

use std::sync::Arc;

use shakmaty::{Chess, Color, Position as _};

use super::options::{EVAL_FILE, Options, USE_NNUE};
use crate::error::OptionError;
use crate::eval::nnue::NetError;
use crate::eval::{Evaluation, LoadedNet, is_built_in};

/// The net of `EvalFile`, or why there is none (only the built-in net can
/// be missing: a file that cannot be used is refused and the previous net
/// kept).
pub(super) struct Nets {
    net: Result<Arc<LoadedNet>, NetError>,
}

impl Nets {
    /// The net of `options`' `EvalFile`, and `Use NNUE` checked against
    /// it. At start-up (`fallback`), a file that cannot be used gives the
    /// built-in net instead, and `Use NNUE` without a net is turned off,
    /// each refusal noted in `refused` with its option's name; otherwise
    /// they are errors. A built-in net that cannot be read (a test keeps
    /// the committed file readable) leaves the engine without a net.
    ///
    /// # Errors
    ///
    /// Without `fallback`, when `EvalFile` cannot be used, or `Use NNUE`
    /// is on without a net.
    pub fn open(
        options: &mut Options,
        fallback: bool,
        refused: &mut Vec<(&'static str, OptionError)>,
    ) -> Result<Nets, OptionError> {
        let name = options.eval_file().to_owned();
        let net = match LoadedNet::named(&name) {
            Err(e) if !is_built_in(&name) => {
                let error = OptionError::refused(EVAL_FILE, &name, &e.to_string());
                if !fallback {
                    return Err(error);
                }
                refused.push((EVAL_FILE, error));
                options.reset(EVAL_FILE);
                LoadedNet::built_in()
            }
            net => net,
        };
        let nets = Nets { net };
        if let Err(reason) = nets.check_use(options) {
            let error = OptionError::refused(USE_NNUE, "true", &reason);
            if !fallback {
                return Err(error);
            }
            refused.push((USE_NNUE, error));
            options.reset(USE_NNUE);
        }
        Ok(nets)
    }

    /// Whether `options` can be played with: `Use NNUE` needs a net.
    ///
    /// # Errors
    ///
    /// Why not: the built-in net cannot be read.
    pub fn check_use(&self, options: &Options) -> Result<(), String> {
        match &self.net {
            Err(e) if options.use_nnue() => Err(format!("no net to play with: {e}")),
            _ => Ok(()),
        }
    }

    /// Reads and checks the net `name` names (`<default>`: the built-in
    /// one) and keeps it; on error the previous net stays.
    ///
    /// # Errors
    ///
    /// Why the file cannot be used.
    pub fn load(&mut self, name: &str) -> Result<(), NetError> {
        self.net = Ok(LoadedNet::named(name)?);
        Ok(())
    }

    /// The evaluation a full-strength search of `options` plays with.
    pub fn evaluation(&self, options: &Options) -> Evaluation {
        match &self.net {
            Ok(net) if options.use_nnue() => Evaluation::Net(Arc::clone(net)),
            _ => Evaluation::HandCrafted,
        }
    }

    /// The `Evaluation: …` line of `d` and `eval`: which evaluation a `go`
    /// plays with now, and why.
    pub fn in_play(&self, options: &Options) -> String {
        let why = if !options.use_nnue() {
            "Use NNUE false"
        } else if options.strength_level().is_some() {
            "UCI_LimitStrength plays with it, whatever Use NNUE says"
        } else if options.search_algorithm().is_some() {
            "the teaching SearchAlgorithm plays with it, whatever Use NNUE says"
        } else {
            "Use NNUE true"
        };
        let evaluation =
            if options.strength_level().is_some() || options.search_algorithm().is_some() {
                Evaluation::HandCrafted
            } else {
                self.evaluation(options)
            };
        format!("Evaluation: {} ({why})", evaluation.describe())
    }

    /// The net's evaluation of `pos` for `eval`: its own centipawns,
    /// White's view (like the trace beside it), and the net's name; or
    /// why there is no net.
    pub fn net_eval(&self, pos: &Chess) -> Result<(i32, String), String> {
        match &self.net {
            Ok(net) => {
                let eval = net.evaluate(pos);
                let white = if pos.turn() == Color::White {
                    eval
                } else {
                    -eval
                };
                Ok((white, net.source().to_string()))
            }
            Err(e) => Err(e.to_string()),
        }
    }
}
