//! What the results database records besides tournaments: `autotest
//! tune`'s run and its iterations (a resumed tune included, one an older
//! autotest recorded beside its state file taken over, and a tune that
//! goes on without an unavailable database), `autotest
//! bench-record`'s measurements (its parsers on the engine's real
//! outputs, and a record end to end), and `autotest report`'s tables on
//! seeded rows, checked against `autotest stats`.

use crate::common::{programs::leiserchess, scratch};
use autotest::db::bench::{self, Measurement};
use autotest::db::open;
use autotest::db::text_enums::{Measure, TextEnum};
use rusqlite::Connection;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn autotest(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_autotest"))
        .args(args)
        .current_dir(cwd)
        .env_remove("AUTOTEST_DB")
        .env_remove(open::BUSY_ENV)
        .output()
        .expect("run autotest")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A short tune of the real engine (two parameters, 200 nodes a move)
/// for `iterations` pairs in `dir`, recorded in `db`.
fn tune(dir: &Path, iterations: &str, db: &str) -> (String, String) {
    tune_in(dir, iterations, &["-db", db], &[])
}

/// `tune`'s tune with the flags `extra` and the environment `env`.
fn tune_in(
    dir: &Path,
    iterations: &str,
    extra: &[&str],
    env: &[(&str, &Path)],
) -> (String, String) {
    let engine = format!("cmd={}", leiserchess().display());
    let book = format!(
        "file={}",
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("openings.txt")
            .display()
    );
    let args = [
        "tune",
        "-engine",
        &engine,
        "-each",
        "nodes=200",
        "option.Search=pvs",
        "-openings",
        &book,
        "-param",
        "name=lmr_r1",
        "start=5",
        "min=1",
        "max=100",
        "c=2",
        "-param",
        "name=aspiration",
        "start=25",
        "min=0",
        "max=1000",
        "c=10",
        "-iterations",
        iterations,
        "-concurrency",
        "1",
        "-out",
        "tuned.txt",
        "-state",
        "state.txt",
    ];
    let out = Command::new(env!("CARGO_BIN_EXE_autotest"))
        .args(args.iter().chain(extra))
        .current_dir(dir)
        .env_remove("AUTOTEST_DB")
        .env_remove(open::BUSY_ENV)
        .envs(env.iter().copied())
        .output()
        .expect("run autotest tune");
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stdout}{stderr}");
    (stdout, stderr)
}

/// `NAME VALUE` lines (the -out and -state files).
fn values(path: &Path) -> Vec<(String, f64)> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("iteration "))
        .map(|l| {
            let (k, v) = l.rsplit_once(' ').unwrap();
            (k.to_string(), v.parse().unwrap())
        })
        .collect()
}

/// (iteration, theta, step, r) of one tune iteration.
type Iteration = (i64, Value, Value, i64);

/// Run `run`'s iterations, in order.
fn iterations(conn: &Connection, run: i64) -> Vec<Iteration> {
    let mut stmt = conn
        .prepare(
            "SELECT iteration, theta, step, r FROM tune_iterations WHERE run_id = ?1
             ORDER BY iteration",
        )
        .unwrap();
    stmt.query_map([run], |r| {
        let json = |i| -> rusqlite::Result<Value> {
            Ok(serde_json::from_str(&r.get::<_, String>(i)?).unwrap())
        };
        Ok((r.get(0)?, json(1)?, json(2)?, r.get(3)?))
    })
    .unwrap()
    .collect::<Result<_, _>>()
    .unwrap()
}

