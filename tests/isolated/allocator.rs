//! `allocator::settle` keeps large blocks mapped after one is freed (a
//! process of its own: the setting is the whole process's, and it must be
//! seen before and after).

use crate::{case, Case};
use leiserchess::allocator;
use std::hint::black_box;

const BLOCK: usize = 4 << 20;

/// Bytes in mapped blocks now: glibc's count over all arenas.
fn mapped() -> usize {
    // SAFETY: mallinfo2 only reads the allocator's counters.
    unsafe { libc::mallinfo2() }.hblkhd
}

/// Whether a block of `BLOCK` bytes, while it lives, is a mapping (a
/// block is mapped only when its arena cannot give it, and the threshold
/// says so).
fn block_is_mapped() -> bool {
    let before = mapped();
    let block = black_box(vec![1u8; BLOCK]);
    let grew = mapped().saturating_sub(before) >= BLOCK;
    drop(black_box(block));
    grew
}

pub fn cases() -> Vec<Case> {
    vec![case(
        "allocator/large_blocks_stay_mapped_once_settled",
        large_blocks_stay_mapped_once_settled,
    )]
}

fn large_blocks_stay_mapped_once_settled() {
    // glibc's default, on a thread (an arena) of its own: the first block
    // is mapped, and freeing it raises the threshold past its size, so the
    // next comes from that thread's heap, which keeps the space.
    let default = std::thread::spawn(|| (block_is_mapped(), block_is_mapped()));
    let (first, second) = default.join().expect("the default's thread");
    assert!(first, "a 4 MB block under the default threshold");
    assert!(
        !second,
        "glibc's dynamic threshold no longer moves: the setting may be moot"
    );
    // This thread's arena holds no freed block: a block comes from it only
    // if the threshold lets it.
    assert!(allocator::settle(), "mallopt refused the threshold");
    for _ in 0..3 {
        assert!(block_is_mapped(), "a 4 MB block after a freed one");
    }
}
