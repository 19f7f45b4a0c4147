//! [`AnyNet`]: a net of any hidden width the engine plays (one compile-time
//! instance of [`Net`] per width of [`WIDTHS`]), chosen when the file is
//! read; [`AnyStack`], the accumulator stack of the same width; and
//! [`at_width`], the one dispatch from a width known at run time to the
//! code compiled for it. All of them are made from the one list of widths
//! (`arch::widths!`).
//!
//! Every width is its own monomorphised code (the kernels' loops have a
//! constant trip count, as with one compiled width); the price of the
//! choice is one `match` per call of the search's hooks, on a value that
//! never changes during a search.
//!
//! [`WIDTHS`]: super::arch::WIDTHS

use shakmaty::{Board, Color, Move};

use super::accumulator::Accumulator;
use super::arch::{Layout, widths};
use super::error::NetError;
use super::net::Net;
use super::stack::AccumulatorStack;

/// A function of a width known only at run time, compiled for each width
/// ([`at_width`]): what a closure would be if closures could be generic
/// over a constant.
pub trait WidthFn {
    /// What it gives.
    type Output;

    /// Runs it for the width `H`.
    fn call<const H: usize>(self) -> Self::Output
    where
        AnyNet: From<Net<H>>;
}

/// Defines, from the one list of widths (`arch::widths!`), everything in this
/// file that names each width: the variants of [`AnyNet`] and
/// [`AnyStack`], their conversions, the macros that run code on the net or
/// stack inside them, and [`at_width`]. `$d` is a `$`, for the macros it
/// defines.
macro_rules! define_any {
    ($d:tt ; $($width:literal => $variant:ident),*) => {
        /// A quantised net of one of the widths the engine plays.
        // The variants differ in size by their inline biases and output
        // weights (3 KB at 512): a net lives once per engine, behind an
        // `Arc`, and boxing them would add a pointer to follow on every
        // evaluation.
        #[allow(clippy::large_enum_variant)]
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub enum AnyNet {
            $(
                #[doc = concat!("A net ", stringify!($width), " hidden neurons wide.")]
                $variant(Net<$width>),
            )*
        }

        /// An [`AccumulatorStack`] of the width of the net it serves, or
        /// none yet.
        #[derive(Clone, Debug, Default)]
        pub enum AnyStack {
            /// No stack yet (no net has played on this thread).
            #[default]
            None,
            $(
                #[doc = concat!("For a net ", stringify!($width), " wide.")]
                $variant(AccumulatorStack<$width>),
            )*
        }

        /// Runs `$body` with `$net` bound to the net inside `$any`,
        /// whatever its width.
        macro_rules! with_net {
            ($d any:expr, $d net:ident => $d body:expr) => {
                match $d any {
                    $( AnyNet::$variant($d net) => $d body, )*
                }
            };
        }

        // The net file writes a net of any width through it.
        pub(super) use with_net;

        /// Runs `$body` with `$stack` bound to the stack inside `$any`,
        /// else `$none`.
        macro_rules! with_stack {
            ($d any:expr, $d stack:ident => $d body:expr, None => $d none:expr) => {
                match $d any {
                    AnyStack::None => $d none,
                    $( AnyStack::$variant($d stack) => $d body, )*
                }
            };
        }

        /// Runs `$body` with `$stack` and `$net` bound when the stack and
        /// the net have the same width, else `$other`.
        macro_rules! with_pair {
            (
                $d any_stack:expr, $d any_net:expr,
                ($d stack:ident, $d net:ident) => $d body:expr, _ => $d other:expr
            ) => {
                match ($d any_stack, $d any_net) {
                    $( (AnyStack::$variant($d stack), AnyNet::$variant($d net)) => $d body, )*
                    _ => $d other,
                }
            };
        }

        /// `f` run for the width `hidden` (its compiled code), or `None`
        /// when the engine does not play that width.
        pub fn at_width<F: WidthFn>(hidden: usize, f: F) -> Option<F::Output> {
            match hidden {
                $( $width => Some(f.call::<$width>()), )*
                _ => None,
            }
        }

        $(
            impl From<Net<$width>> for AnyNet {
                fn from(net: Net<$width>) -> AnyNet {
                    AnyNet::$variant(net)
                }
            }

            impl TryFrom<AnyNet> for Net<$width> {
                type Error = NetError;

                /// The net, when it is this wide.
                fn try_from(any: AnyNet) -> Result<Net<$width>, NetError> {
                    match any {
                        AnyNet::$variant(net) => Ok(net),
                        other => Err(NetError::WrongArchitecture {
                            field: "hidden",
                            found: other.hidden() as u32,
                            expected: $width,
                        }),
                    }
                }
            }

            impl From<AccumulatorStack<$width>> for AnyStack {
                fn from(stack: AccumulatorStack<$width>) -> AnyStack {
                    AnyStack::$variant(stack)
                }
            }
        )*
    };
}

