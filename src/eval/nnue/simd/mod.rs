//! The two kernels of the net:
//!
//! - [`update`] / [`update_in_place`]: an accumulator perspective plus some
//!   weight columns minus others (wrapping i16 arithmetic);
//! - [`screlu_dot`]: the output's sum `Σ clamp(acc, 0, QA)² · w` over both
//!   perspectives, exact in i64.
//!
//! They are written twice: in plain Rust (`scalar.rs`), and once for every
//! SIMD register (`kernels.rs`, over a register type that each instruction
//! set implements with its intrinsics: `avx2.rs`, `avx512.rs`). Each path
//! is a type with the same three functions (`Kernels`).
//!
//! The instruction set is chosen when the crate is compiled, from the
//! target features the build enables (`cfg(target_feature)`): AVX-512
//! (F + BW) when present, else AVX2, else the scalar code, which the
//! compiler vectorises with whatever the target has (SSE2 on baseline
//! x86-64). So the native build (`target-cpu=native`) uses the widest path
//! of the machine it was built on, and `make portable` builds the scalar
//! path only, which runs on any x86-64. Every path gives exactly the same
//! numbers: i16 adds wrap the same way in every path, and the dot product
//! never overflows (see `screlu_dot`), so the order of the additions does
//! not matter. A test checks the paths against each other.

// The reference: the path of builds without AVX2, and what the tests
// compare the SIMD paths with.
#[cfg_attr(
    all(target_arch = "x86_64", target_feature = "avx2", not(test)),
    allow(dead_code)
)]
pub(super) mod scalar;

// AVX2: the path of AVX2 builds without AVX-512, and compiled for the tests
// of AVX-512 builds too (which compare it with the scalar path).
#[cfg(all(
    target_arch = "x86_64",
    target_feature = "avx2",
    any(
        test,
        not(all(target_feature = "avx512f", target_feature = "avx512bw"))
    )
))]
pub(super) mod avx2;

#[cfg(all(
    target_arch = "x86_64",
    target_feature = "avx512f",
    target_feature = "avx512bw"
))]
pub(super) mod avx512;

// The SIMD kernels, for every register: compiled with the first SIMD path.
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
mod kernels;

#[cfg(all(
    target_arch = "x86_64",
    target_feature = "avx512f",
    target_feature = "avx512bw"
))]
use avx512::Kernels as Best;

#[cfg(all(
    target_arch = "x86_64",
    target_feature = "avx2",
    not(all(target_feature = "avx512f", target_feature = "avx512bw"))
))]
use avx2::Kernels as Best;

#[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
use scalar::Kernels as Best;

use super::column::Column;

/// The instruction set the kernels were compiled for: `"AVX-512"`,
/// `"AVX2"` or `"scalar"`.
pub const PATH: &str = Best::PATH;

/// `out = input + Σ adds − Σ subs`, lane by lane, wrapping in i16.
#[inline(always)]
pub(super) fn update<const H: usize, const A: usize, const S: usize>(
    out: &mut Column<H>,
    input: &Column<H>,
    adds: [&Column<H>; A],
    subs: [&Column<H>; S],
) {
    Best::update(out, input, adds, subs);
}

/// `acc += Σ adds − Σ subs`, lane by lane, wrapping in i16.
#[inline(always)]
pub(super) fn update_in_place<const H: usize, const A: usize, const S: usize>(
    acc: &mut Column<H>,
    adds: [&Column<H>; A],
    subs: [&Column<H>; S],
) {
    Best::update_in_place(acc, adds, subs);
}

/// `Σ_i clamp(us_i, 0, QA)² · w_us_i + Σ_i clamp(them_i, 0, QA)² · w_them_i`,
/// exactly. The output weights must lie within ±`OUTPUT_WEIGHT_LIMIT`
/// (the net checks it when it is built).
#[inline]
pub(super) fn screlu_dot<const H: usize>(
    us: &Column<H>,
    them: &Column<H>,
    w_us: &Column<H>,
    w_them: &Column<H>,
) -> i64 {
    Best::screlu_dot(us, them, w_us, w_them)
}
