//! The check before the first game: every engine must start and complete
//! the handshake (`uci` … `uciok`, its options, `isready` … `readyok`).
//! A missing program or a mute engine then stops the tournament with an
//! error naming it, rather than being scored as a loss in every game.
//! (Failures during the games are faults, scored as losses.)

use crate::engine::{Engine, EngineError};
use crate::referee;
use crate::spec::{EngineSpec, TournamentSpec};

/// Starts every engine of `spec` once, all at the same time (a mute
/// engine takes the whole handshake limit), and stops it again. The error
/// has one line per engine that failed.
pub fn check(spec: &TournamentSpec) -> Result<(), String> {
    let defaults = referee::option_defaults(spec);
    let failures: Vec<String> = std::thread::scope(|scope| {
        let checks: Vec<_> = spec
            .engines
            .iter()
            .map(|e| {
                let defaults = &defaults;
                scope.spawn(move || Engine::start(e, defaults).map(Engine::quit))
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
    }
}
