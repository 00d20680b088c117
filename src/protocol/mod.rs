//! Talking to the outside: the UCI loop (`uci`, with `go`'s parser in
//! `uci::go`, the command table in `uci::commands`, `setoption` and its
//! effects in `uci::setoption`, the commands beside UCI in `uci::perft`
//! and `uci::inspect` and, with the `debug-commands` feature,
//! `uci::debug`) and the `dump` command's named dumps (`dump`, also of
//! that feature). The options themselves are the engine's configuration
//! (`crate::config`).
//! This layer sits on top: nothing below imports it.

#[cfg(feature = "debug-commands")]
pub mod dump;
pub mod uci;
