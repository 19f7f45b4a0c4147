//! The net's shape and its quantisation constants, and the feature index
//! of a piece seen from one side (the first layer's input).
//!
//! The net is a perspective net, `(768 -> H) x 2 -> 1`: each side has its
//! own hidden layer (the accumulator) over the same first-layer weights,
//! built from the board as that side sees it, and the output reads the
//! side to move's accumulator first. The width `H` is the net file's (one
//! of [`WIDTHS`]), and so is the input [`Layout`]: plain, or mirrored so
//! that each side's own king stands on files a–d. docs/nnue.md derives the
//! constants.

use shakmaty::{Board, Color, File, Piece, Square};

/// Inputs of the first layer, per perspective: 2 colours x 6 roles x 64
/// squares.
pub const INPUTS: usize = 768;

/// The one list of the hidden widths the engine plays (neurons per
/// perspective, the accumulator's width), each with the name of its
/// variant in `AnyNet` and `AnyStack`: `widths!(m)` expands to
/// `m! { ; 32 => H32, 64 => H64, … }`, and `widths!(m, tokens)` puts the
/// tokens before the `;` (a `$`, for a callback that defines a macro of
/// its own). Everything that depends on the widths is made from it:
/// [`WIDTHS`], the variants of `AnyNet` and `AnyStack` and their
/// conversions, the dispatch from a width read at run time to its
/// compiled code (`any::at_width`, which the file reader and
/// `FloatNet::quantise` use) and the tests' walk over the widths. A new
/// width is one more pair here.
macro_rules! widths {
    ($callback:ident $(, $($before:tt)*)?) => {
        $callback! { $($($before)*)? ; 32 => H32, 64 => H64, 128 => H128, 256 => H256, 512 => H512 }
    };
}
pub(crate) use widths;

/// Defines [`WIDTHS`] from the list of `widths!`.
macro_rules! define_widths {
    (; $($width:literal => $variant:ident),*) => {
        /// The hidden widths the engine plays, narrowest first: a net file
        /// of another width is refused. Each is a compile-time instance of
        /// the net (`AnyNet`).
        pub const WIDTHS: [usize; [$($width),*].len()] = [$($width),*];
    };
}
widths!(define_widths);

/// The width of the built-in net, and the trainer's default.
pub const DEFAULT_HIDDEN: usize = 256;

// The SIMD kernels work in whole registers of up to 32 lanes, and the
// scalar dot product in chunks of 16; the file's largest size is the last
// width's.
const _: () = {
    let mut i = 0;
    while i < WIDTHS.len() {
        assert!(WIDTHS[i].is_multiple_of(32));
        assert!(i == 0 || WIDTHS[i - 1] < WIDTHS[i]);
        i += 1;
    }
};

/// Whether the engine plays nets `hidden` neurons wide.
pub fn is_supported_width(hidden: usize) -> bool {
    WIDTHS.contains(&hidden)
}

/// The supported widths as words: `32, 64, 128, 256 or 512`.
pub fn widths_in_words() -> String {
    let (last, rest) = WIDTHS.split_last().expect("some widths");
    let rest: Vec<String> = rest.iter().map(usize::to_string).collect();
    format!("{} or {last}", rest.join(", "))
}

/// How a perspective sees the board: the input layout, a field of the net
/// file (version 2; a version 1 file is [`Layout::Plain`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Layout {
    /// Black sees the board flipped top to bottom, White as it is.
    #[default]
    Plain,
    /// As [`Layout::Plain`], and besides the board flipped a↔h for a
    /// perspective whose own king stands on files e–h, so that the own king
    /// is always on files a–d. A king move between the d and e files
    /// changes every input of its side: that perspective is refreshed.
    KingMirrored,
}

impl Layout {
    /// Both layouts.
    pub const ALL: [Layout; 2] = [Layout::Plain, Layout::KingMirrored];

    /// The layout's number in the net file.
    pub fn code(self) -> u32 {
        match self {
            Layout::Plain => 0,
            Layout::KingMirrored => 1,
        }
    }

