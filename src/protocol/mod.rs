//! Talking to the outside: the UCI loop (`uci`, with `go`'s parser in
//! `uci::go`), the options it offers (`options`) and, with the
//! `debug-commands` feature, the `dump` command's named dumps (`dump`).
//! This layer sits on top: nothing below imports it.

#[cfg(feature = "debug-commands")]
pub mod dump;
pub mod options;
pub mod uci;
