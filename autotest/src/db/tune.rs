//! `autotest tune` in the results database: a run of kind `tune` (its
//! `detail` the parameters with their ranges, the iterations and the
//! state file) and a row per SPSA iteration in `tune_iterations`, written
//! as each is applied, before the state file is rewritten.
//!
//! A tune with a state file resumes its own run: the newest `tune` run
//! with that state file, whatever its status. Iterations after the state
//! file's are removed from it, and an iteration is written with an upsert:
//! the state file is written after the iteration's row, so a tune killed
//! between the two plays that iteration again, and the replay (possibly
//! another result) is the one the tune goes on from.

use crate::config::spec::TournamentSpec;
use crate::db::best_effort::BestEffort;
use crate::db::take_over;
use crate::db::text_enums::{RunKind, Status};
use crate::db::write::{self, pgn_key};
use crate::tune::spsa::Param;
use rusqlite::{params, Connection, OptionalExtension};
use serde_json::{json, Map, Value};
use std::path::Path;

/// What the database keeps of a tune (`tune::command::TuneSpec`'s parts).
#[derive(Clone, Copy)]
pub struct TuneSpec<'a> {
    /// The games' rules, with the one engine tuned.
    pub games: &'a TournamentSpec,
    pub params: &'a [Param],
    pub iterations: u64,
    pub state: Option<&'a Path>,
    pub out: Option<&'a Path>,
}

/// The run's `detail`: each parameter with its start, range and gains'
/// settings, the iterations asked for, and the state file.
pub fn detail(spec: TuneSpec) -> Value {
    let params: Vec<Value> = spec
        .params
        .iter()
        .map(|p| {
            json!({"name": p.name, "start": p.start, "min": p.min, "max": p.max, "c": p.c, "a": p.a})
        })
        .collect();
    json!({
        "params": params,
        "iterations": spec.iterations,
        "state": spec.state.map(pgn_key),
    })
}

/// Parameter name to value, in the parameters' order.
pub fn by_name(params: &[Param], values: &[f64]) -> Value {
    let map: Map<String, Value> = params
        .iter()
        .zip(values)
        .map(|(p, v)| (p.name.clone(), json!(v)))
        .collect();
    Value::Object(map)
}

/// The newest tune run with the state file `state`: its id.
fn tune_of(conn: &Connection, state: &Path) -> rusqlite::Result<Option<i64>> {
    conn.query_row(
        "SELECT id FROM runs WHERE kind = ?1 AND json_extract(detail, '$.state') = ?2
         ORDER BY id DESC LIMIT 1",
        params![RunKind::Tune, pgn_key(state)],
        |r| r.get::<_, i64>(0),
    )
    .optional()
}

/// The tune's run: with `resumed` (the state file had iterations), the
/// newest run of the same state file, made `running` again, its
/// iterations after `resumed` removed; else a new run started by
/// `command`. Its id.
pub fn start_run(
    conn: &mut Connection,
    spec: TuneSpec,
    command: &[String],
    resumed: Option<u64>,
) -> rusqlite::Result<i64> {
    let tx = conn.transaction()?;
    let detail = detail(spec).to_string();
    let again = match (resumed, spec.state) {
        (Some(_), Some(state)) => tune_of(&tx, state)?,
        _ => None,
    };
    let run = match again {
        Some(id) => {
            tx.execute(
                "UPDATE runs SET status = ?2, ended = NULL, detail = ?3 WHERE id = ?1",
                params![id, Status::Running, detail],
            )?;
            tx.execute(
                "DELETE FROM tune_iterations WHERE run_id = ?1 AND iteration > ?2",
                params![id, resumed.unwrap_or(0) as i64],
            )?;
            id
        }
        None => {
            let id = write::insert_run(&tx, spec.games, command)?;
            tx.execute(
                "UPDATE runs SET kind = ?2, detail = ?3 WHERE id = ?1",
                params![id, RunKind::Tune, detail],
            )?;
            id
        }
    };
    tx.commit()?;
    Ok(run)
}

/// Iteration `iteration` (1 for the first) of run `run`: `theta` after
/// it, the `step` it made, and the pair's `r`.
pub fn iteration(
    conn: &Connection,
    run: i64,
    iteration: u64,
    theta: &Value,
    step: &Value,
    r: i32,
) -> rusqlite::Result<()> {
    conn.execute(
        "INSERT INTO tune_iterations (run_id, iteration, theta, step, r)
         VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (run_id, iteration)
         DO UPDATE SET theta = excluded.theta, step = excluded.step, r = excluded.r",
        params![
            run,
            iteration as i64,
            theta.to_string(),
            step.to_string(),
            r
        ],
    )?;
    Ok(())
}

/// A tune recorded as it goes.
pub struct TuneRecorder {
    db: BestEffort,
    run: i64,
}

impl TuneRecorder {
    /// The recorder of `spec`'s tune, started by `command`, going on from
    /// the state file's iteration `resumed`; `None` when recording is off
    /// or the database is unavailable (said on standard error). A resumed
    /// tune that an older autotest recorded in `lab.db` beside its state
    /// file is taken over by the per-user database (`take_over`).
    pub fn start(spec: TuneSpec, command: &[String], resumed: Option<u64>) -> Option<TuneRecorder> {
        let mut db = BestEffort::open(spec.games.db.as_deref())?;
        if let (Some(_), Some(state), true) = (resumed, spec.state, db.per_user()) {
            let find = |c: &Connection| tune_of(c, state);
            db.attempt(|conn| Ok::<_, String>(take_over::take_over(conn, state, &find)));
        }
        let run =
            db.attempt(|conn| start_run(conn, spec, command, resumed).map_err(|e| e.to_string()))?;
        Some(TuneRecorder { db, run })
    }

    /// Records iteration `n` (1 for the first): `theta` after it, `step`,
    /// and the pair's `r`.
    pub fn iteration(&mut self, n: u64, theta: &Value, step: &Value, r: i32) {
        let run = self.run;
        self.db
            .attempt(|conn| iteration(conn, run, n, theta, step, r).map_err(|e| e.to_string()));
    }

    /// Ends the run with `status`.
    pub fn finish(&mut self, status: Status) {
        let run = self.run;
        self.db
            .attempt(|conn| write::set_status(conn, run, status).map_err(|e| e.to_string()));
    }
}
