//! The check before the first game: every engine must start and complete
//! the handshake (`uci` … `uciok`, its options, `isready` … `readyok`),
//! listing every option the spec sets and refusing none. A missing
//! program, a mute engine or a bad option then stops the tournament with
//! an error naming it, rather than being scored as a loss in every game.
//! (Failures during the games are faults, scored as losses.)

use crate::config::spec::{EngineSpec, TournamentSpec};
use crate::referee::engine::{Engine, EngineError};
use crate::referee::game::option_defaults;
use crate::referee::stderr_log::StderrLog;
use std::time::Duration;

/// How long the check waits after `readyok` before it looks for a refusal
/// on the standard error, which comes in no order with the output: the
/// client's reader has then read what the engine wrote before `readyok`.
const STDERR_SETTLE: Duration = Duration::from_millis(50);

/// Starts every engine of `spec` once, all at the same time (a mute
/// engine takes the whole handshake limit), and stops it again. The error
/// has one line per engine that failed.
pub fn check(spec: &TournamentSpec) -> Result<(), String> {
    let defaults = option_defaults(spec);
    let failures: Vec<String> = std::thread::scope(|scope| {
        let checks: Vec<_> = spec
            .engines
            .iter()
            .map(|e| {
                let defaults = &defaults;
                scope.spawn(move || {
                    let log = StderrLog::of(spec, &e.name, "start-up check");
                    let engine = Engine::start(e, defaults, log)?;
                    std::thread::sleep(STDERR_SETTLE);
                    let refused = engine.stderr_refusal();
                    engine.quit();
                    refused
                })
            })
            .collect();
        spec.engines
            .iter()
            .zip(checks)
            .filter_map(|(e, check)| match check.join() {
                Ok(Ok(())) => None,
                Ok(Err(err)) => Some(failure(e, &err)),
                Err(_) => Some(format!("engine '{}': the check panicked", e.name)),
            })
            .collect()
    });
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n"))
    }
}

/// What went wrong with `e`, in cutechess's words where it has some.
fn failure(e: &EngineSpec, err: &EngineError) -> String {
    let who = format!("engine '{}' ({})", e.name, e.command.join(" "));
    match err {
        EngineError::Start(why) => format!("could not start {who}: {why}"),
        EngineError::Exited(why) => format!("{who} exited during the start-up check: {why}"),
        EngineError::Timeout(why) => format!("{who} did not answer the start-up check: {why}"),
        EngineError::Option(why) => format!("{who} {why}"),
    }
}
