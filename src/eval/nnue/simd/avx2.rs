//! The kernels with AVX2: 16 i16 lanes per register.
//!
//! The kernels are `#[target_feature(enable = "avx2")]` functions (the
//! intrinsics are safe to call only there); the module is compiled only
//! when the build's target has AVX2, so the public wrappers call them
//! knowing the CPU has it.

use std::arch::x86_64::{
    __m256i, _mm256_add_epi16, _mm256_add_epi32, _mm256_loadu_si256, _mm256_madd_epi16,
    _mm256_max_epi16, _mm256_min_epi16, _mm256_mullo_epi16, _mm256_set1_epi16,
    _mm256_setzero_si256, _mm256_storeu_si256, _mm256_sub_epi16,
};

use super::super::arch::{HIDDEN, QA};
use super::super::column::Column;

/// The name of this path.
pub(in super::super) const PATH: &str = "AVX2";

/// i16 lanes per register.
const LANES: usize = 16;
/// Registers per column.
const CHUNKS: usize = HIDDEN / LANES;

/// `out = input + Σ adds − Σ subs`, wrapping in i16.
#[inline]
pub(in super::super) fn update<const A: usize, const S: usize>(
    out: &mut Column,
    input: &Column,
    adds: [&Column; A],
    subs: [&Column; S],
) {
    // SAFETY: this module is compiled only for targets with AVX2.
    unsafe { kernels::update(out, input, adds, subs) }
}

/// `acc += Σ adds − Σ subs`, wrapping in i16.
#[inline]
pub(in super::super) fn update_in_place<const A: usize, const S: usize>(
    acc: &mut Column,
    adds: [&Column; A],
    subs: [&Column; S],
) {
    // SAFETY: this module is compiled only for targets with AVX2.
    unsafe { kernels::update_in_place(acc, adds, subs) }
}

/// `Σ clamp(acc, 0, QA)² · w` over both perspectives, exact (see
/// `kernels::screlu_dot`).
#[inline]
pub(in super::super) fn screlu_dot(
    us: &Column,
    them: &Column,
    w_us: &Column,
    w_them: &Column,
) -> i64 {
    // SAFETY: this module is compiled only for targets with AVX2.
    unsafe { kernels::screlu_dot(us, them, w_us, w_them) }
}

mod kernels {
    use super::*;

    /// Register `c` of a column.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn load(col: &Column, c: usize) -> __m256i {
        let lanes = &col.0[c * LANES..(c + 1) * LANES];
        // SAFETY: `lanes` is 16 i16 = 32 bytes in bounds (the slice above
        // is checked); the unaligned load needs no alignment.
        unsafe { _mm256_loadu_si256(lanes.as_ptr().cast()) }
    }

    /// Writes register `c` of a column.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn store(col: &mut Column, c: usize, v: __m256i) {
        let lanes = &mut col.0[c * LANES..(c + 1) * LANES];
        // SAFETY: `lanes` is 32 writable bytes in bounds, borrowed
        // mutably; the unaligned store needs no alignment.
        unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), v) }
    }

    /// Register `c` of `v + Σ adds − Σ subs`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn sum_chunk<const A: usize, const S: usize>(
        mut v: __m256i,
        adds: [&Column; A],
        subs: [&Column; S],
        c: usize,
    ) -> __m256i {
        for a in adds {
            v = _mm256_add_epi16(v, load(a, c));
        }
        for s in subs {
            v = _mm256_sub_epi16(v, load(s, c));
        }
        v
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) fn update<const A: usize, const S: usize>(
        out: &mut Column,
        input: &Column,
        adds: [&Column; A],
        subs: [&Column; S],
    ) {
        for c in 0..CHUNKS {
            store(out, c, sum_chunk(load(input, c), adds, subs, c));
        }
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) fn update_in_place<const A: usize, const S: usize>(
        acc: &mut Column,
        adds: [&Column; A],
        subs: [&Column; S],
    ) {
        for c in 0..CHUNKS {
            let v = sum_chunk(load(acc, c), adds, subs, c);
            store(acc, c, v);
        }
    }

    /// The clamped value `v` times the weight fits in i16 (|w| ≤ 127), and
    /// `madd` then multiplies by `v` again and adds lane pairs into i32:
    /// each i32 lane sums 2 · 2 · 16 = 64 products of at most 255² · 127,
    /// below 2³¹; the eight lanes are added in i64.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) fn screlu_dot(us: &Column, them: &Column, w_us: &Column, w_them: &Column) -> i64 {
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(QA as i16);
        let mut sum = _mm256_setzero_si256();
        for (acc, w) in [(us, w_us), (them, w_them)] {
            for c in 0..CHUNKS {
                let v = _mm256_min_epi16(_mm256_max_epi16(load(acc, c), zero), qa);
                let vw = _mm256_mullo_epi16(v, load(w, c));
                sum = _mm256_add_epi32(sum, _mm256_madd_epi16(vw, v));
            }
        }
        let mut lanes = [0i32; 8];
        // SAFETY: `lanes` is 32 writable bytes; the unaligned store needs
        // no alignment.
        unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), sum) };
        lanes.iter().map(|&l| i64::from(l)).sum()
    }
}
