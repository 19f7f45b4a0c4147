//! The SIMD kernels give exactly the scalar kernels' numbers, on columns
//! over the whole i16 range (so that the sums wrap) and on the extremes of
//! the output's product. Only builds with AVX2 have anything to compare;
//! the scalar kernel's dot product is also checked against a plain sum.

use super::super::arch::{OUTPUT_WEIGHT_LIMIT, QA};
use super::super::column::Column;
use super::super::simd::scalar;
use super::{for_each_width, uniform_i16};
use crate::chess::random::Rng;

/// A column of uniform values in ±`limit`, with some extremes.
fn column<const H: usize>(rng: &mut Rng, limit: i16) -> Column<H> {
    let mut col = Column::ZERO;
    for w in &mut col.0 {
        *w = match rng.below(8) {
            0 => limit,
            1 => -limit,
            _ => uniform_i16(rng, limit),
        };
    }
    col
}

/// The output's sum, plainly.
fn plain_dot<const H: usize>(
    us: &Column<H>,
    them: &Column<H>,
    w_us: &Column<H>,
    w_them: &Column<H>,
) -> i64 {
    let half = |acc: &Column<H>, w: &Column<H>| -> i64 {
        acc.0
            .iter()
            .zip(&w.0)
            .map(|(&a, &w)| {
                let v = i64::from(a.clamp(0, QA as i16));
                v * v * i64::from(w)
            })
            .sum()
    };
    half(us, w_us) + half(them, w_them)
}

/// The kernels of one path at one width, as function pointers, for a
/// comparison.
struct Kernels<const H: usize> {
    name: &'static str,
    update11: fn(&mut Column<H>, &Column<H>, [&Column<H>; 1], [&Column<H>; 1]),
    update12: fn(&mut Column<H>, &Column<H>, [&Column<H>; 1], [&Column<H>; 2]),
    update22: fn(&mut Column<H>, &Column<H>, [&Column<H>; 2], [&Column<H>; 2]),
    update10: fn(&mut Column<H>, &Column<H>, [&Column<H>; 1], [&Column<H>; 0]),
    in_place22: fn(&mut Column<H>, [&Column<H>; 2], [&Column<H>; 2]),
    dot: fn(&Column<H>, &Column<H>, &Column<H>, &Column<H>) -> i64,
}

#[allow(unused_macros)] // Unused in builds without SIMD.
macro_rules! kernels {
    ($path:ident) => {
        Kernels {
            name: super::super::simd::$path::Kernels::PATH,
            update11: super::super::simd::$path::Kernels::update::<H, 1, 1>,
            update12: super::super::simd::$path::Kernels::update::<H, 1, 2>,
            update22: super::super::simd::$path::Kernels::update::<H, 2, 2>,
            update10: super::super::simd::$path::Kernels::update::<H, 1, 0>,
            in_place22: super::super::simd::$path::Kernels::update_in_place::<H, 2, 2>,
            dot: super::super::simd::$path::Kernels::screlu_dot::<H>,
        }
    };
}

/// The SIMD paths this build has.
// What is pushed depends on the build's target features.
#[allow(clippy::vec_init_then_push)]
fn simd_paths<const H: usize>() -> Vec<Kernels<H>> {
    #[allow(unused_mut)]
    let mut paths = Vec::new();
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    paths.push(kernels!(avx2));
    #[cfg(all(
        target_arch = "x86_64",
        target_feature = "avx512f",
        target_feature = "avx512bw"
    ))]
    paths.push(kernels!(avx512));
    paths
}

fn compare<const H: usize>(path: &Kernels<H>, rng: &mut Rng) {
    let reference: Kernels<H> = kernels!(scalar);
    let limit = [i16::MAX, 505, 1][rng.below(3)];
    let cols: Vec<Column<H>> = (0..5).map(|_| column(rng, limit)).collect();
    let [input, a, b, c, d] = [&cols[0], &cols[1], &cols[2], &cols[3], &cols[4]];
    let run = |k: &Kernels<H>| {
        let mut outs = [Column::ZERO; 5];
        (k.update11)(&mut outs[0], input, [a], [b]);
        (k.update12)(&mut outs[1], input, [a], [b, c]);
        (k.update22)(&mut outs[2], input, [a, b], [c, d]);
        (k.update10)(&mut outs[3], input, [a], []);
        outs[4] = *input;
        (k.in_place22)(&mut outs[4], [a, b], [c, d]);
        outs
    };
    assert_eq!(run(path), run(&reference), "{} updates", path.name);

    let (us, them) = (column(rng, i16::MAX), column(rng, 300));
    let (w_us, w_them) = (
        column(rng, OUTPUT_WEIGHT_LIMIT),
        column(rng, OUTPUT_WEIGHT_LIMIT),
    );
    let expected = plain_dot(&us, &them, &w_us, &w_them);
    assert_eq!((reference.dot)(&us, &them, &w_us, &w_them), expected);
    assert_eq!(
        (path.dot)(&us, &them, &w_us, &w_them),
        expected,
        "{} dot",
        path.name
    );
}

#[test]
fn simd_kernels_equal_the_scalar_kernels() {
    fn check<const H: usize>(rounds: usize) {
        let mut rng = Rng::new(51);
        let paths = simd_paths::<H>();
        for path in &paths {
            for _ in 0..rounds {
                compare(path, &mut rng);
            }
        }
        println!(
            "H = {H}, compared: {:?}",
            paths.iter().map(|p| p.name).collect::<Vec<_>>()
        );
    }
    for_each_width!(check(100));
}

#[test]
fn the_dot_product_is_exact_at_its_extremes() {
    for_each_width!(check_extremes());
}

/// Every activation at QA and every weight at ±127: the largest sums
/// (at `H` = 256, 512 · 255² · 127 ≈ 4.2 · 10⁹, beyond i32).
fn check_extremes<const H: usize>() {
    let full = Column([QA as i16; H]);
    for w in [OUTPUT_WEIGHT_LIMIT, -OUTPUT_WEIGHT_LIMIT] {
        let weights = Column([w; H]);
        let expected = 2 * H as i64 * 255 * 255 * i64::from(w);
        assert_eq!(
            scalar::Kernels::screlu_dot(&full, &full, &weights, &weights),
            expected
        );
        for path in simd_paths::<H>() {
            assert_eq!(
                (path.dot)(&full, &full, &weights, &weights),
                expected,
                "{}",
                path.name
            );
        }
    }
}
