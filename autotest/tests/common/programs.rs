//! What a test needs to run this build's programs: the engine binary,
//! argument lists as owned strings, and the lines a reader thread passes
//! on from a child's standard error, to their end.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The engine binary of this build: beside `autotest` in the target
/// directory (`cargo test --workspace` builds both).
pub fn leiserchess() -> PathBuf {
    let path = Path::new(env!("CARGO_BIN_EXE_autotest")).with_file_name("leiserchess");
    assert!(
        path.exists(),
        "{} is missing: build the engine first (cargo build)",
        path.display()
    );
    path
}

/// Owned copies of `v`, as argument lists and commands are.
pub fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|a| a.to_string()).collect()
}

/// Every line a reader thread sent, up to its end: the thread that
/// reads a child's stderr may still be passing on the last lines when the
/// child has been waited for, so this waits for the sender to close (at
/// most 10 s, in case a grandchild still holds the pipe).
pub fn drain(lines: &mpsc::Receiver<String>) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut said = Vec::new();
    while let Some(left) = deadline.checked_duration_since(Instant::now()) {
        match lines.recv_timeout(left) {
            Ok(line) => said.push(line),
            Err(_) => break,
        }
    }
    said
}
