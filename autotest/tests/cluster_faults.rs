//! `autotest -slurm` on a cluster that loses things mid-run: the
//! three-node cluster of `scripts/slurm-nodes.sh` (each slurmd in a
//! network namespace of its own), started here if it is not up. Each test
//! plays the same tournament (the real engine limited by nodes, one
//! thread, no book, so that every game is the same wherever it is played)
//! as a job array of 12 small shards spread over the nodes, injects one
//! fault while it runs, and checks that the merged games (moves, results,
//! tags but the date and time), the pentanomial counts and the final table
//! are those of the same schedule played here one game at a time: nothing
//! lost, nothing counted twice.
//!
//! - A node killed (`kill-node`: its slurmd and every process on it): the
//!   controller sets it down, and the shard runs again on another node,
//!   from the games its killed task finished.
//! - A node's link cut, then restored: its task lives on, unreachable,
//!   while Slurm starts the shard's next attempt elsewhere; that attempt
//!   waits for the shard's lock (`slurm::lock`) until Slurm kills the
//!   orphan once the link is back (and the node registered again), and
//!   goes on from its files.
//! - The coordinator killed (SIGKILL) and started again (`slurm watch`):
//!   the tasks go on, and nothing is submitted twice.
//! - A task's engine killed (SIGKILL) in the middle of a game: the task
//!   ends with an error naming the game and the signal, the game is not
//!   counted, and the coordinator submits the shard again.
//!
//! Each prints how long the fault took to be noticed and the shard to run
//! again, and the file prints its wall time. They need root, iproute2 and
//! Slurm; where one is missing they are reported ignored (failed with
//! `LEISERCHESS_REQUIRE_ALL=1`), as the `external` binary's `slurm::`
//! trials are. They run one at a time: they share the cluster, and a fault
//! on a node would hit another test's tasks.
//!
//! A binary of its own: the Slurm clients of this process and its
//! children, the library's calls in the process included
//! (`scheduler::alive`), talk to the multi-node cluster (`SLURM_CONF`, set
//! for the whole process), while the `external` binary's talk to the
//! one-node one.

/// The shared helpers this binary uses: autotest's
/// (`autotest/tests/common/`) and the engine's (`tests/common/`).
mod common {
    #[path = "../../../tests/common/needs.rs"]
    pub mod needs;
    pub mod programs;
    #[path = "../../../tests/common/scratch.rs"]
    pub mod scratch;
    pub mod slurm;
}

use autotest::slurm::run_dir::RunDir;
use autotest::slurm::scheduler;
use common::needs;
use common::programs::drain;
use common::scratch;
use common::slurm::*;
use libtest_mimic::{Completion, Trial};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output};
use std::sync::mpsc::Receiver;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The cluster's nodes: lc-n1 .. lc-n3.
const NODES: usize = 3;
/// Pairs in the schedule, and per shard: 12 shards of 4 games.
const PAIRS: u32 = 24;
const SHARD_GAMES: usize = 4;
const SLURM: &str = "pairs=2 poll=0.2";
/// The longest any one wait of a test may take.
const LIMIT: Duration = Duration::from_secs(120);

const NEEDS: &[needs::Need] = &[
    needs::Need::Program {
        names: &["ip"],
        get: "Debian's iproute2 (apt-get install iproute2)",
    },
    needs::Need::Program {
        names: &["slurmctld"],
        get: "`scripts/slurm-nodes.sh start` as root installs Debian's Slurm",
    },
    needs::Need::Program {
        names: &["slurmd"],
        get: "`scripts/slurm-nodes.sh start` as root installs Debian's Slurm",
    },
    needs::Need::Program {
        names: &["sbatch"],
        get: "`scripts/slurm-nodes.sh start` as root installs Debian's Slurm",
    },
];

