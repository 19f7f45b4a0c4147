//! Which evaluation plays: [`Evaluation`], the hand-crafted one or a net
//! ([`LoadedNet`]: the built-in net, or one read from a file), chosen by
//! the engine (`Use NNUE`, `EvalFile`) and handed to each search. The
//! search never looks inside: it gets an [`Evaluator`](super::Evaluator)
//! for it.
//!
//! The built-in net is the file `nets/default.nnue`, compiled into the
//! binary (docs/nnue.md says where it came from); it is read and checked
//! once, the first time it is asked for.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use sha2::{Digest, Sha256};
use shakmaty::{Chess, Position as _};

use super::endgame::verdict::net_with_knowledge;
use super::hce;
use super::nnue::{AnyNet, NetError, NetFile, read_file};
use super::score_model::ScoreModel;

/// The built-in net's file.
const BUILT_IN_NET: &[u8] = include_bytes!("../../nets/default.nnue");

/// What `EvalFile` calls the built-in net.
pub const BUILT_IN_NAME: &str = "<default>";

/// Every evaluation the net gives is clamped to ±this, well inside the
/// search's score range (its tablebase and mate scores lie beyond 31,000;
/// the evaluation cache keeps ±2^23, the table an i16). A trained net stays
/// within a few thousand centipawns; only a freak net reaches the clamp.
pub const NET_EVAL_LIMIT: i32 = 16_000;

/// The two evaluations, by name: what a report of a search played with
/// (its scores are in that evaluation's centipawns).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EvalKind {
    /// The hand-crafted terms (`eval/hce/`).
    HandCrafted,
    /// A net (`eval/nnue/`).
    Net,
}

/// A net the engine can play with: its weights, where they came from, and
/// an identity that keeps its evaluations apart from any other
/// evaluation's in the caches.
#[derive(Debug)]
pub struct LoadedNet {
    net: AnyNet,
    /// The score model its file carries, if any.
    model: Option<ScoreModel>,
    /// `<default>`, or the file as `EvalFile` named it.
    source: String,
    /// A 64-bit digest of the file, never 0 (0 is the hand-crafted
    /// evaluation's).
    id: u64,
    /// The sha256 of the file, what a user compares a net by.
    sha256: [u8; 32],
}

impl LoadedNet {
    /// The net of a net file's `bytes`, called `source`.
    ///
    /// # Errors
    ///
    /// The [`NetError`] of [`NetFile::from_bytes`].
    pub fn from_bytes(bytes: &[u8], source: &str) -> Result<LoadedNet, NetError> {
        let file = NetFile::from_bytes(bytes)?;
        Ok(LoadedNet {
            net: file.net,
            model: file.model,
            source: source.to_owned(),
            id: digest(bytes),
            sha256: Sha256::digest(bytes).into(),
        })
    }

    /// Reads the net file `path` ([`read_file`]: bounded in size) and
    /// checks it.
    ///
    /// # Errors
    ///
    /// As [`read_file`], else the error of [`NetFile::from_bytes`].
    pub fn load(path: &Path) -> Result<LoadedNet, NetError> {
        LoadedNet::from_bytes(&read_file(path)?, &path.display().to_string())
    }

    /// The built-in net (`nets/default.nnue`), read once.
    ///
    /// # Errors
    ///
    /// When the built-in file is not a net this engine reads (a test keeps
    /// that from happening).
    pub fn built_in() -> Result<Arc<LoadedNet>, NetError> {
        static BUILT_IN: OnceLock<Result<Arc<LoadedNet>, NetError>> = OnceLock::new();
        BUILT_IN
            .get_or_init(|| LoadedNet::from_bytes(BUILT_IN_NET, BUILT_IN_NAME).map(Arc::new))
            .clone()
    }

