//! Scratch directories for the unit tests, inside the target directory:
//! `tmp/CRATE/NAME` (`leiserchess`, and `autotest`, whose unit tests
//! include this file), beside the integration tests' (cargo gives those
//! `CARGO_TARGET_TMPDIR`, `tmp/`, but not the unit tests), so that a test
//! run writes nothing outside the repository and `target/`.

use std::io::ErrorKind;
use std::path::PathBuf;

/// The target directory this test binary was built in: a unit test's
/// binary is `TARGET/PROFILE/deps/NAME` (`TARGET` may end in a target
/// triple). Its `CACHEDIR.TAG` is not a sign: cargo writes it only into a
/// target directory it made, and `make check` makes `target/tmp` first.
fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    let deps = exe.parent().filter(|d| d.ends_with("deps"));
    deps.and_then(|d| d.parent()?.parent())
        .unwrap_or_else(|| panic!("{} is not in a cargo profile's deps/", exe.display()))
        .to_path_buf()
}

/// A new empty directory for the test that names it `name`, its contents
/// from an earlier run removed: what a failed test leaves there stays to
/// be looked at until the test runs again.
pub fn dir(name: &str) -> PathBuf {
    let dir = target_dir()
        .join("tmp")
        .join(env!("CARGO_CRATE_NAME"))
        .join(name);
    match std::fs::remove_dir_all(&dir) {
        Err(e) if e.kind() != ErrorKind::NotFound => panic!("{}: {e}", dir.display()),
        _ => {}
    }
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
}

#[test]
fn a_scratch_directory_is_new_and_empty_each_time_inside_the_target_directory() {
    let first = dir("scratch");
    std::fs::write(first.join("f"), b"x").unwrap();
    let again = dir("scratch");
    assert_eq!(again, first);
    assert_eq!(std::fs::read_dir(&again).unwrap().count(), 0);
    assert!(
        again.starts_with(target_dir().join("tmp")),
        "{}",
        again.display()
    );
    std::fs::remove_dir_all(&again).unwrap();
}
