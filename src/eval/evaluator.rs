//! The search's side of the evaluation interface: what one search thread
//! keeps between searches ([`EvalState`]: the caches, the net's
//! accumulators) and, for one search, the [`Evaluator`] the search calls,
//! whichever evaluation plays. The search tells it where it is (the root,
//! each move and null move it makes) and asks it for evaluations; it never
//! learns which evaluation answers.
//!
//! | hook | hand-crafted | net |
//! |---|---|---|
//! | [`Evaluator::new`] (the root) | nothing | the root's accumulator from scratch |
//! | [`Evaluator::played`], [`Evaluator::played_null`] | nothing | the change noted in the child's slot ([`AnyStack`], lazily) |
//! | [`Evaluator::evaluate`] | cache, else the terms (pawn cache) | cache, else the accumulator brought up to date and the output |
//! | [`Evaluator::partial`] | the cheap part ([`Partial`]), or the whole when exact | the whole evaluation (a net has no cheap part) |
//! | [`Evaluator::complete`] | cache, else the rest of the terms | (not reached) the whole evaluation |
//!
//! **The evaluation cache** holds whichever evaluation plays: its keys are
//! the position's key XOR the evaluation's identity ([`Evaluation::id`]:
//! 0 for the hand-crafted evaluation, a digest of the file for a net), so
//! an entry of one evaluation is found by another only as a key collision
//! would be (about once in 2^40 probes), and switching back and forth
//! needs no clearing.

use shakmaty::{Color, Move, Position as _};

use super::eval_cache::EvalCache;
use super::evaluation::{EvalKind, Evaluation, LoadedNet, net_score};
use super::hce::{self, Partial, PawnCache};
use super::nnue::AnyStack;
use crate::chess::Position;

/// Plies from the root the net's accumulators are kept for (the search
/// goes to at most 128; a deeper position is evaluated from scratch).
pub const ACCUMULATOR_PLIES: usize = 256;

/// What one search thread keeps for the evaluation between searches.
#[derive(Clone, Default)]
pub struct EvalState {
    /// The hand-crafted evaluation's pawn-and-king and piece-count cache.
    pawns: PawnCache,
    /// Whole static evaluations, of any evaluation (see the module
    /// documentation).
    cache: EvalCache,
    /// The net's accumulators, by ply (allocated when a net first plays,
    /// again when a net of another width plays).
    accumulators: AnyStack,
}

/// One search thread's evaluation during one search (see the module
/// documentation).
pub struct Evaluator<'a> {
    state: &'a mut EvalState,
    /// The net, when one plays.
    net: Option<&'a LoadedNet>,
    /// XORed into the keys of the evaluation cache.
    salt: u64,
    /// The plies the root position had played (its game's moves).
    root_plies: usize,
}

impl<'a> Evaluator<'a> {
    /// The evaluator of a search of `root` with `evaluation`, on this
    /// thread's `state`.
    pub fn new(state: &'a mut EvalState, evaluation: &'a Evaluation, root: &Position) -> Self {
        let net = evaluation.net();
        if let Some(net) = net {
            state.accumulators.fit(net.net(), ACCUMULATOR_PLIES);
            state.accumulators.set_root(net.net(), root.board().board());
        }
        Evaluator {
            state,
            net,
            salt: evaluation.id(),
            root_plies: root.plies(),
        }
    }

    /// Which evaluation plays.
    pub fn kind(&self) -> EvalKind {
        if self.net.is_some() {
            EvalKind::Net
        } else {
            EvalKind::HandCrafted
        }
    }

    /// The ply from the root of `pos`'s current position.
    #[inline]
    fn ply(&self, pos: &Position) -> usize {
        pos.plies() - self.root_plies
    }

    /// `mover` has just played `m`, reaching `pos`.
    #[inline]
    pub fn played(&mut self, pos: &Position, mover: Color, m: Move) {
        if self.net.is_some() {
            let ply = self.ply(pos);
            if ply < self.state.accumulators.plies() {
                self.state
                    .accumulators
                    .push_move(ply, mover, m, pos.board().board());
                self.verify_at_every_node(pos);
            }
        }
    }

    /// A null move has just reached `pos`.
    #[inline]
    pub fn played_null(&mut self, pos: &Position) {
        if self.net.is_some() {
            let ply = self.ply(pos);
            if ply < self.state.accumulators.plies() {
                self.state.accumulators.push_null(ply);
                self.verify_at_every_node(pos);
            }
        }
    }

    /// Starts loading what the evaluation of `pos` (key `key`) will read:
    /// the search calls this as it probes the transposition table, so that
    /// the loads overlap.
    #[inline]
    pub fn prefetch(&self, pos: &Position, key: u64) {
        if self.net.is_none() {
            self.state.pawns.prefetch(pos.board().board());
        }
        self.state.cache.prefetch(key ^ self.salt);
    }

