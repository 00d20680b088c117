//! The lab's history: benchmark records by commit and the accepted
//! SPRTs. A record is one bench run's measurements of one measure (its
//! rounds: their spread is the run-to-run spread). A bench-pvs or
//! bench-mcts record whose median nps is more than [`DROP`] below the
//! median of the previous [`WINDOW`] records of its measure is flagged.

use crate::db::read;
use crate::db::text_enums::{Measure, RunKind, Status};
use rusqlite::Connection;
use serde_json::Value;

/// The previous records a record's nps is compared with.
pub const WINDOW: usize = 5;
/// The drop that is flagged: 5%.
pub const DROP: f64 = 0.05;

/// The measures whose rate is nodes per second, flagged on a drop.
pub const NPS: &[Measure] = &[Measure::BenchPvs, Measure::BenchMcts];

/// One bench run's rounds of one measure.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub run: i64,
    /// UTC, `YYYY-MM-DD HH:MM`.
    pub started: String,
    /// The engine's commit, if known.
    pub commit: Option<String>,
    /// Built from a tree with changes not committed.
    pub dirty: bool,
    pub measure: Measure,
    /// Each round's value: the rate, or for perft its seconds.
    pub rounds: Vec<f64>,
    pub signature: Option<i64>,
    /// The signature differs from the previous record's of its measure.
    pub signature_changed: bool,
    /// The median of the previous records' medians, when this record is
    /// more than [`DROP`] below it.
    pub drop_from: Option<f64>,
}

/// The median of `values` (0 when empty).
pub fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => 0.0,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

impl Record {
    pub fn median(&self) -> f64 {
        median(&self.rounds)
    }
}

/// Every bench record of `measure`, oldest first, with its marks.
pub fn records(conn: &Connection, measure: Measure) -> rusqlite::Result<Vec<Record>> {
    let mut stmt = conn.prepare(
        "SELECT r.id, strftime('%Y-%m-%d %H:%M', r.started, 'unixepoch'), r.detail,
             b.signature, b.rate, b.seconds
         FROM benchmarks b JOIN runs r ON r.id = b.run_id
         WHERE r.kind = ?1 AND b.measure = ?2
         ORDER BY r.started, r.id, b.round",
    )?;
    let mut rows = stmt.query(rusqlite::params![RunKind::Bench, measure])?;
    let mut out: Vec<Record> = Vec::new();
    while let Some(r) = rows.next()? {
        let run: i64 = r.get(0)?;
        let rate: Option<f64> = r.get(4)?;
        let seconds: f64 = r.get(5)?;
        let value = match measure {
            Measure::Perft => seconds,
            Measure::BenchPvs | Measure::BenchMcts | Measure::Evalbench => rate.unwrap_or(0.0),
        };
        if let Some(last) = out.last_mut().filter(|l| l.run == run) {
            last.rounds.push(value);
            continue;
        }
        let detail: Option<String> = r.get(2)?;
        let detail: Value = detail
            .and_then(|d| serde_json::from_str(&d).ok())
            .unwrap_or(Value::Null);
        out.push(Record {
            run,
            started: r.get(1)?,
            commit: detail["commit"].as_str().map(str::to_string),
            dirty: detail["dirty"].as_bool().unwrap_or(false),
            measure,
            rounds: vec![value],
            signature: r.get(3)?,
            signature_changed: false,
            drop_from: None,
        });
    }
    mark(&mut out);
    Ok(out)
}

/// Marks the signature changes and, for nps, the drops.
pub fn mark(records: &mut [Record]) {
    for i in 1..records.len() {
        let (before, after) = records.split_at_mut(i);
        let r = &mut after[0];
        let prev = &before[i - 1];
        r.signature_changed = matches!((prev.signature, r.signature), (Some(a), Some(b)) if a != b);
        if NPS.contains(&r.measure) {
            let window: Vec<f64> = before[i.saturating_sub(WINDOW)..]
                .iter()
                .map(Record::median)
                .collect();
            let reference = median(&window);
            if r.median() < reference * (1.0 - DROP) {
                r.drop_from = Some(reference);
            }
        }
    }
}

/// An accepted SPRT: its run, engines and the first engine's Elo.
#[derive(Clone, Debug, PartialEq)]
pub struct Accepted {
    pub run: i64,
    pub engines: String,
    pub ended: String,
    pub elo: f64,
}

/// The SPRTs that ended H1, in the order they ended, with the first
/// engine's Elo as the final table estimates it.
pub fn accepted(conn: &Connection) -> Result<Vec<Accepted>, String> {
    let text = |e: rusqlite::Error| e.to_string();
    let mut stmt = conn
        .prepare(
            "SELECT id, COALESCE(datetime(ended, 'unixepoch'), '-') FROM runs
             WHERE kind = ?1 AND status = ?2 ORDER BY COALESCE(ended, started), id",
        )
        .map_err(text)?;
    let runs: Vec<(i64, String)> = stmt
        .query_map(rusqlite::params![RunKind::Sprt, Status::H1], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .map_err(text)?
        .collect::<Result<_, _>>()
        .map_err(text)?;
    let mut out = Vec::new();
    for (id, ended) in runs {
        let Some((spec, summary)) = read::standings(conn, id)? else {
            continue;
        };
        let Some(elo) = summary
            .standings
            .first()
            .and_then(crate::tournament::table::estimate)
        else {
            continue;
        };
        out.push(Accepted {
            run: id,
            engines: spec
                .engines
                .iter()
                .map(|e| e.name.as_str())
                .collect::<Vec<_>>()
                .join(" vs "),
            ended,
            elo: elo.elo,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(median: f64, signature: i64) -> Record {
        Record {
            run: 0,
            started: String::new(),
            commit: None,
            dirty: false,
            measure: Measure::BenchPvs,
            rounds: vec![median],
            signature: Some(signature),
            signature_changed: false,
            drop_from: None,
        }
    }

    /// 94 after five records of 100 is a drop; 96 is not; the window is
    /// the five before, not all.
    #[test]
    fn drops_are_measured_against_the_previous_five() {
        let mut r: Vec<Record> = [50.0, 100.0, 100.0, 100.0, 100.0, 100.0, 94.0, 96.0]
            .iter()
            .map(|&m| record(m, 1))
            .collect();
        r[7].signature = Some(2);
        mark(&mut r);
        let flagged: Vec<usize> = (0..r.len()).filter(|&i| r[i].drop_from.is_some()).collect();
        assert_eq!(flagged, [6]);
        assert_eq!(r[6].drop_from, Some(100.0));
        let changed: Vec<usize> = (0..r.len()).filter(|&i| r[i].signature_changed).collect();
        assert_eq!(changed, [7]);
        assert_eq!(median(&[3.0, 1.0, 2.0, 10.0]), 2.5);
    }
}