/// (id, kind, status) of every run.
fn runs(conn: &Connection) -> Vec<(i64, String, String)> {
    let mut stmt = conn
        .prepare("SELECT id, kind, status FROM runs ORDER BY id")
        .unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// Each pair's r, from the trajectory lines (`iteration K/N: +R ...`).
fn printed_r(stdout: &str) -> Vec<i64> {
    stdout
        .lines()
        .filter(|l| l.starts_with("iteration "))
        .map(|l| l.split_whitespace().nth(2).unwrap().parse().unwrap())
        .collect()
}

/// Theta as the state file has it, and as the result file rounds it,
/// must be the last recorded iteration's; each step the difference of
/// the thetas around it.
fn check_against_files(dir: &Path, rows: &[Iteration]) {
    let (_, last, _, _) = rows.last().unwrap();
    for (name, v) in values(&dir.join("state.txt")) {
        assert_eq!(last[&name].as_f64(), Some(v), "{name}: {last}");
    }
    for (name, v) in values(&dir.join("tuned.txt")) {
        assert_eq!(last[&name].as_f64().unwrap().round(), v, "{name}: {last}");
    }
    let start = serde_json::json!({"lmr_r1": 5.0, "aspiration": 25.0});
    let mut before = &start;
    for (n, theta, step, _) in rows {
        for name in ["lmr_r1", "aspiration"] {
            let change = theta[name].as_f64().unwrap() - before[name].as_f64().unwrap();
            let recorded = step[name].as_f64().unwrap();
            assert!((change - recorded).abs() < 1e-9, "iteration {n}: {name}");
        }
        before = theta;
    }
}

#[test]
fn a_tune_records_its_run_and_each_iteration() {
    let dir = scratch::dir("db_records/tune");
    let (stdout, _) = tune(&dir, "2", "lab.db");
    let conn = Connection::open(dir.join("lab.db")).unwrap();
    let all = runs(&conn);
    assert_eq!(all.len(), 1, "{all:?}");
    let (run, kind, status) = &all[0];
    assert_eq!((kind.as_str(), status.as_str()), ("tune", "finished"));
    let detail: Value = conn
        .query_row("SELECT detail FROM runs WHERE id = ?1", [run], |r| {
            r.get::<_, String>(0)
        })
        .map(|d| serde_json::from_str(&d).unwrap())
        .unwrap();
    assert_eq!(detail["params"][1]["name"], "aspiration", "{detail}");
    assert_eq!(detail["params"][1]["max"], 1000.0, "{detail}");
    assert_eq!(detail["iterations"], 2, "{detail}");
    let rows = iterations(&conn, *run);
    let numbers: Vec<i64> = rows.iter().map(|r| r.0).collect();
    assert_eq!(numbers, [1, 2]);
    let r: Vec<i64> = rows.iter().map(|r| r.3).collect();
    assert_eq!(r, printed_r(&stdout), "{stdout}");
    check_against_files(&dir, &rows);
}

/// A resumed tune goes on in its own run; an iteration recorded after the
/// state file's (a tune killed between the two writes) is replaced by the
/// one played again.
#[test]
fn a_resumed_tune_records_each_iteration_once() {
    let dir = scratch::dir("db_records/resumed_tune");
    tune(&dir, "2", "lab.db");
    let conn = Connection::open(dir.join("lab.db")).unwrap();
    let first = iterations(&conn, 1);
    conn.execute(
        "INSERT INTO tune_iterations (run_id, iteration, theta, step, r)
         VALUES (1, 3, '{\"lmr_r1\": -1}', '{}', 9)",
        [],
    )
    .unwrap();
    let (stdout, _) = tune(&dir, "4", "lab.db");
    assert_eq!(printed_r(&stdout).len(), 2, "{stdout}");
    let all = runs(&conn);
    assert_eq!(all, [(1, "tune".to_string(), "finished".to_string())]);
    let rows = iterations(&conn, 1);
    let numbers: Vec<i64> = rows.iter().map(|r| r.0).collect();
    assert_eq!(numbers, [1, 2, 3, 4]);
    assert_eq!(rows[..2], first[..]);
    let r: Vec<i64> = rows[2..].iter().map(|r| r.3).collect();
    assert_eq!(r, printed_r(&stdout), "{stdout}");
    check_against_files(&dir, &rows);
}

/// A tune recorded in `lab.db` beside its state file (an older
/// autotest's default) and resumed without `-db`: the per-user database
/// takes its run over with its iterations and goes on in it; the older
/// file is left as it was.
#[test]
fn a_tune_recorded_beside_its_state_file_is_taken_over() {
    let dir = scratch::dir("db_records/tune_take_over");
    let old = dir.join("lab.db");
    tune_in(&dir, "2", &[], &[("AUTOTEST_DB", &old)]);
    let old_conn = Connection::open(&old).unwrap();
    let first = iterations(&old_conn, 1);
    assert_eq!(first.len(), 2);
    let data = dir.join("data");
    let (stdout, stderr) = tune_in(&dir, "4", &[], &[("XDG_DATA_HOME", &data)]);
    assert!(
        stderr.contains(&format!(
            "run 1 of {} (where an older autotest recorded it) goes on as run 1",
            old.display()
        )),
        "{stderr}"
    );
    let conn = Connection::open(data.join("leiserchess/lab.db")).unwrap();
    assert_eq!(
        runs(&conn),
        [(1, "tune".to_string(), "finished".to_string())]
    );
    let rows = iterations(&conn, 1);
    let numbers: Vec<i64> = rows.iter().map(|r| r.0).collect();
    assert_eq!(numbers, [1, 2, 3, 4]);
    assert_eq!(rows[..2], first[..]);
    assert_eq!(printed_r(&stdout).len(), 2, "{stdout}");
    assert_eq!(iterations(&old_conn, 1), first);
    assert_eq!(runs(&old_conn).len(), 1);
}

#[test]
fn an_unavailable_database_leaves_the_tune_going() {
    let dir = scratch::dir("db_records/tune_no_db");
    let (stdout, stderr) = tune(&dir, "2", "missing/lab.db");
    let said: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("results database"))
        .collect();
    assert_eq!(said.len(), 1, "{stderr}");
    assert!(
        said[0].contains("missing/lab.db") && said[0].contains("goes on without recording"),
        "{stderr}"
    );
    assert_eq!(printed_r(&stdout).len(), 2, "{stdout}");
    assert_eq!(values(&dir.join("tuned.txt")).len(), 2);
    assert!(!dir.join("missing").exists());
}

