//! A whole tournament on this machine, as `autotest` runs one: the
//! openings loaded (and shuffled by the seed), an earlier run's games
//! taken up with `-resume`, the running report on standard error, the
//! final table on standard output, and after a stop signal how to go on.
//! A cluster task (`crate::slurm::task`) plays its shard the same way.

use crate::config::spec::{PgnStyle, TournamentSpec};
use crate::interrupt;
use crate::openings;
use crate::referee::record::GameRecord;
use crate::tournament::progress::Progress;
use crate::tournament::resume;
use crate::tournament::schedule::to_play;
use crate::tournament::{run_resumed, table};

/// Plays `spec` (its shard, with `only_pairs`) and prints as it goes.
pub fn play(spec: &TournamentSpec) -> Result<(), String> {
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
    let report = |rec: &GameRecord, done, _, llr| {
        eprint!("{}", progress.game(rec, done));
        if let Some(llr) = llr {
            eprint!("{}", progress.sprt(llr));
        }
    };
    let summary = run_resumed(spec, &book, resumed.as_ref(), report)?;
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
