//! The kernels' register with AVX-512 (F and BW): `__m512i`, 32 i16 lanes. The
//! kernels are `kernels.rs`, written once for every register.

use std::arch::x86_64::{
    __m512i, _mm512_add_epi16, _mm512_add_epi32, _mm512_loadu_si512, _mm512_madd_epi16,
    _mm512_max_epi16, _mm512_min_epi16, _mm512_mullo_epi16, _mm512_set1_epi16,
    _mm512_setzero_si512, _mm512_storeu_si512, _mm512_sub_epi16,
};

use super::kernels::{Simd, register};

/// The kernels of this path.
pub(in super::super) type Kernels = Simd<__m512i>;

// This module is compiled only for targets with AVX-512 F and BW (`simd/mod.rs`),
// as the macro requires.
register! {
    __m512i, 32 lanes, "AVX-512";
    zero: _mm512_setzero_si512, splat: _mm512_set1_epi16,
    add16: _mm512_add_epi16, sub16: _mm512_sub_epi16, max16: _mm512_max_epi16, min16: _mm512_min_epi16,
    mullo16: _mm512_mullo_epi16, madd16: _mm512_madd_epi16, add32: _mm512_add_epi32,
    load: _mm512_loadu_si512, store: _mm512_storeu_si512,
}