fn main() {
    let started = Instant::now();
    let mut args = libtest_mimic::Arguments::from_args();
    args.test_threads = Some(1);
    // Every Slurm client this process and its children run talks to the
    // multi-node cluster; set before any thread starts.
    std::env::set_var("SLURM_CONF", "/etc/slurm-nodes/slurm.conf");
    let tests: [(&str, fn()); 4] = [
        (
            "a_killed_node_s_shard_runs_again_elsewhere",
            a_killed_node_s_shard_runs_again_elsewhere,
        ),
        (
            "a_cut_node_s_orphan_holds_its_shard_until_slurm_kills_it",
            a_cut_node_s_orphan_holds_its_shard_until_slurm_kills_it,
        ),
        (
            "a_killed_coordinator_started_again_goes_on",
            a_killed_coordinator_started_again_goes_on,
        ),
        (
            "an_engine_killed_mid_game_is_replayed_not_counted",
            an_engine_killed_mid_game_is_replayed_not_counted,
        ),
    ];
    let trials = tests.into_iter().map(|(n, f)| trial(n, f)).collect();
    let conclusion = libtest_mimic::run(&args, trials);
    println!(
        "cluster_faults: wall time {:.1} s",
        started.elapsed().as_secs_f64()
    );
    conclusion.exit();
}

/// Whether this process runs as root (its effective uid).
fn root() -> bool {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("Uid:"))
        .and_then(|ids| ids.split_whitespace().nth(1))
        == Some("0")
}

/// A test that needs root and [`NEEDS`]: ignored, naming what is missing,
/// or failed with `LEISERCHESS_REQUIRE_ALL=1` (as `needs::trial`).
fn trial(name: &'static str, run: fn()) -> Trial {
    Trial::ignorable_test(name, move || {
        let require = std::env::var_os(needs::REQUIRE_ALL);
        let wanted = std::env::var_os(needs::NEEDS);
        let path = std::env::var_os("PATH").unwrap_or_default();
        let settings = needs::Settings {
            require_all: require.as_deref(),
            needs: wanted.as_deref(),
        };
        let missing = match needs::verdict(NEEDS, &path, settings) {
            needs::Verdict::Fail(why) => return Err(why.into()),
            needs::Verdict::LeaveOut(why) => why,
            needs::Verdict::Run(_) if !root() => {
                "needs root (network namespaces and Slurm's daemons)".to_string()
            }
            needs::Verdict::Run(_) => {
                run();
                return Ok(Completion::Completed);
            }
        };
        if require.as_deref() == Some(OsStr::new("1")) {
            return Err(format!("{}=1 and {missing}", needs::REQUIRE_ALL).into());
        }
        eprintln!("left out: {name}: {missing}");
        Ok(Completion::ignored_with(missing))
    })
    .with_kind("needs root, ip, slurm")
}

