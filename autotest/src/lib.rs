//! autotest: a tournament runner and referee for Leiserchess UCI engines.
//!
//! One folder per concern, each file importing the files it needs by
//! name, with no circle between them (`tests/tournament/layout.rs`):
//!
//! * `config`: what a tournament is (`config::spec`) and its two forms,
//!   the course's config files and cutechess-style flags;
//! * `referee`: one game on our rules code, with clocks, faults and
//!   adjudication; the engines as child processes, checked before the
//!   first game; the record of a played game;
//! * `tournament`: the game schedule, running it, the standings, `-resume`,
//!   the running report and the final table;
//! * `pgn`: games written and read back, a player's results from them;
//! * `stats`: Elo, pentanomial error bars, LOS, the SPRT, and `autotest
//!   stats`;
//! * `tune`: SPSA and `autotest tune`;
//! * `db`: the results database: each run (tournament, SPRT, tune,
//!   datagen, bench) and its games, iterations or measures, written as
//!   it goes; `autotest runs`, `show`, `report`, `import`, `bench-record`;
//! * `serve`: the results database as live web pages (`autotest serve`);
//! * `store`: the lab store's datasets and nets with their lineage
//!   (`autotest data`, `autotest nets`);
//! * `slurm`: a tournament or SPRT as a Slurm job array, its shards
//!   merged by a coordinator;
//! * `net_loop`: `autotest loop`, net generations made unattended
//!   (data, training, SPRT, promotion), resumable step by step;
//! * `subcommands`: the command lines clap reads (`openings`, `stats`,
//!   `runs`, ... each declared beside its work), one-dash long options
//!   taken as two;
//! * `openings` (where each game starts), `interrupt` (SIGINT and
//!   SIGTERM: the games in flight finished, nothing new started) and
//!   `machine_name` (the machine's name in logs and records).

#![forbid(unsafe_code)]

pub mod config;
pub mod db;
pub mod interrupt;
pub mod machine_name;
pub mod net_loop;
pub mod openings;
pub mod pgn;
pub mod referee;
pub mod serve;
pub mod slurm;
pub mod stats;
pub mod store;
pub mod subcommands;
pub mod tournament;
pub mod tune;

/// The unit tests' scratch directories, `target/tmp/autotest/NAME`: the
/// engine's helper, so that neither crate's tests write outside the
/// repository and `target/`.
#[cfg(test)]
#[path = "../../src/scratch.rs"]
mod scratch;
