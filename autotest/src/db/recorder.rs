//! A tournament recorded as it is played: its run's row before the first
//! game (a resumed run's own row again, its games made those of the PGN
//! file), each counted game as it is written to the PGN file, and the
//! status at the end. A database that cannot be used is reported in one
//! line on standard error, and the run goes on without it.

use crate::config::spec::{PgnStyle, TournamentSpec};
use crate::db::write::{self, Status};
use crate::db::{open, path};
use crate::pgn::write::to_pgn;
use crate::referee::record::GameRecord;
use crate::tournament::resume::Resumed;
use crate::tournament::schedule::Job;
use rusqlite::Connection;
use std::path::{Path, PathBuf};

/// The run's row in an open database.
pub struct Recorder {
    /// `None` once the database failed: nothing more is tried.
    conn: Option<Connection>,
    path: PathBuf,
    run: i64,
    style: PgnStyle,
}

fn unavailable(path: &Path, what: &str) {
    eprintln!(
        "autotest: results database {}: {what}; the run goes on without recording",
        path.display()
    );
}

impl Recorder {
    /// The recorder of `spec`'s run, started by `command` (its every
    /// word, the program's first), going on from `resumed`; `None` when
    /// recording is off or the database is unavailable (said on standard
    /// error).
    pub fn start(
        spec: &TournamentSpec,
        command: &[String],
        resumed: Option<&Resumed>,
    ) -> Option<Recorder> {
        let choice = match path::choose(spec.db.as_deref(), spec.pgn_out.as_deref()) {
            Ok(choice) => choice?,
            Err(e) => {
                eprintln!("autotest: {e}; the run goes on without recording");
                return None;
            }
        };
        match Recorder::open(&choice, spec, command, resumed) {
            Ok(r) => Some(r),
            Err(e) => {
                unavailable(&choice.path, &e);
                None
            }
        }
    }

    fn open(
        choice: &path::Choice,
        spec: &TournamentSpec,
        command: &[String],
        resumed: Option<&Resumed>,
    ) -> Result<Recorder, String> {
        let path = &choice.path;
        if let Some(dir) = path.parent().filter(|_| choice.make_dir) {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        let mut conn = open::open(path)?;
        let text = |e: rusqlite::Error| e.to_string();
        let again = match (resumed, &spec.pgn_out) {
            (Some(_), Some(pgn)) => write::resume_run(&conn, pgn, command).map_err(text)?,
            _ => None,
        };
        let run = match again {
            Some(id) => id,
            None => write::insert_run(&conn, spec, command).map_err(text)?,
        };
        if let Some(r) = resumed {
            let rows: Vec<write::GameRow> = r
                .games
                .iter()
                .zip(&r.texts)
                .map(|(g, t)| write::played_before(g, t))
                .collect();
            write::keep_only(&mut conn, run, &rows).map_err(text)?;
        }
        Ok(Recorder {
            conn: Some(conn),
            path: path.clone(),
            run,
            style: spec.pgn_style,
        })
    }

    /// Tries `f` on the database; on failure says so and stops recording.
    fn attempt(&mut self, f: impl FnOnce(&Connection, i64) -> rusqlite::Result<()>) {
        if let Some(conn) = &self.conn {
            if let Err(e) = f(conn, self.run) {
                unavailable(&self.path, &e.to_string());
                self.conn = None;
            }
        }
    }

    /// Records the game of `job`, counted, with the SPRT's `llr` after it.
    pub fn game(&mut self, job: &Job, rec: &GameRecord, llr: Option<f64>) {
        let row = write::played_now(job, rec, to_pgn(rec, self.style), llr);
        self.attempt(|conn, run| write::insert_game(conn, run, &row));
    }

    /// Ends the run with `status`.
    pub fn finish(&mut self, status: Status) {
        self.attempt(|conn, run| write::set_status(conn, run, status));
    }
}
