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

use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::iterator::Signals;
use std::io::Write;
use std::sync::atomic::{AtomicI32, Ordering};

/// The first signal received, 0 before any.
static RECEIVED: AtomicI32 = AtomicI32::new(0);

/// Starts listening for SIGINT and SIGTERM on a thread of its own, which
/// also tells the user what the first signal does.
pub fn install() -> Result<(), String> {
    let mut signals = Signals::new([SIGINT, SIGTERM])
        .map_err(|e| format!("cannot listen for SIGINT and SIGTERM: {e}"))?;
    std::thread::spawn(move || {
        for signal in signals.forever() {
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
