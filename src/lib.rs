//! leiserchess: a Leiserchess 2018 engine.
//!
//! The folders are the layers; each imports only the ones listed before it:
//!
//! - `quote`, `check` (the `check_rep` tools), `setting` (a tunable's
//!   one declaration) and `user_file` (reading a file a user names):
//!   leaves that import nothing from the crate.
//! - `rules`: squares, pieces, moves, the board and its in-place
//!   make/unmake, the laser, move generation, FEN, a game's history and
//!   rules, perft.
//! - `eval`: the evaluation and its laser-coverage term; `eval::nnue`, the
//!   learned evaluation.
//! - `search`: PVS with its transposition table, move ordering, time
//!   management and the `bench` workload.
//! - `lab`: self-play data, the evaluation's tuning, the learned
//!   evaluation's training, the opening book, the win/draw/loss model's
//!   fit.
//! - `protocol`: the UCI loop, its options and the `dump` registry;
//!   `protocol::client`, the other end (a UCI program as a child process),
//!   which autotest and the tests drive engines with; and `protocol::pgn`,
//!   the PGN writer of autotest and the GUI.
//! - `gui`: `leiserchess gui`, the browser GUI's HTTP server and page.

// One measured exception, with its `// SAFETY:` line: the transposition
// table's zeroed allocation (`search::tt`).
#![deny(unsafe_code)]

pub mod check_rep;
pub mod config;
pub mod declaration;
pub mod eval;
pub mod gui;
pub mod lab;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod user_file;
pub mod user_text;
