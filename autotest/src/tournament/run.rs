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

use crate::config::spec::{PgnStyle, TournamentSpec};
use crate::interrupt;
use crate::openings::Opening;
use crate::pgn::write::to_pgn;
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
    run_jobs(spec, openings, resumed, |_, rec, done, total, llr| {
        report(rec, done, total, llr)
    })
}

/// [`run_resumed`], with each game's [`Job`] given to `report` too.
pub fn run_jobs(
    spec: &TournamentSpec,
    openings: &[Opening],
    resumed: Option<&Resumed>,
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
    let (tx, rx) = mpsc::channel::<(Job, GameRecord)>();
    std::thread::scope(|scope| {
        for _ in 0..spec.concurrency.max(1) {
            let tx = tx.clone();
            let (queue, stop, default_opening) = (&queue, &stop, &default_opening);
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
                let rec = game::play(
                    &spec.engines[job.white],
                    &spec.engines[job.black],
                    opening,
                    spec,
                    &round,
                );
                if tx.send((job, rec)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        for (job, rec) in rx {
            let fault = match &rec.termination {
                Termination::Fault { engine, kind, .. } => Some((engine.as_str(), *kind)),
                _ => None,
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
                let _ = f.write_all(to_pgn(&rec, spec.pgn_style).as_bytes());
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
