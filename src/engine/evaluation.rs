//! Which evaluation the engine plays with: the net `EvalFile` names (read
//! and checked when the option is set, and at start-up), `Use NNUE`, and
//! the strength levels, which keep the hand-crafted evaluation whatever
//! `Use NNUE` says (their calibration was made with it). Also what `d` and
//! `eval` say about it, and which net to name in an `info string` (each
//! net once: when `EvalFile` loads it, and when it first plays).

use std::sync::Arc;

use shakmaty::{Chess, Color, Position as _};

use super::options::{EVAL_FILE, Options, USE_NNUE};
use super::report::{NetEval, NetNews, PlayingEval};
use crate::error::OptionError;
use crate::eval::nnue::NetError;
use crate::eval::{Evaluation, LoadedNet, is_built_in, piece_values};

/// The net of `EvalFile`, or why there is none (only the built-in net can
/// be missing: a file that cannot be used is refused and the previous net
/// kept), and which net was last named as playing.
pub(super) struct Nets {
    net: Result<Arc<LoadedNet>, NetError>,
    /// The identity of the net last named as the one that plays
    /// ([`Nets::news`]), until another evaluation plays.
    announced: Option<u64>,
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
        let nets = Nets {
            net,
            announced: None,
        };
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
        let (evaluation, why) = self.playing(options);
        format!("Evaluation: {} ({why})", evaluation.describe())
    }

    /// The evaluation a `go` plays with now, and why.
    fn playing(&self, options: &Options) -> (Evaluation, &'static str) {
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
        (evaluation, why)
    }

    /// The evaluation that plays now, its score model and its evaluation
    /// of `pos`, White's view, in its own centipawns: `eval`'s last line.
    pub fn playing_eval(&self, options: &Options, pos: &Chess) -> PlayingEval {
        let (evaluation, _) = self.playing(options);
        PlayingEval {
            kind: evaluation.kind(),
            model: evaluation.score_model(),
            white: white_view(pos, evaluation.evaluate(pos)),
        }
    }

    /// The net's evaluation of `pos` for `eval`: its own centipawns,
    /// White's view (like the trace beside it), its value of each piece
    /// and the net's name; or why there is no net.
    pub fn net_eval(&self, pos: &Chess) -> Result<NetEval, String> {
        match &self.net {
            Ok(net) => Ok(NetEval {
                white: white_view(pos, net.evaluate(pos)),
                source: net.source().to_owned(),
                pieces: piece_values(net, pos),
                model: net.score_model().copied(),
            }),
            Err(e) => Err(e.to_string()),
        }
    }

    /// The net to name after `EvalFile` loaded one (`loaded`: always, and
    /// whether it plays) or after `Use NNUE` changed (only a net that now
    /// plays and was not named as playing since another evaluation
    /// played); `None` when there is nothing new to say.
    pub fn news(&mut self, options: &Options, loaded: bool) -> Option<NetNews> {
        let (playing, why) = self.playing(options);
        let net = self.net.as_ref().ok()?;
        let plays = playing.id() == net.id();
        if !plays {
            self.announced = None;
            return loaded.then(|| news_of(net, Some(why)));
        }
        (loaded || self.announced != Some(net.id())).then(|| {
            self.announced = Some(net.id());
            news_of(net, None)
        })
    }

    /// The net to name before a search that plays with `evaluation`: a net
    /// not yet named as playing.
    pub fn first_play(&mut self, evaluation: &Evaluation) -> Option<NetNews> {
        let net = evaluation.net()?;
        (self.announced != Some(net.id())).then(|| {
            self.announced = Some(net.id());
            news_of(net, None)
        })
    }
}

/// What an `info string` says of `net` (`idle`: why it does not play).
fn news_of(net: &LoadedNet, idle: Option<&'static str>) -> NetNews {
    NetNews {
        source: net.source().to_owned(),
        width: net.net().hidden(),
        layout: net.net().layout().name(),
        sha256: net.sha256_hex(),
        model: net.score_model().copied(),
        idle,
    }
}

/// The side to move's `cp` in `pos` from White's view.
fn white_view(pos: &Chess, cp: i32) -> i32 {
    match pos.turn() {
        Color::White => cp,
        Color::Black => -cp,
    }
}
