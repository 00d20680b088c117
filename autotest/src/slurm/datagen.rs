//! `autotest datagen`: `leiserchess datagen` as a Slurm job array.
//!
//! ```text
//! autotest datagen -slurm dir=RUN [tasks=N] [cpus=N] [sbatch="ARGS"] [poll=S] [retries=N] \
//!     -- ENGINE datagen OUT --positions N [--seed S] [DATAGEN ARGS ...]
//! ```
//!
//! After `--` comes the datagen command as it would run on one machine.
//! Task `K` runs it with `OUT` replaced by `RUN/shards/K/data.bin`, a
//! `1/tasks` share of the positions, its own seed `S + K` (datagen's games
//! are seeded by the seed and their number, so the tasks play different
//! games) and `--threads` set to `cpus`. A task that is cancelled,
//! killed or requeued goes on from its own file, as datagen does, one
//! attempt at a time (`slurm::lock`). Once
//! every shard holds its share, the shards are merged into `OUT` in task
//! order with each position (the board and the side to move) kept once,
//! at most `--positions` of them, in the shards' format (game chains, a
//! repeat marked left out, or format 2's records). The coordinator records the run in
//! the results database (the per-user `lab.db` unless `AUTOTEST_DB` names
//! another) as a run of
//! kind `datagen`, with its games, positions and output file at the end
//! (`slurm::run_record`).

use crate::config::flags::key_values;
use crate::db::text_enums::Status;
use crate::interrupt;
use crate::slurm::coordinator::submit_idle;
use crate::slurm::lock;
use crate::slurm::options::{parse_options, SlurmOptions};
use crate::slurm::run_dir::{current_dir, RunDir};
use crate::slurm::run_record::{datagen_detail, Record};
use crate::slurm::scheduler;
use crate::tournament::progress::duration;
use leiserchess::lab::data::{self, Format};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// `autotest datagen --help`.
pub const HELP: &str = "\
usage:
  autotest datagen -slurm dir=RUN [tasks=N] [cpus=N] [sbatch=\"ARGS\"] [poll=S]
      [retries=N] -- ENGINE datagen OUT --positions N [--seed S] [ARGS ...]

leiserchess datagen as a Slurm job array (docs/DISTRIBUTED.md). After --
comes the datagen command as it would run on one machine. Task K makes a
1/tasks share of the N positions with seed S+K and cpus threads into
RUN/shards/K/data.bin; once every shard holds its share they are merged
into OUT in task order, each position (board and side to move) once.
  -slurm dir=RUN           the run directory, on a filesystem the nodes share
  tasks=N                  shards, one array task each [8]
  cpus=N                   each task's CPUs and datagen --threads [1]
  sbatch=\"ARGS\"            more sbatch arguments (partition, account, time
                           limit) [none]
  poll=S                   how often the coordinator looks, seconds [0.5]
  retries=N                how many times a shard whose task ended without
                           finishing it is submitted again [2]
The same command (or autotest slurm watch RUN) goes on with RUN; autotest
slurm cancel RUN cancels it. The run is recorded in the results database
(-db, else AUTOTEST_DB, else the per-user lab.db) as a run of kind datagen.
Each task's leiserchess datagen puts its shard in the lab store when it
ends (its --store or LEISERCHESS_STORE, which the tasks inherit).";

/// Shards unless `tasks=` says otherwise.
pub const DEFAULT_TASKS: usize = 8;

/// A sharded datagen run.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    pub engine: String,
    pub out: PathBuf,
    pub positions: u64,
    pub seed: u64,
    /// The datagen arguments left as given.
    pub rest: Vec<String>,
    pub opts: SlurmOptions,
}

