//! What a Slurm coordinator writes beyond a local run's row: the array
//! jobs that play it, a `datagen` run's row and its detail, and its own
//! row taken up again by a coordinator started anew on the run directory.

use crate::db::provenance;
use crate::db::text_enums::{RunKind, Status, TextEnum};
use rusqlite::{params, Connection};
use serde_json::{json, Value};
use std::time::{SystemTime, UNIX_EPOCH};

/// Sets the run's `slurm_job_id`: its array jobs' ids, space-separated.
pub fn set_jobs(conn: &Connection, run: i64, jobs: &[String]) -> rusqlite::Result<()> {
    conn.execute(
        "UPDATE runs SET slurm_job_id = ?2 WHERE id = ?1",
        params![run, jobs.join(" ")],
    )?;
    Ok(())
}

/// Run `run` made `running` again, if it is there and was started by
/// `command` (every word); whether it was.
pub fn reopen(conn: &Connection, run: i64, command: &[String]) -> rusqlite::Result<bool> {
    let n = conn.execute(
        "UPDATE runs SET status = ?3, ended = NULL WHERE id = ?1 AND command = ?2",
        params![run, json!(command).to_string(), Status::Running],
    )?;
    Ok(n == 1)
}

/// A new `datagen` run of `engine`'s `datagen` command (`args` after the
/// engine), with `seed`, started by `command`; status `running`; its id.
pub fn insert_datagen(
    conn: &Connection,
    command: &[String],
    engine: &str,
    args: &[String],
    seed: u64,
    detail: &Value,
) -> rusqlite::Result<i64> {
    let binary = std::path::Path::new(engine);
    let mut words = vec![engine.to_string()];
    words.extend(args.iter().cloned());
    let engines = json!([{
        "name": binary.file_name().map_or(engine.into(), |n| n.to_string_lossy()),
        "command": words,
        "options": [],
        "limits": "-",
        "sha256": provenance::sha256(binary),
        "commit": provenance::git_commit(binary),
    }]);
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    conn.execute(
        "INSERT INTO runs (kind, command, engines, title, repeat, seed, status, started,
             cpu_model, cores, detail)
         VALUES (?1, ?2, ?3, ?4, 0, ?5, ?6, ?7, ?8, ?9, ?10)",
        params![
            RunKind::Datagen,
            json!(command).to_string(),
            engines.to_string(),
            RunKind::Datagen.as_str(),
            seed as i64,
            Status::Running,
            now,
            provenance::cpu_model(),
            provenance::cores() as i64,
            detail.to_string(),
        ],
    )?;
    Ok(conn.last_insert_rowid())
}

/// Sets the run's detail (JSON).
pub fn set_detail(conn: &Connection, run: i64, detail: &Value) -> rusqlite::Result<()> {
    conn.execute(
        "UPDATE runs SET detail = ?2 WHERE id = ?1",
        params![run, detail.to_string()],
    )?;
    Ok(())
}