widths!(define_any, $);

impl AnyNet {
    /// Hidden neurons per perspective.
    pub fn hidden(&self) -> usize {
        with_net!(self, net => net.biases().0.len())
    }

    /// The input layout.
    pub fn layout(&self) -> Layout {
        with_net!(self, net => net.layout())
    }

    /// The net as a net file (the newest version), without a score model
    /// ([`NetFile`](super::NetFile) writes one with its model).
    pub fn to_bytes(&self) -> Vec<u8> {
        with_net!(self, net => net.to_bytes())
    }

    /// The evaluation of `board` with `stm` to move, in centipawns from
    /// `stm`'s view, from a fresh accumulator.
    pub fn evaluate_board(&self, board: &Board, stm: Color) -> i32 {
        with_net!(self, net => net.evaluate(&Accumulator::refresh(net, board), stm))
    }
}

impl AnyStack {
    /// A stack for `net` of at least `plies` plies: this one when it fits,
    /// else a new one.
    pub fn fit(&mut self, net: &AnyNet, plies: usize) {
        let fits = with_pair!(&*self, net, (stack, _net) => stack.plies() >= plies, _ => false);
        if !fits {
            *self = with_net!(net, net => AnyStack::sized(net, plies));
        }
    }

    /// A stack of `plies` plies for a net like `_net`.
    fn sized<const H: usize>(_net: &Net<H>, plies: usize) -> AnyStack
    where
        AnyStack: From<AccumulatorStack<H>>,
    {
        AnyStack::from(AccumulatorStack::<H>::with_plies(plies))
    }

    /// Plies the stack keeps (0 when there is none).
    pub fn plies(&self) -> usize {
        with_stack!(self, stack => stack.plies(), None => 0)
    }

    /// Starts a search at `root` (nothing when the stack is not `net`'s
    /// width: [`AnyStack::fit`] it first).
    pub fn set_root(&mut self, net: &AnyNet, root: &Board) {
        with_pair!(self, net, (stack, net) => stack.set_root(net, root), _ => {});
    }

    /// As [`AccumulatorStack::push_move`].
    #[inline]
    pub fn push_move(&mut self, ply: usize, mover: Color, m: Move, after: &Board) {
        with_stack!(self, stack => stack.push_move(ply, mover, m, after), None => {});
    }

    /// As [`AccumulatorStack::push_null`].
    #[inline]
    pub fn push_null(&mut self, ply: usize) {
        with_stack!(self, stack => stack.push_null(ply), None => {});
    }

    /// `net`'s evaluation at `ply`, whose position has `board` and `stm` to
    /// move, from the accumulator brought up to date; `None` when the
    /// stack is not `net`'s width.
    ///
    /// # Panics
    ///
    /// As [`AccumulatorStack::get`].
    #[inline]
    pub fn evaluate(&mut self, ply: usize, net: &AnyNet, board: &Board, stm: Color) -> Option<i32> {
        with_pair!(self, net, (stack, net) => {
            let acc = stack.get(ply, net, board);
            Some(net.evaluate(acc, stm))
        }, _ => None)
    }

    /// Whether the accumulator at `ply`, brought up to date, equals a
    /// refresh from `board` (a check for the tests); `None` when the stack
    /// is not `net`'s width.
    pub fn matches_refresh(&mut self, ply: usize, net: &AnyNet, board: &Board) -> Option<bool> {
        with_pair!(self, net, (stack, net) => {
            let acc = *stack.get(ply, net, board);
            Some(acc == Accumulator::refresh(net, board))
        }, _ => None)
    }
}
