//! The coordinator: submits the run's shards as a job array, merges their
//! games as they come (`merge`), prints the live standing with the time
//! left, submits again a shard whose task ended without finishing it (at
//! most `retries` more tries, `attempts`), and when the run is over
//! (every game in, or the SPRT decided) cancels what is left, writes the
//! merged PGN and prints the table. Everything it knows is in the run
//! directory, so it can be stopped (Ctrl-C detaches; the tasks go on) and
//! started again on it.
//! It alone records the run in the results database (`run_record`).

use crate::config::spec::TournamentSpec;
use crate::db::text_enums::Status;
use crate::interrupt;
use crate::openings;
use crate::referee::preflight;
use crate::slurm::attempts;
use crate::slurm::merge::{Merge, Standing};
use crate::slurm::options::{shards, stored, SlurmOptions};
use crate::slurm::run_dir::{current_dir, RunDir, Submission};
use crate::slurm::run_record::{self, Record};
use crate::slurm::scheduler::{self, Alive, SlurmError};
use crate::stats::sprt::{sprt_bounds, SprtDecision};
use crate::tournament::progress::duration;
use crate::tournament::run::Summary;
use crate::tournament::schedule::{pair_count, schedule};
use crate::tournament::table;
use std::path::Path;
use std::time::{Duration, Instant};

/// `autotest -slurm dir=RUN ...`: a new run, or the run already there.
pub fn start(args: &[String], spec: &TournamentSpec, opts: &SlurmOptions) -> Result<(), String> {
    let cwd = current_dir()?;
    let (run, existed) = RunDir::create_or_attach(&opts.dir, args, &cwd)?;
    if existed {
        eprintln!(
            "autotest: {} holds this run: going on with it",
            run.root.display()
        );
    }
    follow(&run, spec, opts, &cwd)
}

/// `autotest slurm watch RUN`: a coordinator again on a run directory.
pub fn watch(run: &RunDir) -> Result<(), String> {
    let (spec, opts) = stored(run)?;
    follow(run, &spec, &opts, &current_dir()?)
}

/// `autotest slurm cancel RUN`: every task of the run cancelled, and the
/// run marked so that no coordinator submits again.
pub fn cancel(run: &RunDir) -> Result<(), String> {
    run.mark_cancelled()?;
    run_record::cancelled(run);
    let jobs = job_ids(run)?;
    scheduler::cancel(&jobs).map_err(|e| e.to_string())?;
    eprintln!(
        "autotest: cancelled the run in {} (jobs {})",
        run.root.display(),
        jobs.join(" ")
    );
    Ok(())
}

fn job_ids(run: &RunDir) -> Result<Vec<String>, String> {
    Ok(run.submissions()?.into_iter().map(|s| s.job).collect())
}

fn follow(
    run: &RunDir,
    spec: &TournamentSpec,
    opts: &SlurmOptions,
    cwd: &Path,
) -> Result<(), String> {
    let pgn_out = spec
        .pgn_out
        .clone()
        .unwrap_or_else(|| run.root.join("games.pgn"));
    let mut record = Record::tournament(run, spec, &pgn_out);
    let result = coordinate(run, spec, opts, cwd, &pgn_out, &mut record);
    if let (Err(_), Some(r)) = (&result, record.as_mut()) {
        r.fail();
    }
    result
}

fn coordinate(
    run: &RunDir,
    spec: &TournamentSpec,
    opts: &SlurmOptions,
    cwd: &Path,
    pgn_out: &Path,
    record: &mut Option<Record>,
) -> Result<(), String> {
    let book = openings::book(spec)?;
    let jobs = schedule(spec, book.len());
    let plan = shards(pair_count(&jobs), opts.pairs());
    let files = (0..plan.len()).map(|k| run.shard_pgn(k)).collect();
    let mut merge = Merge::new(jobs.clone(), plan.clone(), files);
    merge.refresh(spec, &book)?;
    let (started, at_start) = (Instant::now(), merge.count());
    let mut last = (usize::MAX, Instant::now());
    let mut checked = false;
    eprintln!(
        "autotest: {} games in {} shards of up to {} pairs; run directory {}",
        jobs.len(),
        plan.len(),
        plan.first().map_or(0, |r| r.len()),
        run.root.display()
    );
    loop {
        // Who is alive is asked before the files are read: a task gone by
        // then has written all it will.
        let subs = run.submissions()?;
        let ids: Vec<String> = subs.iter().map(|s| s.job.clone()).collect();
        let alive = scheduler::alive(&ids).map_err(|e| e.to_string())?;
        merge.refresh(spec, &book)?;
        let st = merge.standing(spec);
        if let Some(r) = record.as_mut() {
            r.jobs(&subs);
            r.games(&merge, &st);
        }
        if st.done {
            finish(spec, &merge, &st, &ids, &alive, pgn_out)?;
            if let Some(r) = record.as_mut() {
                r.finish(match st.sprt {
                    Some((_, SprtDecision::H0)) => Status::H0,
                    Some((_, SprtDecision::H1)) => Status::H1,
                    _ => Status::Finished,
                });
            }
            return Ok(());
        }
        if interrupt::received().is_some() {
            // The run stays `running` in the database: its tasks go on.
            write(pgn_out, &merge.pgn(st.games))?;
            eprintln!("{}", run.detached());
            return Ok(());
        }
        if run.cancelled() {
            write(pgn_out, &merge.pgn(st.games))?;
            if let Some(r) = record.as_mut() {
                r.finish(Status::Cancelled);
            }
            return Err(format!(
                "the run in {} was cancelled (autotest slurm cancel) after {} games in order",
                run.root.display(),
                st.games
            ));
        }
        let idle: Vec<usize> = (0..plan.len())
            .filter(|&k| !merge.shard_complete(k) && !alive.iter().any(|a| a.task == k))
            .collect();
        if !idle.is_empty() {
            if !checked {
                // The engines answer here before any task is spent on them.
                preflight::check(spec)?;
                checked = true;
            }
            submit_idle(run, "task", &idle, &subs, opts, cwd)?;
            continue;
        }
        if merge.count() != last.0 || last.1.elapsed() >= Duration::from_secs(30) {
            let rate =
                (merge.count() - at_start) as f64 / started.elapsed().as_secs_f64().max(1e-3);
            eprintln!(
                "{}",
                line(spec, &merge, &st, &alive, jobs.len(), plan.len(), rate)
            );
            last = (merge.count(), Instant::now());
        }
        std::thread::sleep(opts.poll);
    }
}

