//! The results database: every tournament or SPRT that `autotest` plays
//! on this machine, recorded in SQLite as it goes (by default in the
//! per-user `$XDG_DATA_HOME/leiserchess/lab.db`, where every reader
//! looks too).
//!
//! * `path`: which file (`-db`, `AUTOTEST_DB`, or the default);
//! * `take_over`: a resumed run an older autotest recorded beside its
//!   PGN file, copied into the per-user database;
//! * `schema`: the tables, as an ordered list of versions;
//! * `text_enums`: a run's kind and status and a benchmark's measure,
//!   the words the schema's CHECKs allow;
//! * `open`: a connection in WAL mode with a busy timeout, the schema
//!   brought up to date (one newer than this program is refused);
//! * `provenance`: what is recorded about the machine and the engine
//!   binaries;
//! * `write`: the run's row and its games;
//! * `best_effort`: a database used until its first failure, which is
//!   reported once while the run goes on;
//! * `recorder`: the tournament's side of it; `cluster`: a Slurm
//!   coordinator's (`crate::slurm::record`);
//! * `tune`: `autotest tune`'s run and its SPSA iterations;
//! * `loops`: `autotest loop`'s loops, generations and steps;
//! * `bench` and `bench_record`: the engine's benchmarks, measured and
//!   recorded by `autotest bench-record`;
//! * `import`: `autotest import PGN...`;
//! * `read` and `runs_and_show`: `autotest runs` and `autotest show RUN`;
//! * `report`: `autotest report`, the figures as markdown tables;
//! * `artifacts`: the lab store's datasets and nets, indexed from their
//!   records (`autotest data`, `autotest nets`); `promotions`: the nets
//!   those records mark as promoted by `autotest loop`.

pub mod artifacts;
pub mod bench;
pub mod bench_record;
pub mod best_effort;
pub mod cluster;
pub mod import;
pub mod loops;
pub mod open;
pub mod path;
pub mod promotions;
pub mod provenance;
pub mod read;
pub mod recorder;
pub mod report;
pub mod runs_and_show;
pub mod schema;
pub mod take_over;
pub mod text_enums;
pub mod tune;
pub mod write;