    /// The net named by an `EvalFile` value: `<default>` (or nothing) is
    /// the built-in net, anything else a path.
    ///
    /// # Errors
    ///
    /// As [`LoadedNet::load`] and [`LoadedNet::built_in`].
    pub fn named(name: &str) -> Result<Arc<LoadedNet>, NetError> {
        if is_built_in(name) {
            LoadedNet::built_in()
        } else {
            LoadedNet::load(&PathBuf::from(name)).map(Arc::new)
        }
    }

    /// The quantised weights.
    pub fn net(&self) -> &AnyNet {
        &self.net
    }

    /// The net's own score model, from its file: how its centipawns read
    /// as chances and as `score cp`; `None` when the file has none (its
    /// scores are then shown in its raw centipawns).
    pub fn score_model(&self) -> Option<&ScoreModel> {
        self.model.as_ref()
    }

    /// Where the net came from: `<default>` or the path given.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The net's identity in the caches (a digest of its file; never 0).
    pub fn id(&self) -> u64 {
        self.id
    }

    /// The sha256 of the net's file, lowercase hex.
    pub fn sha256_hex(&self) -> String {
        self.sha256.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// The evaluation of `pos` with the net from the side to move's point
    /// of view, from scratch: its output as [`net_score`] finishes it.
    pub fn evaluate(&self, pos: &Chess) -> i32 {
        net_score(pos, self.net.evaluate_board(pos.board(), pos.turn()))
    }

    /// The net's own output for `pos` (side to move's view), clamped to
    /// ±[`NET_EVAL_LIMIT`], without the endgame knowledge of [`net_score`].
    pub fn raw_output(&self, pos: &Chess) -> i32 {
        self.net
            .evaluate_board(pos.board(), pos.turn())
            .clamp(-NET_EVAL_LIMIT, NET_EVAL_LIMIT)
    }
}

/// The evaluation that plays when a net gave `output` for `pos` (side to
/// move's view): the output clamped to ±[`NET_EVAL_LIMIT`], with what is
/// known about the ending laid over it
/// ([`net_with_knowledge`](super::endgame::verdict::net_with_knowledge)).
#[inline]
pub(super) fn net_score(pos: &Chess, output: i32) -> i32 {
    net_with_knowledge(pos, output.clamp(-NET_EVAL_LIMIT, NET_EVAL_LIMIT))
}

/// Whether an `EvalFile` value names the built-in net: `<default>`, or
/// nothing (`<empty>`).
pub fn is_built_in(name: &str) -> bool {
    let name = name.trim();
    name.is_empty() || name == BUILT_IN_NAME
}

/// A 64-bit digest of `bytes` (multiply-xor over 8-byte words, then a
/// final mix), never 0. Not cryptographic: it only has to tell two nets
/// apart.
fn digest(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h = bytes.len() as u64 ^ 0x5851_F42D_4C95_7F2D;
    for chunk in bytes.chunks(8) {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        h = (h ^ u64::from_le_bytes(word))
            .wrapping_mul(K)
            .rotate_left(29);
    }
    h ^= h >> 32;
    h = h.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    h ^= h >> 32;
    h.max(1)
}

/// Which evaluation a search plays with.
#[derive(Debug, Clone, Default)]
pub enum Evaluation {
    /// The hand-crafted evaluation.
    #[default]
    HandCrafted,
    /// A net.
    Net(Arc<LoadedNet>),
}

/// The hand-crafted evaluation, as a value to borrow for as long as needed.
pub static HAND_CRAFTED: Evaluation = Evaluation::HandCrafted;

impl Evaluation {
    /// Which of the two it is.
    pub fn kind(&self) -> EvalKind {
        match self {
            Evaluation::HandCrafted => EvalKind::HandCrafted,
            Evaluation::Net(_) => EvalKind::Net,
        }
    }

    /// The net, if it is one.
    pub fn net(&self) -> Option<&LoadedNet> {
        match self {
            Evaluation::HandCrafted => None,
            Evaluation::Net(net) => Some(net),
        }
    }

