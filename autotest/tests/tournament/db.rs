//! The results database end to end with the scripted fake engines: the
//! schema made and migrated, a run's games recorded exactly as its PGN
//! file has them (after a kill and `-resume` too, and with two runs
//! writing at once), `autotest show` printing the run's own table, `-db
//! none`, the per-user database found by every subcommand without `-db`
//! (a course config's run too),
//! a resumed run an older autotest recorded beside its PGN file taken over
//! by it, and every way the database can be unavailable (a disk that
//! fills up mid-run too) reported in one line while the PGN file is still
//! written in full.

use crate::common::{
    fake::{fake, pid_dir},
    programs::strings,
    scratch,
};
use autotest::db::{open, schema};
use autotest::pgn::read as pgn_read;
use rusqlite::Connection;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// (game number, White, Black, result) of a game.
type Game = (i64, String, String, String);

/// The per-user database of a run in `cwd`: `command` makes
/// `XDG_DATA_HOME` `cwd/data`.
fn per_user(cwd: &Path) -> PathBuf {
    cwd.join("data/leiserchess/lab.db")
}

fn command(args: &[String], cwd: &Path, env: &[(&str, &str)]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_autotest"));
    cmd.args(args)
        .current_dir(cwd)
        .env_remove("AUTOTEST_DB")
        .env("XDG_DATA_HOME", cwd.join("data"))
        .env_remove(open::BUSY_ENV)
        .envs(env.iter().copied());
    cmd
}

