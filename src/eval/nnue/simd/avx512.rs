//! The kernels with AVX-512 (F and BW): 32 i16 lanes per register.
//!
//! The intrinsics are `#[target_feature(enable = "avx512f,avx512bw")]`
//! functions, which Rust lets safe code call only from functions with the
//! same attribute, and such functions cannot be forced inline into their
//! callers. This module is compiled only when the build's target has
//! AVX-512 F and BW (every CPU that runs the build has them), so instead
//! each intrinsic is wrapped once in a small always-inlined function that
//! calls it in an `unsafe` block, and the kernels are plain safe code that
//! the compiler inlines into the accumulator's update.

use std::arch::x86_64::{
    __m512i, _mm512_add_epi16, _mm512_add_epi32, _mm512_loadu_si512, _mm512_madd_epi16,
    _mm512_max_epi16, _mm512_min_epi16, _mm512_mullo_epi16, _mm512_set1_epi16,
    _mm512_setzero_si512, _mm512_storeu_si512, _mm512_sub_epi16,
};

use super::super::arch::{OUTPUT_WEIGHT_LIMIT, QA};
use super::super::column::Column;

/// The name of this path.
pub(in super::super) const PATH: &str = "AVX-512";

/// i16 lanes per register.
const LANES: usize = 32;
/// i32 lanes per register.
const WIDE_LANES: usize = LANES / 2;

/// A register.
type Vector = __m512i;

// The wrapped intrinsics. SAFETY, for each `unsafe` block below that calls
// an intrinsic on registers only: this module is compiled only for targets
// with AVX-512 F and BW (see `simd/mod.rs`), so the instruction exists on
// every CPU that runs the build.

#[inline(always)]
fn zero() -> Vector {
    // SAFETY: AVX-512 F and BW are present (above).
    unsafe { _mm512_setzero_si512() }
}

#[inline(always)]
fn splat(x: i16) -> Vector {
    // SAFETY: AVX-512 F and BW are present (above).
    unsafe { _mm512_set1_epi16(x) }
}

#[inline(always)]
fn add16(a: Vector, b: Vector) -> Vector {
    // SAFETY: AVX-512 F and BW are present (above).
    unsafe { _mm512_add_epi16(a, b) }
}

#[inline(always)]
fn sub16(a: Vector, b: Vector) -> Vector {
    // SAFETY: AVX-512 F and BW are present (above).
    unsafe { _mm512_sub_epi16(a, b) }
}

/// Each lane clamped to `lo..=hi`.
#[inline(always)]
fn clamp16(v: Vector, lo: Vector, hi: Vector) -> Vector {
    // SAFETY: AVX-512 F and BW are present (above).
    unsafe { _mm512_min_epi16(_mm512_max_epi16(v, lo), hi) }
}

/// The low 16 bits of each lane's product.
#[inline(always)]
fn mullo16(a: Vector, b: Vector) -> Vector {
    // SAFETY: AVX-512 F and BW are present (above).
    unsafe { _mm512_mullo_epi16(a, b) }
}

/// Products of i16 lanes, added in pairs into i32 lanes.
#[inline(always)]
fn madd16(a: Vector, b: Vector) -> Vector {
    // SAFETY: AVX-512 F and BW are present (above).
    unsafe { _mm512_madd_epi16(a, b) }
}

#[inline(always)]
fn add32(a: Vector, b: Vector) -> Vector {
    // SAFETY: AVX-512 F and BW are present (above).
    unsafe { _mm512_add_epi32(a, b) }
}

/// Register `c` of a column.
#[inline(always)]
fn load<const H: usize>(col: &Column<H>, c: usize) -> Vector {
    let lanes: &[i16; LANES] = col.0[c * LANES..(c + 1) * LANES]
        .try_into()
        .expect("a register's worth of lanes");
    // SAFETY: AVX-512 F and BW are present (above); `lanes` is one register's worth of
    // readable memory, and the unaligned load needs no alignment.
    unsafe { _mm512_loadu_si512(lanes.as_ptr().cast()) }
}

