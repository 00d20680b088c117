//! The lab on a Slurm cluster: a tournament or SPRT as a job array.
//!
//! The schedule is cut into shards of whole pairs (`options`), so that a
//! shard is the same games whoever plays it; each array task plays one
//! shard as a local tournament resumed from its own PGN file (`task`) in
//! the run directory (`run_dir`), one attempt at a time (`lock`), each try counted (`attempts`), on clocks
//! scaled by its node's measured speed with `nps=` (`node_speed`); the coordinator (`coordinator`) submits,
//! watches and cancels through Slurm's command-line tools (`scheduler`)
//! and merges the shards' games in schedule order (`merge`), which it
//! records in the results database (`run_record`). `autotest
//! datagen` shards `leiserchess datagen` the same way (`datagen`). See
//! docs/DISTRIBUTED.md.

pub mod attempts;
pub mod coordinator;
pub mod datagen;
pub mod lock;
pub mod merge;
pub mod node_speed;
pub mod options;
pub mod run_dir;
pub mod run_record;
pub mod scheduler;
pub mod task;

use run_dir::RunDir;
use std::path::PathBuf;

/// `autotest slurm`'s subcommands.
#[derive(clap::Subcommand, Clone, Debug, PartialEq, Eq)]
pub enum SlurmCommand {
    /// A coordinator again on a -slurm or datagen run: it goes on from
    /// what the run directory holds
    Watch {
        /// The run directory (dir=RUN of -slurm)
        run: PathBuf,
    },
    /// Cancel every task of a run; no coordinator submits again
    Cancel {
        /// The run directory (dir=RUN of -slurm)
        run: PathBuf,
    },
    /// Play shard K of a tournament run: what each array task runs
    #[command(hide = true)]
    Task { run: PathBuf, k: usize },
    /// Make shard K's positions of a datagen run: what each array task runs
    #[command(hide = true)]
    DatagenTask { run: PathBuf, k: usize },
}

/// `autotest slurm ...`.
pub fn command(command: &SlurmCommand) -> Result<(), String> {
    match command {
        SlurmCommand::Task { run, k } => task::run(&RunDir::open(run)?, *k),
        SlurmCommand::DatagenTask { run, k } => datagen::task(&RunDir::open(run)?, *k),
        SlurmCommand::Watch { run } => {
            let run = RunDir::open(run)?;
            match datagen::is_datagen(&run)? {
                true => datagen::watch(&run),
                false => coordinator::watch(&run),
            }
        }
        SlurmCommand::Cancel { run } => coordinator::cancel(&RunDir::open(run)?),
    }
}
