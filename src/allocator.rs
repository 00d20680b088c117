//! The C allocator's settings for a long-lived engine process.
//!
//! glibc raises its mmap threshold each time it frees a mapped block, up
//! to 32 MB, so that later blocks of that size come from the heaps. A
//! process that frees and makes MCTS trees of megabytes, move after move,
//! on threads that each take their own arena, then holds the freed space
//! in several arenas at once: on two threads its resident memory grew
//! about 7% a 1,000-game session (BENCHMARKS.md, "The soak"). Fixed
//! thresholds keep every large block a mapping of its own, returned to the
//! system when freed, and stop the growth.

/// Blocks from this size are mapped: above the 128 KB history table each
/// PVS search makes (mapping it anew each search cost bench 6%), below
/// MCTS's tree.
pub const MMAP_THRESHOLD: usize = 1 << 20;

/// A heap gives back its free top beyond this size: a search's own blocks
/// fit under it (with glibc's 128 KB the heap shrank and grew again each
/// search, again 6% of bench).
pub const TRIM_THRESHOLD: usize = 2 << 20;

/// Fixes the mmap and trim thresholds for the whole process; whether the
/// allocator took them (a sanitizer's allocator, or a C library other
/// than glibc, has its own rules and keeps them).
pub fn settle() -> bool {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let set = |param, value: usize| {
            // SAFETY: mallopt only changes the allocator's parameters; the
            // values are within the ranges glibc accepts.
            #[allow(unsafe_code)]
            let took = unsafe { libc::mallopt(param, value as libc::c_int) };
            took == 1
        };
        set(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD) & set(libc::M_TRIM_THRESHOLD, TRIM_THRESHOLD)
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    {
        false
    }
}
