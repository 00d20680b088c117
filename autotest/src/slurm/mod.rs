//! The lab on a Slurm cluster: a tournament or SPRT as a job array.
//!
//! The schedule is cut into shards of whole pairs (`options`), so that a
//! shard is the same games whoever plays it; each array task plays one
//! shard as a local tournament resumed from its own PGN file (`task`) in
//! the run directory (`run_dir`), one attempt at a time (`lock`), each try counted (`attempts`); the coordinator (`coordinator`) submits,
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
pub mod options;
pub mod run_dir;
pub mod run_record;
pub mod scheduler;
pub mod task;

/// `autotest slurm watch|cancel|task|datagen-task ...`.
pub fn command(args: &[String]) -> Result<(), String> {
    let usage = "usage: autotest slurm watch RUN | cancel RUN | task RUN K | datagen-task RUN K";
    let run = || run_dir::RunDir::open(std::path::Path::new(&args[1]));
    let number = || {
        args[2]
            .parse::<usize>()
            .map_err(|_| format!("slurm {}: '{}' is not a task number", args[0], args[2]))
    };
    match (args.first().map(String::as_str), args.len()) {
        (Some("task"), 3) => task::run(&run()?, number()?),
        (Some("datagen-task"), 3) => datagen::task(&run()?, number()?),
        (Some("watch"), 2) => {
            let run = run()?;
            match datagen::is_datagen(&run)? {
                true => datagen::watch(&run),
                false => coordinator::watch(&run),
            }
        }
        (Some("cancel"), 2) => coordinator::cancel(&run()?),
        _ => Err(usage.into()),
    }
}
