//! A Slurm run in the results database, written by the coordinator
//! alone: one row for the whole run (its array jobs' ids, the merged PGN
//! file), the games in schedule order as the merge takes them in (with
//! the LLR after each), and the status at the end. A coordinator stopped
//! by a signal leaves the run `running`, since its tasks go on; one
//! started again on the run directory goes on with the same row, whose id
//! the run directory keeps (`RUN/db-run`, with the database's path: a
//! coordinator using another database starts a row there).
//!
//! The tasks never open the database: they write their shard files only.
//! SQLite's locking is not safe over network file systems (NFS, Lustre),
//! where a run directory usually is, so the one writer is the coordinator
//! on one host. A database that cannot be used is said once on standard
//! error and the run goes on (`db::best_effort`).

use crate::config::spec::TournamentSpec;
use crate::db::best_effort::BestEffort;
use crate::db::text_enums::Status;
use crate::db::write;
use crate::db::{cluster, write::played_before};
use crate::slurm::merge::{Merge, Standing};
use crate::slurm::run_dir::{RunDir, Submission};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The file in the run directory that names the run's row: its id, then
/// the database's path.
const ID_FILE: &str = "db-run";

pub struct Record {
    db: BestEffort,
    run: i64,
    /// Games 1..=`games` are in the database.
    games: usize,
    /// Array jobs named in `slurm_job_id`.
    jobs: usize,
    ended: bool,
}

/// The command line as the database records it: the run's arguments
/// after the program, the same for `autotest slurm watch`.
fn command(run_dir: &RunDir) -> Option<Vec<String>> {
    let (args, _) = run_dir.arguments().ok()?;
    Some(
        std::iter::once("autotest".to_string())
            .chain(args)
            .collect(),
    )
}

/// The run id `run_dir` keeps for the database at `db`.
pub fn kept(run_dir: &RunDir, db: &Path) -> Option<i64> {
    let text = std::fs::read_to_string(run_dir.root.join(ID_FILE)).ok()?;
    let (id, path) = text.trim_end_matches('\n').split_once('\n')?;
    (Path::new(path) == absolute(db)).then(|| id.parse().ok())?
}

fn absolute(p: &Path) -> PathBuf {
    std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
}

fn keep(run_dir: &RunDir, db: &Path, run: i64) {
    let path = run_dir.root.join(ID_FILE);
    let text = format!("{run}\n{}\n", absolute(db).display());
    if let Err(e) = std::fs::write(&path, text) {
        eprintln!(
            "autotest: cannot write {}: {e}; a coordinator started again records the run anew",
            path.display()
        );
    }
}

impl Record {
    /// The record of the tournament `spec` run in `run_dir`, merged into
    /// `pgn`: its row taken up again or a new one.
    pub fn tournament(run_dir: &RunDir, spec: &TournamentSpec, pgn: &Path) -> Option<Record> {
        let command = command(run_dir)?;
        let mut spec = spec.clone();
        spec.pgn_out = Some(pgn.to_path_buf());
        let mut db = BestEffort::open(spec.db.as_deref())?;
        let stored = kept(run_dir, db.path());
        let run = db.attempt(|conn| -> rusqlite::Result<i64> {
            if let Some(id) = stored {
                if cluster::reopen(conn, id, &command)? {
                    return Ok(id);
                }
            }
            write::insert_run(conn, &spec, &command)
        })?;
        Some(Record::kept_in(run_dir, db, run))
    }

    /// The record of a datagen run in `run_dir` writing `out`, by
    /// `engine` with `args` (after the engine) and `seed`.
    pub fn datagen(
        run_dir: &RunDir,
        engine: &str,
        args: &[String],
        seed: u64,
        out: &Path,
    ) -> Option<Record> {
        let command = command(run_dir)?;
        let mut db = BestEffort::open(None)?;
        let stored = kept(run_dir, db.path());
        let detail = datagen_detail(0, 0, out);
        let run = db.attempt(|conn| -> rusqlite::Result<i64> {
            if let Some(id) = stored {
                if cluster::reopen(conn, id, &command)? {
                    return Ok(id);
                }
            }
            cluster::insert_datagen(conn, &command, engine, args, seed, &detail)
        })?;
        Some(Record::kept_in(run_dir, db, run))
    }

