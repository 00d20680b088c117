//! Reading the results database: the runs in brief, and a run's
//! standings rebuilt from its stored games.

use crate::config::spec::{EngineSpec, SprtSpec, TournamentSpec};
use crate::db::text_enums::{RunKind, Status};
use crate::referee::record::{white_halves, FaultKind};
use crate::tournament::run::Summary;
use crate::tournament::schedule::Job;
use crate::tournament::standings::Tally;
use rusqlite::{Connection, OptionalExtension};
use serde_json::Value;

/// The columns of a [`RunLine`], as `autotest runs` and the dashboard's
/// list head them.
pub const RUN_COLUMNS: [&str; 8] = [
    "id",
    "kind",
    "status",
    "engines",
    "time control",
    "games",
    "W/D/L (first)",
    "started (UTC)",
];

/// A run as `autotest runs` lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct RunLine {
    pub id: i64,
    pub kind: RunKind,
    pub status: Status,
    pub engines: Vec<String>,
    pub time_control: String,
    pub games: i64,
    /// The first engine's wins, draws and losses.
    pub wdl: [i64; 3],
    /// UTC, `YYYY-MM-DD HH:MM:SS`.
    pub started: String,
}

/// Column `i`, a count or an index.
fn count(r: &rusqlite::Row, i: usize) -> rusqlite::Result<usize> {
    let v: i64 = r.get(i)?;
    usize::try_from(v).map_err(|_| rusqlite::Error::IntegralValueOutOfRange(i, v))
}

fn names(engines: &str) -> Vec<String> {
    let list: Vec<Value> = serde_json::from_str(engines).unwrap_or_default();
    list.iter()
        .map(|e| e["name"].as_str().unwrap_or("?").to_string())
        .collect()
}

/// Every run with its games' count and its first engine's W/D/L, newest
/// first: from the counts `run_results` keeps (schema version 4), never
/// the games themselves.
pub const RUNS: &str = "SELECT r.id, r.kind, r.status, r.engines, COALESCE(r.time_control, '-'),
             datetime(r.started, 'unixepoch'), COALESCE(SUM(x.games), 0),
             COALESCE(SUM(x.games * ((x.white = e.first AND x.result = '1-0')
                 OR (x.black = e.first AND x.result = '0-1'))), 0),
             COALESCE(SUM(x.games * (x.result = '1/2-1/2'
                 AND (x.white = e.first OR x.black = e.first))), 0),
             COALESCE(SUM(x.games * ((x.white = e.first AND x.result = '0-1')
                 OR (x.black = e.first AND x.result = '1-0'))), 0)
         FROM runs r
         JOIN (SELECT id, json_extract(engines, '$[0].name') AS first FROM runs) e ON e.id = r.id
         LEFT JOIN run_results x ON x.run_id = r.id
         GROUP BY r.id
         ORDER BY r.started DESC, r.id DESC";

/// Every run, newest first.
pub fn runs(conn: &Connection) -> rusqlite::Result<Vec<RunLine>> {
    let mut stmt = conn.prepare(RUNS)?;
    let rows = stmt.query_map([], |r| {
        Ok(RunLine {
            id: r.get(0)?,
            kind: r.get(1)?,
            status: r.get(2)?,
            engines: names(&r.get::<_, String>(3)?),
            time_control: r.get(4)?,
            started: r.get(5)?,
            games: r.get(6)?,
            wdl: [r.get(7)?, r.get(8)?, r.get(9)?],
        })
    })?;
    rows.collect()
}

/// The tournament of run `id` as far as its table needs it (title,
/// engines, pairs, SPRT), and its standings from its games; `None` if
/// there is no such run.
pub fn standings(conn: &Connection, id: i64) -> Result<Option<(TournamentSpec, Summary)>, String> {
    let text = |e: rusqlite::Error| e.to_string();
    let row = conn
        .query_row(
            "SELECT title, engines, repeat, sprt FROM runs WHERE id = ?1",
            [id],
            |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, bool>(2)?,
                    r.get::<_, Option<String>>(3)?,
                ))
            },
        )
        .optional()
        .map_err(text)?;
    let Some((title, engines, repeat, sprt)) = row else {
        return Ok(None);
    };
    let sprt = match sprt {
        None => None,
        Some(s) => {
            let v: Value = serde_json::from_str(&s).map_err(|e| format!("run {id}: sprt: {e}"))?;
            let f = |k: &str| v[k].as_f64().ok_or(format!("run {id}: sprt has no {k}"));
            Some(SprtSpec {
                elo0: f("elo0")?,
                elo1: f("elo1")?,
                alpha: f("alpha")?,
                beta: f("beta")?,
            })
        }
    };
    let spec = TournamentSpec {
        title,
        engines: names(&engines)
            .into_iter()
            .map(|name| EngineSpec {
                name,
                command: Vec::new(),
                dir: None,
                options: Vec::new(),
                limits: Default::default(),
                restart: true,
            })
            .collect(),
        repeat,
        sprt,
        ..TournamentSpec::default()
    };
    let mut stmt = conn
        .prepare(
            "SELECT schedule_index, pair, opening, white, black, result, termination
             FROM games WHERE run_id = ?1 ORDER BY schedule_index",
        )
        .map_err(text)?;
    let games = stmt
        .query_map([id], |r| {
            Ok((
                [count(r, 0)?, count(r, 1)?, count(r, 2)?],
                [r.get::<_, String>(3)?, r.get(4)?, r.get(5)?, r.get(6)?],
            ))
        })
        .map_err(text)?
        .collect::<Result<Vec<_>, _>>()
        .map_err(text)?;
    let index = |name: &str| {
        spec.engines
            .iter()
            .position(|e| e.name == name)
            .ok_or(format!(
                "run {id}: a game of {name}, not one of its engines"
            ))
    };
    let mut tally = Tally::new(spec.engines.len());
    for ([number, pair, opening], [white, black, result, termination]) in &games {
        let job = Job {
            number: *number,
            round: 0,
            white: index(white)?,
            black: index(black)?,
            opening: *opening,
            pair: *pair,
        };
        let loser = if result == "1-0" { black } else { white };
        let fault = FaultKind::ALL
            .into_iter()
            .find(|k| k.name() == termination)
            .map(|k| (loser.as_str(), k));
        tally.add(&spec, &job, white_halves(result), fault);
    }
    let sprt = if games.is_empty() {
        None
    } else {
        tally.sprt(&spec)
    };
    let summary = Summary {
        standings: tally.standings,
        games: Vec::new(),
        sprt,
    };
    Ok(Some((spec, summary)))
}
