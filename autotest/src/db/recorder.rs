//! A tournament recorded as it is played: its run's row before the first
//! game (a resumed run's own row again, its games made those of the PGN
//! file), each counted game as it is written to the PGN file, and the
//! status at the end. A resumed run that an older autotest recorded
//! beside its PGN file is taken over by the per-user database
//! (`take_over`). A database that cannot be used is reported in one
//! line on standard error, and the run goes on without it (`best_effort`).

use crate::config::spec::{PgnStyle, TournamentSpec};
use crate::db::best_effort::BestEffort;
use crate::db::text_enums::Status;
use crate::db::{take_over, write};
use crate::pgn::write::to_pgn;
use crate::referee::record::GameRecord;
use crate::tournament::resume::Resumed;
use crate::tournament::schedule::Job;
use rusqlite::Connection;

/// The run's row in an open database.
pub struct Recorder {
    db: BestEffort,
    run: i64,
    style: PgnStyle,
}

impl Recorder {
    /// The recorder of `spec`'s run, started by `command` (its every
    /// word, the program's first), going on from `resumed`; `None` when
    /// recording is off or the database is unavailable (said on standard
    /// error).
    pub fn start(
        spec: &TournamentSpec,
        command: &[String],
        resumed: Option<&Resumed>,
    ) -> Option<Recorder> {
        let mut db = BestEffort::open(spec.db.as_deref())?;
        if let (Some(_), Some(pgn), true) = (resumed, &spec.pgn_out, db.per_user()) {
            let find = |c: &Connection| write::resumable(c, pgn, command);
            db.attempt(|conn| Ok::<_, String>(take_over::take_over(conn, pgn, &find)));
        }
        let run = db.attempt(|conn| begin(conn, spec, command, resumed))?;
        Some(Recorder {
            db,
            run,
            style: spec.pgn_style,
        })
    }

    /// Records the game of `job`, counted, with the SPRT's `llr` after it.
    pub fn game(&mut self, job: &Job, rec: &GameRecord, llr: Option<f64>) {
        let row = write::played_now(job, rec, to_pgn(rec, self.style), llr);
        let run = self.run;
        self.db.attempt(|conn| write::insert_game(conn, run, &row));
    }

    /// Ends the run with `status`.
    pub fn finish(&mut self, status: Status) {
        let run = self.run;
        self.db.attempt(|conn| write::set_status(conn, run, status));
    }
}

/// The run's row: a resumed run's own again, its games made those of the
/// PGN file; else a new one.
fn begin(
    conn: &mut Connection,
    spec: &TournamentSpec,
    command: &[String],
    resumed: Option<&Resumed>,
) -> rusqlite::Result<i64> {
    let again = match (resumed, &spec.pgn_out) {
        (Some(_), Some(pgn)) => write::resume_run(conn, pgn, command)?,
        _ => None,
    };
    let run = match again {
        Some(id) => id,
        None => write::insert_run(conn, spec, command)?,
    };
    if let Some(r) = resumed {
        let rows: Vec<write::GameRow> = r
            .games
            .iter()
            .zip(&r.texts)
            .map(|(g, t)| write::played_before(g, t))
            .collect();
        write::keep_only(conn, run, &rows)?;
    }
    Ok(run)
}
