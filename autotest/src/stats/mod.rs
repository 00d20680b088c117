//! Match statistics: Elo estimates with their error bars and LOS
//! (`elo`), the SPRT (`sprt`), and `autotest stats`, which gives both for
//! results on the command line or in PGN files (`command`).

pub mod command;
pub mod elo;
pub mod sprt;
