//! The matches a net played: the runs (SPRTs, tournaments, gauntlets)
//! that name it by a word `store:PREFIX` in their command line or their
//! engines (`EvalFile=store:…`), as `autotest data gc` finds what runs
//! name (`db::artifacts::store_prefixes`), with the W/D/L of the engine
//! that played it.

use crate::db::artifacts::store_prefixes;
use crate::db::text_enums::{RunKind, Status};
use rusqlite::{params, Connection};
use serde_json::Value;

/// The kinds of run that measure a net.
pub const KINDS: [RunKind; 3] = [RunKind::Sprt, RunKind::Tournament, RunKind::Gauntlet];

/// A run that names a net.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamingRun {
    pub id: i64,
    pub kind: RunKind,
    pub status: Status,
    /// UTC, `YYYY-MM-DD HH:MM:SS`.
    pub started: String,
    /// The engine that played the net: the first whose command or
    /// options name it, else the run's first engine (the command line
    /// named it).
    pub engine: String,
    /// The others.
    pub opponents: Vec<String>,
    /// `engine`'s wins, draws and losses.
    pub wdl: [u64; 3],
}

fn sql(e: rusqlite::Error) -> String {
    format!("results database: {e}")
}

/// Whether `text` names `sha256` (a full hash, or a lost artifact's
/// prefix) by a `store:` word.
fn names(text: &str, sha256: &str) -> bool {
    store_prefixes(text)
        .iter()
        .any(|p| sha256.starts_with(p.as_str()) || p.starts_with(sha256))
}

/// The runs that name `sha256`, newest first. Only the runs' rows with a
/// `store:` in them are read whole, and only their games are counted.
pub fn naming(conn: &Connection, sha256: &str) -> Result<Vec<NamingRun>, String> {
    let mut stmt = conn
        .prepare(
            "SELECT id, kind, status, command, engines, datetime(started, 'unixepoch') FROM runs
             WHERE kind IN (?1, ?2, ?3)
                 AND (instr(command, 'store:') > 0 OR instr(engines, 'store:') > 0)
             ORDER BY started DESC, id DESC",
        )
        .map_err(sql)?;
    let rows = stmt
        .query_map(params![KINDS[0], KINDS[1], KINDS[2]], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, RunKind>(1)?,
                r.get::<_, Status>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, String>(4)?,
                r.get::<_, String>(5)?,
            ))
        })
        .map_err(sql)?;
    let mut out = Vec::new();
    for row in rows {
        let (id, kind, status, command, engines, started) = row.map_err(sql)?;
        let list: Vec<Value> = serde_json::from_str(&engines).unwrap_or_default();
        let by_engine = list.iter().position(|e| names(&e.to_string(), sha256));
        if by_engine.is_none() && !names(&command, sha256) {
            continue;
        }
        let name = |e: &Value| e["name"].as_str().unwrap_or("?").to_string();
        let player = by_engine.unwrap_or(0);
        let engine = list.get(player).map_or("?".to_string(), name);
        let opponents = list
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != player)
            .map(|(_, e)| name(e))
            .collect();
        out.push(NamingRun {
            id,
            kind,
            status,
            started,
            wdl: wdl(conn, id, &engine)?,
            engine,
            opponents,
        });
    }
    Ok(out)
}

/// `engine`'s wins, draws and losses in run `id`.
fn wdl(conn: &Connection, id: i64, engine: &str) -> Result<[u64; 3], String> {
    conn.query_row(
        "SELECT COALESCE(SUM((white = ?2 AND result = '1-0') OR (black = ?2 AND result = '0-1')), 0),
             COALESCE(SUM(result = '1/2-1/2'), 0),
             COALESCE(SUM((white = ?2 AND result = '0-1') OR (black = ?2 AND result = '1-0')), 0)
         FROM games WHERE run_id = ?1 AND (white = ?2 OR black = ?2)",
        params![id, engine],
        |r| Ok([r.get::<_, i64>(0)?, r.get(1)?, r.get(2)?]),
    )
    .map(|counts| counts.map(|n| u64::try_from(n).unwrap_or(0)))
    .map_err(sql)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A full hash is named by its prefixes; a lost artifact known by a
    /// prefix is named by a longer one of the same hash; an uppercase or
    /// short word names nothing.
    #[test]
    fn names_by_prefix() {
        let full = "ba3fde787486a2e88448e6d8c2d9c89de9cb58cae4cd8796d0cc5ed1dc3ed77e";
        assert!(names(r#"["EvalFile","store:ba3fde78"]"#, full));
        assert!(names("--net store:ba3fde787486", "ba3fde78"));
        assert!(!names("store:ba3fde7", full));
        assert!(!names("store:BA3FDE78", full));
        assert!(!names("store:ba3fde79", full));
    }
}