fn autotest(args: &[String], cwd: &Path, env: &[(&str, &str)]) -> Output {
    command(args, cwd, env).output().expect("run autotest")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fake in `mode` named `name`.
fn engine(name: &str, mode: &str, pids: &Path) -> Vec<String> {
    let cmd = format!("cmd={} {mode} {}", fake().display(), pids.display());
    strings(&["-engine", &cmd, &format!("name={name}")])
}

/// `a` (good) against `b` (in `b_mode`), `games` games two at once, into
/// `pgn`, with `extra` flags.
fn flags(pids: &Path, b_mode: &str, games: u32, pgn: &Path, extra: &[&str]) -> Vec<String> {
    let mut args = engine("a", "good", pids);
    args.extend(engine("b", b_mode, pids));
    args.extend(strings(&["-each", "tc=60+0", "-concurrency", "2"]));
    args.extend(strings(&["-games", &games.to_string()]));
    args.extend(strings(&["-pgnout", &pgn.to_string_lossy()]));
    args.extend(strings(extra));
    args
}

/// The games of a PGN file, by number (`Round "R.N"`).
fn pgn_games(pgn: &Path) -> Vec<Game> {
    let mut games: Vec<Game> = pgn_read::read(pgn)
        .expect("the PGN file")
        .iter()
        .map(|g| {
            let round = g.tag("Round").unwrap_or("-");
            let n = round.split_once('.').and_then(|(_, n)| n.parse().ok());
            (
                n.unwrap_or_else(|| panic!("Round {round}")),
                g.tag("White").unwrap_or("-").to_string(),
                g.tag("Black").unwrap_or("-").to_string(),
                g.result().unwrap_or("none").to_string(),
            )
        })
        .collect();
    games.sort();
    games
}

fn connect(db: &Path) -> Connection {
    Connection::open(db).expect("open the database")
}

/// The games of run `run`, by number.
fn db_games(db: &Path, run: i64) -> Vec<Game> {
    let conn = connect(db);
    let mut stmt = conn
        .prepare(
            "SELECT schedule_index, white, black, result FROM games
             WHERE run_id = ?1 ORDER BY schedule_index",
        )
        .unwrap();
    stmt.query_map([run], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// (id, status, PGN path) of every run, by id.
fn runs(db: &Path) -> Vec<(i64, String, Option<String>)> {
    let conn = connect(db);
    let mut stmt = conn
        .prepare("SELECT id, status, pgn_path FROM runs ORDER BY id")
        .unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

fn tables(conn: &Connection) -> Vec<String> {
    let mut stmt = conn
        .prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'index') ORDER BY name")
        .unwrap();
    stmt.query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

fn version(conn: &Connection) -> i64 {
    conn.pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap()
}

#[test]
fn the_schema_is_made_from_nothing() {
    let dir = scratch::dir("db/fresh");
    let path = dir.join("lab.db");
    let conn = open::open(&path).expect("a new database");
    assert_eq!(version(&conn), schema::LATEST as i64);
    let made = tables(&conn);
    for name in [
        "runs",
        "games",
        "runs_by_start",
        "runs_by_pgn",
        "run_results",
        "tune_iterations",
        "benchmarks",
    ] {
        assert!(made.contains(&name.to_string()), "{made:?}");
    }
    let mode: String = conn
        .pragma_query_value(None, "journal_mode", |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
}

#[test]
fn a_first_version_database_is_migrated_with_its_rows() {
    let dir = scratch::dir("db/migrate");
    let path = dir.join("lab.db");
    {
        let conn = connect(&path);
        conn.execute_batch(schema::STEPS[0]).unwrap();
        conn.pragma_update(None, "user_version", 1).unwrap();
        conn.execute(
            "INSERT INTO runs (kind, command, engines, title, repeat, seed, status, started)
             VALUES ('tournament', '[\"autotest\"]', '[{\"name\":\"a\"},{\"name\":\"b\"}]',
                     'old', 1, 1, 'finished', 1)",
            [],
        )
        .unwrap();
        conn.execute(
            "INSERT INTO games (run_id, schedule_index, pair, opening, white, black, result,
                 termination)
             VALUES (1, 1, 0, 0, 'a', 'b', '1-0', 'normal')",
            [],
        )
        .unwrap();
        assert!(!tables(&conn).contains(&"runs_by_pgn".to_string()));
    }
    let conn = open::open(&path).expect("the database migrated");
    assert_eq!(version(&conn), schema::LATEST as i64);
    assert!(tables(&conn).contains(&"runs_by_pgn".to_string()));
    drop(conn);
    assert_eq!(runs(&path).len(), 1);
    assert_eq!(
        db_games(&path, 1),
        [(1, "a".into(), "b".into(), "1-0".into())]
    );
    // Version 4 counted the games it found.
    let counted: (i64, String, String, String, i64) = connect(&path)
        .query_row("SELECT * FROM run_results", [], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
        })
        .unwrap();
    assert_eq!(counted, (1, "a".into(), "b".into(), "1-0".into(), 1));
}

/// A run without `-db` records the games of its PGN file in the per-user
/// database, where `autotest runs` lists it and `autotest show` prints
/// the table the run printed at its end (an SPRT's line included), both
/// without `-db`; nothing is written beside the PGN file.
#[test]
fn a_run_records_its_pgn_games_and_show_prints_its_table() {
    let dir = scratch::dir("db/record");
    let pids = pid_dir("db_record");
    let pgn = dir.join("games.pgn");
    let sprt = ["-sprt", "elo0=0", "elo1=50"];
    let out = autotest(&flags(&pids, "illegal", 6, &pgn, &sprt), &dir, &[]);
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains("results database"), "{stderr}");
    assert!(!dir.join("lab.db").exists());
    let db = per_user(&dir);
    let found = runs(&db);
    assert_eq!(found.len(), 1, "{found:?}");
    let (id, status, path) = &found[0];
    assert_eq!(path.as_deref(), std::path::absolute(&pgn).unwrap().to_str());
    // An SPRT's decision may end it before the sixth game.
    let games = pgn_games(&pgn);
    assert!(!games.is_empty() && games.len() <= 6, "{games:?}");
    assert_eq!(db_games(&db, *id), games);
    let table = text(&out.stdout);
    assert!(table.contains("SPRT elo0 0 elo1 50"), "{table}");
    let decided = if table.contains("H1") {
        "H1"
    } else {
        "finished"
    };
    assert_eq!(status, decided, "{table}");

    let show = autotest(&strings(&["show", &id.to_string()]), &dir, &[]);
    assert!(show.status.success(), "{}", text(&show.stderr));
    assert_eq!(text(&show.stdout), table);

    let list = autotest(&strings(&["runs"]), &dir, &[]);
    let listed = text(&list.stdout);
    let line = listed.lines().nth(1).unwrap_or("");
    let wdl = format!("{}/0/0", games.len());
    for word in ["sprt", decided, "a vs b", "tc=60+0", &wdl] {
        assert!(line.contains(word), "{word}: {listed}");
    }
}

/// A course config file's run, which has no `-db`, is recorded in the
/// per-user database too, not beside its `CONFIG.pgn`.
#[test]
fn a_course_config_run_is_recorded_in_the_per_user_database() {
    let dir = scratch::dir("db/course");
    let pids = pid_dir("db_course");
    let player = |name: &str| {
        format!(
            "player = {name}\ninvoke = {} good {}\nfis = 60 0\n",
            fake().display(),
            pids.display()
        )
    };
    let config = dir.join("lab.txt");
    let settings = format!("cpus = 2\ngame_rounds = 2\n{}{}", player("a"), player("b"));
    std::fs::write(&config, settings).unwrap();
    let out = autotest(&strings(&[&config.to_string_lossy()]), &dir, &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(!dir.join("lab.db").exists());
    let pgn = std::path::absolute(dir.join("lab.pgn")).unwrap();
    let found = runs(&per_user(&dir));
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].2.as_deref(), pgn.to_str());
    assert_eq!(db_games(&per_user(&dir), found[0].0).len(), 2);
    let list = autotest(&strings(&["runs"]), &dir, &[]);
    assert!(
        text(&list.stdout).contains("a vs b"),
        "{}",
        text(&list.stdout)
    );
}

/// Waits until `pgn` holds at least `n` games (at most 60 s).
fn wait_for_games(pgn: &Path, n: usize, child: &mut Child) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let text = std::fs::read_to_string(pgn).unwrap_or_default();
        if text.matches("[Event ").count() >= n {
            return;
        }
        assert!(child.try_wait().unwrap().is_none(), "the run ended early");
        assert!(
            Instant::now() < deadline,
            "no {n} games in {}",
            pgn.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A run killed with SIGKILL and resumed: the database holds the games of
/// the PGN file, each once, in the first run's row, even a game the kill
/// kept from the database.
#[test]
fn a_killed_run_resumed_keeps_one_row_with_the_pgn_games() {
    let dir = scratch::dir("db/resume");
    let pids = pid_dir("db_resume");
    let pgn = dir.join("games.pgn");
    let args = flags(&pids, "slow:40", 10, &pgn, &[]);
    let mut child = command(&args, &dir, &[])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start autotest");
    wait_for_games(&pgn, 3, &mut child);
    child.kill().expect("SIGKILL");
    child.wait().unwrap();
    let db = per_user(&dir);
    let before = runs(&db);
    assert_eq!(before.len(), 1);
    let (id, status, _) = before[0].clone();
    assert_eq!(status, "running");
    // As if the kill came between the PGN's write and the database's.
    let last = db_games(&db, id).last().expect("a game recorded").0;
    connect(&db)
        .execute("DELETE FROM games WHERE schedule_index = ?1", [last])
        .unwrap();

    let mut resumed = args.clone();
    resumed.push("-resume".to_string());
    let out = autotest(&resumed, &dir, &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let games = pgn_games(&pgn);
    assert_eq!(games.len(), 10);
    assert_eq!(
        runs(&db),
        [(id, "finished".to_string(), before[0].2.clone())]
    );
    assert_eq!(db_games(&db, id), games);
}

/// A run recorded in `lab.db` beside its PGN file (an older autotest's
/// default), killed, and resumed without `-db`: the per-user database
/// takes the run over, its start and its games kept, and ends it with
/// the games of the PGN file; the older file is left as it was.
#[test]
fn a_run_recorded_beside_its_pgn_is_taken_over_when_resumed() {
    let dir = scratch::dir("db/take_over");
    let pids = pid_dir("db_take_over");
    let pgn = dir.join("games.pgn");
    let old = dir.join("lab.db");
    let old_env = old.to_string_lossy().into_owned();
    let args = flags(&pids, "slow:40", 10, &pgn, &[]);
    let mut child = command(&args, &dir, &[("AUTOTEST_DB", &old_env)])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start autotest");
    wait_for_games(&pgn, 3, &mut child);
    child.kill().expect("SIGKILL");
    child.wait().unwrap();
    let started = |db: &Path| -> Vec<i64> {
        let conn = connect(db);
        let mut stmt = conn.prepare("SELECT started FROM runs").unwrap();
        let rows = stmt.query_map([], |r| r.get(0)).unwrap();
        rows.collect::<Result<_, _>>().unwrap()
    };
    let before = runs(&old);
    assert_eq!(before.len(), 1);
    let (old_id, _, pgn_path) = before[0].clone();
    let old_games = db_games(&old, old_id);
    assert!(old_games.len() >= 2, "{old_games:?}");
    let old_started = started(&old);

    let mut resumed = args.clone();
    resumed.push("-resume".to_string());
    let out = autotest(&resumed, &dir, &[]);
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "run {old_id} of {} (where an older autotest recorded it) goes on as run 1",
            old.display()
        )),
        "{stderr}"
    );
    let db = per_user(&dir);
    assert_eq!(runs(&db), [(1, "finished".to_string(), pgn_path)]);
    assert_eq!(started(&db), old_started);
    let games = pgn_games(&pgn);
    assert_eq!(games.len(), 10);
    assert_eq!(db_games(&db, 1), games);
    assert_eq!(runs(&old), before);
    assert_eq!(db_games(&old, old_id), old_games);
    // Resumed again once finished, it is not taken over a second time.
    let out = autotest(&resumed, &dir, &[]);
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains("older autotest"), "{stderr}");
    assert_eq!(
        started(&db)
            .iter()
            .filter(|s| **s == old_started[0])
            .count(),
        1
    );
}

