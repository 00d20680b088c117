//! The SPRT of a generation, in this process by autotest's own tournament
//! code: the candidate against the best, both the loop's engine with its
//! net as `EvalFile` (the best's embedded net when it has none), at the
//! loop's clock or nodes, colour-swapped pairs from its openings in an
//! order seeded by the generation, at most the budget's games, written
//! to the generation's PGN and taken up from it when started again (as
//! `-resume`). The running report and the final table go to standard
//! error and to `sprt.log` beside the PGN.

use super::args::Setup;
use super::executor::{Artifact, SprtJob, SprtResult, Verdict};
use crate::config::spec::{EngineSpec, OpeningsSpec, TournamentSpec};
use crate::config::validate;
use crate::db::provenance::sha256;
use crate::openings;
use crate::stats::sprt::SprtDecision;
use crate::tournament::progress::Progress;
use crate::tournament::resume;
use crate::tournament::run::run_resumed;
use crate::tournament::schedule::to_play;
use crate::tournament::table::table;
use std::io::Write;
use std::path::Path;

/// The tournament `job` plays.
pub fn spec(setup: &Setup, job: &SprtJob) -> TournamentSpec {
    let engine = |name: &str, net: Option<&Artifact>| EngineSpec {
        name: name.to_string(),
        command: vec![setup.engine.display().to_string()],
        dir: None,
        options: net
            .map(|a| ("EvalFile".to_string(), a.path.display().to_string()))
            .into_iter()
            .collect(),
        limits: setup.limits.clone(),
        restart: true,
    };
    TournamentSpec {
        title: "autotest loop".to_string(),
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

/// Plays `job` to its decision or its last game.
pub fn play(setup: &Setup, job: &SprtJob) -> Result<SprtResult, String> {
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
    let summary = run_resumed(&spec, &book, resumed.as_ref(), |rec, done, _, llr| {
        let mut text = progress.game(rec, done);
        if let Some(llr) = llr {
            text += &progress.sprt(llr);
        }
        tell(&text);
    })?;
    tell(&table(&spec, &summary));
    let st = &summary.standings[0];
    let played = st.games();
    let (llr, verdict) = match summary.sprt {
        Some((llr, SprtDecision::H1)) => (llr, Verdict::H1),
        Some((llr, SprtDecision::H0)) => (llr, Verdict::H0),
        Some((llr, SprtDecision::Continue)) if played >= u64::from(job.games) => {
            (llr, Verdict::Undecided)
        }
        _ => {
            return Err(format!(
                "the SPRT stopped after {played} of {} games without a decision",
                job.games
            ))
        }
    };
    Ok(SprtResult {
        pgn: artifact(&job.pgn)?,
        verdict,
        llr,
        wdl: [st.wins, st.draws, st.losses],
    })
}

/// The file at `path` with its sha256.
pub fn artifact(path: &Path) -> Result<Artifact, String> {
    Ok(Artifact {
        path: path.to_path_buf(),
        sha256: sha256(path).ok_or_else(|| format!("cannot read {}", path.display()))?,
    })
}
