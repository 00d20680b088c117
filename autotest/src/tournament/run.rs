//! Running the tournament: the engines checked before the first game
//! (`preflight`); the games of the schedule, each opening played as a
//! colour-swapped pair, run `concurrency` at a time; results gathered per
//! engine (W/D/L, game pairs, faults; `standings`), PGN written as games
//! finish (the engines' standard error beside it, `stderr_log`), and an
//! SPRT that can end the tournament early (games that finish after its
//! decision are not counted). With `-resume`, the games an
//! earlier run wrote count and are not played again (`resume`). After a
//! stop signal (`crate::interrupt`), no new game starts and those in
//! flight finish; one that ends by an engine dying then is not counted.
//! An engine killed by a signal from outside ([`OutsideKill`]) loses the
//! game on this machine, and stops a cluster task without counting it. A
//! game in flight while the run was stopped and continued is played again
//! (`interrupt::stopped_during`).

use crate::config::spec::{PgnStyle, TournamentSpec};
use crate::interrupt;
use crate::openings::Opening;
use crate::pgn::time_control::node_speed_tags;
use crate::pgn::write::to_pgn_with;
use crate::referee::kept::Kept;
use crate::referee::record::{white_halves, FaultKind, GameRecord, Termination};
use crate::referee::{game, preflight, stderr_log};
use crate::stats::sprt::SprtDecision;
use crate::tournament::resume::{self, Resumed};
use crate::tournament::schedule::{to_play, Job};
use crate::tournament::standings::{Standing, Tally};
use std::collections::VecDeque;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};

/// What a game counts for when an engine in it was killed by a signal
/// that comes from outside (SIGKILL, SIGTERM, SIGINT, SIGHUP: the OOM
/// killer, an administrator, a lost node), not by its own fault (SIGSEGV,
/// SIGABRT, a panic's exit status, which are crashes and lose everywhere).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutsideKill {
    /// A loss for it, as a crash: on one machine whoever runs the
    /// tournament sees the kill, and a game left out would have to be
    /// played again by hand (`-resume`).
    Loss,
    /// Not counted: no new game starts, and the run ends with an error
    /// naming the game and the signal. A cluster task's shard is then
    /// submitted again and the game replayed (`crate::slurm::task`).
    Stop,
}

/// The signal that killed an engine, by name, if it is one from outside.
/// `detail` is the referee's account of the crash: `exited: ` and the
/// exit status as the standard library prints it (`signal: 9 (SIGKILL)`),
/// also when a failed write found it dead.
pub fn outside_signal(detail: &str) -> Option<&'static str> {
    let rest = detail.strip_prefix("exited: signal: ")?;
    let end = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    match rest[..end].parse::<i32>().ok()? {
        1 => Some("SIGHUP"),
        2 => Some("SIGINT"),
        9 => Some("SIGKILL"),
        15 => Some("SIGTERM"),
        _ => None,
    }
}

/// What the tournament produced.
pub struct Summary {
    pub standings: Vec<Standing>,
    pub games: Vec<GameRecord>,
    /// The SPRT's verdict, if one was asked for and reached.
    pub sprt: Option<(f64, SprtDecision)>,
}

/// Plays the tournament, once every engine passed [`preflight::check`].
/// `report` is called with each finished game, its number, the total and,
/// with an SPRT, the log-likelihood ratio after it, in the order games
/// finish. With `spec.resume`, goes on from the PGN file as
/// [`run_resumed`] does.
pub fn run(
    spec: &TournamentSpec,
    openings: &[Opening],
    report: impl FnMut(&GameRecord, usize, usize, Option<f64>),
) -> Result<Summary, String> {
    let resumed = resume::load(spec, openings)?;
    run_resumed(spec, openings, resumed.as_ref(), report)
}

