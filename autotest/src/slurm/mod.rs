//! The lab on a Slurm cluster: a tournament or SPRT as a job array.
//!
//! The schedule is cut into shards of whole pairs (`options`), so that a
//! shard is the same games whoever plays it; each array task plays one
//! shard as a local tournament resumed from its own PGN file (`task`) in
//! the run directory (`run_dir`); the coordinator (`coordinator`) submits,
//! watches and cancels through Slurm's command-line tools (`scheduler`)
//! and merges the shards' games in schedule order (`merge`). See
//! docs/DISTRIBUTED.md.

pub mod coordinator;
pub mod merge;
pub mod options;
pub mod run_dir;
pub mod scheduler;
pub mod task;

/// `autotest slurm task|watch|cancel ...`.
pub fn command(args: &[String]) -> Result<(), String> {
    let dir = |i: usize| {
        args.get(i)
            .map(std::path::Path::new)
            .ok_or_else(|| format!("slurm {}: needs the run directory", args[0]))
    };
    match args.first().map(String::as_str) {
        Some("task") if args.len() == 3 => task::run(dir(1)?, &args[2]),
        Some("watch") if args.len() == 2 => coordinator::watch(dir(1)?),
        Some("cancel") if args.len() == 2 => coordinator::cancel(dir(1)?),
        _ => Err("usage: autotest slurm watch RUN | cancel RUN | task RUN K".into()),
    }
}
