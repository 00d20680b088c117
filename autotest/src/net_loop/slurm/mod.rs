//! `autotest loop --slurm`: the datagen and SPRT steps as Slurm job
//! arrays (docs/LAB.md, "On a Slurm cluster"), each run by this autotest
//! as the step's child process in a run directory of its generation
//! under the flag's `dir=`, `DIR/gen-G/datagen` and `DIR/gen-G/sprt`:
//!
//! * `datagen`: `autotest datagen -slurm ... -- ENGINE datagen OUT ...`,
//!   the local step's command after the `--`; the merged data put in the
//!   lab store by the loop;
//! * `sprt`: the local step's tournament as `-slurm` flags, its verdict
//!   read from the merged PGN, its run set on the generation's row.
//!
//! The child runs in the loop's folder, so that a loop started again
//! from any directory gives the run directory the same command and
//! directory and goes on with its run; it is a step's child (`child`):
//! its output passed through and logged, killed on a stop signal (the
//! array's tasks go on), and one left running by a loop killed alone
//! killed when the step runs again.

pub mod datagen;
pub mod sprt;

pub use super::args::slurm::LoopSlurm;

use super::args::Setup;
use super::child;
use super::machine::generation_dir;
use crate::db::path::ENV;
use crate::interrupt;
use crate::slurm::options::FLAG;
use std::path::{Path, PathBuf};
use std::process::Command;

impl LoopSlurm {
    /// The run directory of generation `g`'s `step` (`datagen`, `sprt`).
    pub fn run_dir(&self, g: u32, step: &str) -> PathBuf {
        generation_dir(&self.dir, g).join(step)
    }

    /// The `-slurm` flag of generation `g`'s `step` run: its run
    /// directory and the settings but `others` (the other step's keys).
    pub fn flag(&self, g: u32, step: &str, others: &[&str]) -> Vec<String> {
        let dir = format!("dir={}", self.run_dir(g, step).display());
        let theirs = |w: &&String| w.split_once('=').is_some_and(|(k, _)| others.contains(&k));
        [FLAG.to_string(), dir]
            .into_iter()
            .chain(self.settings.iter().filter(|w| !theirs(w)).cloned())
            .collect()
    }
}

/// Sets up the autotest child of a Slurm step: it runs in the loop's
/// folder, recording in the loop's results database (`AUTOTEST_DB`, a
/// path made absolute; the loop's environment's when `--db` is not
/// given).
pub fn place(setup: &Setup, command: &mut Command) {
    command.current_dir(&setup.dir);
    if let Some(db) = &setup.db {
        match db.as_str() {
            "none" => command.env(ENV, db),
            path => command.env(ENV, std::path::absolute(path).unwrap_or(path.into())),
        };
    }
}

/// Runs the autotest command `words` as a Slurm step's child
/// ([`place`]), its output in `log`.
pub fn run(setup: &Setup, words: &[String], log: &Path) -> Result<(), String> {
    child::run_with(
        words,
        log,
        |c| place(setup, c),
        || interrupt::received().map(interrupt::name),
    )
}

/// What the loop says when a stop signal ended a Slurm step: the tasks
/// of `run` go on.
pub fn detached(run: &Path) -> String {
    format!(
        "loop: the Slurm tasks of {0} go on: the same command takes them up, `autotest slurm \
         cancel {0}` stops them",
        run.display()
    )
}

#[cfg(test)]
mod tests;
