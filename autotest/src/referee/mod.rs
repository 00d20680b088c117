//! The referee: one game between two engines on our own rules code
//! (`game`), with their clocks and faults; draws and resignations from the
//! engines' scores (`adjudication`); the engines as child processes
//! (`engine`), their options checked against what they list
//! (`option_check`) and their standard error kept (`stderr_log`); every
//! engine checked before the first game (`preflight`); engines kept
//! from game to game (`kept`); and the record of a played game
//! (`record`).

pub mod adjudication;
pub mod engine;
pub mod game;
pub mod kept;
pub mod option_check;
pub mod preflight;
pub mod record;
pub mod stderr_log;

pub use game::play;
