//! `autotest loop` end to end on the real engine, at tiny sizes: two
//! generations run through every step, their files where the state says
//! with the sha256 it records; the same loop killed (its whole process
//! group, as a lost machine would be) while it trains and while it plays
//! its SPRT, then started again with the same command, ends with the same
//! data and nets (sha256) and the same decisions as the unbroken run, and
//! the same record in its results database, each row once; a second loop
//! in the same folder refused; `autotest loop --help`.

use crate::common::loop_run::{self, finish, state, text};
use crate::common::{programs::leiserchess, scratch};
use autotest::db::loops::{self, LoopRow};
use autotest::db::open;
use autotest::db::text_enums::LoopVerdict;
use autotest::net_loop::executor::Artifact;
use autotest::net_loop::state::{Made, State};
use autotest::net_loop::steps::Step;
use std::path::Path;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

/// How long one tiny loop may take on a busy machine.
const LIMIT: Duration = Duration::from_secs(600);

/// The loop's command line in `dir`, its store `store`, its results
/// database `DIR.db`.
fn args(dir: &Path, store: &Path) -> Vec<String> {
    let openings = Path::new(env!("CARGO_MANIFEST_DIR")).join("openings.txt");
    let mut words: Vec<String> = [
        "loop",
        "--dir",
        &dir.display().to_string(),
        "--engine",
        &leiserchess().display().to_string(),
        "--store",
        &store.display().to_string(),
        "--openings",
        &openings.display().to_string(),
        "--db",
        &dir.with_extension("db").display().to_string(),
    ]
    .iter()
    .map(|w| w.to_string())
    .collect();
    words.extend(
        "--positions 800 --relabel-nodes 20 --epochs 12 --games 6 --nodes 40 --elo0 0 --elo1 5 \
         --generations 2"
            .split_whitespace()
            .map(str::to_string),
    );
    words.extend([
        "--datagen-args".to_string(),
        "--nodes 20".to_string(),
        "--train-args".to_string(),
        "--validation 0.3 --batch 16".to_string(),
    ]);
    words
}

/// `autotest` with `words`, in a process group of its own.
fn start(words: &[String]) -> Child {
    let mut command = Command::new(env!("CARGO_BIN_EXE_autotest"));
    command.args(words);
    loop_run::start(command)
}