/// Writes register `c` of a column.
#[inline(always)]
fn store<const H: usize>(col: &mut Column<H>, c: usize, v: Vector) {
    let lanes: &mut [i16; LANES] = (&mut col.0[c * LANES..(c + 1) * LANES])
        .try_into()
        .expect("a register's worth of lanes");
    // SAFETY: AVX-512 F and BW are present (above); `lanes` is one register's worth of
    // memory borrowed mutably, and the unaligned store needs no alignment.
    unsafe { _mm512_storeu_si512(lanes.as_mut_ptr().cast(), v) }
}

/// The i32 lanes of a register, added in i64.
#[inline(always)]
fn sum32(v: Vector) -> i64 {
    let mut lanes = [0i32; WIDE_LANES];
    // SAFETY: AVX-512 F and BW are present (above); `lanes` is one register's worth of
    // memory borrowed mutably, and the unaligned store needs no alignment.
    unsafe { _mm512_storeu_si512(lanes.as_mut_ptr().cast(), v) };
    lanes.iter().map(|&l| i64::from(l)).sum()
}

/// Register `c` of `v + Σ adds − Σ subs`.
#[inline(always)]
fn sum_chunk<const H: usize, const A: usize, const S: usize>(
    mut v: Vector,
    adds: [&Column<H>; A],
    subs: [&Column<H>; S],
    c: usize,
) -> Vector {
    for a in adds {
        v = add16(v, load(a, c));
    }
    for s in subs {
        v = sub16(v, load(s, c));
    }
    v
}

/// `out = input + Σ adds − Σ subs`, wrapping in i16.
#[inline(always)]
pub(in super::super) fn update<const H: usize, const A: usize, const S: usize>(
    out: &mut Column<H>,
    input: &Column<H>,
    adds: [&Column<H>; A],
    subs: [&Column<H>; S],
) {
    for c in 0..H / LANES {
        store(out, c, sum_chunk(load(input, c), adds, subs, c));
    }
}

/// `acc += Σ adds − Σ subs`, wrapping in i16.
#[inline(always)]
pub(in super::super) fn update_in_place<const H: usize, const A: usize, const S: usize>(
    acc: &mut Column<H>,
    adds: [&Column<H>; A],
    subs: [&Column<H>; S],
) {
    for c in 0..H / LANES {
        let v = sum_chunk(load(acc, c), adds, subs, c);
        store(acc, c, v);
    }
}

/// `Σ clamp(acc, 0, QA)² · w` over both perspectives, exact. The clamped
/// value `v` times the weight fits in i16 (|w| ≤ 127), and `madd` then
/// multiplies by `v` again and adds lane pairs into i32: each i32 lane sums
/// 2 · 2 · H / LANES products of at most 255² · 127 (32 at `H` = 256 with
/// AVX-512, 64 at 512: 5.3 · 10⁸), below 2³¹ (checked at compile time for
/// every width); the lanes are added in i64.
#[inline]
pub(in super::super) fn screlu_dot<const H: usize>(
    us: &Column<H>,
    them: &Column<H>,
    w_us: &Column<H>,
    w_them: &Column<H>,
) -> i64 {
    const {
        let products = 2 * 2 * (H / LANES) as i64;
        let largest = (QA * QA * OUTPUT_WEIGHT_LIMIT as i32) as i64;
        assert!(
            products * largest <= i32::MAX as i64,
            "an i32 lane would overflow"
        );
    }
    let (lo, hi) = (zero(), splat(QA as i16));
    let mut sum = zero();
    for (acc, w) in [(us, w_us), (them, w_them)] {
        for c in 0..H / LANES {
            let v = clamp16(load(acc, c), lo, hi);
            sum = add32(sum, madd16(mullo16(v, load(w, c)), v));
        }
    }
    sum32(sum)
}
