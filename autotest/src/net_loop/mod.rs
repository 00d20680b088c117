//! `autotest loop`: net generations made unattended on this machine (its
//! datagen and SPRT on a Slurm cluster with `--slurm`). Each
//! generation makes self-play data with the best net (`leiserchess
//! datagen`), scores it again with that net if asked (`relabel`), trains a
//! candidate on the newest generations' data (`train`), plays it against
//! the best by SPRT (autotest's own tournament, in this process), and
//! promotes it on H1 (marked in the lab store) or rejects it; then the
//! next, until a stop rule (generations, hours, rejections in a row) or a
//! stop signal. Each step is recorded in the results database as it ends.
//!
//! * `args`: the command line (`--slurm`'s value in `args/slurm.rs`),
//!   its plan and setup;
//! * `steps`: a generation's steps;
//! * `state`: the state file, written after every step;
//! * `machine`: the step machine and the stop rules;
//! * `progress`: the line before each step, with the time left;
//! * `executor`: what the machine asks of the world, a trait;
//! * `record`: the loop's state as the results database records it;
//! * `engine`: the real executor, `child` its child processes, `sprt`
//!   its SPRT (a run in the results database), `mark` the store's
//!   mark of a promoted net and `slurm` its datagen and SPRT as Slurm
//!   job arrays (`--slurm`);
//! * `tests.rs`: the machine against a fake executor, `fake`.
//!
//! Started again with the same command, the loop goes on at the step it
//! was in (docs/LAB.md, "Generations unattended").

pub mod args;
pub mod child;
pub mod engine;
pub mod executor;
pub mod machine;
pub mod mark;
pub mod progress;
pub mod record;
pub mod slurm;
pub mod sprt;
pub mod state;
pub mod steps;

#[cfg(test)]
mod fake;
#[cfg(test)]
mod tests;

use args::LoopArgs;
use engine::EngineExecutor;
use executor::Executor;
use machine::Ending;
use std::fs::{OpenOptions, TryLockError};

/// The lock file that keeps a second loop out of the folder.
const LOCK: &str = "loop.lock";

/// `autotest loop` (see [`LoopArgs`]).
pub fn command(a: &LoopArgs) -> Result<(), String> {
    let (plan, setup) = a.plan()?;
    let dir = setup.dir.clone();
    let lock_path = dir.join(LOCK);
    let lock = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(|e| format!("cannot open {}: {e}", lock_path.display()))?;
    match lock.try_lock() {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => {
            return Err(format!(
                "another autotest loop runs in {} (it holds {})",
                dir.display(),
                lock_path.display()
            ))
        }
        Err(TryLockError::Error(e)) => {
            return Err(format!("cannot lock {}: {e}", lock_path.display()))
        }
    }
    let mut exec = EngineExecutor::new(setup)?;
    let line = match machine::start(&dir, &plan, a.force, &mut exec)? {
        Ending::Done(why) => format!("loop: stopped: {why}"),
        Ending::Signal(signal) => format!("loop: stopped by {signal}; the same command goes on"),
    };
    exec.say(&line);
    Ok(())
}