    fn kept_in(run_dir: &RunDir, db: BestEffort, run: i64) -> Record {
        keep(run_dir, db.path(), run);
        Record {
            db,
            run,
            games: 0,
            jobs: 0,
            ended: false,
        }
    }

    /// The run's row id.
    pub fn id(&self) -> i64 {
        self.run
    }

    /// Names the run's array jobs, if there are new ones.
    pub fn jobs(&mut self, subs: &[Submission]) {
        if subs.len() == self.jobs {
            return;
        }
        let ids: Vec<String> = subs.iter().map(|s| s.job.clone()).collect();
        let run = self.run;
        if self
            .db
            .attempt(|conn| cluster::set_jobs(conn, run, &ids))
            .is_some()
        {
            self.jobs = subs.len();
        }
    }

    /// Adds the games in order that are not in yet, each with the LLR
    /// after it. The merge reads every shard file from the start, and a
    /// coordinator started again begins at game 1 with a row that holds
    /// games already; a requeued task's rewritten file brings its games
    /// again: so a game already there (by schedule index) is left as it
    /// is, never doubled (`INSERT OR IGNORE`, `UNIQUE (run_id,
    /// schedule_index)`).
    pub fn games(&mut self, merge: &Merge, st: &Standing) {
        if st.games <= self.games {
            return;
        }
        let rows: Vec<write::GameRow> = merge
            .in_order(st.games)
            .skip(self.games)
            .zip(st.llrs.iter().skip(self.games))
            .map(|(g, llr)| write::GameRow {
                llr: *llr,
                ..played_before(&g.game, &g.text)
            })
            .collect();
        let run = self.run;
        if self
            .db
            .attempt(|conn| write::insert_games_once(conn, run, &rows))
            .is_some()
        {
            self.games = st.games;
        }
    }

    /// Sets a datagen run's detail.
    pub fn detail(&mut self, detail: &Value) {
        let run = self.run;
        self.db
            .attempt(|conn| cluster::set_detail(conn, run, detail));
    }

    /// Ends the run with `status`.
    pub fn finish(&mut self, status: Status) {
        let run = self.run;
        self.db.attempt(|conn| write::set_status(conn, run, status));
        self.ended = true;
    }

    /// Ends the run as failed unless it has ended already.
    pub fn fail(&mut self) {
        if !self.ended {
            self.finish(Status::Failed);
        }
    }
}

/// A datagen run's detail.
pub fn datagen_detail(games: u64, positions: u64, out: &Path) -> Value {
    serde_json::json!({
        "games": games,
        "positions": positions,
        "out": absolute(out).display().to_string(),
    })
}

