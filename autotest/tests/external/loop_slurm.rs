//! `autotest loop --slurm` against a real Slurm (the one-node cluster of
//! `scripts/slurm-local.sh`): a tiny loop of one generation whose
//! datagen and SPRT run as job arrays (their run directories hold
//! `submitted`), its merged data in the store with the net that played
//! them, its SPRT's run set on the generation's row of the results
//! database; the same loop killed (its process group) while its datagen
//! tasks run and stopped by SIGTERM while its SPRT's do (saying that they
//! go on), then started again with the same command, takes up each
//! Slurm run where it stood (submitting nothing again) and ends with the
//! unbroken loop's data and net (sha256), SPRT score and decision.
//!
//! A Slurm datagen's data are not the local step's: its tasks play with
//! seeds S+K and the merge keeps each position once. So the loop on
//! Slurm is compared with itself, killed and unbroken.

use crate::common::loop_run::{self, finish, state, text};
use crate::common::needs::{self, Need};
use crate::common::programs::leiserchess;
use crate::common::scratch;
use crate::common::slurm::autotest_in;
use autotest::net_loop::state::{Made, State};
use autotest::net_loop::steps::Step;
use leiserchess::lab::store::{self, Role, Source};
use libtest_mimic::Trial;
use std::path::Path;
use std::process::Child;
use std::time::{Duration, Instant};

/// How long one tiny loop may take on a busy machine.
const LIMIT: Duration = Duration::from_secs(600);

pub fn trials() -> Vec<Trial> {
    vec![needs::trial(
        "loop_slurm::a_loop_stopped_in_its_slurm_steps_ends_as_an_unbroken_one",
        &[Need::Slurm],
        |_| a_loop_stopped_in_its_slurm_steps_ends_as_an_unbroken_one(),
    )]
}

/// The loop's command line in `dir`, its runs under `runs`, its store
/// `store`, its results database `DIR.db`.
fn args(dir: &Path, runs: &Path, store: &Path) -> Vec<String> {
    let openings = Path::new(env!("CARGO_MANIFEST_DIR")).join("openings.txt");
    let path = |p: &Path| p.display().to_string();
    let mut words: Vec<String> = [
        "loop",
        "--dir",
        &path(dir),
        "--engine",
        &path(&leiserchess()),
        "--store",
        &path(store),
        "--openings",
        &path(&openings),
        "--db",
        &path(&dir.with_extension("db")),
    ]
    .map(str::to_string)
    .to_vec();
    words.extend(
        "--positions 300 --epochs 6 --games 6 --nodes 40 --elo0 0 --elo1 5 --generations 1"
            .split(' ')
            .map(str::to_string),
    );
    words.extend([
        "--datagen-args".to_string(),
        "--nodes 20".to_string(),
        "--train-args".to_string(),
        "--validation 0.3 --batch 16".to_string(),
        "--slurm".to_string(),
        format!("dir={} tasks=2 pairs=1 poll=0.2", runs.display()),
    ]);
    words
}

/// `autotest` with `words` run in `cwd`, in a process group of its own,
/// with no per-user database of the machine's (the test's under `cwd`).
fn start(cwd: &Path, words: &[String]) -> Child {
    let mut command = autotest_in(cwd);
    command.current_dir(cwd).args(words);
    loop_run::start(command)
}