/// Submits the shards `idle` (unfinished, with no task pending or
/// running) as one array of `autotest slurm SUBCOMMAND` tasks, unless one
/// of them is out of tries (`attempts`): then the run stops with the end
/// of that shard's log.
pub fn submit_idle(
    run: &RunDir,
    subcommand: &str,
    idle: &[usize],
    subs: &[Submission],
    opts: &SlurmOptions,
    cwd: &Path,
) -> Result<(), String> {
    for &k in idle {
        let log = std::fs::read_to_string(run.task_log(k)).unwrap_or_default();
        let jobs: Vec<&str> = subs
            .iter()
            .filter(|s| s.tasks.contains(&k))
            .map(|s| s.job.as_str())
            .collect();
        if let Some(why) = attempts::exhausted(&jobs, &log, k, opts.retries) {
            return Err(format!(
                "{why} (retries={}); the end of its log {}:\n{}",
                opts.retries,
                run.task_log(k).display(),
                tail(&run.task_log(k), 10)
            ));
        }
    }
    let s = scheduler::submit(run, subcommand, idle, opts.cpus, cwd, &opts.sbatch)?;
    eprintln!(
        "autotest: submitted job {} (tasks {})",
        s.job,
        scheduler::array_list(idle)
    );
    Ok(())
}

/// The live line: games in order and in all, shards done, tasks, the first
/// engine's W-L-D and pairs, the LLR, and the time left at this rate.
fn line(
    spec: &TournamentSpec,
    merge: &Merge,
    st: &Standing,
    alive: &[Alive],
    total: usize,
    shards: usize,
    rate: f64,
) -> String {
    let done = (0..shards).filter(|&k| merge.shard_complete(k)).count();
    let running = alive.iter().filter(|a| a.state == "RUNNING").count();
    let s = &st.tally.standings[0];
    let mut out = format!(
        "slurm: {}/{total} games in order ({} in), shards {done}/{shards} done, tasks {running} \
         running {} waiting; {}: {} - {} - {}, pairs {:?}",
        st.games,
        merge.count(),
        alive.len() - running,
        spec.engines[0].name,
        s.wins,
        s.losses,
        s.draws,
        s.pairs
    );
    if let (Some((llr, _)), Some(t)) = (st.sprt, spec.sprt) {
        let (lo, hi) = sprt_bounds(t.alpha, t.beta);
        let share = if llr >= 0.0 { llr / hi } else { llr / lo };
        out += &format!("; LLR {llr:.2} ({:.0}% to a bound)", share * 100.0);
    }
    if rate > 0.0 {
        let left = (total - merge.count()) as f64 / rate;
        let bound = if spec.sprt.is_some() { "at most " } else { "" };
        out += &format!("; {bound}{} left", duration((left * 1000.0) as u64));
    }
    out
}

fn finish(
    spec: &TournamentSpec,
    merge: &Merge,
    st: &Standing,
    ids: &[String],
    alive: &[Alive],
    pgn_out: &Path,
) -> Result<(), String> {
    if !alive.is_empty() {
        let t0 = Instant::now();
        let slurm = |e: SlurmError| e.to_string();
        scheduler::cancel(ids).map_err(slurm)?;
        while !scheduler::alive(ids).map_err(slurm)?.is_empty()
            && t0.elapsed() < Duration::from_secs(120)
        {
            std::thread::sleep(Duration::from_millis(50));
        }
        let decided = st.sprt.is_some_and(|(_, d)| d != SprtDecision::Continue);
        eprintln!(
            "autotest: the run is {} at game {}: cancelled {} tasks, none left after {:.2} s",
            if decided { "decided" } else { "over" },
            st.games,
            alive.len(),
            t0.elapsed().as_secs_f64()
        );
    }
    let past = merge.count() - st.games;
    if past > 0 {
        eprintln!("autotest: {past} games played past the decision are left out");
    }
    write(pgn_out, &merge.pgn(st.games))?;
    eprintln!(
        "autotest: {} games merged into {}",
        st.games,
        pgn_out.display()
    );
    println!("{}", spec.title);
    let summary = Summary {
        standings: st.tally.standings.clone(),
        games: Vec::new(),
        sprt: st.sprt,
    };
    print!("{}", table(spec, &summary));
    Ok(())
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The last `n` lines of a file (or why there are none).
fn tail(path: &Path, n: usize) -> String {
    match std::fs::read_to_string(path) {
        Ok(t) => {
            let lines: Vec<&str> = t.lines().collect();
            lines[lines.len().saturating_sub(n)..].join("\n")
        }
        Err(e) => format!("(cannot read it: {e})"),
    }
}
