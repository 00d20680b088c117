//! Stopping a run with a signal, end to end with slow scripted fakes (a
//! game of theirs lasts a few seconds): SIGTERM, or a Ctrl-C at the
//! terminal (SIGINT to the whole process group), finishes every game
//! started and starts no other, writes them, and exits 128 + the signal;
//! a second signal ends the run at once; `autotest tune` stops the same
//! way, every pair it started applied and saved. A game in flight while
//! the run was stopped and continued is played again.

use crate::common::{
    fake::{assert_no_leftovers, bounded, fake, leftovers, pid_dir, started, two_fakes},
    programs::{drain, strings},
    scratch,
};
use autotest::pgn::read as pgn_read;
use std::io::{BufRead, BufReader};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The fakes' time a move: a game (8 plies) lasts over 2 s.
const SLOW: &str = "slow:300";
/// How long a stopped run may take to finish the games in flight.
const FINISH: Duration = Duration::from_secs(30);

/// Starts autotest in a process group of its own, as a shell starts a
/// job, so that a signal to the group does not reach the test.
fn start(args: &[String], cwd: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_autotest"))
        // Not about the results database: none kept in the user's home.
        .env("AUTOTEST_DB", "none")
        .args(args)
        .current_dir(cwd)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .expect("start autotest")
}

