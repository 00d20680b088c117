//! autotest on the Rust toolchain and bash alone: its flags and course
//! config files, the referee's games against the scripted fake engine
//! (`tests/fake/scripted.sh`) and the real one, the `autotest` program end
//! to end (a run, a signal, `-resume`, `tune`, the help), what the results
//! database records and imports, SPSA, `autotest loop` and the
//! `default.md` made from its record, the soak's
//! report, and the layout of `src/`. A module a subject;
//! `cargo test -p autotest --test tournament -- NAME::` runs one.

/// The shared helpers these modules use: autotest's
/// (`autotest/tests/common/`) and the engine's (`tests/common/`).
#[path = "../common"]
mod common {
    pub mod fake;
    pub mod loop_run;
    pub mod programs;
    #[path = "../../../tests/common/scratch.rs"]
    pub mod scratch;
    pub mod spec;
}

mod cli;
mod course_config;
mod db;
mod db_import;
mod db_records;
mod default_md;
mod faults;
mod flags;
mod games;
mod interrupt;
mod kept;
mod layout;
mod net_loop;
mod options;
mod resume;
mod short_clock;
mod soak_report;
mod spsa;
mod stderr;
mod store;
mod tune;
