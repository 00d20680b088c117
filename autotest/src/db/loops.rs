//! `autotest loop`'s record in the results database: a loop (its folder,
//! settings and first start, its best net now), its generations (the
//! best net each played against, its data, the candidate, the SPRT's run
//! and figures, the decision) and each step's time. The loop writes its
//! whole record after every step, each row by its key, so that a loop
//! started again rewrites its rows and adds none twice; the SPRT's run is
//! set on its generation when the SPRT starts (`net_loop::sprt`).

use crate::db::text_enums::{Decision, LoopStep, LoopVerdict};
use rusqlite::{params, Connection, OptionalExtension};

/// A loop as the database keeps it.
#[derive(Clone, Debug, PartialEq)]
pub struct LoopRow {
    /// The folder, absolute.
    pub dir: String,
    /// The settings, a JSON object.
    pub settings: String,
    /// The first start, Unix seconds.
    pub started: f64,
    /// The best net's sha256; `None`: the engine's embedded net.
    pub best: Option<String>,
    pub generations: Vec<GenerationRow>,
}

/// A generation, as far as it has come.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GenerationRow {
    pub number: u32,
    /// The best net it played with and against; `None`: the embedded one.
    pub best: Option<String>,
    pub data: Option<String>,
    pub relabelled: Option<String>,
    pub candidate: Option<String>,
    /// The SPRT's run in `runs` (read only: [`set_sprt_run`] writes it).
    pub sprt_run: Option<i64>,
    pub sprt: Option<SprtFigures>,
    pub decision: Option<Decision>,
    pub steps: Vec<StepRow>,
}

/// How the SPRT ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtFigures {
    /// The candidate's wins, draws and losses.
    pub wdl: [u64; 3],
    pub llr: f64,
    pub verdict: LoopVerdict,
}

/// A step done.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepRow {
    pub step: LoopStep,
    pub seconds: f64,
    /// When it ended, Unix seconds, if known.
    pub ended: Option<f64>,
}

fn count(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// Writes `l` whole in one transaction: its loop row (found by folder and
/// first start, else added), each generation's and each step's row,
/// replaced by key. A generation's SPRT run is left as it was. Returns
/// the loop's id.
pub fn write(conn: &mut Connection, l: &LoopRow) -> rusqlite::Result<i64> {
    let tx = conn.transaction()?;
    let id: i64 = tx.query_row(
        "INSERT INTO loops (dir, settings, started, best) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (dir, started) DO UPDATE SET settings = ?2, best = ?4
         RETURNING id",
        params![l.dir, l.settings, l.started, l.best],
        |r| r.get(0),
    )?;
    for g in &l.generations {
        let s = g.sprt.as_ref();
        tx.execute(
            "INSERT INTO loop_generations (loop_id, generation, best, data, relabelled,
                 candidate, wins, draws, losses, llr, verdict, decision)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
             ON CONFLICT (loop_id, generation) DO UPDATE SET best = ?3, data = ?4,
                 relabelled = ?5, candidate = ?6, wins = ?7, draws = ?8, losses = ?9,
                 llr = ?10, verdict = ?11, decision = ?12",
            params![
                id,
                g.number,
                g.best,
                g.data,
                g.relabelled,
                g.candidate,
                s.map(|s| count(s.wdl[0])),
                s.map(|s| count(s.wdl[1])),
                s.map(|s| count(s.wdl[2])),
                s.map(|s| s.llr),
                s.map(|s| s.verdict),
                g.decision,
            ],
        )?;
        for st in &g.steps {
            tx.execute(
                "INSERT INTO loop_steps (loop_id, generation, step, seconds, ended)
                 VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT (loop_id, generation, step) DO UPDATE SET seconds = ?4, ended = ?5",
                params![id, g.number, st.step, st.seconds, st.ended],
            )?;
        }
    }
    tx.commit()?;
    Ok(id)
}

