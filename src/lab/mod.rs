//! The lab's loop for strength: self-play data (`datagen`, in the format
//! of `data`) and the evaluation's tuning on it (`tune`, Texel's method).
//! Above the search, beside the protocol: nothing below imports it.

pub mod data;
pub mod tune;
