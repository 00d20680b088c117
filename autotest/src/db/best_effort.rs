//! A results database that a run does not depend on: opened if it can
//! be, and once it fails (at the start or midway) said in one line on
//! standard error and left alone while the run goes on. The local
//! tournament's recorder, the Slurm coordinator's, `autotest tune` and
//! `autotest bench-record` use it.

use crate::db::{open, path};
use rusqlite::Connection;
use std::fmt::Display;
use std::path::{Path, PathBuf};

pub struct BestEffort {
    /// `None` once the database failed: nothing more is tried.
    conn: Option<Connection>,
    path: PathBuf,
    per_user: bool,
}

/// Says on standard error that the database at `path` cannot be used.
pub fn unavailable(path: &Path, what: &str) {
    eprintln!(
        "autotest: results database {}: {what}; the run goes on without recording",
        path.display()
    );
}

impl BestEffort {
    /// The database `flag` (`-db`) names, else the environment's or the
    /// per-user default (`path::choose`), open; `None` when recording is
    /// off or it cannot be opened (said on standard error).
    pub fn open(flag: Option<&str>) -> Option<BestEffort> {
        let choice = match path::choose(flag) {
            Ok(choice) => choice?,
            Err(e) => {
                eprintln!("autotest: {e}; the run goes on without recording");
                return None;
            }
        };
        let opened = match choice.path.parent().filter(|_| choice.per_user) {
            Some(dir) => std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display())),
            None => Ok(()),
        }
        .and_then(|()| open::open(&choice.path));
        match opened {
            Ok(conn) => Some(BestEffort {
                conn: Some(conn),
                path: choice.path,
                per_user: choice.per_user,
            }),
            Err(e) => {
                unavailable(&choice.path, &e);
                None
            }
        }
    }

    /// The database's file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether it is the per-user default (no `-db`, no `AUTOTEST_DB`).
    pub fn per_user(&self) -> bool {
        self.per_user
    }

    /// Tries `f` on the database; on failure says so and stops using it.
    pub fn attempt<T, E: Display>(
        &mut self,
        f: impl FnOnce(&mut Connection) -> Result<T, E>,
    ) -> Option<T> {
        let conn = self.conn.as_mut()?;
        match f(conn) {
            Ok(v) => Some(v),
            Err(e) => {
                unavailable(&self.path, &e.to_string());
                self.conn = None;
                None
            }
        }
    }
}
