//! The engine binary, run end to end on a given input.

use leiserchess::play::client::{Client, Stderr};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// How long one run may take before the test gives up: far more than the
/// slowest (a `bench` with every check on), so only a hang reaches it.
const RUN_LIMIT: Duration = Duration::from_secs(300);

/// Runs the engine binary with `args` on `input` and waits for it to exit;
/// the test fails if it does not within `RUN_LIMIT`.
pub fn run(args: &[&str], input: &str) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_leiserchess"));
    // What a lab command registers goes to a store of the tests', never
    // the user's.
    cmd.args(args).env(
        leiserchess::object_store::ENV,
        concat!(env!("CARGO_TARGET_TMPDIR"), "/store"),
    );
    let mut engine = Client::start(cmd, Stderr::Capture).expect("engine starts");
    // The engine may exit before reading everything: ignore a broken pipe.
    let _ = engine.send_raw(input.as_bytes());
    let exit = engine
        .wait_exit(Instant::now() + RUN_LIMIT)
        .unwrap_or_else(|e| panic!("the engine on {args:?}: {e}"));
    Output {
        status: exit.status,
        stdout: exit.rest.into_iter().flat_map(|l| l.raw).collect(),
        stderr: engine.stderr(),
    }
}
