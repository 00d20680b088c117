//! The trials that may need more than the Rust toolchain and bash, as a
//! libtest-mimic harness (`harness = false`): a trial whose needs are
//! missing is reported ignored, naming them and how to get them, and with
//! `LEISERCHESS_REQUIRE_ALL=1` it fails (tests/common/needs.rs). Every
//! document's code blocks (`doc_examples`: curl for docs/GUI.md's), the
//! dashboard through its router and in Chromium (`serve`; its nets and
//! data pages, `serve_lineage`; the loops on its nets page,
//! `serve_loops`), and `autotest
//! -slurm` on the one-node Slurm of `scripts/slurm-local.sh` (`slurm`;
//! `autotest loop --slurm`, `loop_slurm`).
//! Each module hands its trials to `main` named `MODULE::NAME`, as libtest
//! names a module's tests, so that
//! `cargo test -p autotest --test external -- slurm::` runs one module's.

use libtest_mimic::{Arguments, Trial};

/// The shared helpers these modules use: autotest's
/// (`autotest/tests/common/`) and the engine's (`tests/common/`).
#[path = "../common"]
mod common {
    pub mod loop_run;
    #[path = "../../../tests/common/needs.rs"]
    pub mod needs;
    pub mod programs;
    #[path = "../../../tests/common/scratch.rs"]
    pub mod scratch;
    pub mod slurm;
}

mod doc_examples;
mod loop_slurm;
mod serve;
mod serve_lineage;
mod serve_loops;
mod slurm;

fn main() {
    let args = Arguments::from_args();
    let trials: Vec<Trial> = [
        doc_examples::trials(),
        loop_slurm::trials(),
        serve::trials(),
        serve_lineage::trials(),
        serve_loops::trials(),
        slurm::trials(),
    ]
    .into_iter()
    .flatten()
    .collect();
    libtest_mimic::run(&args, trials).exit();
}
