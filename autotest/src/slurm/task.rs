//! `autotest slurm task RUN K`: what array task `K` runs. It reads the
//! run's arguments from the run directory, and plays shard `K` of the
//! schedule as a local tournament with `-resume` into the shard's own PGN
//! file: the games it finished before a cancel, a kill or a requeue count
//! and are not played again. The SPRT is the coordinator's: a task plays
//! its whole shard unless cancelled. It plays holding the shard's lock
//! (`lock`), so that an attempt Slurm started while the last one still
//! lives (on a node cut off) waits for it. An engine killed from outside
//! (SIGKILL, SIGTERM, ...) ends the task without the game counted
//! ([`OutsideKill::Stop`]): the coordinator submits the shard again, and
//! its next attempt plays the game again. With `nps=`, the task first
//! measures its node and scales the clocks by it (`node_speed`), saying
//! so in the line after the one that opens the start.

use crate::openings;
use crate::slurm::lock;
use crate::slurm::node_speed;
use crate::slurm::options::{shards, stored};
use crate::slurm::run_dir::RunDir;
use crate::tournament::play::play;
use crate::tournament::run::OutsideKill;
use crate::tournament::schedule::{pair_count, schedule};

pub fn run(run: &RunDir, k: usize) -> Result<(), String> {
    let (mut spec, opts) = stored(run)?;
    let book = openings::book(&spec)?;
    let plan = shards(pair_count(&schedule(&spec, book.len())), opts.pairs());
    let pairs = plan.get(k).ok_or_else(|| {
        format!(
            "slurm task: the run has {} shards, not {}",
            plan.len(),
            k + 1
        )
    })?;
    let pgn = run.shard_pgn(k);
    if let Some(parent) = pgn.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    if let Some(reference) = &opts.speed {
        let (speed, line) = node_speed::apply(&mut spec.engines, reference)?;
        eprintln!("{line}");
        spec.node_speed = Some(speed);
    }
    eprintln!("autotest: shard {k} of {}: pairs {pairs:?}", plan.len());
    let _lock = lock::acquire(&run.shard_lock(k), &format!("shard {k}"))?;
    spec.only_pairs = Some(pairs.clone());
    spec.sprt = None;
    spec.pgn_out = Some(pgn);
    spec.resume = true;
    spec.concurrency = opts.cpus;
    play(&spec, OutsideKill::Stop)
}