/// Sends `signal` to `target` (a pid, or `-PGID` for a process group)
/// of the loop `child` in `dir` once `ready` holds (looked at every
/// 10 ms); the step the loop was in, and what it said.
fn stop_when(
    mut child: Child,
    dir: &Path,
    signal: &str,
    target: &str,
    ready: impl Fn() -> bool,
) -> (Step, String) {
    let deadline = Instant::now() + LIMIT;
    while !ready() {
        if let Ok(Some(status)) = child.try_wait() {
            let out = child.wait_with_output().map(|o| text(&o.stderr));
            panic!("the loop ended ({status}) before the point it was to be stopped at: {out:?}");
        }
        assert!(
            Instant::now() < deadline,
            "the loop never came to the point"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let sent = std::process::Command::new("kill")
        .args([signal, "--", target])
        .status();
    assert!(sent.expect("run kill").success());
    let out = child.wait_with_output().expect("wait for autotest");
    (
        state(dir).map_or(Step::Datagen, |s| s.step),
        text(&out.stderr),
    )
}

/// The generation's files by sha256 (the SPRT by its score and
/// verdict), the best net: what the killed loop must end with.
fn outcome(s: &State) -> String {
    let mut out = String::new();
    for r in s.generations.iter().flat_map(|g| &g.steps) {
        let shown = match &r.made {
            Made::File(a) => a.sha256.clone(),
            Made::Sprt(t) => format!("{} {:?} {:.6}", t.verdict.name(), t.wdl, t.llr),
            Made::Promoted(a) => format!("promoted {}", a.sha256),
            Made::Rejected => "rejected".to_string(),
        };
        out += &format!("{}: {shown}\n", r.step);
    }
    out + &format!("best {:?}\n", s.best.as_ref().map(|a| &a.sha256))
}

/// The array jobs of a run directory.
fn submitted(run: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(run.join("submitted")).unwrap_or_default();
    text.lines().map(str::to_string).collect()
}

/// What the loop in `dir` with its runs in `runs` and its store `store`
/// made on Slurm: each step's run directory with one submission, the
/// SPRT's PGN the merged one, every file the state names holding its
/// sha256, the data in the store played by the embedded net, the SPRT's
/// run set on the generation's row with the merged games.
fn check_made(dir: &Path, runs: &Path, store_dir: &Path, s: &State) {
    assert_eq!((s.generation, s.step), (2, Step::Datagen));
    let g = &s.generations[0];
    let steps: Vec<Step> = g.steps.iter().map(|r| r.step).collect();
    assert_eq!(
        steps,
        [Step::Datagen, Step::Train, Step::Sprt, Step::Decide]
    );
    for step in ["datagen", "sprt"] {
        let run = runs.join("gen-001").join(step);
        assert_eq!(submitted(&run).len(), 1, "{}", run.display());
    }
    let merged = runs.join("gen-001/sprt/games.pgn");
    for r in &g.steps {
        let a = match &r.made {
            Made::File(a) | Made::Promoted(a) => a,
            Made::Sprt(t) => {
                assert_eq!(t.pgn.path, merged);
                &t.pgn
            }
            Made::Rejected => continue,
        };
        let sha = autotest::db::provenance::sha256(&a.path);
        assert_eq!(sha.as_ref(), Some(&a.sha256), "{}", a.path.display());
    }
    let Some(Made::File(data)) = g.made(Step::Datagen) else {
        panic!("no data")
    };
    assert_eq!(data.path, dir.join("gen-001/data.bin"));
    let store = store::open(Some(store_dir)).unwrap();
    let record = store::read_record(&store, &data.sha256).unwrap();
    assert_eq!(record.command[1..3], ["datagen", "-slurm"]);
    let embedded = store::embedded::sha256();
    assert!(matches!(
        &record.parents[..],
        [p] if p.role == Role::Played
            && matches!(&p.source, Source::Object { sha256, .. } if *sha256 == embedded)
    ));
    let conn = rusqlite::Connection::open(dir.with_extension("db")).unwrap();
    let one = |query: &str| -> i64 { conn.query_row(query, [], |r| r.get(0)).unwrap() };
    assert_eq!(one("SELECT COUNT(*) FROM runs WHERE kind = 'datagen'"), 1);
    assert_eq!(one("SELECT COUNT(*) FROM runs WHERE kind = 'sprt'"), 1);
    let games = one("SELECT COUNT(*) FROM games WHERE run_id =
            (SELECT sprt_run FROM loop_generations WHERE generation = 1)");
    let in_pgn = std::fs::read_to_string(&merged)
        .unwrap()
        .matches("[Result ")
        .count();
    assert_eq!(games as usize, in_pgn);
    assert!(in_pgn >= 2, "{in_pgn} games");
}

fn a_loop_stopped_in_its_slurm_steps_ends_as_an_unbroken_one() {
    let root = scratch::dir("loop_slurm");
    let store = root.join("store");
    // The unbroken loop.
    let (unbroken, unbroken_runs) = (root.join("unbroken"), root.join("unbroken-runs"));
    let words = args(&unbroken, &unbroken_runs, &store);
    let out = finish(start(&root, &words));
    let said = text(&out.stderr);
    assert!(said.contains("loop: stopped: 1 generations made"), "{said}");
    let whole = state(&unbroken).unwrap();
    check_made(&unbroken, &unbroken_runs, &store, &whole);
    // The same loop killed while its datagen's tasks run ...
    let (broken, runs) = (root.join("broken"), root.join("broken-runs"));
    let words = args(&broken, &runs, &store);
    let datagen = runs.join("gen-001/datagen");
    let child = start(&root, &words);
    let group = format!("-{}", child.id());
    let (at, _) = stop_when(child, &broken, "-KILL", &group, || {
        datagen.join("submitted").exists()
    });
    assert_eq!(at, Step::Datagen);
    // ... and stopped by SIGTERM while its SPRT's do, started again from
    // another directory: the tasks go on, it says.
    let elsewhere = root.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let sprt = runs.join("gen-001/sprt");
    let child = start(&elsewhere, &words);
    let pid = child.id().to_string();
    let (at, said) = stop_when(child, &broken, "-TERM", &pid, || {
        sprt.join("submitted").exists()
    });
    assert_eq!(at, Step::Sprt);
    for line in [
        format!("loop: the Slurm tasks of {} go on", sprt.display()),
        "loop: stopped by SIGTERM; the same command goes on".to_string(),
    ] {
        assert!(said.contains(&line), "{line:?} not in:\n{said}");
    }
    let out = finish(start(&root, &words));
    let said = text(&out.stderr);
    let going_on = format!(
        "autotest: {} holds this run: going on with it",
        sprt.display()
    );
    assert!(said.contains(&going_on), "{said}");
    let datagen_log = std::fs::read_to_string(broken.join("gen-001/datagen.log")).unwrap();
    let going_on = format!(
        "autotest: {} holds this run: going on with it",
        datagen.display()
    );
    assert!(datagen_log.contains(&going_on), "{datagen_log}");
    let restarted = state(&broken).unwrap();
    check_made(&broken, &runs, &store, &restarted);
    assert_eq!(outcome(&restarted), outcome(&whole));
}