/// `autotest slurm cancel`: the run's row, if the run directory names
/// one, marked `cancelled`.
pub fn cancelled(run_dir: &RunDir) {
    let Ok(text) = std::fs::read_to_string(run_dir.root.join(ID_FILE)) else {
        return;
    };
    let Some((id, path)) = text.trim_end_matches('\n').split_once('\n') else {
        return;
    };
    let Ok(run) = id.parse::<i64>() else {
        return;
    };
    if let Some(mut db) = BestEffort::open(Some(path)) {
        db.attempt(|conn| write::set_status(conn, run, Status::Cancelled));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::spec::PgnStyle;
    use crate::pgn::write::to_pgn;
    use crate::referee::record::{GameRecord, Start, Termination};
    use crate::slurm::options::{parse, shards};
    use crate::tournament::schedule::{pair_count, schedule, Job};
    use rusqlite::Connection;

    fn game(spec: &TournamentSpec, job: &Job) -> String {
        let rec = GameRecord {
            event: "autotest".to_string(),
            round: format!("{}.{}", job.round, job.number),
            white: spec.engines[job.white].name.clone(),
            black: spec.engines[job.black].name.clone(),
            start: Start::StartPos,
            opening: Vec::new(),
            moves: Vec::new(),
            result: if job.number.is_multiple_of(3) {
                "1-0"
            } else {
                "1/2-1/2"
            }
            .to_string(),
            termination: Termination::KingZapped,
            started_unix: 0,
            duration_ms: 0,
            memory: Vec::new(),
        };
        to_pgn(&rec, PgnStyle::Standard)
    }

    /// A game as stored: its schedule index and LLR.
    type Stored = (usize, Option<f64>);

    /// (run, status, games) in the database.
    fn stored(db: &Path) -> Vec<(i64, Status, Vec<Stored>)> {
        let conn = Connection::open(db).unwrap();
        let mut runs = conn.prepare("SELECT id, status FROM runs").unwrap();
        let runs: Vec<(i64, Status)> = runs
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        runs.into_iter()
            .map(|(id, status)| {
                let mut g = conn
                    .prepare(
                        "SELECT schedule_index, llr FROM games WHERE run_id = ?1
                         ORDER BY schedule_index",
                    )
                    .unwrap();
                let games = g
                    .query_map([id], |r| Ok((r.get::<_, i64>(0)? as usize, r.get(1)?)))
                    .unwrap()
                    .map(Result::unwrap)
                    .collect();
                (id, status, games)
            })
            .collect()
    }

    /// Without Slurm: shard files written here, merged and recorded by a
    /// coordinator that detaches, then by one started again (from game 1,
    /// with a shard file rewritten): one row, each game once in schedule
    /// order with the LLR after it, `running` while detached.
    #[test]
    fn each_game_once_across_coordinators() {
        let dir = crate::scratch::dir("slurm-run-record");
        let db = dir.join("lab.db");
        let run_arg = format!("dir={}", dir.join("run").display());
        let args: Vec<String> = [
            "-engine",
            "cmd=x",
            "name=a",
            "-engine",
            "cmd=x",
            "name=b",
            "-rounds",
            "3",
            "-sprt",
            "elo0=0",
            "elo1=10",
            "-db",
            &db.display().to_string(),
            "-slurm",
            &run_arg,
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let (spec, opts) = parse(&args).unwrap();
        let (run, _) = RunDir::create_or_attach(&opts.unwrap().dir, &args, &dir).unwrap();
        let jobs = schedule(&spec, 0);
        let plan = shards(pair_count(&jobs), 1);
        let files: Vec<PathBuf> = (0..plan.len()).map(|k| run.shard_pgn(k)).collect();
        let write_shard = |k: usize| {
            let text: String = jobs
                .iter()
                .filter(|j| plan[k].contains(&j.pair))
                .map(|j| game(&spec, j))
                .collect();
            std::fs::create_dir_all(files[k].parent().unwrap()).unwrap();
            std::fs::write(&files[k], text).unwrap();
        };
        let pgn = run.root.join("games.pgn");
        let coordinator = || {
            let mut merge = Merge::new(jobs.clone(), plan.clone(), files.clone());
            merge.refresh(&spec, &[]).unwrap();
            let st = merge.standing(&spec);
            let mut r = Record::tournament(&run, &spec, &pgn).expect("recorded");
            r.jobs(&[Submission {
                job: "17".to_string(),
                tasks: vec![0, 1, 2],
            }]);
            r.games(&merge, &st);
            (r, st)
        };
        assert_eq!(plan.len(), 3);
        write_shard(0);
        write_shard(2);
        let (first, st) = coordinator();
        assert_eq!(st.games, 2, "shard 1 is missing: games 1 and 2 in order");
        drop(first);
        let runs = stored(&db);
        assert_eq!(runs.len(), 1);
        assert_eq!(runs[0].1, Status::Running);
        assert_eq!(runs[0].2.iter().map(|g| g.0).collect::<Vec<_>>(), [1, 2]);
        write_shard(1);
        write_shard(0);
        let (mut second, st) = coordinator();
        assert_eq!(second.id(), runs[0].0);
        second.finish(Status::Finished);
        let runs = stored(&db);
        assert_eq!(runs.len(), 1);
        assert_eq!(runs[0].1, Status::Finished);
        let want: Vec<Stored> = (1..=6).zip(st.llrs.iter().copied()).collect();
        assert_eq!(runs[0].2, want);
        assert!(want.iter().all(|g| g.1.is_some()));
        let conn = Connection::open(&db).unwrap();
        let (jobs_text, pgn_path): (String, String) = conn
            .query_row("SELECT slurm_job_id, pgn_path FROM runs", [], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .unwrap();
        assert_eq!(jobs_text, "17");
        assert_eq!(pgn_path, pgn.display().to_string());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
