//! The kernels with AVX-512 (F and BW): 32 i16 lanes per register.
//!
//! The kernels are `#[target_feature(enable = "avx512f,avx512bw")]`
//! functions (the intrinsics are safe to call only there); the module is
//! compiled only when the build's target has AVX-512 F and BW, so the
//! public wrappers call them knowing the CPU has it.

use std::arch::x86_64::{
    __m512i, _mm512_add_epi16, _mm512_add_epi32, _mm512_loadu_si512, _mm512_madd_epi16,
    _mm512_max_epi16, _mm512_min_epi16, _mm512_mullo_epi16, _mm512_set1_epi16,
    _mm512_setzero_si512, _mm512_storeu_si512, _mm512_sub_epi16,
};

use super::super::arch::{HIDDEN, QA};
use super::super::column::Column;

/// The name of this path.
pub(in super::super) const PATH: &str = "AVX-512";

/// i16 lanes per register.
const LANES: usize = 32;
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
    // SAFETY: this module is compiled only for targets with AVX-512 F and BW.
    unsafe { kernels::update(out, input, adds, subs) }
}

/// `acc += Σ adds − Σ subs`, wrapping in i16.
#[inline]
pub(in super::super) fn update_in_place<const A: usize, const S: usize>(
    acc: &mut Column,
    adds: [&Column; A],
    subs: [&Column; S],
) {
    // SAFETY: this module is compiled only for targets with AVX-512 F and BW.
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
    // SAFETY: this module is compiled only for targets with AVX-512 F and BW.
    unsafe { kernels::screlu_dot(us, them, w_us, w_them) }
}

mod kernels {
    use super::*;

    /// Register `c` of a column.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn load(col: &Column, c: usize) -> __m512i {
        let lanes = &col.0[c * LANES..(c + 1) * LANES];
        // SAFETY: `lanes` is 32 i16 = 64 bytes in bounds (the slice above
        // is checked); the unaligned load needs no alignment.
        unsafe { _mm512_loadu_si512(lanes.as_ptr().cast()) }
    }

    /// Writes register `c` of a column.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn store(col: &mut Column, c: usize, v: __m512i) {
        let lanes = &mut col.0[c * LANES..(c + 1) * LANES];
        // SAFETY: `lanes` is 64 writable bytes in bounds, borrowed
        // mutably; the unaligned store needs no alignment.
        unsafe { _mm512_storeu_si512(lanes.as_mut_ptr().cast(), v) }
    }

    /// Register `c` of `v + Σ adds − Σ subs`.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn sum_chunk<const A: usize, const S: usize>(
        mut v: __m512i,
        adds: [&Column; A],
        subs: [&Column; S],
        c: usize,
    ) -> __m512i {
        for a in adds {
            v = _mm512_add_epi16(v, load(a, c));
        }
        for s in subs {
            v = _mm512_sub_epi16(v, load(s, c));
        }
        v
    }

    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
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
    #[target_feature(enable = "avx512f,avx512bw")]
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
    /// each i32 lane sums 2 · 2 · 8 = 32 products of at most 255² · 127,
    /// below 2³¹; the sixteen lanes are added in i64.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) fn screlu_dot(us: &Column, them: &Column, w_us: &Column, w_them: &Column) -> i64 {
        let zero = _mm512_setzero_si512();
        let qa = _mm512_set1_epi16(QA as i16);
        let mut sum = _mm512_setzero_si512();
        for (acc, w) in [(us, w_us), (them, w_them)] {
            for c in 0..CHUNKS {
                let v = _mm512_min_epi16(_mm512_max_epi16(load(acc, c), zero), qa);
                let vw = _mm512_mullo_epi16(v, load(w, c));
                sum = _mm512_add_epi32(sum, _mm512_madd_epi16(vw, v));
            }
        }
        let mut lanes = [0i32; 16];
        // SAFETY: `lanes` is 64 writable bytes; the unaligned store needs
        // no alignment.
        unsafe { _mm512_storeu_si512(lanes.as_mut_ptr().cast(), sum) };
        lanes.iter().map(|&l| i64::from(l)).sum()
    }
}