/// The SPRT run of the loop's generation, if one was set and the run is
/// still there.
pub fn sprt_run(conn: &Connection, loop_id: i64, generation: u32) -> rusqlite::Result<Option<i64>> {
    conn.query_row(
        "SELECT g.sprt_run FROM loop_generations g JOIN runs r ON r.id = g.sprt_run
         WHERE g.loop_id = ?1 AND g.generation = ?2",
        params![loop_id, generation],
        |r| r.get(0),
    )
    .optional()
}

/// Sets the loop's generation's SPRT run (its row made if missing).
pub fn set_sprt_run(
    conn: &Connection,
    loop_id: i64,
    generation: u32,
    run: i64,
) -> rusqlite::Result<()> {
    conn.execute(
        "INSERT INTO loop_generations (loop_id, generation, sprt_run) VALUES (?1, ?2, ?3)
         ON CONFLICT (loop_id, generation) DO UPDATE SET sprt_run = ?3",
        params![loop_id, generation, run],
    )?;
    Ok(())
}

/// A loop read back, with its id.
#[derive(Clone, Debug, PartialEq)]
pub struct Loop {
    pub id: i64,
    /// Its first start, UTC, `YYYY-MM-DD HH:MM:SS`.
    pub started_utc: String,
    pub row: LoopRow,
}

fn sql(e: rusqlite::Error) -> String {
    format!("results database: {e}")
}

/// Every loop, oldest first, with its generations in order and their
/// steps in the order of a generation.
pub fn all(conn: &Connection) -> Result<Vec<Loop>, String> {
    let mut stmt = conn
        .prepare(
            "SELECT id, dir, settings, started, best, datetime(started, 'unixepoch') FROM loops
             ORDER BY started, id",
        )
        .map_err(sql)?;
    let rows = stmt
        .query_map([], |r| {
            Ok(Loop {
                id: r.get(0)?,
                started_utc: r.get(5)?,
                row: LoopRow {
                    dir: r.get(1)?,
                    settings: r.get(2)?,
                    started: r.get(3)?,
                    best: r.get(4)?,
                    generations: Vec::new(),
                },
            })
        })
        .map_err(sql)?;
    let mut loops: Vec<Loop> = rows.collect::<Result<_, _>>().map_err(sql)?;
    for l in &mut loops {
        l.row.generations = generations(conn, l.id)?;
    }
    Ok(loops)
}

