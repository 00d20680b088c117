//! The `leiserchess` binary end to end: UCI sessions and command lines
//! run on the build's own binary (cargo builds it for the tests), and
//! what they promise a referee, a user and the documents. A module a
//! subject; `cargo test --test engine -- NAME::` runs one.

/// The shared helpers (`tests/common/`) these modules use.
#[path = "../common"]
mod common {
    pub mod engine;
    pub mod reference;
    pub mod rng;
    pub mod scratch;
    pub mod session;
}

mod analysis;
mod book;
// `check_rep` and `dump`, and docs/OPTIONS.md's table (which lists
// `check_rep`), exist only with the `debug-commands` feature.
#[cfg(feature = "debug-commands")]
mod check_rep;
mod cli;
mod fuzz_uci;
mod hybrid_uci;
mod mcts_uci;
mod nnue;
#[cfg(feature = "debug-commands")]
mod options_table;
mod pedantic;
mod policy;
mod store;
mod train_memory;
mod uci_hardening;
mod uci_loop;
mod uci_promises;
