//! The results database: every tournament or SPRT that `autotest` plays
//! on this machine, recorded in SQLite as it goes (by default in
//! `lab.db` beside its PGN file).
//!
//! * `path`: which file (`-db`, `AUTOTEST_DB`, or the default);
//! * `schema`: the tables, as an ordered list of versions;
//! * `open`: a connection in WAL mode with a busy timeout, the schema
//!   brought up to date (one newer than this program is refused);
//! * `host`: what is recorded about the machine and the engine binaries;
//! * `write`: the run's row and its games;
//! * `best_effort`: a database that is unavailable reported once, the
//!   run going on without it;
//! * `recorder`: the tournament's side of it; `cluster`: a Slurm
//!   coordinator's (`crate::slurm::record`);
//! * `import`: `autotest import PGN...`;
//! * `read` and `command`: `autotest runs` and `autotest show RUN`.

pub mod best_effort;
pub mod cluster;
pub mod command;
pub mod host;
pub mod import;
pub mod open;
pub mod path;
pub mod read;
pub mod recorder;
pub mod schema;
pub mod write;