fn generations(conn: &Connection, loop_id: i64) -> Result<Vec<GenerationRow>, String> {
    let mut stmt = conn
        .prepare(
            "SELECT generation, best, data, relabelled, candidate, sprt_run, wins, draws,
                 losses, llr, verdict, decision
             FROM loop_generations WHERE loop_id = ?1 ORDER BY generation",
        )
        .map_err(sql)?;
    let rows = stmt
        .query_map([loop_id], |r| {
            let wdl: [Option<i64>; 3] = [r.get(6)?, r.get(7)?, r.get(8)?];
            let llr: Option<f64> = r.get(9)?;
            let verdict: Option<LoopVerdict> = r.get(10)?;
            let sprt = match (wdl, llr, verdict) {
                ([Some(w), Some(d), Some(l)], Some(llr), Some(verdict)) => Some(SprtFigures {
                    wdl: [w, d, l].map(|n| u64::try_from(n).unwrap_or(0)),
                    llr,
                    verdict,
                }),
                _ => None,
            };
            Ok(GenerationRow {
                number: r.get(0)?,
                best: r.get(1)?,
                data: r.get(2)?,
                relabelled: r.get(3)?,
                candidate: r.get(4)?,
                sprt_run: r.get(5)?,
                sprt,
                decision: r.get(11)?,
                steps: Vec::new(),
            })
        })
        .map_err(sql)?;
    let mut out: Vec<GenerationRow> = rows.collect::<Result<_, _>>().map_err(sql)?;
    let mut stmt = conn
        .prepare(
            "SELECT generation, step, seconds, ended FROM loop_steps WHERE loop_id = ?1
             ORDER BY generation",
        )
        .map_err(sql)?;
    let steps = stmt
        .query_map([loop_id], |r| {
            Ok((
                r.get::<_, u32>(0)?,
                StepRow {
                    step: r.get(1)?,
                    seconds: r.get(2)?,
                    ended: r.get(3)?,
                },
            ))
        })
        .map_err(sql)?;
    for s in steps {
        let (number, step) = s.map_err(sql)?;
        if let Some(g) = out.iter_mut().find(|g| g.number == number) {
            g.steps.push(step);
        }
    }
    for g in &mut out {
        g.steps.sort_by_key(|s| s.step as u8);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::open;

    fn a_loop() -> LoopRow {
        LoopRow {
            dir: "/l".to_string(),
            settings: r#"{"--positions":"800"}"#.to_string(),
            started: 1000.5,
            best: None,
            generations: vec![GenerationRow {
                number: 1,
                data: Some("d1".to_string()),
                steps: vec![StepRow {
                    step: LoopStep::Datagen,
                    seconds: 12.5,
                    ended: Some(1013.0),
                }],
                ..GenerationRow::default()
            }],
        }
    }

    fn counts(conn: &Connection) -> [i64; 3] {
        let n = |query: &str| conn.query_row(query, [], |r| r.get(0)).unwrap();
        [
            n("SELECT COUNT(*) FROM loops"),
            n("SELECT COUNT(*) FROM loop_generations"),
            n("SELECT COUNT(*) FROM loop_steps"),
        ]
    }

    /// Written again as it grows, a loop keeps one row of each; its SPRT
    /// run stays; another first start in the folder is another loop; read
    /// back, it is what was written.
    #[test]
    fn a_loop_written_again_keeps_one_row_of_each() {
        let path = crate::scratch::dir("db-loops").join("lab.db");
        let mut conn = open::open(&path).unwrap();
        let mut l = a_loop();
        let id = write(&mut conn, &l).unwrap();
        assert_eq!(write(&mut conn, &l).unwrap(), id);
        assert_eq!(counts(&conn), [1, 1, 1]);
        conn.execute(
            "INSERT INTO runs (id, kind, command, engines, title, repeat, seed, status, started)
             VALUES (7, 'sprt', '[]', '[]', 't', 1, 1, 'running', 1)",
            [],
        )
        .unwrap();
        assert_eq!(sprt_run(&conn, id, 1).unwrap(), None);
        set_sprt_run(&conn, id, 1, 7).unwrap();
        let g = &mut l.generations[0];
        g.candidate = Some("c1".to_string());
        g.relabelled = Some("r1".to_string());
        g.sprt = Some(SprtFigures {
            wdl: [3, 2, 1],
            llr: 2.96,
            verdict: LoopVerdict::H1,
        });
        g.decision = Some(Decision::Promoted);
        g.steps.push(StepRow {
            step: LoopStep::Sprt,
            seconds: 30.0,
            ended: None,
        });
        g.steps.push(StepRow {
            step: LoopStep::Train,
            seconds: 5.0,
            ended: Some(1020.0),
        });
        l.best = Some("c1".to_string());
        assert_eq!(write(&mut conn, &l).unwrap(), id);
        assert_eq!(counts(&conn), [1, 1, 3]);
        assert_eq!(sprt_run(&conn, id, 1).unwrap(), Some(7));
        let read = all(&conn).unwrap();
        let mut expected = l.clone();
        expected.generations[0].sprt_run = Some(7);
        expected.generations[0].steps.swap(1, 2);
        let started_utc = "1970-01-01 00:16:40".to_string();
        assert_eq!(
            read,
            [Loop {
                id,
                started_utc,
                row: expected
            }]
        );
        // The run deleted: no SPRT run.
        conn.execute("DELETE FROM runs WHERE id = 7", []).unwrap();
        assert_eq!(sprt_run(&conn, id, 1).unwrap(), None);
        // A new loop in the same folder.
        let mut again = a_loop();
        again.started = 2000.0;
        assert_ne!(write(&mut conn, &again).unwrap(), id);
        assert_eq!(counts(&conn), [2, 2, 4]);
    }
}
