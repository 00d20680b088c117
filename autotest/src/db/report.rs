//! `autotest report [--db PATH]`: the recorded figures as markdown tables,
//! to paste into BENCHMARKS.md: the newest finished bench record, the
//! SPRT runs, the tuning runs and the tournaments and gauntlets, newest
//! first. The figures come from the stored games through the same code
//! as a run's own table (`db::read::standings`, `stats`).

use crate::db::bench::{self, Measurement};
use crate::db::path::DbFlag;
use crate::db::read;
use crate::db::runs_and_show::database;
use crate::db::text_enums::{Measure, RunKind, Status};
use crate::stats::elo::{elo_shown, Estimate};
use crate::stats::sprt::sprt_bounds;
use crate::tournament::standings::Standing;
use rusqlite::{params, Connection, OptionalExtension};
use serde_json::Value;

/// `autotest report`'s command line.
#[derive(clap::Args, Clone, Debug, PartialEq, Eq)]
pub struct ReportArgs {
    #[command(flatten)]
    pub db: DbFlag,
}

/// `autotest report`: the output.
pub fn run(args: &ReportArgs) -> Result<String, String> {
    let conn = database("report", &args.db)?;
    report(&conn).map_err(|e| format!("report: {e}"))
}

/// The whole report.
pub fn report(conn: &Connection) -> Result<String, String> {
    let text = |e: rusqlite::Error| e.to_string();
    let mut out = String::from("## Benchmarks\n\n");
    out += &benchmarks(conn).map_err(text)?;
    out += "\n## SPRT runs\n\n";
    out += &or_none(sprts(conn)?);
    out += "\n## Tuning runs\n\n";
    out += &or_none(tunes(conn).map_err(text)?);
    out += "\n## Tournaments and gauntlets\n\n";
    out += &or_none(tournaments(conn)?);
    Ok(out)
}

/// A table, or a sentence for one without rows (only its two header
/// lines).
fn or_none(table: String) -> String {
    if table.lines().count() > 2 {
        table
    } else {
        "None recorded.\n".to_string()
    }
}

/// The runs of `kinds`, newest first: each one's id and kind.
fn runs_of(conn: &Connection, kinds: &[RunKind]) -> rusqlite::Result<Vec<(i64, RunKind)>> {
    let mut stmt = conn.prepare("SELECT id, kind FROM runs ORDER BY started DESC, id DESC")?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
    let mut out = Vec::new();
    for row in rows {
        let (id, kind) = row?;
        if kinds.contains(&kind) {
            out.push((id, kind));
        }
    }
    Ok(out)
}

/// An estimate as `autotest stats` prints it: the Elo and its 95%
/// interval, a one-sided bound at a 0% or 100% score.
fn elo_text(e: &Estimate, games: u64) -> String {
    if e.score >= 1.0 || e.score <= 0.0 {
        elo_shown(e, games, 2)
    } else if e.hi - e.lo <= 0.0 {
        format!("{:+.2} (no spread)", e.elo)
    } else {
        format!("{:+.2} ({:+.2} .. {:+.2})", e.elo, e.lo, e.hi)
    }
}

/// A standing's Elo, the estimate the run's own table shows.
fn elo_of(st: &Standing) -> String {
    crate::tournament::table::estimate(st).map_or("-".to_string(), |e| elo_text(&e, st.games()))
}

/// The run's time control, status, and start (UTC).
fn basics(conn: &Connection, id: i64) -> rusqlite::Result<(String, Status, String)> {
    conn.query_row(
        "SELECT COALESCE(time_control, '-'), status, datetime(started, 'unixepoch')
         FROM runs WHERE id = ?1",
        [id],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )
}

