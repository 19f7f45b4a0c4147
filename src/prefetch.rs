//! Asking the CPU to start loading a value into cache before it is read:
//! what the search does with the transposition-table bucket, the pawn-cache
//! entry and the evaluation-cache entry a node is about to look at, so that
//! their loads overlap the work in between instead of stalling it.

/// Hints the CPU to load the cache line holding `value`. Only a hint: it
/// never faults and changes nothing but timing (and is nothing off x86-64).
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `_mm_prefetch` only needs SSE, which every x86_64 CPU has; a
    // prefetch never faults, and the pointer comes from a live reference.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(value).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
