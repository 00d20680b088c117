//! `autotest -slurm` against a real Slurm: the one-node cluster of
//! `scripts/slurm-local.sh` (`make test` starts it). Where no cluster
//! answers `squeue`, the tests are reported ignored (the engine package's
//! `tests/common/needs.rs`). The engines are the real one limited by
//! nodes, one thread, no book, so that every game is
//! the same wherever it is played: a run split into array tasks must give
//! the games, pentanomial counts and SPRT verdict of the same run played
//! locally one game at a time.
//!
//! One task is requeued while it plays (`scontrol requeue`): it must go on
//! from its own finished games and count each game once; the coordinator
//! is stopped then and started again on the run directory (`autotest
//! slurm watch`), and must go on where it stood. An SPRT that
//! decides early must cancel the tasks still pending or running; the time
//! that took is printed and recorded in BENCHMARKS.md.
//!
//! With `nps=REF` each task benches its node and scales the clocks by REF
//! over what it measured: a short clock at about twice the time, every
//! merged and recorded game saying so in its tags, the task's log in the
//! line after the start.
//!
//! The coordinator records the run in the per-user results database (one
//! under the test's directory): one row, left `running` while detached and
//! taken up again by `slurm watch`, its status at the end, and each game
//! of the merged PGN file once, a requeued task's games included.

use crate::common::needs::{self, Need};
use crate::common::programs::{drain, leiserchess};
use crate::common::scratch;
use crate::common::slurm::*;
use autotest::pgn::read as pgn_read;
use autotest::slurm::attempts;
use autotest::slurm::node_speed;
use autotest::slurm::run_dir::RunDir;
use autotest::slurm::scheduler;
use leiserchess::lab::data;
use libtest_mimic::Trial;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The per-user results database of `autotest_in(dir)`.
fn per_user(dir: &Path) -> PathBuf {
    dir.join("data/leiserchess/lab.db")
}

/// The one run in the database `db`: (kind, status, slurm_job_id,
/// pgn_path, detail).
fn the_run(db: &Path) -> (String, String, String, String, Option<String>) {
    let conn = rusqlite::Connection::open(db).expect("the results database");
    let runs: i64 = conn
        .query_row("SELECT COUNT(*) FROM runs", [], |r| r.get(0))
        .unwrap();
    assert_eq!(runs, 1, "{}", db.display());
    conn.query_row(
        "SELECT kind, status, COALESCE(slurm_job_id, ''), COALESCE(pgn_path, ''), detail FROM runs",
        [],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
    )
    .unwrap()
}

/// The recorded games of the one run in `db`, in schedule order: their
/// number, text (as [`stable`] has it) and LLR.
fn recorded(db: &Path) -> Vec<(usize, String, Option<f64>)> {
    let conn = rusqlite::Connection::open(db).unwrap();
    let mut stmt = conn
        .prepare("SELECT schedule_index, pgn, llr FROM games ORDER BY schedule_index")
        .unwrap();
    stmt.query_map([], |r| {
        let text: String = r.get(1)?;
        let game = pgn_read::parse(&text)
            .first()
            .map(stable)
            .unwrap_or_default();
        Ok((r.get::<_, i64>(0)? as usize, game, r.get(2)?))
    })
    .unwrap()
    .map(Result::unwrap)
    .collect()
}

/// The recorded games are the merged file's, each once and in order,
/// each with an LLR, the last the one the table ends with.
fn recorded_as_merged(db: &Path, merged: &str, table: &str) {
    let rows = recorded(db);
    let numbers: Vec<usize> = rows.iter().map(|r| r.0).collect();
    assert_eq!(numbers, (1..=rows.len()).collect::<Vec<_>>());
    let texts: Vec<String> = rows.iter().map(|r| r.1.clone()).collect();
    assert_eq!(texts, games(merged), "the recorded games differ");
    assert!(rows.iter().all(|r| r.2.is_some()), "a game without an LLR");
    let last = rows.last().and_then(|r| r.2).expect("games");
    assert!(table.contains(&format!("LLR {last:.2} ")), "{last} {table}");
}

/// The trials, each ignored (failed with `LEISERCHESS_REQUIRE_ALL=1`)
/// where no Slurm answers.
pub fn trials() -> Vec<Trial> {
    let tests: [(&str, fn()); 4] = [
        (
            "a_requeued_task_loses_nothing_and_the_merge_equals_a_local_run",
            a_requeued_task_loses_nothing_and_the_merge_equals_a_local_run,
        ),
        (
            "an_sprt_decision_cancels_the_tasks_left",
            an_sprt_decision_cancels_the_tasks_left,
        ),
        (
            "datagen_shards_play_their_own_seeds_and_merge_each_position_once",
            datagen_shards_play_their_own_seeds_and_merge_each_position_once,
        ),
        (
            "clocks_scaled_by_the_nodes_measured_speed",
            clocks_scaled_by_the_nodes_measured_speed,
        ),
    ];
    tests
        .into_iter()
        .map(|(name, run)| needs::trial(&format!("slurm::{name}"), &[Need::Slurm], move |_| run()))
        .collect()
}