/// Kills `child`'s process group once `ready` holds of the loop's folder
/// (looked at every 10 ms); the step it was in.
fn kill_when(mut child: Child, dir: &Path, ready: impl Fn(&Path) -> bool) -> (u32, Step) {
    let deadline = Instant::now() + LIMIT;
    while !ready(dir) {
        if let Ok(Some(status)) = child.try_wait() {
            panic!("the loop ended ({status}) before the point it was to be killed at");
        }
        assert!(
            Instant::now() < deadline,
            "the loop never came to the point"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let group = format!("-{}", child.id());
    let killed = Command::new("kill").args(["-KILL", "--", &group]).status();
    assert!(killed.expect("run kill").success());
    let _ = child.wait();
    let s = state(dir).expect("a state before the kill");
    (s.generation, s.step)
}

/// Each generation's data and nets by sha256, and its SPRT's verdict and
/// score, the best net's sha256 and the rejections in a row: what a
/// killed and restarted loop must end with as the unbroken one did.
fn outcome(s: &State) -> String {
    let mut out = String::new();
    for g in &s.generations {
        for r in &g.steps {
            let shown = match &r.made {
                Made::File(a) => a.sha256.clone(),
                Made::Sprt(t) => format!("{} {:?}", t.verdict.name(), t.wdl),
                Made::Promoted(a) => format!("promoted {}", a.sha256),
                Made::Rejected => "rejected".to_string(),
            };
            out += &format!("{} {}: {shown}\n", g.number, r.step);
        }
    }
    let best = s.best.as_ref().map(|a| a.sha256.as_str());
    out + &format!("best {best:?}, rejections {}\n", s.rejections)
}

/// Every file the state names holds what it recorded.
fn check_files(s: &State) {
    let mut files: Vec<&Artifact> = s.best.iter().collect();
    for r in s.generations.iter().flat_map(|g| &g.steps) {
        match &r.made {
            Made::File(a) | Made::Promoted(a) => files.push(a),
            Made::Sprt(t) => files.push(&t.pgn),
            Made::Rejected => {}
        }
    }
    for a in files {
        let bytes = std::fs::read(&a.path).unwrap_or_else(|e| panic!("{}: {e}", a.path.display()));
        let sha = autotest::db::provenance::sha256(&a.path).unwrap();
        assert_eq!(
            sha,
            a.sha256,
            "{} ({} bytes)",
            a.path.display(),
            bytes.len()
        );
    }
}

/// `r` with its times rounded to the millisecond.
fn to_ms(mut r: LoopRow) -> LoopRow {
    let ms = |t: f64| (t * 1000.0).round() / 1000.0;
    r.started = ms(r.started);
    for g in &mut r.generations {
        for s in &mut g.steps {
            s.seconds = ms(s.seconds);
            s.ended = s.ended.map(ms);
        }
        if let Some(f) = g.sprt.as_mut() {
            f.llr = ms(f.llr);
        }
    }
    r
}

/// What the results database of the loop in `dir` (in state `s`)
/// records, checked against the state: one loop; each generation and
/// step once, with what the state says it made; each SPRT a run whose
/// games are its PGN file's, once each. The generations' rows without
/// their run ids and times.
fn recorded(dir: &Path, s: &State) -> String {
    let conn = open::open(&dir.with_extension("db")).unwrap();
    let count = |query: &str| -> i64 { conn.query_row(query, [], |r| r.get(0)).unwrap() };
    assert_eq!(count("SELECT COUNT(*) FROM loops"), 1);
    assert_eq!(count("SELECT COUNT(*) FROM loop_generations"), 2);
    assert_eq!(count("SELECT COUNT(*) FROM loop_steps"), 10);
    assert_eq!(count("SELECT COUNT(*) FROM runs WHERE kind = 'sprt'"), 2);
    let [l] = &loops::all(&conn).unwrap()[..] else {
        panic!("not one loop")
    };
    let mut without_runs = l.row.clone();
    for g in &mut without_runs.generations {
        g.sprt_run = None;
    }
    // The state file's times, read back, may differ from the ones
    // written in their last bit.
    assert_eq!(
        to_ms(without_runs),
        to_ms(autotest::net_loop::record::row(dir, s))
    );
    let mut out = String::new();
    for g in &l.row.generations {
        let run = g.sprt_run.expect("the SPRT's run");
        let status: String = conn
            .query_row("SELECT status FROM runs WHERE id = ?1", [run], |r| r.get(0))
            .unwrap();
        let games: i64 = conn
            .query_row("SELECT COUNT(*) FROM games WHERE run_id = ?1", [run], |r| {
                r.get(0)
            })
            .unwrap();
        let pgn = dir.join(format!("gen-{:03}/sprt.pgn", g.number));
        let in_pgn = std::fs::read_to_string(pgn)
            .unwrap()
            .matches("[Result ")
            .count();
        assert_eq!(games as usize, in_pgn, "generation {}", g.number);
        let verdict = g.sprt.map(|f| f.verdict);
        let expected = match verdict {
            Some(LoopVerdict::H1) => "H1",
            Some(LoopVerdict::H0) => "H0",
            _ => "finished",
        };
        assert_eq!(status, expected, "generation {}", g.number);
        out += &format!(
            "{} {:?} {:?} {:?} {:?} {:?} {games}\n",
            g.number,
            g.best,
            g.data,
            g.candidate,
            g.sprt.map(|f| (f.wdl, verdict)),
            g.decision
        );
    }
    out
}

#[test]
fn a_loop_killed_mid_training_and_mid_sprt_ends_as_an_unbroken_one() {
    let root = scratch::dir("net_loop/kill");
    let store = root.join("store");
    // The unbroken loop.
    let unbroken = root.join("unbroken");
    let out = finish(start(&args(&unbroken, &store)));
    let said = text(&out.stderr);
    let whole = state(&unbroken).unwrap();
    assert_eq!((whole.generation, whole.step), (3, Step::Datagen));
    assert_eq!(whole.generations.len(), 2);
    for g in &whole.generations {
        let steps: Vec<Step> = g.steps.iter().map(|r| r.step).collect();
        use Step::*;
        assert_eq!(steps, [Datagen, Relabel, Train, Sprt, Decide]);
    }
    check_files(&whole);
    for line in [
        "loop: generation 1, step datagen (1 of 5), elapsed ",
        "s, no estimate before a generation has run the step",
        "loop: generation 2, step train (3 of 5), elapsed ",
        "loop: stopped: 2 generations made",
        "train: ",
        "game 1/6: ",
    ] {
        assert!(said.contains(line), "{line:?} not in:\n{said}");
    }
    let log = std::fs::read_to_string(unbroken.join("loop.log")).unwrap();
    assert!(log.contains("loop: stopped: 2 generations made"), "{log}");
    let datagen_log = std::fs::read_to_string(unbroken.join("gen-001/datagen.log")).unwrap();
    assert!(datagen_log.starts_with("== "), "{datagen_log}");
    // The same loop killed while it trains (after its first epoch) ...
    let broken = root.join("broken");
    let words = args(&broken, &store);
    let at = kill_when(start(&words), &broken, |dir| {
        dir.join("gen-001/net.nnue.ckpt").exists()
    });
    eprintln!("killed at {at:?}");
    assert!(at >= (1, Step::Train), "killed at {at:?}");
    // ... and again while it plays its SPRT (after a game), in the
    // generation it is in then.
    let sprt_started = |dir: &Path| {
        let Some(s) = state(dir) else { return false };
        let pgn = dir.join(format!("gen-{:03}/sprt.pgn", s.generation));
        let games = std::fs::read_to_string(pgn).map_or(0, |t| t.matches("[Result ").count());
        s.step == Step::Sprt && games >= 1
    };
    let at = kill_when(start(&words), &broken, sprt_started);
    eprintln!("killed at {at:?}");
    assert_eq!(at.1, Step::Sprt);
    let out = finish(start(&words));
    let said = text(&out.stderr);
    assert!(
        said.contains("-resume: ") || said.contains("resumed "),
        "{said}"
    );
    let restarted = state(&broken).unwrap();
    check_files(&restarted);
    assert_eq!(outcome(&restarted), outcome(&whole));
    // The same record, once, in each loop's database.
    assert_eq!(recorded(&broken, &restarted), recorded(&unbroken, &whole));
    // Nothing of the unbroken loop is redone by the same command.
    let out = finish(start(&args(&unbroken, &store)));
    assert!(text(&out.stderr).contains("loop: stopped: 2 generations made"));
    assert_eq!(state(&unbroken).unwrap(), whole);
}

#[test]
fn a_second_loop_in_the_folder_and_a_changed_command_are_refused() {
    let root = scratch::dir("net_loop/refused");
    let dir = root.join("loop");
    let words = args(&dir, &root.join("store"));
    // The first loop holds the folder while it runs (here: once its
    // first step is done and the state written).
    let mut first = start(&words);
    let deadline = Instant::now() + LIMIT;
    while state(&dir).is_none() {
        assert!(
            Instant::now() < deadline,
            "the first loop never wrote its state"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let second = start(&words).wait_with_output().unwrap();
    assert_eq!(second.status.code(), Some(2));
    let e = text(&second.stderr);
    let held = format!(
        "autotest: another autotest loop runs in {} (it holds {})",
        dir.display(),
        dir.join("loop.lock").display()
    );
    assert!(e.contains(&held), "{e}");
    let group = format!("-{}", first.id());
    let killed = Command::new("kill").args(["-KILL", "--", &group]).status();
    assert!(killed.unwrap().success());
    let _ = first.wait();
    // Another budget is refused by name, nothing run.
    let mut changed = words.clone();
    let at = changed.iter().position(|w| w == "--positions").unwrap();
    changed[at + 1] = "900".to_string();
    let out = start(&changed).wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let e = text(&out.stderr);
    assert!(
        e.contains("was started with another command: --positions was '800', now '900'"),
        "{e}"
    );
    assert!(!e.contains("loop: generation"), "{e}");
}

#[test]
fn the_help_page_names_every_flag() {
    let out = Command::new(env!("CARGO_BIN_EXE_autotest"))
        .args(["loop", "--help"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let page = text(&out.stdout);
    for flag in [
        "--dir",
        "--engine",
        "--store",
        "--positions",
        "--epochs",
        "--games",
        "--relabel-nodes",
        "--train-window",
        "--tc",
        "--nodes",
        "--elo0",
        "--elo1",
        "--alpha",
        "--beta",
        "--openings",
        "--seed",
        "--threads",
        "--datagen-args",
        "--relabel-args",
        "--train-args",
        "--generations",
        "--hours",
        "--rejections",
        "--force",
        "--slurm",
        "--db",
    ] {
        assert!(page.contains(flag), "{flag} not in:\n{page}");
    }
    let listed = Command::new(env!("CARGO_BIN_EXE_autotest"))
        .arg("--help")
        .output()
        .unwrap();
    assert!(text(&listed.stdout).contains("  loop "));
}