/// A run stopped by SIGTERM ends `stopped`, with the games it wrote.
#[test]
fn a_run_stopped_by_a_signal_is_stopped() {
    let dir = scratch::dir("db/signal");
    let pids = pid_dir("db_signal");
    let pgn = dir.join("games.pgn");
    let mut child = command(&flags(&pids, "slow:40", 10, &pgn, &[]), &dir, &[])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start autotest");
    wait_for_games(&pgn, 2, &mut child);
    let sent = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("run kill");
    assert!(sent.success());
    child.wait().unwrap();
    let db = per_user(&dir);
    let found = runs(&db);
    assert_eq!(found.len(), 1);
    let games = pgn_games(&pgn);
    assert!(games.len() < 10, "{games:?}");
    assert_eq!(found[0].1, "stopped");
    assert_eq!(db_games(&db, found[0].0), games);
}

#[test]
fn two_runs_at_once_share_a_database() {
    let dir = scratch::dir("db/two");
    let pids = pid_dir("db_two");
    let db = dir.join("shared.db");
    let db_flag = db.to_string_lossy().into_owned();
    let pgns = [dir.join("one.pgn"), dir.join("two.pgn")];
    let children: Vec<Child> = pgns
        .iter()
        .map(|pgn| {
            command(&flags(&pids, "good", 8, pgn, &["-db", &db_flag]), &dir, &[])
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .expect("start autotest")
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        let stderr = text(&out.stderr);
        assert!(out.status.success(), "{stderr}");
        assert!(!stderr.contains("results database"), "{stderr}");
    }
    let found = runs(&db);
    assert_eq!(found.len(), 2, "{found:?}");
    for (id, status, path) in found {
        assert_eq!(status, "finished");
        let pgn = pgns
            .iter()
            .find(|p| std::path::absolute(p).unwrap().to_str() == path.as_deref())
            .expect("a run of one of the files");
        let games = pgn_games(pgn);
        assert_eq!(games.len(), 8);
        assert_eq!(db_games(&db, id), games);
    }
}

/// A run with the database at `db` (as `-db`), `env` set: its standard
/// error says, in one line naming `db`, `what`; the PGN file has all its
/// games.
fn unavailable(test: &str, db: &Path, env: &[(&str, &str)], what: &str) {
    let dir = scratch::dir(&format!("db/{test}_run"));
    let pids = pid_dir(&format!("db_{test}"));
    let pgn = dir.join("games.pgn");
    let db_flag = db.to_string_lossy().into_owned();
    let out = autotest(
        &flags(&pids, "good", 4, &pgn, &["-db", &db_flag]),
        &dir,
        env,
    );
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let said: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("results database"))
        .collect();
    assert_eq!(said.len(), 1, "{stderr}");
    assert!(
        said[0].contains(&format!("results database {}: ", db.display())) && said[0].contains(what),
        "{stderr}"
    );
    assert!(
        stderr.contains("the run goes on without recording"),
        "{stderr}"
    );
    assert_eq!(pgn_games(&pgn).len(), 4, "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn a_file_that_is_not_a_database_is_reported() {
    let dir = scratch::dir("db/text_file");
    let db = dir.join("notes.txt");
    std::fs::write(
        &db,
        "not a database, a text file that is long enough to be read\n".repeat(20),
    )
    .unwrap();
    unavailable("not_a_db", &db, &[], "file is not a database");
}

#[test]
fn a_missing_directory_is_reported() {
    let dir = scratch::dir("db/missing_dir");
    let db = dir.join("no/such/dir/lab.db");
    unavailable("missing_dir", &db, &[], "no directory");
}

/// A directory nothing can be written in: one made read-only, or where
/// that does not stop this user (root), /proc.
fn read_only_dir(dir: &Path) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let ro = dir.join("read-only");
    std::fs::create_dir_all(&ro).unwrap();
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o555)).unwrap();
    if std::fs::write(ro.join("probe"), "").is_ok() {
        return PathBuf::from("/proc");
    }
    ro
}