fn a_requeued_task_loses_nothing_and_the_merge_equals_a_local_run() {
    let dir = scratch::dir("slurm/requeue");
    // 18 pairs in shards of 2: 9 array tasks. Wide SPRT bounds: it plays
    // on to the end. PVS's nodes (the default search reads nodes as its
    // tree's playouts).
    let args = tournament(
        "nodes=90 option.Search=pvs",
        "nodes=60 option.Search=pvs",
        18,
        20,
        "elo0=0 elo1=10 alpha=0.001 beta=0.001",
    );
    let (local_pgn, local_table) = local(&args, &dir);
    let run_dir = dir.join("run");
    let (child, lines) = coordinator(&args, &run_dir, "pairs=2 poll=0.2");
    // Requeue a task that is running and has finished one game of its
    // shard's four: it stops after the game in flight, so it has games
    // left for the run that follows the requeue (with more done, it may
    // finish its shard before it stops, and the run end without it).
    let start = Instant::now();
    let requeued = loop {
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "no task to requeue"
        );
        std::thread::sleep(Duration::from_millis(20));
        let Ok(run) = RunDir::open(&run_dir) else {
            continue;
        };
        let Some(sub) = run.submissions().unwrap().into_iter().next() else {
            continue;
        };
        let alive = scheduler::alive(std::slice::from_ref(&sub.job)).unwrap();
        let running = alive.iter().find(|a| {
            let done = finished_games(&run.shard_pgn(a.task));
            a.state == "RUNNING" && done == 1
        });
        if let Some(a) = running {
            let id = format!("{}_{}", a.job, a.task);
            let out = Command::new("scontrol")
                .args(["requeue", &id])
                .output()
                .unwrap();
            assert!(out.status.success(), "scontrol requeue {id}: {out:?}");
            break (run, a.task);
        }
    };
    // The coordinator stopped (Ctrl-C detaches it) and started again on
    // the run directory: it goes on where it stood.
    let stopped = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(stopped.success());
    let first = child.wait_with_output().expect("the coordinator");
    let said = drain(&lines);
    assert_eq!(first.status.code(), Some(130), "{said:#?}");
    assert!(said.iter().any(|l| l.contains("detached")), "{said:#?}");
    // Detached, the run goes on: it stays `running`.
    let db = per_user(&dir);
    assert_eq!(the_run(&db).1, "running");
    let out = autotest_in(&dir)
        .args(["slurm", "watch", &run_dir.to_string_lossy()])
        .output()
        .expect("autotest slurm watch");
    let said = String::from_utf8_lossy(&out.stderr);
    eprintln!("{said}");
    assert!(out.status.success(), "{said}");
    let (run, k) = requeued;
    let log = std::fs::read_to_string(run.task_log(k)).unwrap();
    assert_eq!(
        log.matches(&format!("autotest: shard {k} of 9")).count(),
        2,
        "task {k} did not run again after the requeue:\n{log}"
    );
    let merged = run.root.join("games.pgn");
    let merged_text = std::fs::read_to_string(&merged).unwrap();
    assert_eq!(games(&merged_text).len(), 36);
    assert_eq!(games(&merged_text), games(&local_pgn), "the games differ");
    assert_eq!(pentanomial(&merged), pentanomial(&dir.join("local.pgn")));
    // The same table, line for line.
    let table = String::from_utf8_lossy(&out.stdout);
    assert_eq!(table.trim(), local_table.trim());
    // One row, taken up again by `slurm watch`, with every array job.
    let (kind, status, jobs, pgn_path, _) = the_run(&db);
    assert_eq!((kind.as_str(), status.as_str()), ("sprt", "finished"));
    assert_eq!(pgn_path, merged.display().to_string());
    let ids = job_ids(&run);
    assert_eq!(jobs, ids.join(" "));
    recorded_as_merged(&db, &merged_text, &table);
}