/// A measure's short run: (measure, arguments, output).
type Captured = (Measure, Vec<&'static str>, String);

/// Small runs of each measure's command, as `bench-record` runs them
/// but shorter.
fn real_outputs() -> Vec<Captured> {
    let runs: [(Measure, Vec<&str>); 4] = [
        (Measure::BenchPvs, vec!["bench", "--search", "pvs", "3"]),
        (
            Measure::BenchMcts,
            vec!["bench", "--search", "mcts", "--playouts", "200"],
        ),
        (Measure::Perft, vec!["perft", "4"]),
        (Measure::Evalbench, vec!["evalbench", "--seconds", "0.2"]),
    ];
    runs.into_iter()
        .map(|(measure, args)| {
            let out = Command::new(leiserchess()).args(&args).output().unwrap();
            assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
            (measure, args, text(&out.stdout))
        })
        .collect()
}

/// The sum of column `key`'s numbers over the per-position lines.
fn column_sum(output: &str, key: &str) -> u64 {
    output
        .lines()
        .filter(|l| l.contains("bestmove"))
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let i = words.iter().position(|w| *w == key).unwrap();
            words[i + 1].parse::<u64>().unwrap()
        })
        .sum()
}

#[test]
fn the_parsers_read_the_engines_real_outputs() {
    for (measure, args, output) in real_outputs() {
        let m = bench::parse(measure, "leiserchess", &output)
            .unwrap_or_else(|e| panic!("{measure}: {e}\n{output}"));
        assert!(m.nodes > 0 && m.rate > 0.0, "{measure}: {m:?}");
        match measure {
            Measure::BenchPvs => {
                assert_eq!(m.nodes, column_sum(&output, "nodes"), "{output}");
                assert_eq!(m.signature, m.nodes);
            }
            Measure::BenchMcts => {
                assert_eq!(m.signature, column_sum(&output, "signature"), "{output}");
                assert_eq!(m.nodes, column_sum(&output, "playouts"), "{output}");
            }
            Measure::Perft => {
                // The plain oracle counts the same leaves.
                let plain = Command::new(leiserchess())
                    .args([args[0], args[1], "--plain"])
                    .output()
                    .unwrap();
                let first = text(&plain.stdout);
                let leaves = first.lines().next().unwrap().split_whitespace().nth(2);
                assert_eq!(leaves, Some(m.signature.to_string().as_str()), "{first}");
            }
            Measure::Evalbench => {
                let checksum = output.lines().next().unwrap().split_whitespace().nth(3);
                assert_eq!(checksum, Some(m.signature.to_string().as_str()));
                // evals/s is the evaluations over the time, to rounding.
                let rate = m.nodes as f64 / m.seconds;
                assert!((rate / m.rate - 1.0).abs() < 0.01, "{m:?}");
            }
        }
        // The summary line cut: an error naming the command.
        let cut = output
            .replace("nodes ", "nodes x")
            .replace("signature ", "x ")
            .replace("info time", "x")
            .replace("evals/s", "x");
        let e = bench::parse(measure, "leiserchess X", &cut).unwrap_err();
        assert!(e.starts_with("`leiserchess X`: "), "{measure}: {e}");
    }
}