/// `autotest datagen`'s arguments (after `datagen`).
pub fn parse(args: &[String]) -> Result<Plan, String> {
    let usage = "usage: autotest datagen -slurm dir=RUN [tasks=N] [cpus=N] [sbatch=\"ARGS\"] \
                 [poll=S] [retries=N] -- ENGINE datagen OUT --positions N [ARGS ...]";
    let dash = args.iter().position(|a| a == "--").ok_or(usage)?;
    let (ours, theirs) = (&args[..dash], &args[dash + 1..]);
    if ours.first().map(String::as_str) != Some("-slurm") {
        return Err(usage.into());
    }
    let err = |e: crate::config::ConfigError| format!("datagen: {e}");
    let kv = key_values(ours, 0).map_err(err)?;
    if kv.len() + 1 != ours.len() {
        return Err(format!(
            "datagen: '{}' before --: {usage}",
            ours[kv.len() + 1]
        ));
    }
    if let Some((_, k, _)) = kv.iter().find(|(_, k, _)| *k == "pairs") {
        return Err(format!(
            "datagen: -slurm {k}= is a tournament's: datagen is cut by tasks="
        ));
    }
    if let Some((_, k, _)) = kv.iter().find(|(_, k, _)| matches!(*k, "nps" | "bench")) {
        return Err(format!(
            "datagen: -slurm {k}= scales a tournament's clocks: datagen's searches have none"
        ));
    }
    let opts = parse_options(ours, &kv).map_err(err)?;
    let [engine, verb, out, rest @ ..] = theirs else {
        return Err(format!(
            "datagen: after -- comes ENGINE datagen OUT ...: {usage}"
        ));
    };
    if verb != "datagen" || out.starts_with('-') {
        return Err(format!(
            "datagen: after -- comes ENGINE datagen OUT ...: {usage}"
        ));
    }
    let mut plan = Plan {
        engine: engine.clone(),
        out: PathBuf::from(out),
        positions: 1_000_000,
        seed: 1,
        rest: Vec::new(),
        opts,
    };
    let mut i = 0;
    while i < rest.len() {
        let (flag, inline) = match rest[i].split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (rest[i].as_str(), None),
        };
        let mut value = || -> Result<String, String> {
            if let Some(v) = &inline {
                return Ok(v.clone());
            }
            i += 1;
            rest.get(i)
                .cloned()
                .ok_or(format!("datagen: {flag} needs a value"))
        };
        match flag {
            "--positions" | "--seed" => {
                let v = value()?;
                let n: u64 = v
                    .parse()
                    .map_err(|_| format!("datagen: {flag} '{v}' is not a whole number"))?;
                match flag {
                    "--positions" if n >= 1 => plan.positions = n,
                    "--positions" => return Err("datagen: --positions must be at least 1".into()),
                    _ => plan.seed = n,
                }
            }
            "--threads" => {
                return Err("datagen: each task's threads are -slurm cpus=, not --threads".into())
            }
            _ => plan.rest.push(rest[i].clone()),
        }
        i += 1;
    }
    Ok(plan)
}

impl Plan {
    pub fn tasks(&self) -> usize {
        self.opts.tasks.unwrap_or(DEFAULT_TASKS)
    }

    /// Positions each shard is to hold.
    pub fn share(&self) -> u64 {
        self.positions.div_ceil(self.tasks() as u64)
    }

    /// Task `k`'s datagen command line.
    pub fn command(&self, run: &RunDir, k: usize) -> Vec<String> {
        let mut c = vec![
            "datagen".to_string(),
            run.shard_data(k).display().to_string(),
            format!("--positions={}", self.share()),
            format!("--seed={}", self.seed.wrapping_add(k as u64)),
            format!("--threads={}", self.opts.cpus),
        ];
        c.extend(self.rest.iter().cloned());
        c
    }
}

/// `autotest datagen ...`: a new run, or the run already in `dir=`.
pub fn start(args: &[String]) -> Result<(), String> {
    let plan = parse(&args[1..])?;
    let cwd = current_dir()?;
    let (run, existed) = RunDir::create_or_attach(&plan.opts.dir, args, &cwd)?;
    if existed {
        eprintln!(
            "autotest: {} holds this run: going on with it",
            run.root.display()
        );
    }
    follow(&run, &plan, &cwd)
}

/// The plan stored in a run directory, from its directory.
fn stored(run: &RunDir) -> Result<Plan, String> {
    let args = run.enter()?;
    parse(args.get(1..).unwrap_or_default())
}

