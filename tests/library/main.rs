//! The library in process: the rules, the evaluations, the searches, the
//! lab's commands and the GUI's API called as functions, and the checks
//! of the repository itself (the layering, the scripts' arithmetic,
//! docs/ARCHITECTURE.md's map of the source, docs/TESTING.md's map of the
//! tests). A module a subject;
//! `cargo test --test library -- NAME::` runs one.

/// The shared helpers (`tests/common/`) these modules use.
#[path = "../common"]
mod common {
    pub mod mcts_search;
    pub mod needs;
    pub mod playout;
    pub mod reference;
    pub mod rng;
    pub mod scratch;
}

mod architecture_md;
mod coverage_properties;
mod error_fit;
mod eval_reference;
mod figures;
mod gui_api;
mod hybrid;
mod layers;
mod mcts;
mod mcts_reuse;
mod mcts_select;
mod mcts_tactics;
mod mcts_threads;
mod movepick;
mod needs;
mod properties;
mod pvs_stop;
mod testing_md;
mod thread_speedup_pool;
mod train;
mod tune;
mod wdl;
