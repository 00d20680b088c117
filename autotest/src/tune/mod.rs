//! Tuning an engine's UCI options: the SPSA method (`spsa`) and `autotest
//! tune`, which runs it by self-play through the referee (`command`).

pub mod command;
pub mod spsa;