/// `autotest slurm datagen-task RUN K`: task `K`'s share.
pub fn task(run: &RunDir, k: usize) -> Result<(), String> {
    let plan = stored(run)?;
    if k >= plan.tasks() {
        return Err(format!(
            "slurm datagen-task: the run has {} tasks, not {}",
            plan.tasks(),
            k + 1
        ));
    }
    let data = run.shard_data(k);
    if let Some(dir) = data.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let command = plan.command(run, k);
    eprintln!(
        "autotest: datagen shard {k} of {}: {} {}",
        plan.tasks(),
        plan.engine,
        command.join(" ")
    );
    let _lock = lock::acquire(&run.shard_lock(k), &format!("datagen shard {k}"))?;
    let status = std::process::Command::new(&plan.engine)
        .args(&command)
        .status()
        .map_err(|e| format!("cannot run {}: {e}", plan.engine))?;
    match status.success() {
        true => Ok(()),
        false => Err(format!("{} datagen ended with {status}", plan.engine)),
    }
}

/// `autotest slurm watch RUN` on a datagen run.
pub fn watch(run: &RunDir) -> Result<(), String> {
    let plan = stored(run)?;
    let cwd = current_dir()?;
    follow(run, &plan, &cwd)
}

/// Whether a run directory holds a datagen run.
pub fn is_datagen(run: &RunDir) -> Result<bool, String> {
    Ok(run.arguments()?.0.first().map(String::as_str) == Some("datagen"))
}

fn held(path: &Path) -> u64 {
    data::positions_held(path)
}

fn follow(run: &RunDir, plan: &Plan, cwd: &Path) -> Result<(), String> {
    let mut args = vec![
        "datagen".to_string(),
        plan.out.display().to_string(),
        format!("--positions={}", plan.positions),
        format!("--seed={}", plan.seed),
    ];
    args.extend(plan.rest.iter().cloned());
    let mut record = Record::datagen(run, &plan.engine, &args, plan.seed, &plan.out);
    let result = coordinate(run, plan, cwd, &mut record);
    if let Some(r) = record.as_mut() {
        match &result {
            Ok(Some(kept)) => {
                r.detail(&datagen_detail(games_played(run, plan), *kept, &plan.out));
                r.finish(Status::Finished);
            }
            // Detached: the tasks go on, the run stays `running`.
            Ok(None) => {}
            Err(_) => r.fail(),
        }
    }
    result.map(|_| ())
}

/// Follows the run to its end: the positions kept, or `None` when
/// detached by a signal.
fn coordinate(
    run: &RunDir,
    plan: &Plan,
    cwd: &Path,
    record: &mut Option<Record>,
) -> Result<Option<u64>, String> {
    let (tasks, share) = (plan.tasks(), plan.share());
    let count = || -> Vec<u64> {
        (0..tasks)
            .map(|k| held(&run.shard_data(k)).min(share))
            .collect()
    };
    let (started, at_start) = (Instant::now(), count().iter().sum::<u64>());
    let mut last = (u64::MAX, Instant::now());
    eprintln!(
        "autotest: {} positions in {tasks} shards of {share}; run directory {}",
        plan.positions,
        run.root.display()
    );
    loop {
        let subs = run.submissions()?;
        if let Some(r) = record.as_mut() {
            r.jobs(&subs);
        }
        let ids: Vec<String> = subs.iter().map(|s| s.job.clone()).collect();
        let alive = scheduler::alive(&ids).map_err(|e| e.to_string())?;
        let counts = count();
        let total: u64 = counts.iter().sum();
        let done = counts.iter().filter(|&&c| c >= share).count();
        if done == tasks {
            return merge(run, plan).map(Some);
        }
        if interrupt::received().is_some() {
            eprintln!("{}", run.detached());
            return Ok(None);
        }
        if run.cancelled() {
            if let Some(r) = record.as_mut() {
                r.finish(Status::Cancelled);
            }
            return Err(format!(
                "the run in {} was cancelled (autotest slurm cancel)",
                run.root.display()
            ));
        }
        let idle: Vec<usize> = (0..tasks)
            .filter(|&k| counts[k] < share && !alive.iter().any(|a| a.task == k))
            .collect();
        if !idle.is_empty() {
            submit_idle(run, "datagen-task", &idle, &subs, &plan.opts, cwd)?;
            continue;
        }
        if total != last.0 || last.1.elapsed() >= Duration::from_secs(30) {
            let rate = (total - at_start) as f64 / started.elapsed().as_secs_f64().max(1e-3);
            let running = alive.iter().filter(|a| a.state == "RUNNING").count();
            let mut line = format!(
                "datagen: {total}/{} positions, shards {done}/{tasks} done, tasks {running} running \
                 {} waiting",
                share * tasks as u64,
                alive.len() - running
            );
            if rate > 0.0 {
                let left = (share * tasks as u64 - total) as f64 / rate;
                line += &format!(
                    ", {rate:.0} positions/s, about {} left",
                    duration((left * 1000.0) as u64)
                );
            }
            eprintln!("{line}");
            last = (total, Instant::now());
        }
        std::thread::sleep(plan.opts.poll);
    }
}