/// [`run`], going on from the games of an earlier run: they count in the
/// standings and the SPRT and are not played again, the game numbers
/// given to `report` count them, and the new games are added to the PGN
/// file. Nothing is played if the SPRT has already decided.
pub fn run_resumed(
    spec: &TournamentSpec,
    openings: &[Opening],
    resumed: Option<&Resumed>,
    mut report: impl FnMut(&GameRecord, usize, usize, Option<f64>),
) -> Result<Summary, String> {
    let report = |_: &Job, rec: &GameRecord, done, total, llr| report(rec, done, total, llr);
    run_jobs(spec, openings, resumed, OutsideKill::Loss, report)
}

/// [`run_resumed`], with each game's [`Job`] given to `report` too, and
/// `outside` the rule for an engine killed from outside.
pub fn run_jobs(
    spec: &TournamentSpec,
    openings: &[Opening],
    resumed: Option<&Resumed>,
    outside: OutsideKill,
    mut report: impl FnMut(&Job, &GameRecord, usize, usize, Option<f64>),
) -> Result<Summary, String> {
    let jobs = to_play(spec, openings.len());
    let total = jobs.len();
    let (mut tally, before) = match resumed {
        Some(r) => (r.tally.clone(), r.games.len()),
        None => (Tally::new(spec.engines.len()), 0),
    };
    let mut sprt = if before > 0 { tally.sprt(spec) } else { None };
    let todo: VecDeque<Job> = jobs
        .iter()
        .filter(|j| !resumed.is_some_and(|r| r.played(j.number)))
        .copied()
        .collect();
    if todo.is_empty() || sprt.is_some_and(|(_, d)| d != SprtDecision::Continue) {
        return Ok(Summary {
            standings: tally.standings,
            games: Vec::new(),
            sprt,
        });
    }
    if resumed.is_none() && !spec.pgn_append {
        stderr_log::remove_all(spec)?;
    }
    preflight::check(spec)?;
    let queue = Mutex::new(todo);
    let stop = AtomicBool::new(false);
    let (mut pgn, games_before) = match resumed {
        Some(r) => (Some(r.reopen()?), 0),
        None => open_pgn(spec)?,
    };
    // A course PGN goes on where the file left off: game numbers, and
    // openings after those its pairs used.
    let course = spec.pgn_style == PgnStyle::Course;
    let opening_offset = if course { games_before.div_ceil(2) } else { 0 };
    let default_opening = Opening::startpos();
    let mut games = Vec::new();
    let mut killed = Vec::new();
    let (tx, rx) = mpsc::channel::<(Job, GameRecord)>();
    std::thread::scope(|scope| {
        for _ in 0..spec.concurrency.max(1) {
            let tx = tx.clone();
            let (queue, stop, default_opening) = (&queue, &stop, &default_opening);
            // The engines this worker keeps between games (`restart=off`);
            // they quit when it ends.
            let mut kept = Kept::default();
            scope.spawn(move || loop {
                if stop.load(Ordering::Relaxed) || interrupt::received().is_some() {
                    break;
                }
                let job = queue.lock().unwrap_or_else(|e| e.into_inner()).pop_front();
                let Some(job) = job else { break };
                let opening = match openings.len() {
                    0 => default_opening,
                    n => &openings[(job.opening + opening_offset) % n],
                };
                let round = if course {
                    (games_before + job.number - 1).to_string()
                } else {
                    format!("{}.{}", job.round, job.number)
                };
                let before = interrupt::continued();
                let rec = game::play_kept(
                    &spec.engines[job.white],
                    &spec.engines[job.black],
                    opening,
                    spec,
                    &round,
                    &mut kept,
                );
                if interrupt::stopped_during(before, rec.ended_on_time()) {
                    eprintln!(
                        "game {} (round {round}, {} vs {}): the run was stopped and continued \
                         while it was played: not counted, played again",
                        job.number, rec.white, rec.black
                    );
                    queue
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push_front(job);
                    continue;
                }
                if tx.send((job, rec)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        for (job, rec) in rx {
            let (fault, detail) = match &rec.termination {
                Termination::Fault {
                    engine,
                    kind,
                    detail,
                } => (Some((engine.as_str(), *kind)), detail.as_str()),
                _ => (None, ""),
            };
            let crashed = fault.is_some_and(|(_, kind)| kind == FaultKind::Crash);
            if crashed && interrupt::received().is_some() {
                // Most likely killed by the signal that stops the run (a
                // cluster's scancel or requeue signals every process of the
                // task, engines too): not a result. `-resume` plays it again.
                eprintln!(
                    "game {}: an engine died after the stop signal: not counted",
                    job.number
                );
                continue;
            }
            let killed_by = match outside {
                OutsideKill::Stop if crashed => outside_signal(detail),
                _ => None,
            };
            if let Some(signal) = killed_by {
                stop.store(true, Ordering::Relaxed);
                let engine = fault.map_or("", |(e, _)| e);
                killed.push(format!(
                    "game {} (round {}, {} vs {}): engine {engine} was killed by {signal}, \
                     from outside: not its fault, and not counted",
                    job.number, rec.round, rec.white, rec.black
                ));
                continue;
            }
            if sprt.is_some_and(|(_, d)| d != SprtDecision::Continue) {
                // Started before the decision reached the workers: the
                // result is the games up to the decision (with one game at
                // a time, exactly the games 1..N of the schedule).
                eprintln!(
                    "game {}: finished after the SPRT's decision: not counted",
                    job.number
                );
                continue;
            }
            tally.add(spec, &job, white_halves(&rec.result), fault);
            if crashed && !spec.recover {
                stop.store(true, Ordering::Relaxed);
            }
            if let Some(f) = pgn.as_mut() {
                let tags = node_speed_tags(spec, job.white, job.black);
                let _ = f.write_all(to_pgn_with(&rec, spec.pgn_style, &tags).as_bytes());
                let _ = f.flush();
            }
            sprt = tally.sprt(spec);
            if sprt.is_some_and(|(_, d)| d != SprtDecision::Continue) {
                stop.store(true, Ordering::Relaxed);
            }
            let number = before + games.len() + 1;
            report(&job, &rec, number, total, sprt.map(|(llr, _)| llr));
            games.push(rec);
        }
    });
    if !killed.is_empty() {
        return Err(format!(
            "{}; stopped so that {} played again",
            killed.join("; "),
            if killed.len() == 1 {
                "it is"
            } else {
                "they are"
            }
        ));
    }
    Ok(Summary {
        standings: tally.standings,
        games,
        sprt,
    })
}

/// The PGN file, if any, and how many games it already holds: opened for
/// appending with `pgn_append`, else replaced.
fn open_pgn(spec: &TournamentSpec) -> Result<(Option<std::fs::File>, usize), String> {
    let Some(path) = &spec.pgn_out else {
        return Ok((None, 0));
    };
    let cannot = |e: std::io::Error| format!("cannot write {}: {e}", path.display());
    if !spec.pgn_append {
        return Ok((Some(std::fs::File::create(path).map_err(cannot)?), 0));
    }
    let before = match std::fs::read(path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes)
            .lines()
            .filter(|l| l.starts_with("[Event "))
            .count(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => 0,
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let file = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map_err(cannot)?;
    Ok((Some(file), before))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::spec::{EngineSpec, Schedule};
    use crate::referee::engine::EngineError;
    use std::os::unix::process::ExitStatusExt;
    use std::path::Path;
    use std::process::ExitStatus;
    use std::time::{Duration, Instant};

    /// The detail the referee gives a crash (the error, as a string) of
    /// an engine that ended with raw wait status `raw`.
    fn died(raw: i32) -> String {
        let status = ExitStatus::from_raw(raw).to_string();
        EngineError::Exited(status + "\nits last words").to_string()
    }

    #[test]
    fn signals_from_outside_by_name() {
        assert_eq!(outside_signal(&died(9)), Some("SIGKILL"));
        assert_eq!(outside_signal(&died(15)), Some("SIGTERM"));
        assert_eq!(outside_signal(&died(2)), Some("SIGINT"));
        assert_eq!(outside_signal(&died(1)), Some("SIGHUP"));
        // SIGSEGV; SIGABRT with a core; a panic's exit status 101.
        for raw in [11, 6 | 0x80, 101 << 8] {
            assert_eq!(outside_signal(&died(raw)), None, "{}", died(raw));
        }
        let write = EngineError::Exited("cannot write 'uci': Broken pipe".into());
        assert_eq!(outside_signal(&write.to_string()), None);
        // Killed while waiting for its turn: the failed write's account
        // (`Engine::failed`) leads with the exit status.
        let status = ExitStatus::from_raw(9);
        let found = EngineError::Exited(format!("{status} (found writing 'go': Broken pipe)"));
        assert_eq!(outside_signal(&found.to_string()), Some("SIGKILL"));
    }

    /// Engine `a` (a fake that never answers `go`, its pids appended to
    /// `pids`) against a good fake, one game; `a` is sent `signal` once it
    /// is thinking.
    fn killed_in_game(signal: &str, outside: OutsideKill) -> Result<Summary, String> {
        let fake = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake/scripted.sh");
        let dir = crate::scratch::dir(&format!("run-outside-{signal}-{outside:?}"));
        let pids = dir.join("pids");
        let script = format!(
            "echo $$ >> '{}'; exec bash '{}' hang",
            pids.display(),
            fake.display()
        );
        let engine = |name: &str, command: Vec<String>| EngineSpec {
            name: name.to_string(),
            command,
            dir: None,
            options: Vec::new(),
            limits: Default::default(),
            restart: true,
        };
        let spec = TournamentSpec {
            engines: vec![
                engine("a", vec!["sh".into(), "-c".into(), script]),
                engine(
                    "b",
                    vec!["bash".into(), fake.display().to_string(), "good".into()],
                ),
            ],
            schedule: Schedule::RoundRobin,
            games: 1,
            rounds: 1,
            concurrency: 1,
            ..TournamentSpec::default()
        };
        // The preflight's `a`, then the game's.
        let killer = {
            let (pids, signal) = (pids.clone(), signal.to_string());
            std::thread::spawn(move || kill_second(&pids, &signal))
        };
        let result = run_jobs(&spec, &[], None, outside, |_, _, _, _, _| {});
        killer.join().unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        result
    }

    fn kill_second(pids: &Path, signal: &str) {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(10) {
            let text = std::fs::read_to_string(pids).unwrap_or_default();
            if let Some(pid) = text.lines().nth(1) {
                // Long enough for the referee to wait for its move.
                std::thread::sleep(Duration::from_millis(300));
                let ok = std::process::Command::new("kill")
                    .args([format!("-{signal}"), pid.to_string()])
                    .status()
                    .unwrap();
                assert!(ok.success());
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("the game's engine did not start");
    }

    #[test]
    fn an_engine_killed_from_outside_stops_a_cluster_task_uncounted() {
        let err = match killed_in_game("KILL", OutsideKill::Stop) {
            Ok(s) => panic!("counted: {:?}", s.standings),
            Err(e) => e,
        };
        assert!(err.contains("game 1 (round 1.1, a vs b)"), "{err}");
        assert!(err.contains("engine a was killed by SIGKILL"), "{err}");
    }

    #[test]
    fn an_engine_killed_from_outside_loses_on_one_machine() {
        let s = killed_in_game("TERM", OutsideKill::Loss).unwrap();
        assert_eq!((s.standings[0].losses, s.standings[1].wins), (1, 1));
        assert_eq!(s.standings[0].faults.get("crash"), Some(&1));
    }

    #[test]
    fn an_engine_that_crashes_loses_in_a_cluster_task() {
        let s = killed_in_game("SEGV", OutsideKill::Stop).unwrap();
        assert_eq!((s.standings[0].losses, s.standings[1].wins), (1, 1));
    }
}
