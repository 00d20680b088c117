//! The runs as the list shows them (`db::read::runs`'s lines), without
//! reading every game each time. Counting a run's first engine's wins,
//! draws and losses reads its game rows, PGN and all: over every run
//! that is most of the database, but for the index that covers it
//! (`games_results`), which it reads alone. The count of games and the newest game
//! come from the games' index alone; a run's W/D/L is kept here and
//! counted again only when those two change.

use crate::db::read::RunLine;
use rusqlite::Connection;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Mutex;

/// A run's games as the index sees them: how many, and the newest row.
type Key = (i64, Option<i64>);

/// Each run's W/D/L, with the games it was counted from.
#[derive(Default)]
pub struct Cache(Mutex<HashMap<i64, (Key, [i64; 3])>>);

/// The first engine's name in a run's `engines` JSON.
fn first(engines: &str) -> Option<String> {
    let v: Value = serde_json::from_str(engines).ok()?;
    v[0]["name"].as_str().map(str::to_string)
}

fn names(engines: &str) -> Vec<String> {
    let list: Vec<Value> = serde_json::from_str(engines).unwrap_or_default();
    list.iter()
        .map(|e| e["name"].as_str().unwrap_or("?").to_string())
        .collect()
}

/// Run `?1`'s first engine's (`?2`) wins, draws and losses: read from
/// the index `games_results` alone (schema version 4).
const WDL: &str =
    "SELECT COALESCE(SUM((white = ?2 AND result = '1-0') OR (black = ?2 AND result = '0-1')), 0),
         COALESCE(SUM(result = '1/2-1/2' AND (white = ?2 OR black = ?2)), 0),
         COALESCE(SUM((white = ?2 AND result = '0-1') OR (black = ?2 AND result = '1-0')), 0)
     FROM games WHERE run_id = ?1";

/// Run `id`'s first engine's wins, draws and losses.
fn wdl(conn: &Connection, id: i64, first: Option<&str>) -> rusqlite::Result<[i64; 3]> {
    conn.query_row(WDL, rusqlite::params![id, first], |r| {
        Ok([r.get(0)?, r.get(1)?, r.get(2)?])
    })
}

/// Every run, newest first.
pub fn runs(conn: &Connection, cache: &Cache) -> rusqlite::Result<Vec<RunLine>> {
    let mut stmt = conn.prepare(
        "SELECT r.id, r.kind, r.status, r.engines, COALESCE(r.time_control, '-'),
             datetime(r.started, 'unixepoch'),
             (SELECT COUNT(*) FROM games g WHERE g.run_id = r.id),
             (SELECT MAX(g.rowid) FROM games g WHERE g.run_id = r.id)
         FROM runs r
         ORDER BY r.started DESC, r.id DESC",
    )?;
    let mut rows = stmt.query([])?;
    let mut out = Vec::new();
    while let Some(r) = rows.next()? {
        let id: i64 = r.get(0)?;
        let engines: String = r.get(3)?;
        let key: Key = (r.get(6)?, r.get(7)?);
        let known = cache
            .0
            .lock()
            .ok()
            .and_then(|c| c.get(&id).filter(|(k, _)| *k == key).map(|(_, w)| *w));
        let wdl = match known {
            Some(w) => w,
            None => {
                let w = wdl(conn, id, first(&engines).as_deref())?;
                if let Ok(mut c) = cache.0.lock() {
                    c.insert(id, (key, w));
                }
                w
            }
        };
        out.push(RunLine {
            id,
            kind: r.get(1)?,
            status: r.get(2)?,
            engines: names(&engines),
            time_control: r.get(4)?,
            started: r.get(5)?,
            games: key.0,
            wdl,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::{open, read};

    /// The query plan of `sql` in `conn`, its lines joined.
    fn plan(conn: &Connection, sql: &str) -> String {
        let mut stmt = conn.prepare(&format!("EXPLAIN QUERY PLAN {sql}")).unwrap();
        let lines = stmt.query_map([], |r| r.get::<_, String>(3)).unwrap();
        lines.map(Result::unwrap).collect::<Vec<_>>().join("\n")
    }

    /// The W/D/L counts of the dashboard and of `autotest runs` read the
    /// games' index, never their rows (a PGN each).
    #[test]
    fn the_results_are_counted_from_the_index_alone() {
        let path = crate::scratch::dir("wdl-plan").join("lab.db");
        let conn = open::open(&path).unwrap();
        let at = "USING COVERING INDEX games_results";
        let wdl = plan(&conn, &WDL.replace("?2", "'a'").replace("?1", "1"));
        assert!(wdl.contains(at), "{wdl}");
        let runs = plan(&conn, read::RUNS);
        assert!(runs.contains(at), "{runs}");
        assert!(!runs.contains("SCAN g"), "{runs}");
    }
}
