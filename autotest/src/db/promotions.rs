//! The promotions the store's records mark (a net made an `autotest
//! loop`'s best by an SPRT, docs/STORE.md), indexed with the artifacts
//! (`db::artifacts::sync` calls [`index`]), and which net is each loop's
//! best: its latest promotion.

use leiserchess::lab::store::Record;
use rusqlite::{params, Connection};

/// A promotion as the index keeps it.
#[derive(Clone, Debug, PartialEq)]
pub struct Promotion {
    /// The net promoted.
    pub sha256: String,
    pub loop_dir: String,
    pub generation: u32,
    /// The net it was played against, if known by hash.
    pub against: Option<String>,
    pub elo0: f64,
    pub elo1: f64,
    /// Each engine's limits (`nodes=40`, `tc=10+0.1`).
    pub limits: String,
    /// The candidate's wins, draws and losses.
    pub wdl: [u64; 3],
    pub llr: f64,
    /// UTC, `YYYY-MM-DD HH:MM:SS`.
    pub date: String,
}

fn sql(e: rusqlite::Error) -> String {
    format!("results database: {e}")
}

fn int(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// Adds the promotions of `records` (whose artifacts' rows are there).
pub fn index(conn: &Connection, records: &[Record]) -> Result<(), String> {
    for r in records {
        for p in &r.promoted {
            conn.execute(
                "INSERT OR IGNORE INTO artifact_promotions (sha256, loop_dir, generation, against,
                     elo0, elo1, limits, wins, draws, losses, llr, date)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
                params![
                    r.sha256,
                    p.loop_dir,
                    p.generation,
                    p.against,
                    p.sprt.elo0,
                    p.sprt.elo1,
                    p.sprt.limits,
                    int(p.sprt.wins),
                    int(p.sprt.draws),
                    int(p.sprt.losses),
                    p.sprt.llr,
                    int(p.date),
                ],
            )
            .map_err(sql)?;
        }
    }
    Ok(())
}

const COLUMNS: &str = "SELECT sha256, loop_dir, generation, against, elo0, elo1, limits, wins,
     draws, losses, llr, datetime(date, 'unixepoch') FROM artifact_promotions";

fn promotion(r: &rusqlite::Row) -> rusqlite::Result<Promotion> {
    let count = |i: usize| r.get::<_, i64>(i).map(|n| u64::try_from(n).unwrap_or(0));
    Ok(Promotion {
        sha256: r.get(0)?,
        loop_dir: r.get(1)?,
        generation: r.get(2)?,
        against: r.get(3)?,
        elo0: r.get(4)?,
        elo1: r.get(5)?,
        limits: r.get(6)?,
        wdl: [count(7)?, count(8)?, count(9)?],
        llr: r.get(10)?,
        date: r.get(11)?,
    })
}

/// The promotions of the net `sha256`, oldest first.
pub fn of(conn: &Connection, sha256: &str) -> Result<Vec<Promotion>, String> {
    let query = [
        COLUMNS,
        " WHERE sha256 = ?1 ORDER BY date, loop_dir, generation",
    ]
    .concat();
    let mut stmt = conn.prepare(&query).map_err(sql)?;
    let rows = stmt.query_map([sha256], promotion).map_err(sql)?;
    rows.collect::<Result<_, _>>().map_err(sql)
}

/// Each loop's best: its folder's latest promotion (by date, then
/// generation), by folder.
pub fn bests(conn: &Connection) -> Result<Vec<Promotion>, String> {
    let query = [
        COLUMNS,
        " p WHERE NOT EXISTS (SELECT 1 FROM artifact_promotions q
             WHERE q.loop_dir = p.loop_dir
                 AND (q.date > p.date OR (q.date = p.date AND q.generation > p.generation)))
         ORDER BY loop_dir",
    ]
    .concat();
    let mut stmt = conn.prepare(&query).map_err(sql)?;
    let rows = stmt.query_map([], promotion).map_err(sql)?;
    rows.collect::<Result<_, _>>().map_err(sql)
}
