//! autotest: a tournament runner and referee for Leiserchess UCI engines.
//!
//! `spec` (what a tournament is) ← `config` (course config files and
//! cutechess-style flags); `engine` (a UCI child process with deadlines);
//! `referee` (one game on our rules code, clocks, faults); `openings`;
//! `pgn`; `tournament` (schedule, concurrency, standings, SPRT); `stats`
//! (Elo, pentanomial error bars, LOS, SPRT log-likelihood ratio).

pub mod config;
pub mod engine;
pub mod openings;
pub mod pgn;
pub mod record;
pub mod referee;
pub mod spec;
pub mod stats;
pub mod tournament;
