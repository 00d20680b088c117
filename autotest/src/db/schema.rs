//! The schema, as the ordered steps that build it: a database at version
//! N (SQLite's `user_version`) has had the first N applied. A step is
//! never changed once released; a change to the schema is a new step.

use rusqlite_migration::{Migrations, M};

/// Version 1: the runs and their games.
const V1: &str = "
CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL
        CHECK (kind IN ('tournament', 'sprt', 'gauntlet', 'tune', 'datagen', 'bench')),
    -- The whole command line, as a JSON array of its words.
    command TEXT NOT NULL,
    -- A JSON array, one object per engine: name, command, options
    -- ([name, value] pairs), limits, sha256 and commit (null if unknown).
    engines TEXT NOT NULL,
    title TEXT NOT NULL,
    time_control TEXT,
    repeat INTEGER NOT NULL,
    -- JSON {elo0, elo1, alpha, beta}, or null without an SPRT.
    sprt TEXT,
    openings_file TEXT,
    openings_sha256 TEXT,
    seed INTEGER NOT NULL,
    status TEXT NOT NULL
        CHECK (status IN ('running', 'finished', 'H0', 'H1', 'stopped', 'cancelled', 'failed')),
    -- Unix seconds.
    started INTEGER NOT NULL,
    ended INTEGER,
    cpu_model TEXT,
    cores INTEGER,
    slurm_job_id TEXT,
    pgn_path TEXT
);
CREATE TABLE games (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    -- The game's number in the schedule.
    schedule_index INTEGER NOT NULL,
    pair INTEGER NOT NULL,
    opening INTEGER NOT NULL,
    white TEXT NOT NULL,
    black TEXT NOT NULL,
    result TEXT NOT NULL CHECK (result IN ('1-0', '0-1', '1/2-1/2')),
    -- normal, adjudication, void, or the fault (crash, hang, ...).
    termination TEXT NOT NULL,
    plies INTEGER,
    white_ms INTEGER,
    black_ms INTEGER,
    pgn TEXT,
    -- The SPRT's log-likelihood ratio after the game.
    llr REAL,
    UNIQUE (run_id, schedule_index)
);
";

/// Version 2: the lookups of `autotest runs` and of `-resume`.
const V2: &str = "
CREATE INDEX runs_by_start ON runs (started);
CREATE INDEX runs_by_pgn ON runs (pgn_path, status);
";

/// Every step, in order.
pub const STEPS: &[&str] = &[V1, V2];

/// The version this program writes.
pub const LATEST: usize = STEPS.len();

pub fn migrations() -> Migrations<'static> {
    Migrations::new(STEPS.iter().map(|s| M::up(s)).collect())
}
