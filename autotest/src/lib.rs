//! autotest: a tournament runner and referee for Leiserchess UCI engines.
//!
//! `spec` (what a tournament is) ← `config` (its two forms:
//! `config::course_file`, the course's config files, and `config::flags`,
//! cutechess-style flags), both reading their numbers with `numbers`;
//! `course` (a course config file as the course referee runs it); `engine`
//! (a UCI engine over `leiserchess::play::client`, the child-process
//! driver the tests share) with `option_check` (the spec's options listed
//! by the engine and not refused) and `stderr_log` (its standard error:
//! `NAME.stderr.log` beside the PGN, the last lines of a dead engine);
//! `preflight` (every engine checked before the first game); `referee` (one game on our rules code, clocks,
//! faults) with `adjudication` (draws and resignations from the engines'
//! scores); `record` (a played game); `openings`; `pgn` (writing games)
//! and `pgn_read` (their tags read back); `tournament` (schedule,
//! concurrency, SPRT) with `standings` (W/D/L, pairs, faults as games come
//! in) and `resume` (`-resume`: the games of an earlier run counted, not
//! replayed); `interrupt` (SIGINT and SIGTERM: the games in flight
//! finished, nothing new started); `progress` (the running score);
//! `stats` (Elo, pentanomial error bars, LOS; `stats::sprt`, the SPRT
//! log-likelihood ratio and
//! decision) and `stats_command` (`autotest stats`, those figures for
//! given results, or with `stats_pgn` for a player's games in PGN files);
//! `spsa` (SPSA tuning: the
//! gains, the perturbations, the update, the state file) and
//! `tune_command` (`autotest tune`, SPSA on an engine's UCI options by
//! self-play through the referee).

#![forbid(unsafe_code)]

pub mod adjudication;
pub mod config;
pub mod course;
pub mod engine;
pub mod interrupt;
pub mod numbers;
pub mod openings;
pub mod option_check;
pub mod pgn;
pub mod pgn_read;
pub mod preflight;
pub mod progress;
pub mod record;
pub mod referee;
pub mod resume;
pub mod spec;
pub mod spsa;
pub mod standings;
pub mod stats;
pub mod stats_command;
pub mod stats_pgn;
pub mod stderr_log;
pub mod tournament;
pub mod tune_command;
