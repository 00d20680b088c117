//! Talking to the outside: the UCI loop (`uci`, with `go`'s parser in
//! `uci::go`), the options it offers (`options`) and, with the
//! `debug-commands` feature, the `dump` command's named dumps (`dump`).
//! The other end, a program driven over UCI as a child process (`client`).
//! This layer sits on top: nothing below imports it.

pub mod client;
#[cfg(feature = "debug-commands")]
pub mod dump;
pub mod options;
pub mod uci;