    /// The layout of a number in the net file, if it is one.
    pub fn from_code(code: u32) -> Option<Layout> {
        Layout::ALL.into_iter().find(|l| l.code() == code)
    }

    /// Whether the board is mirrored by the king's file.
    #[inline]
    pub fn is_mirrored(self) -> bool {
        self == Layout::KingMirrored
    }

    /// What it is called in messages and the docs.
    pub fn name(self) -> &'static str {
        match self {
            Layout::Plain => "plain",
            Layout::KingMirrored => "king-mirrored",
        }
    }

    /// The [`Orientation`] of `perspective` whose own king stands on
    /// `king` (none: as if on files a–d).
    #[inline]
    pub fn orientation(self, perspective: Color, king: Option<Square>) -> Orientation {
        let vertical = match perspective {
            Color::White => 0,
            Color::Black => 56,
        };
        let mirrored = self.is_mirrored() && king.is_some_and(|k| on_king_side(k.file()));
        Orientation(vertical | if mirrored { 7 } else { 0 })
    }

    /// The [`Orientation`] of `perspective` on `board`.
    #[inline]
    pub fn orientation_on(self, perspective: Color, board: &Board) -> Orientation {
        self.orientation(perspective, board.king_of(perspective))
    }
}

/// Files e–h: where a king makes a mirrored perspective flip the board.
#[inline]
pub fn on_king_side(file: File) -> bool {
    file >= File::E
}

/// Whether a king moving from `from` to `to` crosses between the d and e
/// files (and so changes its side's mirroring).
#[inline]
pub fn crosses_centre(from: Square, to: Square) -> bool {
    on_king_side(from.file()) != on_king_side(to.file())
}

/// How one perspective sees the squares: the value its squares are XORed
/// with (56 flips the ranks, 7 the files).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Orientation(pub u8);

/// Output buckets (one for now; the file has a field for more).
pub const BUCKETS: usize = 1;

/// The activation's identifier in the net file: 1 = SCReLU.
pub const ACTIVATION_SCRELU: u32 = 1;

/// The first layer's scale: a weight `w` is stored as `round(w * QA)`, and
/// the activation clamps the accumulator to `0..=QA` (1.0 in float).
pub const QA: i32 = 255;

/// The output layer's scale: a weight `w` is stored as `round(w * QB)`.
pub const QB: i32 = 64;

/// Centipawns per unit of the float output.
pub const SCALE: i32 = 400;

/// The largest output weight the file may hold, in either sign: with the
/// activation at most `QA` = 255, `v * w` then fits in an i16 (255 x 127 =
/// 32,385), which the SIMD output multiplies in before widening. Training
/// clips the float weights to ±1.98, which quantises to at most 127.
pub const OUTPUT_WEIGHT_LIMIT: i16 = 127;

/// The float clip training keeps the weights within (first layer and
/// output), so that every quantised weight fits its integer type.
pub const WEIGHT_CLIP: f32 = 1.98;

/// The first-layer input of `piece` on `sq`, seen from `perspective`: the
/// perspective's own pieces come first (`0..384`), by role (pawn 0 ... king
/// 5) then square, and Black sees the board flipped (`sq ^ 56`), so that
/// both sides see their own pieces from their own side.
///
/// ```
/// use shakmaty::{Color, Piece, Role, Square};
/// use shears::eval::nnue::arch::feature;
/// let white_pawn = Piece { color: Color::White, role: Role::Pawn };
/// assert_eq!(feature(Color::White, white_pawn, Square::E2), 12);
/// // Black sees the same pawn as an enemy pawn on its own e7.
/// assert_eq!(feature(Color::Black, white_pawn, Square::E2), 384 + 52);
/// ```
#[inline]
pub fn feature(perspective: Color, piece: Piece, sq: Square) -> usize {
    feature_seen(
        perspective,
        Layout::Plain.orientation(perspective, None),
        piece,
        sq,
    )
}

