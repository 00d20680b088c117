//! What the tests of `autotest loop` share: the loop started in a
//! process group of its own, its end, its state file.

use autotest::net_loop::state::State;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};

/// `command` started with its output piped and no input, in a process
/// group of its own (so that a test can signal the loop and its steps).
pub fn start(mut command: Command) -> Child {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .expect("start autotest")
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `child`'s output once it ended, which must be a success.
pub fn finish(child: Child) -> Output {
    let out = child.wait_with_output().expect("wait for autotest");
    assert!(
        out.status.success(),
        "autotest loop failed: {}\n{}",
        out.status,
        text(&out.stderr)
    );
    out
}

/// The state in `dir`, if it was written yet.
pub fn state(dir: &Path) -> Option<State> {
    let text = std::fs::read_to_string(dir.join("loop.json")).ok()?;
    Some(State::from_json(&text).expect("a whole state file"))
}