#[test]
fn a_read_only_directory_is_reported() {
    let dir = scratch::dir("db/read_only");
    let db = read_only_dir(&dir).join("lab.db");
    unavailable("read_only", &db, &[], "unable to open database file");
}

#[test]
fn a_newer_schema_is_refused() {
    let dir = scratch::dir("db/newer");
    let db = dir.join("lab.db");
    drop(open::open(&db).unwrap());
    connect(&db)
        .pragma_update(None, "user_version", 999)
        .unwrap();
    unavailable(
        "newer",
        &db,
        &[],
        "schema is version 999, newer than this autotest's",
    );
    assert!(runs(&db).is_empty());
}

/// Another connection's write transaction, held past the busy timeout.
#[test]
fn a_locked_database_is_reported_after_the_timeout() {
    let dir = scratch::dir("db/locked");
    let db = dir.join("lab.db");
    drop(open::open(&db).unwrap());
    let holder = connect(&db);
    holder.execute_batch("BEGIN IMMEDIATE").unwrap();
    unavailable(
        "locked",
        &db,
        &[(open::BUSY_ENV, "200")],
        "database is locked",
    );
    holder.execute_batch("ROLLBACK").unwrap();
    assert!(runs(&db).is_empty());
}

#[test]
fn db_none_records_nothing() {
    let dir = scratch::dir("db/none");
    let pids = pid_dir("db_none");
    let pgn = dir.join("games.pgn");
    let out = autotest(&flags(&pids, "good", 2, &pgn, &["-db", "none"]), &dir, &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = autotest(
        &flags(&pids, "good", 2, &pgn, &[]),
        &dir,
        &[("AUTOTEST_DB", "none")],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(pgn_games(&pgn).len(), 2);
    let files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(files.iter().all(|f| !f.contains(".db")), "{files:?}");
    assert!(!dir.join("data").exists());
    let list = autotest(&strings(&["runs"]), &dir, &[]);
    assert_eq!(list.status.code(), Some(2));
    let said = format!(
        "runs: no results database at {} (nothing recorded without -db yet;",
        per_user(&dir).display()
    );
    assert!(text(&list.stderr).contains(&said), "{}", text(&list.stderr));
    // Without it, the database is the per-user one.
    let out = autotest(&flags(&pids, "good", 2, &pgn, &[]), &dir, &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(runs(&per_user(&dir)).len(), 1);
}

/// A disk that fills up mid-run, as a file-size limit (`ulimit -f`, the
/// signal it sends ignored) that the PGN file stays under and the
/// database's write-ahead log outgrows after a game or two: one line on
/// standard error, every game in the PGN file, the games before it in the
/// database.
#[test]
fn a_database_that_cannot_grow_mid_run_is_reported() {
    let dir = scratch::dir("db/full");
    let pids = pid_dir("db_full");
    let pgn = dir.join("games.pgn");
    let db = dir.join("lab.db");
    drop(open::open(&db).unwrap());
    let db_flag = db.to_string_lossy().into_owned();
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg("trap '' XFSZ; ulimit -f 100; exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_autotest"))
        .args(flags(
            &pids,
            "good",
            16,
            &pgn,
            &["-db", &db_flag, "-concurrency", "1"],
        ))
        .current_dir(&dir)
        .env_remove("AUTOTEST_DB");
    let out = cmd.output().expect("run autotest");
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let said: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("results database"))
        .collect();
    assert_eq!(said.len(), 1, "{stderr}");
    assert!(
        said[0].contains(&format!("results database {}: ", db.display()))
            && said[0].contains("the run goes on without recording"),
        "{stderr}"
    );
    let played = pgn_games(&pgn);
    assert_eq!(played.len(), 16, "{stderr}");
    let recorded = db_games(&db, 1);
    assert!(
        !recorded.is_empty() && recorded.len() < played.len(),
        "{} games recorded: {stderr}",
        recorded.len()
    );
    assert!(recorded.iter().all(|g| played.contains(g)));
}
