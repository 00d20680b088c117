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

/// Version 4: the lab store's datasets and nets, indexed from their
/// lineage records (`autotest data`, `autotest nets`; `store::sync`).
const V4: &str = "
CREATE TABLE artifacts (
    -- The sha256; a lost artifact's may be a prefix of 8 digits or more.
    sha256 TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('dataset', 'net')),
    -- kept: in the store; lost: known by its hash only.
    status TEXT NOT NULL CHECK (status IN ('kept', 'lost')),
    bytes INTEGER,
    -- A dataset's positions.
    positions INTEGER,
    -- The command line that made it, a JSON array of its words.
    command TEXT,
    build_commit TEXT,
    build_sha256 TEXT,
    host TEXT,
    -- Unix seconds.
    date INTEGER,
    -- The file it was registered from, or known as.
    file TEXT,
    note TEXT
);
CREATE TABLE artifact_parents (
    child TEXT NOT NULL REFERENCES artifacts (sha256) ON DELETE CASCADE,
    -- An artifact's sha256, or 'hand-written' (the hand-written evaluation).
    parent TEXT NOT NULL,
    role TEXT NOT NULL
        CHECK (role IN ('played', 'labelled', 'trained-on', 'started-from', 'baseline')),
    UNIQUE (child, parent, role)
);
CREATE INDEX artifact_parents_by_parent ON artifact_parents (parent);
";

/// Version 5: when a net became the engine's embedded default (its
/// record's `embedded`): the commit, and its date in Unix seconds.
const V5: &str = "
ALTER TABLE artifacts ADD COLUMN embedded_commit TEXT;
ALTER TABLE artifacts ADD COLUMN embedded_date INTEGER;
";

/// Version 6: each run's games counted by players and result, kept by
/// triggers as games are added and removed, so that the runs list
/// (`autotest runs`, the dashboard's) reads a few rows a run rather than
/// every game with its PGN.
const V6: &str = "
CREATE TABLE run_results (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    white TEXT NOT NULL,
    black TEXT NOT NULL,
    result TEXT NOT NULL,
    -- How many of the run's games White and Black played to that result.
    games INTEGER NOT NULL,
    PRIMARY KEY (run_id, white, black, result)
) WITHOUT ROWID;
INSERT INTO run_results (run_id, white, black, result, games)
    SELECT run_id, white, black, result, COUNT(*) FROM games
    GROUP BY run_id, white, black, result;
CREATE TRIGGER run_results_add AFTER INSERT ON games BEGIN
    INSERT INTO run_results (run_id, white, black, result, games)
        VALUES (new.run_id, new.white, new.black, new.result, 1)
        ON CONFLICT (run_id, white, black, result) DO UPDATE SET games = games + 1;
END;
CREATE TRIGGER run_results_remove AFTER DELETE ON games BEGIN
    UPDATE run_results SET games = games - 1
        WHERE run_id = old.run_id AND white = old.white AND black = old.black
            AND result = old.result;
    DELETE FROM run_results
        WHERE run_id = old.run_id AND white = old.white AND black = old.black
            AND result = old.result AND games <= 0;
END;
CREATE TRIGGER run_results_change AFTER UPDATE OF run_id, white, black, result ON games BEGIN
    UPDATE run_results SET games = games - 1
        WHERE run_id = old.run_id AND white = old.white AND black = old.black
            AND result = old.result;
    DELETE FROM run_results
        WHERE run_id = old.run_id AND white = old.white AND black = old.black
            AND result = old.result AND games <= 0;
    INSERT INTO run_results (run_id, white, black, result, games)
        VALUES (new.run_id, new.white, new.black, new.result, 1)
        ON CONFLICT (run_id, white, black, result) DO UPDATE SET games = games + 1;
END;
";

/// Version 7: `autotest loop`'s loops (a folder and its first start),
/// their generations (what each made, its SPRT and the decision) and
/// the time of each step, written by the loop as each step ends; and the
/// promotions the store's records mark, indexed with the artifacts.
const V7: &str = "
CREATE TABLE artifact_promotions (
    sha256 TEXT NOT NULL REFERENCES artifacts (sha256) ON DELETE CASCADE,
    -- The loop's folder and generation whose SPRT promoted the net.
    loop_dir TEXT NOT NULL,
    generation INTEGER NOT NULL,
    -- The net it was played against (sha256), if known.
    against TEXT,
    elo0 REAL NOT NULL,
    elo1 REAL NOT NULL,
    limits TEXT NOT NULL,
    wins INTEGER NOT NULL,
    draws INTEGER NOT NULL,
    losses INTEGER NOT NULL,
    llr REAL NOT NULL,
    -- Unix seconds.
    date INTEGER NOT NULL,
    UNIQUE (sha256, loop_dir, generation)
);
CREATE TABLE loops (
    id INTEGER PRIMARY KEY,
    -- The loop's folder, absolute.
    dir TEXT NOT NULL,
    -- The settings a restart must repeat: a JSON object, flag to value
    -- (null: not given).
    settings TEXT NOT NULL,
    -- Unix seconds: the loop's first start (a new loop in the same
    -- folder is a new row).
    started REAL NOT NULL,
    -- The best net's sha256 now; null: the engine's embedded net.
    best TEXT,
    UNIQUE (dir, started)
);
CREATE TABLE loop_generations (
    loop_id INTEGER NOT NULL REFERENCES loops (id) ON DELETE CASCADE,
    generation INTEGER NOT NULL,
    -- The best net it made its data with and played its SPRT against
    -- (sha256); null: the engine's embedded net.
    best TEXT,
    -- The sha256 of its datagen's data, and of the data relabelled.
    data TEXT,
    relabelled TEXT,
    candidate TEXT,
    -- The SPRT's run, and the candidate's wins, draws and losses, the
    -- log-likelihood ratio after its last game and the verdict.
    sprt_run INTEGER REFERENCES runs (id) ON DELETE SET NULL,
    wins INTEGER,
    draws INTEGER,
    losses INTEGER,
    llr REAL,
    verdict TEXT CHECK (verdict IN ('H1', 'H0', 'undecided')),
    decision TEXT CHECK (decision IN ('promoted', 'rejected')),
    PRIMARY KEY (loop_id, generation)
);
CREATE TABLE loop_steps (
    loop_id INTEGER NOT NULL,
    generation INTEGER NOT NULL,
    step TEXT NOT NULL CHECK (step IN ('datagen', 'relabel', 'train', 'sprt', 'decide')),
    -- How long its finished run took, and when it ended (Unix seconds).
    seconds REAL NOT NULL,
    ended REAL,
    PRIMARY KEY (loop_id, generation, step),
    FOREIGN KEY (loop_id, generation)
        REFERENCES loop_generations (loop_id, generation) ON DELETE CASCADE
);
";

