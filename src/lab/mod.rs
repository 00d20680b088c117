//! The lab's loop for strength: self-play data (`datagen`, in the format
//! of `data`), the evaluation's tuning on it (`tune`, Texel's method), the
//! learned evaluation's training (`train`) and the opening book (`book`)
//! built from self-play games. Above the search, beside the protocol:
//! nothing below imports it.

pub mod book;
pub mod data;
pub mod datagen;
pub mod train;
pub mod tune;

/// The whole number `value` given to `flag`, within `lo..=hi`; the error
/// names both (the lab commands' numeric flags).
pub(crate) fn whole(flag: &str, value: &str, lo: u64, hi: u64) -> Result<u64, String> {
    value
        .parse::<u64>()
        .ok()
        .filter(|n| (lo..=hi).contains(n))
        .ok_or(format!("{flag} wants a number {lo}..{hi}, got '{value}'"))
}
