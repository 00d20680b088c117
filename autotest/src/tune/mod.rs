//! Tuning an engine's UCI options: the SPSA method (`spsa`) and `autotest
//! tune`, which runs it by self-play or against an opponent through the
//! referee (`command`, `pair`).

pub mod command;
pub mod pair;
pub mod spsa;
