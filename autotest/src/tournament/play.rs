//! A whole tournament on this machine, as `autotest` runs one: the
//! openings loaded (and shuffled by the seed), an earlier run's games
//! taken up with `-resume`, the running report on standard error, the
//! final table on standard output, and after a stop signal how to go on.
//! A cluster task (`crate::slurm::task`) plays its shard the same way,
//! but stops rather than scores a game whose engine was killed from
//! outside ([`OutsideKill`]); only the local runner records the run in
//! the results database ([`play_and_record`], `crate::db`).

use crate::config::spec::{PgnStyle, TournamentSpec};
use crate::db::recorder::Recorder;
use crate::db::text_enums::Status;
use crate::interrupt;
use crate::openings;
use crate::referee::record::GameRecord;
use crate::stats::sprt::SprtDecision;
use crate::tournament::progress::Progress;
use crate::tournament::resume;
use crate::tournament::run::{run_jobs, OutsideKill, Summary};
use crate::tournament::schedule::{to_play, Job};
use crate::tournament::table;

/// Plays `spec` (its shard, with `only_pairs`) and prints as it goes;
/// `outside` is the rule for an engine killed from outside.
pub fn play(spec: &TournamentSpec, outside: OutsideKill) -> Result<(), String> {
    play_with(spec, None, outside)
}

/// [`play`] on this machine, and with `command` (the command line, every
/// word) the run recorded in the results database.
pub fn play_and_record(spec: &TournamentSpec, command: Option<&[String]>) -> Result<(), String> {
    play_with(spec, command, OutsideKill::Loss)
}

fn play_with(
    spec: &TournamentSpec,
    command: Option<&[String]>,
    outside: OutsideKill,
) -> Result<(), String> {
    let book = openings::book(spec)?;
    let total = to_play(spec, book.len()).len();
    let mut progress = Progress::new(spec, total);
    let resumed = resume::load(spec, &book)?;
    if let Some(r) = &resumed {
        eprint!("{}", r.describe(spec));
        for g in &r.games {
            progress.count_resumed(&g.white, &g.black, &g.result);
        }
    }
    let mut recorder = command.and_then(|c| Recorder::start(spec, c, resumed.as_ref()));
    let report = |job: &Job, rec: &GameRecord, done, _, llr| {
        eprint!("{}", progress.game(rec, done));
        if let Some(llr) = llr {
            eprint!("{}", progress.sprt(llr));
        }
        if let Some(r) = recorder.as_mut() {
            r.game(job, rec, llr);
        }
    };
    let outcome = run_jobs(spec, &book, resumed.as_ref(), outside, report);
    if let Some(r) = recorder.as_mut() {
        r.finish(status(&outcome));
    }
    let summary = outcome?;
    println!("{}", spec.title);
    print!("{}", table(spec, &summary));
    if let Some(signal) = interrupt::received() {
        let done = resumed.as_ref().map_or(0, |r| r.games.len()) + summary.games.len();
        eprintln!(
            "autotest: stopped by {} after {done} of {total} games{}",
            interrupt::name(signal),
            // A course config appends whole runs; flags resume.
            match (&spec.pgn_out, spec.resume, spec.pgn_style) {
                (None, ..) | (_, _, PgnStyle::Course) => "",
                (Some(_), true, _) => "; the same command goes on",
                (Some(_), false, _) => "; the same command with -resume goes on",
            }
        );
    }
    Ok(())
}

/// The run's status in the results database (the loop's SPRT's too).
pub fn status(outcome: &Result<Summary, String>) -> Status {
    match outcome {
        Err(_) => Status::Failed,
        Ok(s) => match s.sprt {
            Some((_, SprtDecision::H0)) => Status::H0,
            Some((_, SprtDecision::H1)) => Status::H1,
            _ if interrupt::received().is_some() => Status::Stopped,
            _ => Status::Finished,
        },
    }
}
