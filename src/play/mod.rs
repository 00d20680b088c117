//! Playing games between engines, for autotest, the GUI and the tests: a
//! UCI engine run as a child process and spoken to over its pipes
//! (`client`), and the PGN of finished games (`pgn`).

pub mod client;
pub mod pgn;