/// A stand-in engine at `dir/leiserchess` that prints the captured real
/// outputs, `bad` in place of perft's if given.
fn replaying_engine(dir: &Path, outputs: &[Captured], bad: Option<&str>) -> PathBuf {
    for (measure, _, output) in outputs {
        let output = match (*measure, bad) {
            (Measure::Perft, Some(b)) => b.to_string(),
            _ => output.clone(),
        };
        std::fs::write(dir.join(format!("{measure}.out")), output).unwrap();
    }
    let script = format!(
        "#!/bin/sh\ncd '{}'\ncase \"$1 $3\" in\n  'bench pvs') cat bench-pvs.out ;;\n  'bench mcts') cat bench-mcts.out ;;\n  perft*) cat perft.out ;;\n  *) cat evalbench.out ;;\nesac\n",
        dir.display()
    );
    let path = dir.join("leiserchess");
    std::fs::write(&path, script).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    text(&out.stdout).trim().to_string()
}

#[test]
fn bench_record_records_every_measure_and_round() {
    let dir = scratch::dir("db_records/bench_record");
    let outputs = real_outputs();
    let engine = replaying_engine(&dir, &outputs, None);
    let engine_arg = engine.display().to_string();
    let args = [
        "bench-record",
        "-engine",
        &engine_arg,
        "-rounds",
        "2",
        "-db",
        "lab.db",
    ];
    let out = autotest(&args, &dir);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    let conn = Connection::open(dir.join("lab.db")).unwrap();
    assert_eq!(
        runs(&conn),
        [(1, "bench".to_string(), "finished".to_string())]
    );
    let detail: Value = conn
        .query_row("SELECT detail FROM runs", [], |r| r.get::<_, String>(0))
        .map(|d| serde_json::from_str(&d).unwrap())
        .unwrap();
    let keys: Vec<&String> = detail.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["commit", "dirty", "engine"], "{detail}");
    assert_eq!(detail["engine"], engine_arg);
    let head = git(&dir, &["rev-parse", "HEAD"]);
    let head = Some(head.as_str()).filter(|h| !h.is_empty());
    assert_eq!(detail["commit"].as_str(), head, "{detail}");
    let dirty = !git(&dir, &["status", "--porcelain", "--untracked-files=no"]).is_empty();
    assert_eq!(detail["dirty"], dirty && head.is_some(), "{detail}");
    let mut stmt = conn
        .prepare(
            "SELECT measure, round, signature, nodes, seconds, rate FROM benchmarks
             ORDER BY round, rowid",
        )
        .unwrap();
    let rows: Vec<(Measure, i64, Measurement)> = stmt
        .query_map([], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                Measurement {
                    signature: r.get::<_, i64>(2)? as u64,
                    nodes: r.get::<_, i64>(3)? as u64,
                    seconds: r.get(4)?,
                    rate: r.get(5)?,
                },
            ))
        })
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(rows.len(), 8);
    for (i, (measure, round, m)) in rows.iter().enumerate() {
        assert_eq!(*measure, Measure::ALL[i % 4]);
        assert_eq!(*round, 1 + i as i64 / 4);
        let (_, _, output) = outputs.iter().find(|o| o.0 == *measure).unwrap();
        assert_eq!(Ok(m), bench::parse(*measure, "-", output).as_ref());
        let line = stdout
            .lines()
            .find(|l| l.starts_with(&format!("| {measure} | 2 | ")))
            .unwrap_or_else(|| panic!("{stdout}"));
        let rate = format!("| {:.0} {}", m.rate, bench::unit(*measure));
        assert!(line.contains(&rate), "{line}");
        assert!(line.ends_with(&format!("| {} |", m.signature)), "{line}");
    }
}