/// The games the tasks played, as their logs count them: each attempt's
/// last `datagen: ... N games` line (an attempt killed may have played up
/// to two seconds more than its last line says).
fn games_played(run: &RunDir, plan: &Plan) -> u64 {
    let mut games = 0;
    for k in 0..plan.tasks() {
        let log = std::fs::read_to_string(run.task_log(k)).unwrap_or_default();
        let mut attempt = 0;
        for line in log.lines() {
            if line.starts_with("autotest: datagen shard ") {
                games += attempt;
                attempt = 0;
            } else if let Some(n) = games_in(line) {
                attempt = n;
            }
        }
        games += attempt;
    }
    games
}

/// N of a datagen progress line `datagen: ... positions (...), N games, ...`.
fn games_in(line: &str) -> Option<u64> {
    let rest = line.strip_prefix("datagen: ")?;
    let (before, _) = rest.split_once(" games")?;
    before.rsplit(' ').next()?.parse().ok()
}

/// The shards' positions into `plan.out`, each position once; how many
/// were kept.
fn merge(run: &RunDir, plan: &Plan) -> Result<u64, String> {
    let shards: Vec<PathBuf> = (0..plan.tasks()).map(|k| run.shard_data(k)).collect();
    let (m, format) = merge_files(&shards, &plan.out, plan.positions)?;
    eprintln!(
        "autotest: merged {} positions of {} shards into {} ({format}): {} kept, {} seen before",
        m.read,
        plan.tasks(),
        plan.out.display(),
        m.kept,
        m.repeated
    );
    Ok(m.kept)
}

/// The data files `shards` (of one format) merged into `out` in order,
/// each position once, at most `limit` of them: in game chains a position
/// not kept is marked left out (a game left with none is dropped), in
/// format 2 its record is not written.
fn merge_files(shards: &[PathBuf], out: &Path, limit: u64) -> Result<(Merge, Format), String> {
    let format = data::format(&shards[0])?;
    let mut m = Merge {
        seen: HashSet::new(),
        read: 0,
        repeated: 0,
        kept: 0,
        limit,
    };
    let mut bytes = format.header().to_vec();
    for path in shards {
        let this = data::format(path)?;
        if this != format {
            return Err(format!(
                "{} is of {this} and {} of {format}: the shards of one run are of one format",
                path.display(),
                shards[0].display()
            ));
        }
        match format {
            Format::Records => {
                for g in data::games(path)? {
                    for s in g?.samples {
                        if m.keep(&s.board) {
                            bytes.extend_from_slice(
                                &data::encode(&s).expect("a read sample encodes"),
                            );
                        }
                    }
                }
            }
            Format::Chains => {
                for c in data::chains(path)? {
                    let mut c = c?;
                    for (i, board) in c.boards().to_vec().iter().enumerate() {
                        if c.plies()[i].score.is_some() && !m.keep(board) {
                            c.set_score(i, None);
                        }
                    }
                    if c.kept() > 0 {
                        bytes.extend_from_slice(&c.to_bytes());
                    }
                }
            }
        }
    }
    std::fs::write(out, &bytes).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    Ok((m, format))
}