/// `scripts/slurm-nodes.sh ARGS`, which must succeed.
fn nodes(args: &[&str]) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/slurm-nodes.sh");
    let out = Command::new(&script)
        .args(args)
        .output()
        .expect("run scripts/slurm-nodes.sh");
    let said = String::from_utf8_lossy(&out.stdout);
    eprintln!("slurm-nodes.sh {}: {}", args.join(" "), said.trim());
    assert!(
        out.status.success(),
        "scripts/slurm-nodes.sh {}: {}{}",
        args.join(" "),
        said,
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The standard output of `program args`, which must succeed.
fn run_text(program: &str, args: &[&str]) -> String {
    let out = Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program}: {e}"));
    assert!(out.status.success(), "{program} {args:?}: {out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Node `i`'s state as sinfo says it (`idle`, `down*`, ...).
fn node_state(i: usize) -> String {
    run_text(
        "sinfo",
        &["-h", "-N", "-n", &format!("lc-n{i}"), "-o", "%T"],
    )
    .trim()
    .to_string()
}

/// Polls `f` every 20 ms until it gives a value; fails naming `what`
/// after [`LIMIT`].
fn wait_for<T>(what: &str, mut f: impl FnMut() -> Option<T>) -> T {
    let start = Instant::now();
    loop {
        if let Some(v) = f() {
            return v;
        }
        assert!(start.elapsed() < LIMIT, "no {what} after {LIMIT:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Every node idle: the cluster is as a test expects it.
fn all_idle() {
    wait_for("idle cluster", || {
        (1..=NODES).all(|i| node_state(i) == "idle").then_some(())
    });
}

/// The tournament, and its local run, shared by the tests.
struct Fixture {
    args: Vec<String>,
    local_pgn: String,
    local_table: String,
    local_file: PathBuf,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        nodes(&["start", &NODES.to_string()]);
        let dir = scratch::dir("local");
        // Wide SPRT bounds: it plays on to the end. PVS's nodes (the
        // default search reads nodes as its tree's playouts).
        let args = tournament(
            "nodes=2000 option.Search=pvs",
            "nodes=1500 option.Search=pvs",
            PAIRS,
            30,
            "elo0=0 elo1=10 alpha=0.001 beta=0.001",
        );
        let (local_pgn, local_table) = local(&args, &dir);
        assert_eq!(games(&local_pgn).len(), 2 * PAIRS as usize);
        Fixture {
            args,
            local_pgn,
            local_table,
            local_file: dir.join("local.pgn"),
        }
    })
}

/// A run of the tournament on the cluster, from a fresh run directory.
struct ClusterRun {
    dir: PathBuf,
    coordinator: Child,
    lines: Receiver<String>,
    started: Instant,
}

fn start(test: &str) -> ClusterRun {
    let fx = fixture();
    all_idle();
    let dir = scratch::dir(test).join("run");
    let (coordinator, lines) = coordinator(&fx.args, &dir, SLURM);
    ClusterRun {
        dir,
        coordinator,
        lines,
        started: Instant::now(),
    }
}

impl ClusterRun {
    /// The run directory once the coordinator has made it.
    fn run_dir(&self) -> Option<RunDir> {
        RunDir::open(&self.dir).ok()
    }

    /// The first array job's tasks as squeue shows them: (task, state,
    /// node number).
    fn tasks(&self) -> Vec<(usize, String, usize)> {
        let Some(job) = self
            .run_dir()
            .and_then(|r| r.submissions().ok()?.into_iter().next())
        else {
            return Vec::new();
        };
        let text = run_text("squeue", &["-h", "-r", "-j", &job.job, "-o", "%K|%T|%N"]);
        text.lines()
            .filter_map(|l| {
                let mut f = l.trim().split('|');
                let task = f.next()?.parse().ok()?;
                let state = f.next()?.to_string();
                let node = f.next()?.strip_prefix("lc-n")?.parse().ok()?;
                Some((task, state, node))
            })
            .collect()
    }

    /// A task running with 1 or 2 of its shard's games finished (so that
    /// it has some to resume from and some left): (shard, node number).
    fn playing(&self) -> Option<(usize, usize)> {
        let run = self.run_dir()?;
        self.tasks().into_iter().find_map(|(k, state, node)| {
            let done = finished_games(&run.shard_pgn(k));
            (state == "RUNNING" && (1..=2).contains(&done)).then_some((k, node))
        })
    }

    /// Task `k`'s log.
    fn log(&self, k: usize) -> String {
        let run = self.run_dir().expect("the run directory");
        std::fs::read_to_string(run.task_log(k)).unwrap_or_default()
    }

    /// How many attempts at shard `k` have started.
    fn attempts(&self, k: usize) -> usize {
        self.log(k)
            .matches(&format!("autotest: shard {k} of "))
            .count()
    }

    /// Who holds shard `k`'s lock, as the holder wrote it.
    fn holder(&self, k: usize) -> String {
        let run = self.run_dir().expect("the run directory");
        std::fs::read_to_string(run.shard_lock(k)).unwrap_or_default()
    }

    /// Waits for the coordinator; its output, and its standard error.
    fn finish(self) -> (Output, Vec<String>, PathBuf, f64) {
        let out = self
            .coordinator
            .wait_with_output()
            .expect("the coordinator");
        let said = drain(&self.lines);
        assert!(out.status.success(), "the coordinator failed: {said:#?}");
        (out, said, self.dir, self.started.elapsed().as_secs_f64())
    }
}

/// The merged games, pentanomial counts and table of the run in `dir`
/// (its coordinator's output `out`) are the local run's.
fn equals_local(dir: &Path, out: &Output) {
    let fx = fixture();
    let merged = dir.join("games.pgn");
    let text = std::fs::read_to_string(&merged).expect("the merged PGN");
    assert_eq!(
        games(&text).len(),
        2 * PAIRS as usize,
        "games lost or doubled"
    );
    assert_eq!(games(&text), games(&fx.local_pgn), "the games differ");
    assert_eq!(pentanomial(&merged), pentanomial(&fx.local_file));
    let table = String::from_utf8_lossy(&out.stdout);
    assert_eq!(table.trim(), fx.local_table.trim());
}

/// The processes in node `i`'s namespace: (pid, command name, parent
/// pid, command line).
fn processes(i: usize) -> Vec<(u32, String, u32, String)> {
    let pids = run_text("ip", &["netns", "pids", &format!("lc-n{i}")]);
    pids.split_whitespace()
        .filter_map(|p| {
            let stat = std::fs::read_to_string(format!("/proc/{p}/stat")).ok()?;
            let (head, rest) = stat.rsplit_once(')')?;
            let comm = head.split_once('(')?.1.to_string();
            let ppid = rest.split_whitespace().nth(1)?.parse().ok()?;
            let cmdline = std::fs::read_to_string(format!("/proc/{p}/cmdline")).ok()?;
            Some((p.parse().ok()?, comm, ppid, cmdline.replace('\0', " ")))
        })
        .collect()
}

/// The shard of the run in `run` that the task with command line
/// `cmdline` (`... slurm task RUN K`) plays.
fn shard_of(cmdline: &str, run: &RunDir) -> Option<usize> {
    let task = format!(" slurm task {} ", run.root.display());
    cmdline.trim_end().split_once(&task)?.1.parse().ok()
}

/// Process `pid`'s state letter (`T` stopped), if it is there.
fn proc_state(pid: u32) -> Option<char> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat.rsplit_once(')')?
        .1
        .split_whitespace()
        .next()?
        .chars()
        .next()
}

fn signal(name: &str, pids: &[u32]) -> bool {
    let mut args = vec![format!("-{name}")];
    args.extend(pids.iter().map(u32::to_string));
    Command::new("kill")
        .args(&args)
        .status()
        .is_ok_and(|s| s.success())
}

/// Injects `fault` (a `slurm-nodes.sh` command) on `node`, where shard
/// `k` has had `attempts` attempts: the times from the fault until the
/// controller sets the node down and until the shard's next attempt.
fn fault_on_node(
    r: &ClusterRun,
    fault: &str,
    node: usize,
    k: usize,
    attempts: usize,
) -> (Duration, Duration) {
    nodes(&[fault, &node.to_string()]);
    let at = Instant::now();
    let noticed = wait_for("node set down", || {
        node_state(node).starts_with("down").then(|| at.elapsed())
    });
    let requeued = wait_for("next attempt", || {
        (r.attempts(k) > attempts).then(|| at.elapsed())
    });
    (noticed, requeued)
}

fn a_killed_node_s_shard_runs_again_elsewhere() {
    let r = start("kill-node");
    let (k, node) = wait_for("task with games left", || r.playing());
    let before = (r.attempts(k), r.holder(k));
    let (noticed, requeued) = fault_on_node(&r, "kill-node", node, k, before.0);
    let holder = wait_for("lock taken again", || {
        let h = r.holder(k);
        (!h.is_empty() && h != before.1).then_some(h)
    });
    assert!(
        !holder.contains(&format!("node lc-n{node},")),
        "shard {k} ran again on the node that was killed: {holder}"
    );
    nodes(&["revive", &node.to_string()]);
    let (out, _, dir, wall) = r.finish();
    equals_local(&dir, &out);
    println!(
        "fault kill-node lc-n{node} (shard {k}): noticed (node down) after {:.1} s, \
         requeued (next attempt running: {}) after {:.1} s; the run took {wall:.1} s",
        noticed.as_secs_f64(),
        holder.trim(),
        requeued.as_secs_f64()
    );
}

fn a_cut_node_s_orphan_holds_its_shard_until_slurm_kills_it() {
    let r = start("cut");
    // A cut task would finish its small shard long before Slurm sets its
    // node down (some 30 s here): it is stopped (SIGSTOP, with its
    // engines) so that it still plays, holding the shard's lock, when the
    // shard's next attempt starts; as a long shard or a slow node would.
    // Slurm aborts a job found on the wrong node: it continues it
    // (SIGCONT) and kills it. Were the orphan to finish its game in
    // between, the game (a 60 s move, a hang) would not be counted
    // (`interrupt::stopped_during`) and the games stay the local run's.
    let (k, node, frozen) = wait_for("task to freeze", || {
        let (k, node) = r.playing()?;
        let run = r.run_dir()?;
        let task = processes(node)
            .into_iter()
            .find(|p| p.1 == "autotest" && shard_of(&p.3, &run) == Some(k))?;
        signal("STOP", &[task.0]);
        let mut frozen = vec![task.0];
        let engines: Vec<u32> = processes(node)
            .into_iter()
            .filter(|p| p.2 == task.0)
            .map(|p| p.0)
            .collect();
        signal("STOP", &engines);
        frozen.extend(engines);
        if finished_games(&run.shard_pgn(k)) < SHARD_GAMES {
            return Some((k, node, frozen));
        }
        signal("CONT", &frozen);
        None
    });
    let before = r.attempts(k);
    let (noticed, requeued) = fault_on_node(&r, "cut", node, k, before);
    let waits = format!("autotest: shard {k} is held by another attempt (node lc-n{node},");
    wait_for("attempt waiting for the orphan", || {
        r.log(k).contains(&waits).then_some(())
    });
    nodes(&["restore", &node.to_string()]);
    let restored = Instant::now();
    let free = format!("autotest: shard {k} is free after");
    wait_for("attempt going on", || {
        r.log(k).contains(&free).then_some(())
    });
    let orphan_gone = restored.elapsed();
    wait_for("end of the orphan's processes", || {
        frozen
            .iter()
            .all(|&p| matches!(proc_state(p), None | Some('Z')))
            .then_some(())
    });
    let (out, _, dir, wall) = r.finish();
    equals_local(&dir, &out);
    println!(
        "fault cut lc-n{node} (shard {k}): noticed (node down) after {:.1} s, requeued \
         (next attempt running, waiting for the orphan's lock) after {:.1} s; orphan killed \
         and the lock free {:.1} s after the link was restored; the run took {wall:.1} s",
        noticed.as_secs_f64(),
        requeued.as_secs_f64(),
        orphan_gone.as_secs_f64()
    );
}

fn a_killed_coordinator_started_again_goes_on() {
    let mut r = start("coordinator");
    // Killed once games have come in and tasks are still to run.
    wait_for("games in and tasks left", || {
        let run = r.run_dir()?;
        let done: usize = (0..PAIRS as usize / 2)
            .map(|k| finished_games(&run.shard_pgn(k)))
            .sum();
        (done >= 8 && r.tasks().len() >= 2).then_some(())
    });
    r.coordinator.kill().expect("SIGKILL the coordinator");
    let fault = Instant::now();
    let _ = r.coordinator.wait();
    let run = r.run_dir().expect("the run directory");
    let jobs = job_ids(&run);
    let alive = scheduler::alive(&jobs).unwrap();
    assert!(
        !alive.is_empty(),
        "the run ended before the coordinator was killed"
    );
    let mut watch = autotest_in(r.dir.parent().unwrap_or(&r.dir));
    watch.args(["slurm", "watch", &r.dir.to_string_lossy()]);
    let (child, lines) = spawn_reading(watch, "watch");
    let again = ClusterRun {
        dir: r.dir.clone(),
        coordinator: child,
        lines,
        started: r.started,
    };
    let (out, said, dir, wall) = again.finish();
    equals_local(&dir, &out);
    // The tasks went on without it: none was submitted again.
    let subs = run.submissions().unwrap();
    assert_eq!(subs.len(), 1, "submitted again: {subs:?} {said:#?}");
    println!(
        "fault coordinator SIGKILL: noticed: nothing to notice (the {} tasks alive went on); \
         requeued: none; `slurm watch` finished the run {:.1} s after the kill; the run took \
         {wall:.1} s",
        alive.len(),
        fault.elapsed().as_secs_f64()
    );
}

fn an_engine_killed_mid_game_is_replayed_not_counted() {
    let r = start("engine");
    // The engine is stopped first, so that the referee is waiting for its
    // move when it dies (and sees how it died): one found dead by a failed
    // write has no exit status to tell a kill from a crash (a loss).
    let (k, engine) = wait_for("engine in a game", || {
        let run = r.run_dir()?;
        for i in 1..=NODES {
            let procs = processes(i);
            let task = |pid: u32| {
                let p = procs.iter().find(|p| p.0 == pid && p.1 == "autotest")?;
                shard_of(&p.3, &run)
            };
            for e in procs.iter().filter(|p| p.1 == "leiserchess") {
                let Some(k) = task(e.2) else { continue };
                let done = finished_games(&run.shard_pgn(k));
                if r.attempts(k) != 1 || !(1..=2).contains(&done) {
                    continue;
                }
                signal("STOP", &[e.0]);
                std::thread::sleep(Duration::from_millis(300));
                // Still there: its game waits for it (else the game ended
                // and the referee killed it).
                if proc_state(e.0) == Some('T') && signal("KILL", &[e.0]) {
                    return Some((k, e.0));
                }
            }
        }
        None
    });
    let fault = Instant::now();
    let run = r.run_dir().expect("the run directory");
    let first = run.submissions().unwrap()[0].job.clone();
    let noticed = wait_for("task ended", || {
        let gone = !scheduler::alive(std::slice::from_ref(&first))
            .unwrap()
            .iter()
            .any(|a| a.task == k);
        gone.then(|| fault.elapsed())
    });
    let requeued = wait_for("next attempt", || {
        (r.attempts(k) == 2).then(|| fault.elapsed())
    });
    let log = r.log(k);
    let said = log
        .lines()
        .find(|l| l.contains("was killed by SIGKILL, from outside"))
        .unwrap_or_else(|| panic!("task {k} did not stop on its engine's kill:\n{log}"))
        .to_string();
    assert!(
        said.contains("game ") && said.contains("not counted"),
        "{said}"
    );
    let (out, _, dir, wall) = r.finish();
    equals_local(&dir, &out);
    let subs = run.submissions().unwrap();
    assert_eq!(subs.len(), 2, "{subs:?}");
    assert_eq!(subs[1].tasks, [k]);
    println!(
        "fault engine SIGKILL (pid {engine}, shard {k}): noticed (task ended) after {:.1} s, \
         requeued (shard submitted again, its attempt running) after {:.1} s; the run took \
         {wall:.1} s; the task said: {said}",
        noticed.as_secs_f64(),
        requeued.as_secs_f64()
    );
}
