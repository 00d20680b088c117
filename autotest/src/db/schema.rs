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

/// Version 3: SPSA iterations, benchmark measurements, and what a run
/// that is not a tournament made (a datagen's positions, a bench's build).
const V3: &str = "
-- What else the run knows, as JSON: a datagen's games, positions and
-- output file; a bench's engine binary and its commit.
ALTER TABLE runs ADD COLUMN detail TEXT;
-- How the game ended, in words: for a fault, the engine at fault, the
-- fault and its detail (a dead engine's last lines of standard error).
ALTER TABLE games ADD COLUMN reason TEXT;
CREATE TABLE tune_iterations (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    -- 1 for the first iteration.
    iteration INTEGER NOT NULL,
    -- JSON objects, parameter name to value: theta after the iteration,
    -- and the change the iteration made to it.
    theta TEXT NOT NULL,
    step TEXT NOT NULL,
    -- The iteration's game pair, from theta + c*delta's side: 2 is two wins.
    r INTEGER,
    UNIQUE (run_id, iteration)
);
CREATE TABLE benchmarks (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    -- bench-pvs, bench-mcts (leiserchess bench --search S), perft, evalbench.
    measure TEXT NOT NULL CHECK (measure IN ('bench-pvs', 'bench-mcts', 'perft', 'evalbench')),
    -- 1, 2, ...: the repetitions of one record, for its run-to-run spread.
    round INTEGER NOT NULL,
    -- bench: the signature (nodes for pvs, the tree signature for mcts);
    -- perft: the leaf count.
    signature INTEGER,
    nodes INTEGER,
    seconds REAL NOT NULL,
    -- Nodes per second (bench, perft's leaves) or evaluations per second.
    rate REAL,
    UNIQUE (run_id, measure, round)
);
";

/// Version 4: the games' W/D/L columns by run, an index that covers the
/// count of a run's results (the runs list, `autotest runs`, the
/// dashboard's start-up count) so that it reads the index alone, not the
/// game rows with their PGN.
const V4: &str = "
CREATE INDEX games_results ON games (run_id, white, black, result);
";

/// Every step, in order.
pub const STEPS: &[&str] = &[V1, V2, V3, V4];

/// The version this program writes.
pub const LATEST: usize = STEPS.len();

pub fn migrations() -> Migrations<'static> {
    Migrations::new(STEPS.iter().map(|s| M::up(s)).collect())
}
