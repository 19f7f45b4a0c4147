//! The net's shape and its quantisation constants, and the feature index
//! of a piece seen from one side (the first layer's input).
//!
//! The net is a perspective net, `(768 -> H) x 2 -> 1`: each side has its
//! own hidden layer (the accumulator) over the same first-layer weights,
//! built from the board as that side sees it, and the output reads the
//! side to move's accumulator first. docs/nnue.md derives the constants.

use shakmaty::{Color, Piece, Square};

/// Inputs of the first layer, per perspective: 2 colours x 6 roles x 64
/// squares.
pub const INPUTS: usize = 768;

/// Hidden neurons per perspective (the accumulator's width). A net file
/// with another width is refused.
pub const HIDDEN: usize = 256;

// The SIMD kernels work in whole registers of up to 32 lanes, and the
// scalar dot product in chunks of 16.
const _: () = assert!(HIDDEN.is_multiple_of(32));

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
    let theirs = usize::from(piece.color != perspective);
    let role = usize::from(piece.role as u8 - 1);
    let sq = match perspective {
        Color::White => sq,
        Color::Black => sq.flip_vertical(),
    };
    384 * theirs + 64 * role + usize::from(sq)
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
    fn the_limits_keep_every_product_in_range() {
        // The SIMD output multiplies the activation by the weight in i16.
        assert!(QA * i32::from(OUTPUT_WEIGHT_LIMIT) <= i32::from(i16::MAX));
        // The trainer's clip quantises inside the output weight limit.
        assert!((WEIGHT_CLIP * QB as f32).round() <= f32::from(OUTPUT_WEIGHT_LIMIT));
    }
}
