//! The kernels' register with AVX2: `__m256i`, 16 i16 lanes. The
//! kernels are `kernels.rs`, written once for every register.

use std::arch::x86_64::{
    __m256i, _mm256_add_epi16, _mm256_add_epi32, _mm256_loadu_si256, _mm256_madd_epi16,
    _mm256_max_epi16, _mm256_min_epi16, _mm256_mullo_epi16, _mm256_set1_epi16,
    _mm256_setzero_si256, _mm256_storeu_si256, _mm256_sub_epi16,
};

use super::kernels::{Simd, register};

/// The kernels of this path.
pub(in super::super) type Kernels = Simd<__m256i>;

// This module is compiled only for targets with AVX2 (`simd/mod.rs`),
// as the macro requires.
register! {
    __m256i, 16 lanes, "AVX2";
    zero: _mm256_setzero_si256, splat: _mm256_set1_epi16,
    add16: _mm256_add_epi16, sub16: _mm256_sub_epi16, max16: _mm256_max_epi16, min16: _mm256_min_epi16,
    mullo16: _mm256_mullo_epi16, madd16: _mm256_madd_epi16, add32: _mm256_add_epi32,
    load: _mm256_loadu_si256, store: _mm256_storeu_si256,
}