#[test]
fn an_unreadable_bench_output_names_the_command_and_the_line() {
    let dir = scratch::dir("db_records/bench_bad");
    let engine = replaying_engine(&dir, &real_outputs(), Some("perft 5 many\n"));
    let engine_arg = engine.display().to_string();
    let args = [
        "bench-record",
        "-engine",
        &engine_arg,
        "-rounds",
        "1",
        "-db",
        "lab.db",
    ];
    let out = autotest(&args, &dir);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let wanted = format!(
        "{engine_arg} perft 5 --fen '{}' --threads 1",
        bench::PERFT_FEN
    );
    assert!(stderr.contains(&format!("`{wanted}`")), "{stderr}");
    assert!(stderr.contains("'perft 5 many'"), "{stderr}");
    let conn = Connection::open(dir.join("lab.db")).unwrap();
    assert_eq!(
        runs(&conn),
        [(1, "bench".to_string(), "failed".to_string())]
    );
    let measured: i64 = conn
        .query_row("SELECT COUNT(*) FROM benchmarks", [], |r| r.get(0))
        .unwrap();
    assert_eq!(measured, 2, "the two bench measures before perft");
}
/// The games of colour-swapped pairs that score, for the first player
/// `a` against `b`, `penta[k]` pairs of k half-points each.
fn pairs_scoring(penta: [u64; 5]) -> Vec<(&'static str, &'static str, &'static str)> {
    // a's results (as White, then as Black) for each pair score.
    const GAMES: [[&str; 2]; 5] = [
        ["0-1", "1-0"],
        ["0-1", "1/2-1/2"],
        ["1/2-1/2", "1/2-1/2"],
        ["1-0", "1/2-1/2"],
        ["1-0", "0-1"],
    ];
    let mut games = Vec::new();
    for (k, n) in penta.iter().enumerate() {
        for _ in 0..*n {
            games.push(("a", "b", GAMES[k][0]));
            games.push(("b", "a", GAMES[k][1]));
        }
    }
    games
}

/// A run of `kind` with `engines` (names), its games.
fn seed_run(
    conn: &Connection,
    kind: &str,
    engines: &[&str],
    sprt: Option<&str>,
    repeat: bool,
    games: &[(&str, &str, &str)],
) -> i64 {
    let engines: Vec<Value> = engines
        .iter()
        .map(|n| serde_json::json!({"name": n}))
        .collect();
    conn.execute(
        "INSERT INTO runs (kind, command, engines, title, time_control, repeat, sprt, seed,
             status, started)
         VALUES (?1, '[]', ?2, 'seeded', 'tc=10+0.1', ?3, ?4, 1, 'stopped', 1000)",
        rusqlite::params![kind, Value::from(engines).to_string(), repeat, sprt],
    )
    .unwrap();
    let run = conn.last_insert_rowid();
    for (i, (white, black, result)) in games.iter().enumerate() {
        conn.execute(
            "INSERT INTO games (run_id, schedule_index, pair, opening, white, black, result,
                 termination)
             VALUES (?1, ?2, ?3, ?3, ?4, ?5, ?6, 'normal')",
            rusqlite::params![run, i as i64, (i / 2) as i64, white, black, result],
        )
        .unwrap();
    }
    run
}

/// `autotest stats ARGS`: its Elo as the report shows it (`+E (+L ..
/// +H)`), and its `LLR V [LO, HI]` if it has an SPRT.
fn stats(args: &[&str]) -> (String, Option<String>) {
    let out = autotest(&[&["stats"], args].concat(), Path::new("."));
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let elo = stdout
        .lines()
        .find_map(|l| l.strip_prefix("Elo "))
        .unwrap_or_else(|| panic!("{stdout}"))
        .replace("(95% interval ", "(");
    let llr = stdout.lines().find_map(|l| {
        let (_, rest) = l.split_once("LLR ")?;
        Some(rest.rsplit_once(' ')?.0.to_string())
    });
    (elo, llr)
}

