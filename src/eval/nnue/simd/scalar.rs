//! The kernels in plain Rust: the reference every SIMD path must equal, and
//! the path of builds without AVX2 (the compiler vectorises these loops
//! with the target's baseline SIMD, SSE2 on x86-64).

use super::super::arch::QA;
use super::super::column::Column;

/// Neurons summed in i32 before widening to i64: 16 products of at most
/// 255² · 127 stay below 2³¹.
const DOT_CHUNK: usize = 16;

/// The scalar kernels (a name for them, never a value).
pub(in super::super) struct Kernels;

impl Kernels {
    /// The name of this path.
    pub(in super::super) const PATH: &'static str = "scalar";

    /// `out = input + Σ adds − Σ subs`, wrapping in i16.
    #[inline(always)]
    pub(in super::super) fn update<const H: usize, const A: usize, const S: usize>(
        out: &mut Column<H>,
        input: &Column<H>,
        adds: [&Column<H>; A],
        subs: [&Column<H>; S],
    ) {
        for i in 0..H {
            out.0[i] = sum_lane(input.0[i], adds, subs, i);
        }
    }

    /// `acc += Σ adds − Σ subs`, wrapping in i16.
    #[inline(always)]
    pub(in super::super) fn update_in_place<const H: usize, const A: usize, const S: usize>(
        acc: &mut Column<H>,
        adds: [&Column<H>; A],
        subs: [&Column<H>; S],
    ) {
        for i in 0..H {
            acc.0[i] = sum_lane(acc.0[i], adds, subs, i);
        }
    }

    /// `Σ clamp(acc, 0, QA)² · w` over both perspectives, exact: the output
    /// weights are within ±127, so each product is at most 255² · 127 =
    /// 8,258,175 in size; chunks of 16 are summed in i32, the chunks in i64.
    /// (Written as the SIMD paths compute it, an i16 product `v · w` first,
    /// this ran twice as slow in the SSE2 build.)
    #[inline]
    pub(in super::super) fn screlu_dot<const H: usize>(
        us: &Column<H>,
        them: &Column<H>,
        w_us: &Column<H>,
        w_them: &Column<H>,
    ) -> i64 {
        half_dot(us, w_us) + half_dot(them, w_them)
    }
}

/// Lane `i` of `v + Σ adds − Σ subs`, wrapping in i16 (the scalar twin of
/// the SIMD paths' `sum_chunk`).
#[inline(always)]
fn sum_lane<const H: usize, const A: usize, const S: usize>(
    mut v: i16,
    adds: [&Column<H>; A],
    subs: [&Column<H>; S],
    i: usize,
) -> i16 {
    for a in adds {
        v = v.wrapping_add(a.0[i]);
    }
    for s in subs {
        v = v.wrapping_sub(s.0[i]);
    }
    v
}

#[inline]
fn half_dot<const H: usize>(acc: &Column<H>, w: &Column<H>) -> i64 {
    acc.0
        .chunks_exact(DOT_CHUNK)
        .zip(w.0.chunks_exact(DOT_CHUNK))
        .map(|(acc, w)| {
            let chunk: i32 = acc
                .iter()
                .zip(w)
                .map(|(&a, &w)| {
                    let v = i32::from(a.clamp(0, QA as i16));
                    v * i32::from(w) * v
                })
                .sum();
            i64::from(chunk)
        })
        .sum()
}