fn an_sprt_decision_cancels_the_tasks_left() {
    let dir = scratch::dir("slurm/decided");
    // PVS against a tiny MCTS, 24 shards of one pair: the SPRT decides
    // after two thirds of them (game 32 when this was written), with
    // tasks still to run.
    let args = tournament(
        "nodes=1000 option.Search=pvs",
        "nodes=30 option.Search=mcts",
        24,
        40,
        "elo0=0 elo1=100",
    );
    let (local_pgn, local_table) = local(&args, &dir);
    assert!(local_table.contains("] H1"), "{local_table}");
    let run_dir = dir.join("run");
    let (child, lines) = coordinator(&args, &run_dir, "pairs=1 poll=0.2");
    let out = child.wait_with_output().expect("the coordinator");
    let said = drain(&lines);
    assert!(out.status.success(), "{said:#?}");
    let cancelled = said
        .iter()
        .find(|l| l.contains("cancelled") && l.contains("none left after"))
        .unwrap_or_else(|| panic!("no cancel reported: {said:#?}"));
    println!("{cancelled}");
    let run = RunDir::open(&run_dir).unwrap();
    let jobs = job_ids(&run);
    assert!(scheduler::alive(&jobs).unwrap().is_empty(), "tasks left");
    let merged = run.root.join("games.pgn");
    let merged_text = std::fs::read_to_string(&merged).unwrap();
    assert!(games(&merged_text).len() < 48);
    assert_eq!(games(&merged_text), games(&local_pgn), "the games differ");
    assert_eq!(pentanomial(&merged), pentanomial(&dir.join("local.pgn")));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        local_table.trim()
    );
    let db = per_user(&dir);
    assert_eq!(the_run(&db).1, "H1");
    recorded_as_merged(&db, &merged_text, &local_table);
}

/// The position of a datagen record: the board and the side to move.
fn position(record: &[u8]) -> Vec<u8> {
    let mut key = record[..16].to_vec();
    key.push(record[19]);
    key
}

fn datagen_shards_play_their_own_seeds_and_merge_each_position_once() {
    let dir = scratch::dir("slurm/datagen");
    let engine = leiserchess().display().to_string();
    let out = dir.join("all.bin");
    let run_dir = dir.join("run");
    let status = autotest_in(&dir)
        .args(["datagen", "-slurm", &format!("dir={}", run_dir.display())])
        .args(["tasks=3", "poll=0.2", "--", &engine, "datagen"])
        .arg(&out)
        .arg("--no-store")
        .args(["--positions", "300", "--nodes", "50", "--seed", "5"])
        .args(["--format", "2"])
        .status()
        .expect("run autotest datagen");
    assert!(status.success());
    // Shard 1 is the local datagen with seed 5 + 1 and a third of the
    // positions.
    let local = dir.join("local.bin");
    let ok = Command::new(&engine)
        .arg("datagen")
        .arg(&local)
        .arg("--no-store")
        .args([
            "--positions=100",
            "--seed=6",
            "--threads=1",
            "--nodes",
            "50",
            "--format=2",
        ])
        .status()
        .expect("run leiserchess datagen");
    assert!(ok.success());
    let run = RunDir::open(&run_dir).unwrap();
    // Each task's log opens with the line that counts its try: one start,
    // in the job that was submitted.
    let subs = run.submissions().unwrap();
    for k in 0..3 {
        let log = std::fs::read_to_string(run.task_log(k)).unwrap();
        assert!(
            log.starts_with(&attempts::start_line(k, &subs[0].job)),
            "{log}"
        );
        assert_eq!(attempts::tries(&[&subs[0].job], &log, k), (1, 1), "{log}");
    }
    let shards: Vec<Vec<u8>> = (0..3)
        .map(|k| std::fs::read(run.shard_data(k)).unwrap())
        .collect();
    assert_eq!(shards[1], std::fs::read(&local).unwrap());
    let body = |bytes: &[u8]| bytes[data::HEADER.len()..].to_vec();
    assert_ne!(
        body(&shards[0])[..20],
        body(&shards[1])[..20],
        "two shards, one seed"
    );
    // The merge: every position of the shards, once, in task order.
    let mut want: Vec<&[u8]> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let bodies: Vec<Vec<u8>> = shards.iter().map(|s| body(s)).collect();
    for r in bodies.iter().flat_map(|s| s.chunks_exact(20)) {
        if seen.insert(position(r)) {
            want.push(r);
        }
    }
    let merged = std::fs::read(&out).unwrap();
    assert_eq!(merged[..16], data::HEADER, "the merge is of version 2");
    assert_eq!(body(&merged).chunks_exact(20).collect::<Vec<_>>(), want);
    // Recorded in the per-user database: its positions, the games the
    // tasks played, the output file.
    let (kind, status, jobs, _, detail) = the_run(&per_user(&dir));
    assert_eq!((kind.as_str(), status.as_str()), ("datagen", "finished"));
    assert!(!jobs.is_empty());
    let detail: serde_json::Value = serde_json::from_str(&detail.unwrap()).unwrap();
    assert_eq!(detail["positions"], want.len());
    assert_eq!(detail["out"], out.display().to_string());
    let games = detail["games"].as_u64().unwrap();
    assert!((1..=300).contains(&games), "{detail}");
    // The same run in game chains (datagen's default; its own directory,
    // its own database): the merge is of chains and expands to the
    // records' merge.
    let chains_dir = dir.join("chains");
    std::fs::create_dir_all(&chains_dir).unwrap();
    let chains = chains_dir.join("all.bin");
    let status = autotest_in(&chains_dir)
        .args(["datagen", "-slurm"])
        .arg(format!("dir={}", chains_dir.join("run").display()))
        .args(["tasks=3", "poll=0.2", "--", &engine, "datagen"])
        .arg(&chains)
        .arg("--no-store")
        .args(["--positions", "300", "--nodes", "50", "--seed", "5"])
        .status()
        .expect("run autotest datagen");
    assert!(status.success());
    assert_eq!(data::format(&chains), Ok(data::Format::Chains));
    let expanded = chains_dir.join("expanded.bin");
    data::command::expand(&chains, &expanded).unwrap();
    assert_eq!(std::fs::read(&expanded).unwrap(), merged);
}

