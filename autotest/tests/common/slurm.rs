//! What the tests against a real Slurm share (`external/slurm.rs` on the
//! one-node cluster, `cluster_faults.rs` on the multi-node one): the
//! tournament of real engines limited by nodes, the same run played here
//! one game at a time, the games as what must not depend on where they
//! were played, and the coordinator with its standard error as it comes.

use super::programs::{leiserchess, strings};
use autotest::pgn::read::{self as pgn_read, PgnGame};
use autotest::slurm::run_dir::RunDir;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver};

/// `autotest` of this build, with no results database from the
/// environment and its per-user one under `dir`
/// (`dir/data/leiserchess/lab.db`).
pub fn autotest_in(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_autotest"));
    c.env_remove("AUTOTEST_DB")
        .env("XDG_DATA_HOME", dir.join("data"));
    c
}

/// Engine `a` against `b` (each with its `-engine` settings), `pairs`
/// colour-swapped pairs from the committed openings in random order, a
/// draw at `moves` moves each, an SPRT on `a`.
pub fn tournament(a: &str, b: &str, pairs: u32, moves: u32, sprt: &str) -> Vec<String> {
    let engine = leiserchess();
    let openings = Path::new(env!("CARGO_MANIFEST_DIR")).join("openings.txt");
    let mut args = Vec::new();
    for (name, settings) in [("a", a), ("b", b)] {
        args.extend(strings(&["-engine", &format!("cmd={}", engine.display())]));
        args.push(format!("name={name}"));
        args.extend(settings.split(' ').map(str::to_string));
    }
    let each = "-each option.OwnBook=false option.Threads=1 -games 2 -seed 7 -sprt";
    args.extend(each.split(' ').map(str::to_string));
    args.extend(sprt.split(' ').map(str::to_string));
    args.extend(strings(&[
        "-rounds",
        &pairs.to_string(),
        "-maxmoves",
        &moves.to_string(),
    ]));
    args.extend(strings(&[
        "-openings",
        &format!("file={}", openings.display()),
        "order=random",
    ]));
    args
}

/// The run played here, one game at a time, not recorded: its PGN text
/// and table (`dir/local.pgn`).
pub fn local(args: &[String], dir: &Path) -> (String, String) {
    let pgn = dir.join("local.pgn");
    let mut a = args.to_vec();
    a.extend(strings(&[
        "-concurrency",
        "1",
        "-pgnout",
        &pgn.to_string_lossy(),
        "-db",
        "none",
    ]));
    let out = autotest_in(dir).args(&a).output().expect("run autotest");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        std::fs::read_to_string(&pgn).expect("the local PGN"),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// Each game as what must not depend on where it was played: its tags but
/// the date and time, its moves without the `{time depth nodes}` comments.
pub fn games(text: &str) -> Vec<String> {
    pgn_read::parse(text).iter().map(stable).collect()
}

pub fn stable(g: &PgnGame) -> String {
    let mut out = String::new();
    let mut depth = 0;
    for line in g.text.lines() {
        if line.starts_with("[Date ") || line.starts_with("[Time ") {
            continue;
        }
        for c in line.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                c if depth == 0 => out.push(c),
                _ => {}
            }
        }
        out.push('\n');
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The pentanomial line of `autotest stats` for `a` in `pgn`.
pub fn pentanomial(pgn: &Path) -> String {
    let out = autotest_in(pgn.parent().unwrap_or(pgn))
        .args(["stats", "--pgn", &pgn.to_string_lossy(), "--player", "a"])
        .output()
        .expect("run autotest stats");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.lines()
        .find(|l| l.contains("pentanomial"))
        .unwrap_or_else(|| panic!("no pentanomial in:\n{text}"))
        .to_string()
}

/// Starts the coordinator of `args` on the run directory `run` with the
/// `-slurm` settings `extra`, its per-user database that of the
/// directory `run` is in; its standard error lines come through the
/// returned channel.
pub fn coordinator(args: &[String], run: &Path, extra: &str) -> (Child, Receiver<String>) {
    let mut a = args.to_vec();
    a.extend(strings(&["-slurm", &format!("dir={}", run.display())]));
    a.extend(extra.split(' ').map(str::to_string));
    let mut cmd = autotest_in(run.parent().unwrap_or(run));
    cmd.args(&a);
    spawn_reading(cmd, "coordinator")
}

/// Starts `cmd` with its standard error read line by line on a thread:
/// echoed with `label`, and sent through the returned channel.
pub fn spawn_reading(mut cmd: Command, label: &'static str) -> (Child, Receiver<String>) {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start autotest");
    let stderr = BufReader::new(child.stderr.take().expect("piped"));
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in stderr.lines().map_while(Result::ok) {
            eprintln!("{label}: {line}");
            let _ = tx.send(line);
        }
    });
    (child, rx)
}

/// The finished games in the PGN file `pgn` (none if it is not there).
pub fn finished_games(pgn: &Path) -> usize {
    let text = std::fs::read_to_string(pgn).unwrap_or_default();
    pgn_read::parse(&text)
        .iter()
        .filter(|g| g.result().is_some())
        .count()
}

/// The job ids of a run's submissions, in the order they were made.
pub fn job_ids(run: &RunDir) -> Vec<String> {
    run.submissions()
        .unwrap()
        .into_iter()
        .map(|s| s.job)
        .collect()
}