    /// How its scores read ([`ScoreModel`]): the hand-crafted
    /// evaluation's model, or the net's own; `None` for a net whose file
    /// has none.
    pub fn score_model(&self) -> Option<ScoreModel> {
        match self {
            Evaluation::HandCrafted => Some(ScoreModel::HAND_CRAFTED),
            Evaluation::Net(net) => net.score_model().copied(),
        }
    }

    /// Its identity in the caches: 0 for the hand-crafted evaluation, a
    /// digest of the file for a net. Two evaluations with the same
    /// identity give the same values.
    pub fn id(&self) -> u64 {
        self.net().map_or(0, LoadedNet::id)
    }

    /// The evaluation of `pos` from the side to move's point of view, from
    /// scratch (no cache): what `eval` shows and the tests compare.
    pub fn evaluate(&self, pos: &Chess) -> i32 {
        match self {
            Evaluation::HandCrafted => hce::evaluate(pos),
            Evaluation::Net(net) => net.evaluate(pos),
        }
    }

    /// What it is, in a few words: `hand-crafted evaluation`, or `net
    /// <default>` / `net <path>`.
    pub fn describe(&self) -> String {
        match self {
            Evaluation::HandCrafted => "hand-crafted evaluation".to_owned(),
            Evaluation::Net(net) => format!("net {}", net.source()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_net_loads_and_is_told_apart_from_the_hand_crafted_evaluation() {
        let net = LoadedNet::built_in().expect("nets/default.nnue is a net of this engine");
        assert_eq!(net.source(), BUILT_IN_NAME);
        assert!(
            Arc::ptr_eq(&net, &LoadedNet::built_in().unwrap()),
            "read once"
        );
        let evaluation = Evaluation::Net(net);
        assert_ne!(evaluation.id(), HAND_CRAFTED.id());
        assert_eq!(HAND_CRAFTED.id(), 0);
        assert_eq!(evaluation.kind(), EvalKind::Net);
        // A trained net: the start position is about level, a queen up is
        // well ahead.
        let start = Chess::default();
        assert!(evaluation.evaluate(&start).abs() < 100);
        let fen: shakmaty::fen::Fen = "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
            .parse()
            .unwrap();
        let up: Chess = fen.into_position(shakmaty::CastlingMode::Standard).unwrap();
        assert!(
            evaluation.evaluate(&up) > 400,
            "{}",
            evaluation.evaluate(&up)
        );
    }

    #[test]
    fn the_built_in_net_carries_its_own_score_model() {
        let net = LoadedNet::built_in().unwrap();
        let model = *net
            .score_model()
            .expect("the built-in net's file holds its model");
        assert!(model.normalised);
        assert!((model.pawn() - 114.251).abs() < 0.01, "{}", model.pawn());
        assert_eq!(Evaluation::Net(Arc::clone(&net)).score_model(), Some(model));
        assert_eq!(HAND_CRAFTED.score_model(), Some(ScoreModel::HAND_CRAFTED));
        // The same weights in a file without a model: no model, the same
        // evaluations.
        let bare = LoadedNet::from_bytes(&net.net().to_bytes(), "bare").unwrap();
        assert_eq!(bare.score_model(), None);
        assert_eq!(bare.net(), net.net());
        assert_eq!(Evaluation::Net(Arc::new(bare)).score_model(), None);
    }

    #[test]
    fn nets_of_different_files_have_different_identities() {
        let a = LoadedNet::from_bytes(BUILT_IN_NET, "a").unwrap();
        let mut other = a.net().to_bytes();
        // Another output bias: another net.
        let len = other.len();
        other[len - 8] ^= 1;
        let crc = crate::eval::nnue::crc32(&other[..len - 4]);
        other[len - 4..].copy_from_slice(&crc.to_le_bytes());
        let b = LoadedNet::from_bytes(&other, "b").unwrap();
        assert_ne!(a.id(), b.id());
        assert_eq!(
            a.id(),
            LoadedNet::from_bytes(BUILT_IN_NET, "c").unwrap().id()
        );
        assert!(is_built_in("<default>") && is_built_in("") && !is_built_in("x.nnue"));
    }
}