    /// The static evaluation of `pos` from the side to move's point of
    /// view: the cache's, else computed and stored.
    #[inline]
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        let key = pos.key() ^ self.salt;
        if let Some(eval) = self.state.cache.probe(key) {
            return eval;
        }
        let eval = match self.net {
            None => hce::evaluate_cached(pos.board(), &mut self.state.pawns),
            Some(net) => self.net_eval(net, pos),
        };
        self.state.cache.store(key, eval);
        eval
    }

    /// The net's evaluation of `pos` from its accumulator.
    #[inline]
    fn net_eval(&mut self, net: &LoadedNet, pos: &Position) -> i32 {
        let ply = self.ply(pos);
        let board = pos.board();
        if ply >= self.state.accumulators.plies() {
            return net.evaluate(board);
        }
        if cfg!(test) {
            verify::check(&mut self.state.accumulators, ply, net, board);
        }
        let eval = self
            .state
            .accumulators
            .evaluate(ply, net.net(), board.board(), board.turn());
        // The stack was fitted to the net when the search started.
        eval.map_or_else(|| net.evaluate(board), |output| net_score(board, output))
    }

    /// The cheap part of the evaluation of `pos` for a lazy evaluation
    /// (`Err`), or the whole evaluation (`Ok`) when that is as cheap: a
    /// known win, or a net, which has no cheap part. The evaluation cache
    /// is not asked for the hand-crafted cheap part: what the search does
    /// with it must not depend on what the cache happens to hold (it is
    /// asked in [`Evaluator::complete`]).
    #[inline]
    pub fn partial(&mut self, pos: &Position) -> Result<i32, Partial> {
        if self.net.is_some() {
            return Ok(self.evaluate(pos));
        }
        let partial = hce::partial_cached(pos.board(), &mut self.state.pawns);
        if partial.is_exact() {
            return Ok(partial.estimate());
        }
        Err(partial)
    }

    /// The whole evaluation of `pos` from the cheap part
    /// [`Evaluator::partial`] gave: equal to [`Evaluator::evaluate`].
    #[inline]
    pub fn complete(&mut self, pos: &Position, partial: Partial) -> i32 {
        if self.net.is_some() {
            return self.evaluate(pos);
        }
        let key = pos.key() ^ self.salt;
        self.state.cache.probe(key).unwrap_or_else(|| {
            let eval = hce::complete(pos.board(), partial);
            self.state.cache.store(key, eval);
            eval
        })
    }

    /// The test hook's check at every node (see `verify`).
    #[inline]
    fn verify_at_every_node(&mut self, pos: &Position) {
        if cfg!(test)
            && verify::at_every_node()
            && let Some(net) = self.net
        {
            let ply = self.ply(pos);
            verify::check(&mut self.state.accumulators, ply, net, pos.board());
        }
    }
}

/// A test hook (compiled out of every build but the library's unit tests,
/// where `cfg!(test)` holds): on a thread that turned it on, every
/// accumulator the net evaluates from (and, with `every_node`, every
/// accumulator after every move and null move, brought up to date at
/// once) is compared with a refresh from its board.
pub(crate) mod verify {
    use std::cell::Cell;

    use shakmaty::{Chess, Position as _};

    use super::{AnyStack, LoadedNet};

    thread_local! {
        /// Off, on at evaluations (1), on at every node (2).
        static MODE: Cell<u8> = const { Cell::new(0) };
        /// Accumulators compared on this thread.
        static CHECKED: Cell<u64> = const { Cell::new(0) };
    }

    /// Turns the checks on (at evaluations, or `every_node`) or off on
    /// this thread, and returns the number of accumulators checked so far.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) fn set(on: bool, every_node: bool) -> u64 {
        MODE.set(match (on, every_node) {
            (false, _) => 0,
            (true, false) => 1,
            (true, true) => 2,
        });
        CHECKED.get()
    }

    /// Whether the checks run at every node.
    pub(super) fn at_every_node() -> bool {
        MODE.get() == 2
    }

    /// Compares the accumulator at `ply` of `stack`, brought up to date,
    /// with the accumulator of `board` from scratch.
    ///
    /// # Panics
    ///
    /// When they differ (that is the check), or the stack is not the net's
    /// width.
    pub(super) fn check(stack: &mut AnyStack, ply: usize, net: &LoadedNet, board: &Chess) {
        if MODE.get() != 0 {
            let same = stack.matches_refresh(ply, net.net(), board.board());
            assert!(
                same == Some(true),
                "incremental accumulator differs from a refresh at {}",
                shakmaty::fen::Fen::from_position(board, shakmaty::EnPassantMode::Legal)
            );
            CHECKED.set(CHECKED.get() + 1);
        }
    }
}