/// The newest finished bench record: where and what it measured, and
/// its summary table.
fn benchmarks(conn: &Connection) -> rusqlite::Result<String> {
    let newest = conn
        .query_row(
            "SELECT id, datetime(started, 'unixepoch'), COALESCE(detail, '{}'),
                 COALESCE(cpu_model, '?'), COALESCE(cores, 0)
             FROM runs WHERE kind = ?1 AND status = ?2
             ORDER BY started DESC, id DESC LIMIT 1",
            params![RunKind::Bench, Status::Finished],
            |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?,
                    r.get::<_, i64>(4)?,
                ))
            },
        )
        .optional()?;
    let Some((id, started, detail, cpu, cores)) = newest else {
        return Ok("No bench record (autotest bench-record makes one).\n".to_string());
    };
    let detail: Value = serde_json::from_str(&detail).unwrap_or_default();
    let commit = match (detail["commit"].as_str(), detail["dirty"].as_bool()) {
        (Some(c), Some(true)) => format!("{c} (with uncommitted changes)"),
        (Some(c), _) => c.to_string(),
        (None, _) => "unknown".to_string(),
    };
    let mut stmt = conn.prepare(
        "SELECT measure, signature, nodes, seconds, rate FROM benchmarks
         WHERE run_id = ?1 ORDER BY round, measure",
    )?;
    let rows = stmt
        .query_map([id], |r| {
            Ok((
                r.get::<_, Measure>(0)?,
                Measurement {
                    signature: r.get::<_, Option<i64>>(1)?.unwrap_or(0) as u64,
                    nodes: r.get::<_, Option<i64>>(2)?.unwrap_or(0) as u64,
                    seconds: r.get(3)?,
                    rate: r.get::<_, Option<f64>>(4)?.unwrap_or(0.0),
                },
            ))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(format!(
        "Run {id}, {started} UTC: engine {}, commit {commit}; {cpu}, {cores} cores.\n\n{}",
        detail["engine"].as_str().unwrap_or("?"),
        bench::summary_table(&rows)
    ))
}

/// The SPRT runs: the first engine's results against the second.
fn sprts(conn: &Connection) -> Result<String, String> {
    let text = |e: rusqlite::Error| e.to_string();
    let mut out = String::from(
        "| run | engines | time control | status | games | W/D/L | pentanomial | LLR [bounds] | Elo (95%) |\n\
         |---:|---|---|---|---:|---|---|---|---|\n",
    );
    for (id, _) in runs_of(conn, &[RunKind::Sprt]).map_err(text)? {
        let Some((spec, summary)) = read::standings(conn, id)? else {
            continue;
        };
        let (tc, status, _) = basics(conn, id).map_err(text)?;
        let names: Vec<&str> = spec.engines.iter().map(|e| e.name.as_str()).collect();
        let st = summary.standings.first().cloned().unwrap_or_default();
        let llr = match (summary.sprt, spec.sprt) {
            (Some((llr, _)), Some(t)) => {
                let (lo, hi) = sprt_bounds(t.alpha, t.beta);
                format!("{llr:.2} [{lo:.2}, {hi:.2}]")
            }
            _ => "-".to_string(),
        };
        let p = st.pairs;
        out += &format!(
            "| {id} | {} | {tc} | {status} | {} | {}/{}/{} | {} {} {} {} {} | {llr} | {} |\n",
            names.join(" vs "),
            st.games(),
            st.wins,
            st.draws,
            st.losses,
            p[0],
            p[1],
            p[2],
            p[3],
            p[4],
            elo_of(&st)
        );
    }
    Ok(out)
}

/// The tuning runs: the pairs played and the last iteration's theta.
fn tunes(conn: &Connection) -> rusqlite::Result<String> {
    let mut out = String::from(
        "| run | started (UTC) | engine | time control | status | pairs | final theta |\n\
         |---:|---|---|---|---|---:|---|\n",
    );
    for (id, _) in runs_of(conn, &[RunKind::Tune])? {
        let (tc, status, started) = basics(conn, id)?;
        let (engines, detail): (String, Option<String>) = conn.query_row(
            "SELECT engines, detail FROM runs WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        let engines: Value = serde_json::from_str(&engines).unwrap_or_default();
        let detail: Value = detail
            .and_then(|d| serde_json::from_str(&d).ok())
            .unwrap_or_default();
        let last = conn
            .query_row(
                "SELECT iteration, theta FROM tune_iterations WHERE run_id = ?1
                 ORDER BY iteration DESC LIMIT 1",
                [id],
                |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)),
            )
            .optional()?;
        let (pairs, theta) = match last {
            Some((n, theta)) => {
                let theta: Value = serde_json::from_str(&theta).unwrap_or_default();
                let values: Vec<String> = theta
                    .as_object()
                    .map(|o| {
                        o.iter()
                            .map(|(k, v)| format!("{k} {:.2}", v.as_f64().unwrap_or(f64::NAN)))
                            .collect()
                    })
                    .unwrap_or_default();
                (n, values.join(", "))
            }
            None => (0, "-".to_string()),
        };
        let asked = detail["iterations"]
            .as_u64()
            .map_or(String::new(), |n| format!("/{n}"));
        out += &format!(
            "| {id} | {started} | {} | {tc} | {status} | {pairs}{asked} | {theta} |\n",
            engines[0]["name"].as_str().unwrap_or("?"),
        );
    }
    Ok(out)
}

/// The tournaments and gauntlets: a line per engine.
fn tournaments(conn: &Connection) -> Result<String, String> {
    let text = |e: rusqlite::Error| e.to_string();
    let mut out = String::from(
        "| run | kind | time control | status | engine | games | W/D/L | score | Elo (95%) |\n\
         |---:|---|---|---|---|---:|---|---:|---|\n",
    );
    let kinds = [RunKind::Tournament, RunKind::Gauntlet];
    for (id, kind) in runs_of(conn, &kinds).map_err(text)? {
        let Some((spec, summary)) = read::standings(conn, id)? else {
            continue;
        };
        let (tc, status, _) = basics(conn, id).map_err(text)?;
        for (e, st) in spec.engines.iter().zip(&summary.standings) {
            let score = match st.games() {
                0 => "-".to_string(),
                n => format!(
                    "{:.1}%",
                    (st.wins as f64 + st.draws as f64 / 2.0) / n as f64 * 100.0
                ),
            };
            out += &format!(
                "| {id} | {kind} | {tc} | {status} | {} | {} | {}/{}/{} | {score} | {} |\n",
                e.name,
                st.games(),
                st.wins,
                st.draws,
                st.losses,
                elo_of(st)
            );
        }
    }
    Ok(out)
}
