//! The SIMD kernels, written once over a register of i16 lanes
//! ([`Register`]): [`Simd<V>`] is the kernels on register `V`. Each
//! instruction set implements the register with its intrinsics, through
//! [`register!`] (`avx2.rs`: 16 lanes, `avx512.rs`: 32).
//!
//! The register's operations are small always-inlined functions (see the
//! macro for why), and so are the kernels' helpers, so a kernel compiles
//! to the same straight loop of intrinsics it would be if written out for
//! one instruction set.

use std::marker::PhantomData;

use super::super::arch::{OUTPUT_WEIGHT_LIMIT, QA};
use super::super::column::Column;

/// A SIMD register of i16 lanes (read as i32 lanes by the `…32`
/// operations), with the operations the kernels use.
pub(in super::super) trait Register: Copy {
    /// i16 lanes per register; a column's width is a multiple of it.
    const LANES: usize;
    /// The instruction set's name.
    const PATH: &'static str;

    /// Every lane zero.
    fn zero() -> Self;
    /// Every i16 lane `x`.
    fn splat(x: i16) -> Self;
    /// Lane by lane, wrapping in i16.
    fn add16(self, other: Self) -> Self;
    /// Lane by lane, wrapping in i16.
    fn sub16(self, other: Self) -> Self;
    /// Each i16 lane clamped to `lo..=hi`.
    fn clamp16(self, lo: Self, hi: Self) -> Self;
    /// The low 16 bits of each i16 lane's product.
    fn mullo16(self, other: Self) -> Self;
    /// Products of the i16 lanes, added in pairs into i32 lanes.
    fn madd16(self, other: Self) -> Self;
    /// Lane by lane in i32.
    fn add32(self, other: Self) -> Self;
    /// The register read from `lanes`.
    ///
    /// # Panics
    ///
    /// When `lanes` is not [`Self::LANES`] long (never: the kernels slice a
    /// register's worth, which the compiler then checks away).
    fn load(lanes: &[i16]) -> Self;
    /// The register written to `lanes`.
    ///
    /// # Panics
    ///
    /// As [`Self::load`].
    fn store(self, lanes: &mut [i16]);
    /// The i32 lanes added in i64.
    fn sum32(self) -> i64;
}

/// Register `c` of a column.
#[inline(always)]
fn load<V: Register, const H: usize>(col: &Column<H>, c: usize) -> V {
    V::load(&col.0[c * V::LANES..(c + 1) * V::LANES])
}

/// Writes register `c` of a column.
#[inline(always)]
fn store<V: Register, const H: usize>(col: &mut Column<H>, c: usize, v: V) {
    v.store(&mut col.0[c * V::LANES..(c + 1) * V::LANES]);
}

/// Register `c` of `v + Σ adds − Σ subs`.
#[inline(always)]
fn sum_chunk<V: Register, const H: usize, const A: usize, const S: usize>(
    mut v: V,
    adds: [&Column<H>; A],
    subs: [&Column<H>; S],
    c: usize,
) -> V {
    for a in adds {
        v = v.add16(load(a, c));
    }
    for s in subs {
        v = v.sub16(load(s, c));
    }
    v
}

/// The kernels on register `V` (a name for them, never a value).
pub(in super::super) struct Simd<V>(PhantomData<V>);

impl<V: Register> Simd<V> {
    /// The name of this path.
    pub(in super::super) const PATH: &'static str = V::PATH;

    /// `out = input + Σ adds − Σ subs`, wrapping in i16.
    #[inline(always)]
    pub(in super::super) fn update<const H: usize, const A: usize, const S: usize>(
        out: &mut Column<H>,
        input: &Column<H>,
        adds: [&Column<H>; A],
        subs: [&Column<H>; S],
    ) {
        for c in 0..H / V::LANES {
            store(out, c, sum_chunk(load::<V, H>(input, c), adds, subs, c));
        }
    }

    /// `acc += Σ adds − Σ subs`, wrapping in i16.
    #[inline(always)]
    pub(in super::super) fn update_in_place<const H: usize, const A: usize, const S: usize>(
        acc: &mut Column<H>,
        adds: [&Column<H>; A],
        subs: [&Column<H>; S],
    ) {
        for c in 0..H / V::LANES {
            let v = sum_chunk(load::<V, H>(acc, c), adds, subs, c);
            store(acc, c, v);
        }
    }

