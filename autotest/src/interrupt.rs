//! Stopping a long run cleanly. After [`install`], the first SIGINT or
//! SIGTERM asks the tournament or the tuner to start no new game and to
//! finish those in flight, whose results count and are written as usual;
//! a second one ends the process at once. Either way the exit status is
//! 128 + the signal's number, as a shell reports a process the signal
//! killed, and the files hold whole games (or pairs) only, so `-resume`
//! (or tune's `-state`) goes on from them.
//!
//! Engines run in process groups of their own (`referee::engine`), so a
//! Ctrl-C at the terminal reaches autotest alone and the games in flight
//! are not lost to engines killed in the middle of them.
//!
//! A run stopped and continued (SIGSTOP or Ctrl-Z, then SIGCONT; Slurm's
//! suspend, or its kill of a stopped task) has charged the stop to the
//! clock of the engine to move: [`stopped_during`] tells the tournament
//! that a game in flight then is not a result.

use signal_hook::consts::{SIGCONT, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;
use std::io::Write;
use std::sync::atomic::{AtomicI32, AtomicU64, Ordering};
use std::time::Duration;

/// The first signal received, 0 before any.
static RECEIVED: AtomicI32 = AtomicI32::new(0);

/// How many SIGCONTs were received.
static CONTINUED: AtomicU64 = AtomicU64::new(0);

/// How long a game that ended on time waits for a SIGCONT to be counted:
/// the signal's thread may run after the referee's on a continue.
const CONTINUE_GRACE: Duration = Duration::from_millis(200);

/// Starts listening for SIGINT, SIGTERM and SIGCONT on a thread of its
/// own, which also tells the user what the first stop signal does.
pub fn install() -> Result<(), String> {
    let mut signals = Signals::new([SIGINT, SIGTERM, SIGCONT])
        .map_err(|e| format!("cannot listen for SIGINT, SIGTERM and SIGCONT: {e}"))?;
    std::thread::spawn(move || {
        for signal in signals.forever() {
            if signal == SIGCONT {
                CONTINUED.fetch_add(1, Ordering::SeqCst);
                continue;
            }
            if RECEIVED
                .compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst)
                .is_err()
            {
                std::process::exit(i32::from(status(signal)));
            }
            // stderr may be gone (a closed terminal): the stop goes on.
            let _ = writeln!(
                std::io::stderr(),
                "autotest: {}: finishing the games in flight, then stopping \
                 (a second signal stops at once)",
                name(signal)
            );
        }
    });
    Ok(())
}

/// The count [`stopped_during`] compares with.
pub fn continued() -> u64 {
    CONTINUED.load(Ordering::SeqCst)
}

/// Whether the process was continued after a stop since [`continued`]
/// said `before`; a game that `ended_on_time` first waits for the signal
/// to be counted.
pub fn stopped_during(before: u64, ended_on_time: bool) -> bool {
    if ended_on_time && continued() == before {
        std::thread::sleep(CONTINUE_GRACE);
    }
    continued() != before
}

/// The signal that asked the run to stop, if one did.
pub fn received() -> Option<i32> {
    match RECEIVED.load(Ordering::SeqCst) {
        0 => None,
        signal => Some(signal),
    }
}

/// The exit status after a stop by `signal`.
pub fn status(signal: i32) -> u8 {
    u8::try_from(128 + signal).unwrap_or(u8::MAX)
}

/// SIGINT or SIGTERM by name.
pub fn name(signal: i32) -> &'static str {
    match signal {
        SIGINT => "SIGINT",
        SIGTERM => "SIGTERM",
        _ => "a signal",
    }
}
