//! The SPRT of a generation, in this process by autotest's own tournament
//! code: the candidate against the best, both the loop's engine with its
//! net as `EvalFile` (the best's embedded net when it has none), at the
//! loop's clock or nodes (at nodes, `Search=pvs`: the engine's default,
//! the hybrid, reads a node budget as its tree's playouts), colour-swapped
//! pairs from its openings in an
//! order seeded by the generation, at most the budget's games, written
//! to the generation's PGN and taken up from it when started again (as
//! `-resume`). The running report and the final table go to standard
//! error and to `sprt.log` beside the PGN. It is a run of kind `sprt` in
//! the results database, set on its generation's row (`db::loops`): a
//! started again SPRT goes on in the same run, its games made those of
//! the PGN.

use super::args::Setup;
use super::executor::{Artifact, SprtJob, SprtResult, Verdict};
use crate::config::spec::{EngineSpec, OpeningsSpec, TournamentSpec};
use crate::config::validate;
use crate::db::best_effort::BestEffort;
use crate::db::loops;
use crate::db::provenance::sha256;
use crate::db::text_enums::Status;
use crate::db::write;
use crate::openings;
use crate::pgn::write::to_pgn;
use crate::stats::sprt::SprtDecision;
use crate::tournament::play;
use crate::tournament::progress::Progress;
use crate::tournament::resume::{self, Resumed};
use crate::tournament::run::{run_jobs, OutsideKill};
use crate::tournament::schedule::to_play;
use crate::tournament::table::table;
use rusqlite::Connection;
use std::io::Write;
use std::path::Path;

/// The tournament `job` plays.
pub fn spec(setup: &Setup, job: &SprtJob) -> TournamentSpec {
    let by_nodes = setup.limits.nodes.is_some();
    let engine = |name: &str, net: Option<&Artifact>| EngineSpec {
        name: name.to_string(),
        command: vec![setup.engine.display().to_string()],
        dir: None,
        options: net
            .map(|a| ("EvalFile".to_string(), a.path.display().to_string()))
            .into_iter()
            .chain(by_nodes.then(|| ("Search".to_string(), "pvs".to_string())))
            .collect(),
        limits: setup.limits.clone(),
        restart: true,
    };
    TournamentSpec {
        title: format!(
            "autotest loop {}, generation {}",
            setup.dir.display(),
            job.generation
        ),
        engines: vec![
            engine("candidate", Some(&job.candidate)),
            engine("best", job.best.as_ref()),
        ],
        concurrency: setup.threads,
        openings: OpeningsSpec {
            file: Some(setup.openings.clone()),
            random: true,
            plies: None,
        },
        pgn_out: Some(job.pgn.clone()),
        resume: true,
        sprt: Some(setup.sprt),
        max_games: Some(job.games),
        seed: job.seed,
        db: Some("none".to_string()),
        ..TournamentSpec::default()
    }
}

/// Plays `job` to its decision or its last game; with `recording` (the
/// results database and the loop's row), records it as a run.
pub fn play(
    setup: &Setup,
    job: &SprtJob,
    recording: Option<(&mut BestEffort, i64)>,
) -> Result<SprtResult, String> {
    let spec = spec(setup, job);
    validate(&spec).map_err(|e| e.to_string())?;
    let log_path = job.pgn.with_file_name("sprt.log");
    let mut log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log_path)
        .map_err(|e| format!("cannot write {}: {e}", log_path.display()))?;
    let mut tell = |text: &str| {
        eprint!("{text}");
        let _ = log.write_all(text.as_bytes());
    };
    let book = openings::book(&spec)?;
    let mut progress = Progress::new(&spec, to_play(&spec, book.len()).len());
    let resumed = resume::load(&spec, &book)?;
    if let Some(r) = &resumed {
        tell(&r.describe(&spec));
        for g in &r.games {
            progress.count_resumed(&g.white, &g.black, &g.result);
        }
    }
    let command: Vec<String> = std::env::args().collect();
    let mut run = recording.and_then(|(db, loop_id)| {
        let g = job.generation;
        let id = db.attempt(|c| begin(c, loop_id, g, &spec, &command, resumed.as_ref()))?;
        Some((db, id))
    });
    let played = run_jobs(
        &spec,
        &book,
        resumed.as_ref(),
        OutsideKill::Loss,
        |job, rec, done, _, llr| {
            let mut text = progress.game(rec, done);
            if let Some(llr) = llr {
                text += &progress.sprt(llr);
            }
            tell(&text);
            if let Some((db, id)) = run.as_mut() {
                let row = write::played_now(job, rec, to_pgn(rec, spec.pgn_style), llr);
                db.attempt(|c| write::insert_game(c, *id, &row));
            }
        },
    );
    if let Some((db, id)) = run.as_mut() {
        db.attempt(|c| write::set_status(c, *id, play::status(&played)));
    }
    let summary = played?;
    tell(&table(&spec, &summary));
    let st = &summary.standings[0];
    let (llr, verdict) = verdict(summary.sprt, st.games(), job.games)?;
    Ok(SprtResult {
        pgn: artifact(&job.pgn)?,
        verdict,
        llr,
        wdl: [st.wins, st.draws, st.losses],
    })
}