    /// `Σ clamp(acc, 0, QA)² · w` over both perspectives, exact. The
    /// clamped value `v` times the weight fits in i16 (|w| ≤ 127), and
    /// `madd` then multiplies by `v` again and adds lane pairs into i32:
    /// each i32 lane sums 2 · 2 · H / LANES products of at most 255² · 127
    /// (at `H` = 512: 128 with AVX2, 1.06 · 10⁹; 64 with AVX-512), below
    /// 2³¹ (checked at compile time for every width and register); the
    /// lanes are added in i64.
    #[inline]
    pub(in super::super) fn screlu_dot<const H: usize>(
        us: &Column<H>,
        them: &Column<H>,
        w_us: &Column<H>,
        w_them: &Column<H>,
    ) -> i64 {
        const {
            let products = 2 * 2 * (H / V::LANES) as i64;
            let largest = (QA * QA * OUTPUT_WEIGHT_LIMIT as i32) as i64;
            assert!(
                products * largest <= i32::MAX as i64,
                "an i32 lane would overflow"
            );
        }
        let (lo, hi) = (V::zero(), V::splat(QA as i16));
        let mut sum = V::zero();
        for (acc, w) in [(us, w_us), (them, w_them)] {
            for c in 0..H / V::LANES {
                let v = load::<V, H>(acc, c).clamp16(lo, hi);
                sum = sum.add32(v.mullo16(load(w, c)).madd16(v));
            }
        }
        sum.sum32()
    }
}

/// Implements [`Register`] for an instruction set's register type, `$reg`
/// of `$lanes` i16 lanes, named `$path`, with its intrinsics (each named
/// after the operation it does).
///
/// The intrinsics are `#[target_feature]` functions, which Rust lets safe
/// code call only from functions with the same attribute, and such
/// functions cannot be forced inline into their callers. So each intrinsic
/// is wrapped once in an always-inlined method that calls it in an
/// `unsafe` block, and the kernels are plain safe code that the compiler
/// inlines into the accumulator's update.
///
/// **Contract:** invoke it only in a module compiled only for targets with
/// the intrinsics' features (`simd/mod.rs` gates `avx2.rs` and `avx512.rs`
/// on them), so that every CPU that runs the build has the instructions:
/// the `unsafe` blocks it writes rely on that.
macro_rules! register {
    (
        $reg:ty, $lanes:literal lanes, $path:literal;
        zero: $zero:ident, splat: $splat:ident,
        add16: $add16:ident, sub16: $sub16:ident, max16: $max16:ident, min16: $min16:ident,
        mullo16: $mullo16:ident, madd16: $madd16:ident, add32: $add32:ident,
        load: $load:ident, store: $store:ident $(,)?
    ) => {
        impl $crate::eval::nnue::simd::kernels::Register for $reg {
            const LANES: usize = $lanes;
            const PATH: &'static str = $path;

            #[inline(always)]
            fn zero() -> Self {
                // SAFETY: the target has the instruction (the macro's contract).
                unsafe { $zero() }
            }

            #[inline(always)]
            fn splat(x: i16) -> Self {
                // SAFETY: the target has the instruction (the macro's contract).
                unsafe { $splat(x) }
            }

            #[inline(always)]
            fn add16(self, other: Self) -> Self {
                // SAFETY: the target has the instruction (the macro's contract).
                unsafe { $add16(self, other) }
            }

            #[inline(always)]
            fn sub16(self, other: Self) -> Self {
                // SAFETY: the target has the instruction (the macro's contract).
                unsafe { $sub16(self, other) }
            }

            #[inline(always)]
            fn clamp16(self, lo: Self, hi: Self) -> Self {
                // SAFETY: the target has the instructions (the macro's contract).
                unsafe { $min16($max16(self, lo), hi) }
            }

            #[inline(always)]
            fn mullo16(self, other: Self) -> Self {
                // SAFETY: the target has the instruction (the macro's contract).
                unsafe { $mullo16(self, other) }
            }

            #[inline(always)]
            fn madd16(self, other: Self) -> Self {
                // SAFETY: the target has the instruction (the macro's contract).
                unsafe { $madd16(self, other) }
            }

            #[inline(always)]
            fn add32(self, other: Self) -> Self {
                // SAFETY: the target has the instruction (the macro's contract).
                unsafe { $add32(self, other) }
            }

            #[inline(always)]
            fn load(lanes: &[i16]) -> Self {
                let lanes: &[i16; $lanes] = lanes.try_into().expect("a register's worth of lanes");
                // SAFETY: the target has the instruction (the macro's
                // contract); `lanes` is one register's worth of readable
                // memory, and the unaligned load needs no alignment.
                unsafe { $load(lanes.as_ptr().cast()) }
            }

            #[inline(always)]
            fn store(self, lanes: &mut [i16]) {
                let lanes: &mut [i16; $lanes] =
                    lanes.try_into().expect("a register's worth of lanes");
                // SAFETY: the target has the instruction (the macro's
                // contract); `lanes` is one register's worth of memory
                // borrowed mutably, and the unaligned store needs no
                // alignment.
                unsafe { $store(lanes.as_mut_ptr().cast(), self) }
            }

            #[inline(always)]
            fn sum32(self) -> i64 {
                let mut lanes = [0i32; $lanes / 2];
                // SAFETY: the target has the instruction (the macro's
                // contract); `lanes` is one register's worth of memory
                // borrowed mutably, and the unaligned store needs no
                // alignment.
                unsafe { $store(lanes.as_mut_ptr().cast(), self) };
                lanes.iter().map(|&l| i64::from(l)).sum()
            }
        }
    };
}

pub(super) use register;