/// Waits until `n` fakes have written their pids.
fn wait_for_fakes(pids: &Path, n: usize) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while started(pids) < n {
        assert!(Instant::now() < deadline, "{n} fakes never started");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// `kill -SIGNAL TARGET` (a negative target is a process group).
fn kill(signal: &str, target: String) {
    let ok = Command::new("kill")
        .args([format!("-{signal}"), "--".to_string(), target])
        .status()
        .expect("run kill")
        .success();
    assert!(ok, "kill -{signal} failed");
}

fn finish(child: Child) -> (Output, Duration) {
    bounded(FINISH, move || {
        child.wait_with_output().expect("wait for autotest")
    })
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Two slow fakes, 10 games, two at once, into `pgn`.
fn tournament(pids: &Path, pgn: &Path) -> Vec<String> {
    let pgn = pgn.to_string_lossy();
    let rest = [
        "-each",
        "tc=60+0",
        "-rounds",
        "5",
        "-concurrency",
        "2",
        "-pgnout",
        &pgn,
    ];
    two_fakes(SLOW, pids, &rest)
}

/// The results of the games in `pgn`.
fn results(pgn: &Path) -> Vec<String> {
    pgn_read::read(pgn)
        .expect("the PGN file")
        .iter()
        .map(|g| g.result().unwrap_or("none").to_string())
        .collect()
}

/// Stops a tournament with `signal` sent to `target(pid)` once both first
/// games are under way, and checks that every game started was played
/// out and written, and nothing else was started.
fn stop_a_tournament(test: &str, signal: &str, status: i32, target: fn(u32) -> String) {
    let dir = scratch::dir(&format!("interrupt/{test}"));
    let pids = pid_dir(&format!("interrupt_{test}"));
    let pgn = dir.join("games.pgn");
    let child = start(&tournament(&pids, &pgn), &dir);
    // Each engine's check before the first game, then two games.
    wait_for_fakes(&pids, 2 + 4);
    kill(signal, target(child.id()));
    let (out, took) = finish(child);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(status), "stderr:\n{stderr}");
    assert!(
        stderr.contains(&format!(
            "autotest: {signal}: finishing the games in flight, then stopping"
        )),
        "stderr:\n{stderr}"
    );
    let games = results(&pgn);
    assert!(games.len() >= 2 && games.len() < 10, "{games:?}\n{stderr}");
    assert!(games.iter().all(|r| r == "1/2-1/2"), "{games:?}");
    assert_eq!(
        started(&pids),
        2 + 2 * games.len(),
        "a started game was lost"
    );
    assert!(
        stderr.contains(&format!(
            "autotest: stopped by {signal} after {} of 10 games; the same command with \
             -resume goes on",
            games.len()
        )),
        "stderr:\n{stderr}"
    );
    let table = text(&out.stdout);
    assert!(table.contains("none"), "a fault was counted:\n{table}");
    assert!(took >= Duration::from_secs(1), "the games were cut short");
    assert_no_leftovers(&pids);
}

#[test]
fn sigterm_finishes_the_games_in_flight() {
    stop_a_tournament("term", "SIGTERM", 143, |pid| pid.to_string());
}

#[test]
fn ctrl_c_at_the_terminal_leaves_the_engines_to_finish() {
    // The whole group, as the terminal sends it: the engines are not in it.
    stop_a_tournament("int", "SIGINT", 130, |pid| format!("-{pid}"));
}

/// Starts the tournament, sends it SIGTERM once two games are under way,
/// and waits until it says it is finishing them; its standard error lines
/// after that come through the receiver.
fn terminated(pids: &Path, pgn: &Path, dir: &Path) -> (Child, mpsc::Receiver<String>) {
    let mut child = start(&tournament(pids, pgn), dir);
    let stderr = BufReader::new(child.stderr.take().expect("piped stderr"));
    let (tx, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in stderr.lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    wait_for_fakes(pids, 2 + 4);
    kill("TERM", child.id().to_string());
    let said = lines
        .iter()
        .any(|line| line.contains("finishing the games in flight"));
    if !said {
        let _ = child.kill();
        let _ = child.wait();
        panic!("autotest said nothing of the signal");
    }
    (child, lines)
}

/// A cluster's `scancel` or requeue signals every process of the task:
/// the engines die with the run. The games they were playing end on a
/// crash after the stop signal, and are not counted: `-resume` plays them
/// again, where a crash would have been a loss.
#[test]
fn engines_killed_with_the_run_are_not_a_loss() {
    let dir = scratch::dir("interrupt/killed");
    let pids = pid_dir("interrupt_killed");
    let pgn = dir.join("games.pgn");
    let (child, lines) = terminated(&pids, &pgn, &dir);
    for left in leftovers(&pids) {
        // A fake between games may be gone by now: that is no failure.
        let pid = left.split_whitespace().next().unwrap_or_default();
        let _ = std::process::Command::new("kill")
            .args(["-TERM", pid])
            .status();
    }
    let (out, _) = finish(child);
    let said = drain(&lines);
    assert_eq!(out.status.code(), Some(143), "{said:?}");
    assert!(results(&pgn).is_empty(), "a game was counted");
    let not_counted = said
        .iter()
        .filter(|l| l.contains("an engine died after the stop signal: not counted"))
        .count();
    assert_eq!(not_counted, 2, "{said:?}");
    let table = text(&out.stdout);
    assert!(table.contains("none"), "a fault was counted:\n{table}");
    assert_no_leftovers(&pids);
}

/// A run stopped (SIGSTOP, as Ctrl-Z or Slurm's suspend) for longer than
/// an engine's clock and continued: the game in flight would end on time
/// by no fault of the engine, and is played again instead.
#[test]
fn a_game_in_flight_while_the_run_was_stopped_is_played_again() {
    let dir = scratch::dir("interrupt/stopped");
    let pids = pid_dir("interrupt_stopped");
    let pgn = dir.join("games.pgn");
    let pgn_arg = pgn.to_string_lossy();
    // One pair at 3 s a game: a game's four moves a side take 1.2 s.
    let rest = ["-each", "tc=3+0", "-rounds", "1", "-pgnout", &pgn_arg];
    let child = start(&two_fakes(SLOW, &pids, &rest), &dir);
    wait_for_fakes(&pids, 2 + 2);
    std::thread::sleep(Duration::from_millis(400));
    kill("STOP", child.id().to_string());
    std::thread::sleep(Duration::from_secs(4));
    kill("CONT", child.id().to_string());
    let (out, _) = finish(child);
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "stderr:\n{stderr}");
    assert!(
        stderr.contains(
            "game 1 (round 1.1, a vs b): the run was stopped and continued while it was \
             played: not counted, played again"
        ),
        "stderr:\n{stderr}"
    );
    assert_eq!(results(&pgn), ["1/2-1/2", "1/2-1/2"], "{stderr}");
    let table = text(&out.stdout);
    assert!(table.contains("none"), "a fault was counted:\n{table}");
    assert_no_leftovers(&pids);
}

#[test]
fn a_second_signal_stops_at_once() {
    let dir = scratch::dir("interrupt/twice");
    let pids = pid_dir("interrupt_twice");
    let pgn = dir.join("games.pgn");
    // The first signal is taken in before the second is sent.
    let (child, _) = terminated(&pids, &pgn, &dir);
    kill("TERM", child.id().to_string());
    let (out, took) = finish(child);
    assert_eq!(out.status.code(), Some(143));
    assert!(took < Duration::from_secs(2), "took {took:?}");
    assert!(results(&pgn).is_empty(), "a game was finished");
    // The engines see their input close and quit.
    let deadline = Instant::now() + Duration::from_secs(10);
    while !leftovers(&pids).is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_no_leftovers(&pids);
}

/// `autotest tune` of a slow fake's `Hash` (its pids into `pids`) at
/// `tc`, `iterations` pairs, `concurrency` at once.
fn tune_slow_fakes(pids: &Path, tc: &str, iterations: u32, concurrency: u32) -> Vec<String> {
    let engine = format!("cmd={} {SLOW} {}", fake().display(), pids.display());
    let each = format!("tc={tc}");
    let mut args = strings(&["tune", "-engine", &engine, "-each", &each]);
    args.extend(strings(&[
        "-param",
        "name=Hash",
        "start=16",
        "min=1",
        "max=1024",
        "c=4",
        "-iterations",
        &iterations.to_string(),
        "-concurrency",
        &concurrency.to_string(),
    ]));
    args
}

#[test]
fn tune_applies_the_pairs_under_way_and_stops() {
    let dir = scratch::dir("interrupt/tune");
    let pids = pid_dir("interrupt_tune");
    let state = dir.join("tune.state");
    let mut args = tune_slow_fakes(&pids, "60+0", 20, 2);
    args.extend(strings(&["-state", &state.to_string_lossy()]));
    let child = start(&args, &dir);
    // The option check, then the first game of each of two pairs.
    wait_for_fakes(&pids, 5);
    kill("TERM", child.id().to_string());
    let (out, _) = finish(child);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(143), "stderr:\n{stderr}");
    let pairs = stdout
        .lines()
        .filter(|l| l.starts_with("iteration "))
        .count();
    assert!((2..20).contains(&pairs), "{pairs} pairs:\n{stdout}");
    assert_eq!(started(&pids), 1 + 4 * pairs, "a started pair was lost");
    let saved = std::fs::read_to_string(&state).expect("the state file");
    assert!(saved.contains(&format!("\niteration {pairs}\n")), "{saved}");
    assert!(
        stderr.contains(&format!(
            "tune: stopped by SIGTERM after {pairs} of 20 pairs; run again with the same \
             -state to go on"
        )),
        "stderr:\n{stderr}"
    );
    assert!(
        stdout.contains(&format!("tuned after {pairs} pairs:")),
        "{stdout}"
    );
    assert_no_leftovers(&pids);
}

/// `autotest tune` stopped and continued as a tournament is: the pair in
/// flight is played again, its games draws as the fakes always play.
#[test]
fn a_tune_pair_in_flight_while_the_run_was_stopped_is_played_again() {
    let dir = scratch::dir("interrupt/tune_stopped");
    let pids = pid_dir("interrupt_tune_stopped");
    let args = tune_slow_fakes(&pids, "3+0", 1, 1);
    let child = start(&args, &dir);
    // The option check, then the pair's first game.
    wait_for_fakes(&pids, 3);
    std::thread::sleep(Duration::from_millis(400));
    kill("STOP", child.id().to_string());
    std::thread::sleep(Duration::from_secs(4));
    kill("CONT", child.id().to_string());
    let (out, _) = finish(child);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "stderr:\n{stderr}");
    assert!(
        stderr.contains(
            "pair 1: the run was stopped and continued while it was played: not counted, \
             played again"
        ),
        "stderr:\n{stderr}"
    );
    assert!(stdout.contains("iteration 1/1: +0 (1-1)"), "{stdout}");
    assert_no_leftovers(&pids);
}
