//! Talking to the outside: the UCI loop (`uci`, with `go`'s parser in
//! `uci::go`, the command table in `uci::commands`, the lab's commands in
//! `uci::lab` and, with the `debug-commands` feature, `uci::debug`) and
//! the `dump` command's named dumps (`dump`, also of that feature).
//! The other end, a program driven over UCI as a child process (`client`),
//! and the PGN writer of finished games (`pgn`, autotest's and the GUI's).
//! This layer sits on top: nothing below imports it.

pub mod client;
#[cfg(feature = "debug-commands")]
pub mod dump;
pub mod pgn;
pub mod uci;