/// The verdict of an SPRT (its LLR and decision, `sprt`) after `played`
/// of at most `games` games, with its LLR; one that stopped short of both
/// is an error.
pub fn verdict(
    sprt: Option<(f64, SprtDecision)>,
    played: u64,
    games: u32,
) -> Result<(f64, Verdict), String> {
    match sprt {
        Some((llr, SprtDecision::H1)) => Ok((llr, Verdict::H1)),
        Some((llr, SprtDecision::H0)) => Ok((llr, Verdict::H0)),
        Some((llr, SprtDecision::Continue)) if played >= u64::from(games) => {
            Ok((llr, Verdict::Undecided))
        }
        _ => Err(format!(
            "the SPRT stopped after {played} of {games} games without a decision"
        )),
    }
}

/// The SPRT's run: its generation's, made `running` again, or a new one
/// set on its generation; its games made those of the PGN file.
fn begin(
    conn: &mut Connection,
    loop_id: i64,
    generation: u32,
    spec: &TournamentSpec,
    command: &[String],
    resumed: Option<&Resumed>,
) -> rusqlite::Result<i64> {
    let run = match loops::sprt_run(conn, loop_id, generation)? {
        Some(id) => {
            write::set_status(conn, id, Status::Running)?;
            id
        }
        None => {
            let id = write::insert_run(conn, spec, command)?;
            loops::set_sprt_run(conn, loop_id, generation, id)?;
            id
        }
    };
    let rows: Vec<write::GameRow> = resumed.map_or(Vec::new(), |r| {
        r.games
            .iter()
            .zip(&r.texts)
            .map(|(g, t)| write::played_before(g, t))
            .collect()
    });
    write::keep_only(conn, run, &rows)?;
    Ok(run)
}

/// The file at `path` with its sha256.
pub fn artifact(path: &Path) -> Result<Artifact, String> {
    Ok(Artifact {
        path: path.to_path_buf(),
        sha256: sha256(path).ok_or_else(|| format!("cannot read {}", path.display()))?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::spec::{Clock, EngineLimits};
    use std::path::PathBuf;

    fn setup(limits: EngineLimits) -> Setup {
        Setup {
            limits,
            ..Setup::example(Path::new("/l"))
        }
    }

    #[test]
    fn a_decision_or_every_game_is_a_verdict() {
        use SprtDecision::*;
        assert_eq!(verdict(Some((3.1, H1)), 7, 40), Ok((3.1, Verdict::H1)));
        assert_eq!(verdict(Some((-3.0, H0)), 9, 40), Ok((-3.0, Verdict::H0)));
        let undecided = Ok((0.5, Verdict::Undecided));
        assert_eq!(verdict(Some((0.5, Continue)), 40, 40), undecided);
        let short = Err("the SPRT stopped after 39 of 40 games without a decision".to_string());
        assert_eq!(verdict(Some((0.5, Continue)), 39, 40), short);
        assert!(verdict(None, 40, 40).is_err());
    }

    /// At fixed nodes both engines are PVS; on a clock, the default
    /// search; the candidate has its net, the best the embedded one.
    #[test]
    fn at_nodes_the_games_are_pvs_s_on_a_clock_the_default_search_s() {
        let job = SprtJob {
            generation: 2,
            candidate: Artifact {
                path: PathBuf::from("/l/gen-002/net.nnue"),
                sha256: "ab".to_string(),
            },
            best: None,
            pgn: PathBuf::from("/l/gen-002/sprt.pgn"),
            games: 40,
            seed: 7,
        };
        let options = |limits| -> Vec<Vec<(String, String)>> {
            spec(&setup(limits), &job)
                .engines
                .into_iter()
                .map(|e| e.options)
                .collect()
        };
        let pair = |a: &str, b: &str| (a.to_string(), b.to_string());
        let nodes = EngineLimits {
            nodes: Some(200),
            ..EngineLimits::default()
        };
        let net = pair("EvalFile", "/l/gen-002/net.nnue");
        let pvs = pair("Search", "pvs");
        assert_eq!(options(nodes), [vec![net.clone(), pvs.clone()], vec![pvs]]);
        let clock = EngineLimits {
            clock: Some(Clock::Fischer {
                base_ms: 10_000,
                inc_ms: 100,
            }),
            ..EngineLimits::default()
        };
        assert_eq!(options(clock), [vec![net], vec![]]);
    }
}
