//! Asking the kernel for huge pages under the table.
//!
//! Every probe lands on a random bucket, so with 4 KiB pages nearly every
//! probe of a table larger than the TLB's reach also misses the TLB. Linux
//! backs memory with 2 MiB pages only where a program asks for it
//! (`madvise(MADV_HUGEPAGE)`) under its default `madvise` setting; this
//! asks, before the pages are first touched. Elsewhere, or when the kernel
//! says no, nothing changes but the speed.

/// Advises the kernel that the `bytes` bytes at `start` (not yet touched)
/// are worth huge pages. Only whole 4 KiB pages inside the range are
/// advised; failure is ignored.
#[cfg(target_os = "linux")]
pub(super) fn advise_huge_pages(start: *const u8, bytes: usize) {
    const PAGE: usize = 4096;
    let first = (start as usize).next_multiple_of(PAGE);
    let end = (start as usize).saturating_add(bytes) / PAGE * PAGE;
    if end > first {
        // SAFETY: the range lies inside one live allocation of ours (the
        // caller's reserved table), and `madvise` with `MADV_HUGEPAGE` only
        // changes how the kernel backs it, never its contents or validity.
        unsafe {
            libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
        }
    }
}

/// Elsewhere: nothing to ask.
#[cfg(not(target_os = "linux"))]
pub(super) fn advise_huge_pages(_start: *const u8, _bytes: usize) {}