/// The first-layer input of `piece` on `sq`, seen from `perspective`
/// oriented as `orientation` says: [`feature`] with the square XORed by the
/// orientation instead of flipped by colour alone.
///
/// ```
/// use shakmaty::{Color, Piece, Role, Square};
/// use shears::eval::nnue::arch::{Layout, feature_seen};
/// let white_pawn = Piece { color: Color::White, role: Role::Pawn };
/// // White's king on g1: a mirrored White sees its pawn on e2 as on d2.
/// let o = Layout::KingMirrored.orientation(Color::White, Some(Square::G1));
/// assert_eq!(feature_seen(Color::White, o, white_pawn, Square::E2), 11);
/// ```
#[inline]
pub fn feature_seen(
    perspective: Color,
    orientation: Orientation,
    piece: Piece,
    sq: Square,
) -> usize {
    let theirs = usize::from(piece.color != perspective);
    let role = usize::from(piece.role as u8 - 1);
    384 * theirs + 64 * role + usize::from(u8::from(sq) ^ orientation.0)
}

#[cfg(test)]
mod tests {
    use shakmaty::{Piece, Role};

    use super::*;

    #[test]
    fn every_piece_and_square_has_its_own_feature_per_perspective() {
        for perspective in Color::ALL {
            let mut seen = vec![false; INPUTS];
            for color in Color::ALL {
                for role in Role::ALL {
                    for sq in Square::ALL {
                        let f = feature(perspective, Piece { color, role }, sq);
                        assert!(
                            f < INPUTS && !seen[f],
                            "{perspective:?} {color:?} {role:?} {sq}"
                        );
                        seen[f] = true;
                    }
                }
            }
        }
    }

    #[test]
    fn a_piece_and_its_mirror_image_share_a_feature_across_perspectives() {
        for color in Color::ALL {
            for role in Role::ALL {
                for sq in Square::ALL {
                    let piece = Piece { color, role };
                    let mirrored = Piece {
                        color: !color,
                        role,
                    };
                    assert_eq!(
                        feature(Color::White, piece, sq),
                        feature(Color::Black, mirrored, sq.flip_vertical())
                    );
                }
            }
        }
    }

    #[test]
    fn a_mirrored_perspective_always_sees_its_king_on_files_a_to_d() {
        for perspective in Color::ALL {
            for king_sq in Square::ALL {
                let o = Layout::KingMirrored.orientation(perspective, Some(king_sq));
                let king = Piece {
                    color: perspective,
                    role: Role::King,
                };
                let seen = feature_seen(perspective, o, king, king_sq) % 64;
                assert!(seen % 8 < 4, "{perspective:?} king on {king_sq}: {seen}");
                // Plain orientations are the colour flip alone.
                let plain = Layout::Plain.orientation(perspective, Some(king_sq));
                assert_eq!(
                    feature_seen(perspective, plain, king, king_sq),
                    feature(perspective, king, king_sq)
                );
            }
        }
        assert!(crosses_centre(Square::E1, Square::D1));
        assert!(crosses_centre(Square::E1, Square::C1));
        assert!(!crosses_centre(Square::E1, Square::G1));
        assert!(!crosses_centre(Square::B1, Square::C1));
        for layout in Layout::ALL {
            assert_eq!(Layout::from_code(layout.code()), Some(layout));
        }
        assert_eq!(Layout::from_code(2), None);
        assert_eq!(widths_in_words(), "32, 64, 128, 256 or 512");
        assert!(is_supported_width(128) && !is_supported_width(100));
    }

    #[test]
    fn the_limits_keep_every_product_in_range() {
        // The SIMD output multiplies the activation by the weight in i16.
        assert!(QA * i32::from(OUTPUT_WEIGHT_LIMIT) <= i32::from(i16::MAX));
        // The trainer's clip quantises inside the output weight limit.
        assert!((WEIGHT_CLIP * QB as f32).round() <= f32::from(OUTPUT_WEIGHT_LIMIT));
    }
}
