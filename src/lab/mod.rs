//! The lab's loop for strength: self-play data (`datagen`, in the format
//! of `data`), the evaluation's tuning on it (`tune`, Texel's method) and
//! the opening book (`book`) built from self-play games. Above the search,
//! beside the protocol: nothing below imports it.

pub mod book;
pub mod data;
pub mod datagen;
pub mod tune;