#[test]
fn report_tables_match_autotest_stats() {
    let dir = scratch::dir("db_records/report");
    let conn = open::open(&dir.join("lab.db")).unwrap();
    let penta = [1, 2, 3, 4, 2];
    let sprt = r#"{"elo0": 0, "elo1": 5, "alpha": 0.05, "beta": 0.05}"#;
    let games = pairs_scoring(penta);
    let sprt_run = seed_run(&conn, "sprt", &["a", "b"], Some(sprt), true, &games);
    let wdl = |games: &[(&str, &str, &str)]| {
        let mut n = [0; 3];
        for (white, _, result) in games {
            let won = if *white == "a" { "1-0" } else { "0-1" };
            n[match *result {
                r if r == won => 0,
                "1/2-1/2" => 1,
                _ => 2,
            }] += 1;
        }
        n
    };
    let [w, d, l] = wdl(&games);
    let matchup: Vec<(&str, &str, &str)> = [("a", "b", "1-0"); 3]
        .into_iter()
        .chain([("b", "a", "1/2-1/2"); 2])
        .chain([("b", "a", "1-0")])
        .collect();
    let tournament = seed_run(&conn, "tournament", &["a", "b"], None, false, &matchup);
    conn.execute(
        "INSERT INTO runs (kind, command, engines, title, repeat, seed, status, started, detail)
         VALUES ('tune', '[]', '[{\"name\": \"t\"}]', 'autotest tune', 1, 1, 'finished', 900,
             '{\"iterations\": 10}')",
        [],
    )
    .unwrap();
    let tune = conn.last_insert_rowid();
    for (n, theta) in [(1, 1.5), (2, 2.25)] {
        conn.execute(
            "INSERT INTO tune_iterations (run_id, iteration, theta, step, r)
             VALUES (?1, ?2, ?3, '{}', 1)",
            rusqlite::params![tune, n, format!("{{\"x\": {theta}}}")],
        )
        .unwrap();
    }
    conn.execute(
        "INSERT INTO runs (kind, command, engines, title, repeat, seed, status, started,
             cpu_model, cores, detail)
         VALUES ('bench', '[]', '[]', 'autotest bench-record', 0, 0, 'finished', 800, 'cpu', 2,
             '{\"commit\": \"abc\", \"dirty\": true, \"engine\": \"/e\"}')",
        [],
    )
    .unwrap();
    let bench_run = conn.last_insert_rowid();
    for (round, rate) in [(1, 100.0), (2, 300.0), (3, 200.0)] {
        conn.execute(
            "INSERT INTO benchmarks (run_id, measure, round, signature, nodes, seconds, rate)
             VALUES (?1, 'bench-pvs', ?2, 77, 1000, ?3, ?4)",
            rusqlite::params![bench_run, round, 1000.0 / rate, rate],
        )
        .unwrap();
    }
    drop(conn);
    let out = autotest(&["report", "-db", "lab.db"], &dir);
    let report = text(&out.stdout);
    assert!(out.status.success(), "{report}{}", text(&out.stderr));

    let p: Vec<String> = penta.iter().map(u64::to_string).collect();
    let p: Vec<&str> = p.iter().map(String::as_str).collect();
    let (elo, llr) = stats(&[&["--penta"], &p[..], &["--sprt", "0", "5", "0.05", "0.05"]].concat());
    let line = report
        .lines()
        .find(|l| l.starts_with(&format!("| {sprt_run} | a vs b |")))
        .unwrap_or_else(|| panic!("{report}"));
    assert!(
        line.contains(&format!("| {} | {w}/{d}/{l} |", w + d + l)),
        "{line}"
    );
    assert!(line.contains(&format!("| {} |", p.join(" "))), "{line}");
    assert!(line.contains(&format!("| {} |", llr.unwrap())), "{line}");
    assert!(line.ends_with(&format!("| {elo} |")), "{line}");

    let [w, d, l] = wdl(&matchup);
    let (elo, _) = stats(&["--wdl", &w.to_string(), &d.to_string(), &l.to_string()]);
    let line = report
        .lines()
        .find(|l| l.starts_with(&format!("| {tournament} | tournament |")) && l.contains("| a |"))
        .unwrap_or_else(|| panic!("{report}"));
    assert!(line.contains(&format!("| {w}/{d}/{l} |")), "{line}");
    assert!(line.ends_with(&format!("| {elo} |")), "{line}");

    assert!(
        report.contains(&format!("| {tune} |")) && report.contains("| 2/10 | x 2.25 |"),
        "{report}"
    );
    assert!(
        report.contains("commit abc (with uncommitted changes)"),
        "{report}"
    );
    assert!(
        report.contains("| bench-pvs | 3 | 200 nodes/s | 100 .. 300 | 5.000 | 77 |"),
        "{report}"
    );
}
