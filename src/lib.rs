//! leiserchess: a Leiserchess 2018 engine.
//!
//! Module map: `square`, `piece`, `moves` (types and their text), `bitboard`
//! and `zobrist` (compile-time tables), `board` (the position and in-place
//! make/unmake), `laser`, `movegen`, `fen`, `game` (history and rules),
//! `perft`, and `uci` (the protocol loop). With the `debug-commands`
//! feature (on by default), `debug`: the `check_rep` invariants and the
//! `dump` command's named dumps.

// One measured exception, with its `// SAFETY:` line: the transposition
// table's zeroed allocation (`search::tt`).
#![deny(unsafe_code)]

pub mod bitboard;
pub mod board;
#[cfg(feature = "debug-commands")]
pub mod debug;
pub mod eval;
pub mod fen;
pub mod game;
pub mod laser;
pub mod movegen;
pub mod moves;
pub mod options;
pub mod perft;
pub mod piece;
pub mod quote;
pub mod search;
pub mod square;
pub mod uci;
pub mod zobrist;