/// The merge's count of the positions read and kept.
struct Merge {
    seen: HashSet<u64>,
    read: u64,
    repeated: u64,
    kept: u64,
    /// The most positions kept.
    limit: u64,
}

impl Merge {
    /// Whether a kept position of a shard is kept in the merge: new, and
    /// within the limit.
    fn keep(&mut self, board: &leiserchess::rules::board::Board) -> bool {
        self.read += 1;
        let key = data::board_key(board).expect("a read position has a record");
        if !self.seen.insert(key) {
            self.repeated += 1;
            return false;
        }
        if self.kept >= self.limit {
            return false;
        }
        self.kept += 1;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::{games_in, merge_files};
    use leiserchess::lab::data::{self, command::expand, Format};

    /// Shards of either format merge to the same positions, each once and
    /// at most the limit; the chains' merge expands to the records'.
    #[test]
    fn shards_of_either_format_merge_each_position_once() {
        let dir = crate::scratch::dir("datagen-merge");
        let shard = |seed: u64, format: u16| {
            let path = dir.join(format!("s{seed}-{format}.bin"));
            let line = format!(
                "datagen {} --positions 60 --nodes 100 --seed {seed} --format {format}",
                path.display()
            );
            let a =
                <leiserchess::lab::datagen::Args as clap::Parser>::try_parse_from(line.split(' '))
                    .unwrap();
            leiserchess::lab::datagen::run(&leiserchess::lab::datagen::Config::new(&a).unwrap())
                .unwrap();
            path
        };
        let mut merged = Vec::new();
        for format in [2, 3] {
            let (a, b) = (shard(1, format), shard(2, format));
            // The second shard twice: its positions are all repeats.
            let out = dir.join(format!("m{format}.bin"));
            let (m, f) = merge_files(&[a.clone(), b.clone(), b.clone()], &out, 100).unwrap();
            assert_eq!(f, Format::of_version(format).unwrap());
            assert_eq!((m.read, m.kept), (180, 100));
            assert!(m.repeated >= 60, "{}", m.repeated);
            let samples = data::read(&out).unwrap();
            assert_eq!(samples.len(), 100);
            assert_eq!(samples[..60], data::read(&a).unwrap()[..]);
            merged.push(out);
        }
        let expanded = dir.join("e.bin");
        expand(&merged[1], &expanded).unwrap();
        assert_eq!(
            std::fs::read(&expanded).unwrap(),
            std::fs::read(&merged[0]).unwrap()
        );
        let mixed = [dir.join("s1-2.bin"), dir.join("s1-3.bin")];
        let e = merge_files(&mixed, &dir.join("x.bin"), 100).err().unwrap();
        assert!(e.contains("the shards of one run are of one format"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A tournament's -slurm settings are refused, named.
    #[test]
    fn a_tournaments_settings_are_refused() {
        for (setting, says) in [
            ("pairs=2", "-slurm pairs= is a tournament's"),
            ("nps=1e6", "-slurm nps= scales a tournament's clocks"),
            ("bench=bench", "-slurm bench= scales a tournament's clocks"),
        ] {
            let args: Vec<String> = ["-slurm", "dir=r", setting, "--", "e", "datagen", "o"]
                .iter()
                .map(|s| s.to_string())
                .collect();
            let err = super::parse(&args).err().unwrap();
            assert!(err.contains(says), "{err}");
        }
    }

    #[test]
    fn games_of_a_progress_line() {
        let line = "datagen: 120 / 300 positions (40.0%), 7 games, 0.12M/h, about 3s left";
        assert_eq!(games_in(line), Some(7));
        assert_eq!(games_in("datagen: x already holds 40 positions"), None);
        assert_eq!(games_in("autotest: datagen shard 1 of 3: e datagen"), None);
    }
}
