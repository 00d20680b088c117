//! Tests that need a program beyond the Rust toolchain, each a trial that
//! finds its programs on PATH (`tests/common/needs.rs`): reported ignored,
//! naming what is missing and how to get it, when one is not there; failed
//! instead under `LEISERCHESS_REQUIRE_ALL=1` (`make test`); left out under
//! `LEISERCHESS_NEEDS=none` (`make check`).

/// The shared helpers (`tests/common/`) these modules use.
#[path = "../common"]
mod common {
    pub mod needs;
    pub mod scratch;
}

mod cpu_check;
mod gui_browser;

fn main() {
    let args = libtest_mimic::Arguments::from_args();
    let mut trials = gui_browser::trials();
    trials.extend(cpu_check::trials());
    libtest_mimic::run(&args, trials).exit();
}