/// The tables the schema's triggers keep: never written but by them.
pub const DERIVED: &[&str] = &["run_results"];

/// Every step, in order.
pub const STEPS: &[&str] = &[V1, V2, V3, V4, V5, V6, V7];

/// The version this program writes.
pub const LATEST: usize = STEPS.len();

pub fn migrations() -> Migrations<'static> {
    Migrations::new(STEPS.iter().map(|s| M::up(s)).collect())
}

#[cfg(test)]
mod tests {
    use crate::db::{open, read};
    use rusqlite::Connection;

    type Counted = Vec<(i64, String, String, String, i64)>;

    fn rows(conn: &Connection, sql: &str) -> Counted {
        let mut stmt = conn.prepare(sql).unwrap();
        let rows = stmt.query_map([], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
        });
        rows.unwrap().map(Result::unwrap).collect()
    }

    /// `run_results` as it is, and the games counted.
    fn kept_and_counted(conn: &Connection) -> (Counted, Counted) {
        let kept = rows(
            conn,
            "SELECT run_id, white, black, result, games FROM run_results ORDER BY 1, 2, 3, 4",
        );
        let counted = rows(
            conn,
            "SELECT run_id, white, black, result, COUNT(*) FROM games
             GROUP BY run_id, white, black, result ORDER BY 1, 2, 3, 4",
        );
        (kept, counted)
    }

    /// The counts the triggers keep are the games counted, whatever is
    /// done to the games (added, a duplicate ignored, removed, changed, a
    /// run removed with its games); the runs list reads them, never the
    /// games.
    #[test]
    fn the_results_kept_are_the_games_counted() {
        let path = crate::scratch::dir("run-results").join("lab.db");
        let conn = open::open(&path).unwrap();
        for id in [1, 2] {
            conn.execute(
                "INSERT INTO runs (id, kind, command, engines, title, repeat, seed, status, started)
                 VALUES (?1, 'tournament', '[]', '[{\"name\":\"a\"},{\"name\":\"b\"}]', 't', 1, 1,
                     'running', ?1)",
                [id],
            )
            .unwrap();
        }
        let add = |run: i64, n: i64, white: &str, black: &str, result: &str| {
            conn.execute(
                "INSERT OR IGNORE INTO games (run_id, schedule_index, pair, opening, white, black,
                     result, termination)
                 VALUES (?1, ?2, 0, 0, ?3, ?4, ?5, 'normal')",
                rusqlite::params![run, n, white, black, result],
            )
            .unwrap();
        };
        add(1, 1, "a", "b", "1-0");
        add(1, 2, "b", "a", "1-0");
        add(1, 3, "a", "b", "1-0");
        add(1, 3, "a", "b", "0-1");
        add(2, 1, "a", "b", "1/2-1/2");
        let (kept, counted) = kept_and_counted(&conn);
        assert_eq!(kept, counted);
        assert_eq!(kept.len(), 3, "{kept:?}");
        let listed = read::runs(&conn).unwrap();
        assert_eq!((listed[0].games, listed[0].wdl), (1, [0, 1, 0]));
        assert_eq!((listed[1].games, listed[1].wdl), (3, [2, 0, 1]));
        conn.execute(
            "DELETE FROM games WHERE run_id = 1 AND schedule_index = 2",
            [],
        )
        .unwrap();
        conn.execute(
            "UPDATE games SET result = '0-1' WHERE run_id = 1 AND schedule_index = 3",
            [],
        )
        .unwrap();
        assert_eq!(kept_and_counted(&conn).0, kept_and_counted(&conn).1);
        assert_eq!(read::runs(&conn).unwrap()[1].wdl, [1, 0, 1]);
        conn.execute("DELETE FROM runs WHERE id = 2", []).unwrap();
        let (kept, counted) = kept_and_counted(&conn);
        assert_eq!(kept, counted);
        assert!(kept.iter().all(|k| k.0 == 1), "{kept:?}");
        let mut stmt = conn
            .prepare(&format!("EXPLAIN QUERY PLAN {}", read::RUNS))
            .unwrap();
        let plan: Vec<String> = stmt
            .query_map([], |r| r.get(3))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert!(plan.iter().all(|l| !l.contains("games")), "{plan:?}");
    }
}
