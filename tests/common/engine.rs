//! The engine binary, run end to end on a given input.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs the engine binary with `args` on `input` and waits for it to exit.
pub fn run(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_leiserchess"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("engine starts");
    // The engine may exit before reading everything: ignore a broken pipe.
    let _ = child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes());
    child.wait_with_output().expect("engine exits")
}
