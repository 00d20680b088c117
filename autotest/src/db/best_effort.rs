//! A results database used as far as it can be: chosen (`db::path`),
//! opened, and written to until the first failure, which is reported in
//! one line on standard error; the run goes on without recording. The
//! tournament's recorder, `autotest tune` and `autotest bench-record`
//! share it.

use crate::db::{open, path};
use rusqlite::Connection;
use std::path::{Path, PathBuf};

/// An open database, or one that failed.
pub struct BestEffort {
    /// `None` once the database failed: nothing more is tried.
    conn: Option<Connection>,
    path: PathBuf,
}

/// Says that the database at `path` cannot be used, and why.
pub fn unavailable(path: &Path, what: &str) {
    eprintln!(
        "autotest: results database {}: {what}; the run goes on without recording",
        path.display()
    );
}

impl BestEffort {
    /// The database `flag` (the value of `-db`) names, or the
    /// environment's, or the default beside `beside` (see
    /// [`path::choose`]), opened; `None` when recording is off or the
    /// database is unavailable (said on standard error).
    pub fn open(flag: Option<&str>, beside: Option<&Path>) -> Option<BestEffort> {
        let choice = match path::choose(flag, beside) {
            Ok(choice) => choice?,
            Err(e) => {
                eprintln!("autotest: {e}; the run goes on without recording");
                return None;
            }
        };
        let connect = || -> Result<Connection, String> {
            if let Some(dir) = choice.path.parent().filter(|_| choice.make_dir) {
                std::fs::create_dir_all(dir)
                    .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            }
            open::open(&choice.path)
        };
        match connect() {
            Ok(conn) => Some(BestEffort {
                conn: Some(conn),
                path: choice.path,
            }),
            Err(e) => {
                unavailable(&choice.path, &e);
                None
            }
        }
    }

    /// `f` on the database; on failure says so, stops recording and
    /// gives `None` (as it does once the database has failed).
    pub fn attempt<T>(
        &mut self,
        f: impl FnOnce(&mut Connection) -> Result<T, String>,
    ) -> Option<T> {
        let conn = self.conn.as_mut()?;
        match f(conn) {
            Ok(v) => Some(v),
            Err(e) => {
                unavailable(&self.path, &e);
                self.conn = None;
                None
            }
        }
    }
}
