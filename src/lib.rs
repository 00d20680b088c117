//! leiserchess: a Leiserchess 2018 engine.
//!
//! The folders are the layers, bottom first; docs/ARCHITECTURE.md states
//! the layering rule and maps every file, and tests/library/layers.rs
//! checks it.
//!
//! - `user_text` (echoing user input in messages), `check_rep` (the
//!   invariant tools), `declaration` (an option's one declaration: name,
//!   kind, default, range, effect), `user_file` (reading a file a user
//!   names), `allocator` (the C allocator's settings), `cpu` (the CPU
//!   features the build assumes) and `object_store` (the lab's files by
//!   sha256, so that `EvalFile=store:PREFIX` resolves in `config`): leaves that import nothing from the
//!   crate; so is `scratch`, the unit tests' scratch directories (test
//!   builds only).
//! - `rules`: squares, pieces, moves, the board and its in-place
//!   make/unmake, the laser, move generation, FEN, a game's history and
//!   rules, perft.
//! - `eval`: the evaluation and its laser-coverage term; `eval::nnue`, the
//!   learned evaluation; `eval::evaluator`, which of the two is in use;
//!   `eval::policy`, the move policy behind MCTS's priors.
//! - `search`: what every search shares (the root and its reports, limits
//!   and time, the transposition table, parameters, the `bench` workloads)
//!   and one folder per algorithm (`pvs`, `mcts`, `bestfirst`).
//! - `config`: `EngineConfig`, every setting of the engine as a typed
//!   field, set through the declarations.
//! - `lab`: self-play data, the evaluation's tuning, the learned
//!   evaluation's and the policy's training, the opening book, the
//!   win/draw/loss model's fit, the best-first error model's fit, the
//!   charts.
//! - `play`: engines as child processes spoken to over UCI (`play::client`)
//!   and the PGN of finished games (`play::pgn`), for autotest, the GUI and
//!   the tests.
//! - `protocol`: the UCI loop and the `dump` registry.
//! - `gui`: `leiserchess gui`, the browser GUI's HTTP server and page.

// Four exceptions, each `unsafe` with its `// SAFETY:` line: the
// transposition table's zeroed allocation (`search::tt`), the net's AVX2
// kernels (`eval::nnue::kernels`, checked against their scalar oracle), the
// allocator's mmap and trim thresholds (`allocator`), and the CPU check in
// assembly (`cpu`, checked against the standard library's detection).
#![deny(unsafe_code)]

pub mod allocator;
pub mod check_rep;
pub mod config;
pub mod cpu;
pub mod declaration;
pub mod eval;
pub mod gui;
pub mod lab;
pub mod object_store;
pub mod play;
pub mod protocol;
pub mod rules;
#[cfg(test)]
mod scratch;
pub mod search;
pub mod user_file;
pub mod user_text;
