//! `autotest bench-record [--engine PATH] [--rounds N] [--db PATH]`: runs
//! each of `db::bench`'s measures N times, round by round, and records a
//! run of kind `bench` (its `detail` the engine binary, the commit of its
//! git work tree and whether that tree has changes) with a `benchmarks`
//! row per measure per round, written as each is measured. Prints the
//! summary table. A database that cannot be used is reported once and
//! the measuring goes on.

use crate::db::bench::{self, Measurement};
use crate::db::best_effort::BestEffort;
use crate::db::path::DbFlag;
use crate::db::provenance;
use crate::db::text_enums::{Measure, RunKind, Status, TextEnum};
use crate::db::write;
use crate::interrupt;
use rusqlite::{params, Connection};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The engine without `--engine`.
pub const DEFAULT_ENGINE: &str = "target/release/leiserchess";

/// `autotest bench-record`'s command line.
#[derive(clap::Args, Clone, Debug, PartialEq, Eq)]
pub struct BenchRecordArgs {
    /// The engine binary to measure
    #[arg(long, value_name = "PATH", default_value = DEFAULT_ENGINE)]
    pub engine: PathBuf,
    /// Rounds: each measure is run this many times, round by round
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..))]
    pub rounds: u64,
    #[command(flatten)]
    pub db: DbFlag,
}

/// Whether the git work tree `binary` lies in has changes to tracked
/// files (`git status --porcelain --untracked-files=no` in its
/// directory); `None` outside a work tree.
pub fn git_dirty(binary: &Path) -> Option<bool> {
    let dir = binary.parent().filter(|d| !d.as_os_str().is_empty())?;
    let out = Command::new("git")
        .args(["status", "--porcelain", "--untracked-files=no"])
        .current_dir(dir)
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| !String::from_utf8_lossy(&out.stdout).trim().is_empty())
}

/// A new `bench` run of `engine` (an absolute path), started by
/// `command`, with status `running`; its id.
pub fn insert_run(conn: &Connection, engine: &Path, command: &[String]) -> rusqlite::Result<i64> {
    let commit = provenance::git_commit(engine);
    let dirty = commit.is_some() && git_dirty(engine) == Some(true);
    let path = engine.display().to_string();
    let name = engine
        .file_name()
        .map_or(path.clone(), |n| n.to_string_lossy().into_owned());
    let engines = json!([{
        "name": name,
        "command": [path],
        "options": [],
        "limits": "-",
        "sha256": provenance::sha256(engine),
        "commit": commit,
    }]);
    let detail = json!({"commit": commit, "dirty": dirty, "engine": path});
    conn.execute(
        "INSERT INTO runs (kind, command, engines, title, repeat, seed, status, started,
             cpu_model, cores, slurm_job_id, detail)
         VALUES (?1, ?2, ?3, 'autotest bench-record', 0, 0, ?4,
             CAST(strftime('%s', 'now') AS INTEGER), ?5, ?6, ?7, ?8)",
        params![
            RunKind::Bench,
            json!(command).to_string(),
            engines.to_string(),
            Status::Running,
            provenance::cpu_model(),
            provenance::cores() as i64,
            provenance::slurm_job_id(),
            detail.to_string(),
        ],
    )?;
    Ok(conn.last_insert_rowid())
}

/// Round `round` of `measure` in run `run`.
pub fn insert_measurement(
    conn: &Connection,
    run: i64,
    measure: Measure,
    round: u64,
    m: &Measurement,
) -> rusqlite::Result<()> {
    conn.execute(
        "INSERT INTO benchmarks (run_id, measure, round, signature, nodes, seconds, rate)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![
            run,
            measure,
            round as i64,
            m.signature as i64,
            m.nodes as i64,
            m.seconds,
            m.rate
        ],
    )?;
    Ok(())
}

/// `autotest bench-record`, started by `command` (every word): the
/// summary table, or what went wrong.
pub fn run(a: &BenchRecordArgs, command: &[String]) -> Result<String, String> {
    if !a.engine.is_file() {
        return Err(format!(
            "bench-record: no engine at {} (build it with make build, or give --engine PATH)",
            a.engine.display()
        ));
    }
    let engine = std::path::absolute(&a.engine).unwrap_or(a.engine.clone());
    let mut db = BestEffort::open(a.db.db.as_deref());
    let run = db.as_mut().and_then(|db| {
        db.attempt(|conn| insert_run(conn, &engine, command).map_err(|e| e.to_string()))
    });
    let finish = |db: &mut Option<BestEffort>, status: Status| {
        if let (Some(db), Some(run)) = (db.as_mut(), run) {
            db.attempt(|conn| write::set_status(conn, run, status).map_err(|e| e.to_string()));
        }
    };
    let mut done: Vec<(Measure, Measurement)> = Vec::new();
    for round in 1..=a.rounds {
        for &measure in Measure::ALL {
            let measured = bench::run(&engine, measure);
            if interrupt::received().is_some() {
                finish(&mut db, Status::Stopped);
                return Ok(bench::summary_table(&done));
            }
            let m = match measured {
                Ok(m) => m,
                Err(e) => {
                    finish(&mut db, Status::Failed);
                    return Err(format!("bench-record: {e}"));
                }
            };
            eprintln!(
                "bench-record: round {round}/{}: {measure} {:.0} {}",
                a.rounds,
                m.rate,
                bench::unit(measure)
            );
            if let (Some(db), Some(run)) = (db.as_mut(), run) {
                db.attempt(|conn| {
                    insert_measurement(conn, run, measure, round, &m).map_err(|e| e.to_string())
                });
            }
            done.push((measure, m));
        }
    }
    finish(&mut db, Status::Finished);
    Ok(bench::summary_table(&done))
}