/// The engine's PVS bench on the cluster's node, run by Slurm as a task
/// is (the test's own niceness aside): the best of three.
fn bench_on_the_node() -> f64 {
    (0..3)
        .map(|_| {
            let out = Command::new("srun")
                .arg("--quiet")
                .arg(leiserchess())
                .args(node_speed::BENCH)
                .output()
                .expect("run srun leiserchess bench");
            assert!(out.status.success(), "{out:?}");
            node_speed::nps_of(&String::from_utf8_lossy(&out.stdout)).expect("the bench's nps")
        })
        .fold(0.0, f64::max)
}

fn clocks_scaled_by_the_nodes_measured_speed() {
    let dir = scratch::dir("slurm/node-speed");
    // Twice the node's speed as the reference: time x about 2.
    let reference = (2.0 * bench_on_the_node()).round();
    let each = "tc=1+0.01 option.Search=pvs";
    let args = tournament(each, each, 1, 8, "elo0=0 elo1=10");
    let run_dir = dir.join("run");
    let settings = format!("poll=0.2 nps={reference}");
    let (child, lines) = coordinator(&args, &run_dir, &settings);
    let out = child.wait_with_output().expect("the coordinator");
    let said = drain(&lines);
    assert!(out.status.success(), "{said:#?}");
    let run = RunDir::open(&run_dir).unwrap();
    let merged = std::fs::read_to_string(run.root.join("games.pgn")).unwrap();
    let games = pgn_read::parse(&merged);
    assert_eq!(games.len(), 2, "{merged}");
    // One task: both games at its speed, which its log gives after the
    // line that opens its start.
    let nps = games[0].tag("NodeNps").expect("NodeNps");
    let measured: f64 = nps.parse().expect("a number");
    let scale = reference / measured;
    assert!((1.25..=6.0).contains(&scale), "time x {scale}");
    let scale = format!("{scale:.3}");
    let ms = |base: f64| (base * scale.parse::<f64>().unwrap()).round() / 1000.0;
    let clock = format!("{}+{}", ms(1000.0), ms(10.0));
    for g in &games {
        let tags = ["NodeNps", "TimeScale", "TimeControl"].map(|t| g.tag(t));
        assert_eq!(tags, [Some(nps), Some(&scale), Some(&clock)], "{}", g.text);
    }
    let log = std::fs::read_to_string(run.task_log(0)).unwrap();
    let log: Vec<&str> = log.lines().collect();
    let job = &job_ids(&run)[0];
    assert!(
        log[0].starts_with(&attempts::start_line(0, job)),
        "{log:#?}"
    );
    let line =
        format!("autotest: node speed {nps} nps (bench), reference {reference}: time x {scale}");
    assert_eq!(log[1], line);
    // The database's games are the merged ones, tags and all.
    let db = per_user(&dir);
    let texts: Vec<String> = recorded(&db).into_iter().map(|r| r.1).collect();
    assert_eq!(texts, crate::common::slurm::games(&merged));
    assert!(texts
        .iter()
        .all(|t| t.contains(&format!("[TimeScale \"{scale}\"]"))));
    // A bench that fails fails the task, naming the command and what it
    // printed; with no retries the coordinator stops on it.
    let failing = format!("poll=0.2 retries=0 nps={reference} bench=nosuch");
    let (child, lines) = coordinator(&args, &dir.join("failing"), &failing);
    let out = child.wait_with_output().expect("the coordinator");
    let said = drain(&lines).join("\n");
    assert!(!out.status.success(), "{said}");
    let command = format!(
        "`{} nosuch` failed (exit status: 2)",
        leiserchess().display()
    );
    assert!(said.contains(&command), "{said}");
    assert!(said.contains("unrecognized subcommand 'nosuch'"), "{said}");
}
