//! A run's figures: its row, its standings as `autotest show` rebuilds
//! them (db::read), the SPRT's LLR after each game in the order the
//! games were recorded (tournament::standings counts them one by one),
//! the first engine's W/D/L per opening, and every fault with its reason.

use crate::config::spec::TournamentSpec;
use crate::db::read;
use crate::db::text_enums::{RunKind, Status};
use crate::referee::record::{white_halves, FaultKind};
use crate::tournament::run::Summary;
use crate::tournament::schedule::Job;
use crate::tournament::standings::Tally;
use rusqlite::{Connection, OptionalExtension};
use std::collections::BTreeMap;

/// A run's row.
#[derive(Clone, Debug, PartialEq)]
pub struct Head {
    pub id: i64,
    pub kind: RunKind,
    pub status: Status,
    pub title: String,
    pub time_control: String,
    pub started: String,
    pub ended: Option<String>,
    pub cpu: Option<String>,
}

/// A game that ended in a fault.
#[derive(Clone, Debug, PartialEq)]
pub struct Fault {
    pub schedule_index: i64,
    pub white: String,
    pub black: String,
    /// The engine at fault (the loser).
    pub engine: String,
    pub kind: String,
    pub reason: String,
}

/// Everything a run's page shows.
pub struct RunView {
    pub head: Head,
    pub spec: TournamentSpec,
    pub summary: Summary,
    /// The LLR after each game, in the order recorded (SPRT runs).
    pub llr: Vec<f64>,
    /// Per opening: the first engine's wins, draws, losses.
    pub openings: BTreeMap<i64, [u64; 3]>,
    pub faults: Vec<Fault>,
    pub games: usize,
}

fn head(conn: &Connection, id: i64) -> rusqlite::Result<Option<Head>> {
    conn.query_row(
        "SELECT kind, status, title, COALESCE(time_control, '-'),
             datetime(started, 'unixepoch'), datetime(ended, 'unixepoch'), cpu_model
         FROM runs WHERE id = ?1",
        [id],
        |r| {
            Ok(Head {
                id,
                kind: r.get(0)?,
                status: r.get(1)?,
                title: r.get(2)?,
                time_control: r.get(3)?,
                started: r.get(4)?,
                ended: r.get(5)?,
                cpu: r.get(6)?,
            })
        },
    )
    .optional()
}

/// Run `id`'s figures; `None` if there is no such run.
pub fn load(conn: &Connection, id: i64) -> Result<Option<RunView>, String> {
    let text = |e: rusqlite::Error| e.to_string();
    let Some(head) = head(conn, id).map_err(text)? else {
        return Ok(None);
    };
    let Some((spec, summary)) = read::standings(conn, id)? else {
        return Ok(None);
    };
    let mut stmt = conn
        .prepare(
            "SELECT schedule_index, pair, opening, white, black, result, termination, reason
             FROM games WHERE run_id = ?1 ORDER BY rowid",
        )
        .map_err(text)?;
    let mut rows = stmt.query([id]).map_err(text)?;
    let index = |name: &str| spec.engines.iter().position(|e| e.name == name);
    let first = spec
        .engines
        .first()
        .map(|e| e.name.clone())
        .unwrap_or_default();
    let mut tally = Tally::new(spec.engines.len());
    let mut view = RunView {
        head,
        llr: Vec::new(),
        openings: BTreeMap::new(),
        faults: Vec::new(),
        games: 0,
        spec: spec.clone(),
        summary,
    };
    while let Some(r) = rows.next().map_err(text)? {
        let number: i64 = r.get(0).map_err(text)?;
        let (pair, opening): (i64, i64) = (r.get(1).map_err(text)?, r.get(2).map_err(text)?);
        let [white, black, result, termination]: [String; 4] = [
            r.get(3).map_err(text)?,
            r.get(4).map_err(text)?,
            r.get(5).map_err(text)?,
            r.get(6).map_err(text)?,
        ];
        let reason: Option<String> = r.get(7).map_err(text)?;
        view.games += 1;
        let halves = white_halves(&result);
        let loser = if result == "1-0" { &black } else { &white };
        let fault = FaultKind::ALL.into_iter().find(|k| k.name() == termination);
        if let Some(kind) = fault {
            view.faults.push(Fault {
                schedule_index: number,
                white: white.clone(),
                black: black.clone(),
                engine: loser.clone(),
                kind: kind.name().to_string(),
                reason: reason.unwrap_or_default(),
            });
        }
        let mine = if white == first {
            Some(halves)
        } else if black == first {
            Some(2 - halves)
        } else {
            None
        };
        if let Some(points) = mine {
            let cell = view.openings.entry(opening).or_insert([0; 3]);
            cell[match points {
                2 => 0,
                1 => 1,
                _ => 2,
            }] += 1;
        }
        if spec.sprt.is_some() {
            let (Some(w), Some(b)) = (index(&white), index(&black)) else {
                return Err(format!(
                    "run {id}: a game of {white} and {black}, not its engines"
                ));
            };
            let job = Job {
                number: usize::try_from(number).unwrap_or(0),
                round: 0,
                white: w,
                black: b,
                opening: usize::try_from(opening).unwrap_or(0),
                pair: usize::try_from(pair).unwrap_or(usize::MAX),
            };
            tally.add(&spec, &job, halves, fault.map(|k| (loser.as_str(), k)));
            if let Some((llr, _)) = tally.sprt(&spec) {
                view.llr.push(llr);
            }
        }
    }
    Ok(Some(view))
}

/// What changes when a run's games or status change: its status, end,
/// number of games and newest game row.
pub type Fingerprint = (Status, Option<i64>, i64, Option<i64>);

pub fn fingerprint(conn: &Connection, id: i64) -> rusqlite::Result<Option<Fingerprint>> {
    conn.query_row(
        "SELECT status, ended,
             (SELECT COUNT(*) FROM games WHERE run_id = ?1),
             (SELECT MAX(rowid) FROM games WHERE run_id = ?1)
         FROM runs WHERE id = ?1",
        [id],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
    )
    .optional()
}

/// Run `id`'s games' PGN, in schedule order, each ending in a blank
/// line; `None` if there is no such run.
pub fn pgn(conn: &Connection, id: i64) -> rusqlite::Result<Option<String>> {
    if head(conn, id)?.is_none() {
        return Ok(None);
    }
    let mut stmt = conn.prepare(
        "SELECT pgn FROM games WHERE run_id = ?1 AND pgn IS NOT NULL ORDER BY schedule_index",
    )?;
    let mut out = String::new();
    let mut rows = stmt.query([id])?;
    while let Some(r) = rows.next()? {
        let game: String = r.get(0)?;
        out += game.trim_end();
        out += "\n\n";
    }
    Ok(Some(out))
}
