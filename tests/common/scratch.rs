//! Scratch directories for the tests, the engine's and autotest's, under
//! cargo's `CARGO_TARGET_TMPDIR` (`target/tmp`), one folder a test
//! binary: what a test writes stays inside `target/`.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};

/// A new empty directory for the test that names it `name` (unique in its
/// binary): `target/tmp/BINARY/NAME`, its contents from an earlier run
/// removed. What a failed test leaves there stays to be looked at until
/// the test runs again.
pub fn dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(env!("CARGO_CRATE_NAME"))
        .join(name);
    match std::fs::remove_dir_all(&dir) {
        Err(e) if e.kind() != ErrorKind::NotFound => panic!("{}: {e}", dir.display()),
        _ => {}
    }
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
}
