//! How a test finds what it needs (`tests/common/needs.rs`), against a PATH of
//! fake programs in a temporary directory: found, left out naming what is
//! missing and how to get it, and failed with `LEISERCHESS_REQUIRE_ALL=1`.

use crate::common::{needs, scratch};

use needs::{verdict, Need, Settings, Verdict, CHROMEDRIVER, CHROMIUM};
use std::ffi::{OsStr, OsString};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

const BROWSER: &[Need] = &[CHROMIUM, CHROMEDRIVER];
const SLURM: &[Need] = &[Need::Slurm];

/// A shell script `name` in `dir` running `body`, with `mode`.
fn script(dir: &Path, name: &str, body: &str, mode: u32) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
    path
}

fn path_of(dirs: &[&Path]) -> OsString {
    std::env::join_paths(dirs).unwrap()
}

/// `LEISERCHESS_REQUIRE_ALL` set to `value`.
fn require(value: &str) -> Settings<'_> {
    Settings {
        require_all: Some(OsStr::new(value)),
        needs: None,
    }
}

/// `LEISERCHESS_NEEDS` set to `value`, and `LEISERCHESS_REQUIRE_ALL` to
/// `require_all`.
fn wanted<'a>(value: &'a str, require_all: Option<&'a str>) -> Settings<'a> {
    Settings {
        require_all: require_all.map(OsStr::new),
        needs: Some(OsStr::new(value)),
    }
}

fn left_out(v: Verdict) -> String {
    match v {
        Verdict::LeaveOut(why) => why,
        v => panic!("expected the test left out, got {v:?}"),
    }
}

fn failed(v: Verdict) -> String {
    match v {
        Verdict::Fail(why) => why,
        v => panic!("expected the test failed, got {v:?}"),
    }
}

#[test]
fn nothing_on_path_leaves_the_browser_test_out_naming_both_programs() {
    let dir = scratch::dir("needs-nothing");
    let why = left_out(verdict(BROWSER, &path_of(&[&dir]), Settings::default()));
    assert_eq!(
        why,
        "needs chromium (no chromium or chromium-browser on PATH; `make deps` as root \
         installs Debian's chromium), chromedriver (no chromedriver on PATH; `make deps` \
         as root installs Debian's chromium-driver)"
    );
    // An empty PATH finds nothing either.
    assert_eq!(
        left_out(verdict(BROWSER, OsStr::new(""), Settings::default())),
        why,
        "an empty PATH"
    );
}

#[test]
fn programs_on_path_are_found_under_either_name_first_directory_first() {
    let (a, b) = (scratch::dir("needs-found-a"), scratch::dir("needs-found-b"));
    let browser = script(&b, "chromium-browser", "exit 0", 0o755);
    let driver_b = script(&b, "chromedriver", "exit 0", 0o755);
    let driver_a = script(&a, "chromedriver", "exit 0", 0o755);
    assert_eq!(
        verdict(BROWSER, &path_of(&[&b]), Settings::default()),
        Verdict::Run(vec![browser.clone(), driver_b])
    );
    assert_eq!(
        verdict(BROWSER, &path_of(&[&a, &b]), Settings::default()),
        Verdict::Run(vec![browser, driver_a])
    );
    // `chromium` is preferred to `chromium-browser`.
    let chromium = script(&b, "chromium", "exit 0", 0o755);
    assert_eq!(
        verdict(&[CHROMIUM], &path_of(&[&a, &b]), Settings::default()),
        Verdict::Run(vec![chromium])
    );
}

#[test]
fn what_is_not_an_executable_file_is_not_found() {
    let dir = scratch::dir("needs-not-executable");
    script(&dir, "chromium", "exit 0", 0o644);
    std::fs::create_dir(dir.join("chromium-browser")).unwrap();
    script(&dir, "chromedriver", "exit 0", 0o755);
    let why = left_out(verdict(BROWSER, &path_of(&[&dir]), Settings::default()));
    assert!(
        why.starts_with("needs chromium (no chromium or chromium-browser on PATH;"),
        "{why}"
    );
    assert!(!why.contains("chromedriver"), "{why}");
}

#[test]
fn require_all_fails_the_test_naming_what_is_missing() {
    let dir = scratch::dir("needs-require-all");
    script(&dir, "chromedriver", "exit 0", 0o755);
    let path = path_of(&[&dir]);
    let why = failed(verdict(BROWSER, &path, require("1")));
    assert!(
        why.starts_with("LEISERCHESS_REQUIRE_ALL=1 and missing: chromium (no chromium"),
        "{why}"
    );
    assert!(!why.contains("chromedriver"), "{why}");
    // 0 or empty is the default: left out.
    for off in ["0", ""] {
        let why = left_out(verdict(BROWSER, &path, require(off)));
        assert!(
            why.starts_with("needs chromium (no chromium"),
            "{off:?}: {why}"
        );
    }
    // Nothing missing: it runs, required or not.
    let chromium = script(&dir, "chromium", "exit 0", 0o755);
    assert_eq!(
        verdict(&[CHROMIUM], &path, require("1")),
        Verdict::Run(vec![chromium])
    );
}

#[test]
fn require_all_other_than_0_or_1_fails_naming_the_variable() {
    let dir = scratch::dir("needs-require-all-bad");
    script(&dir, "chromium", "exit 0", 0o755);
    let why = failed(verdict(&[CHROMIUM], &path_of(&[&dir]), require("yes")));
    assert_eq!(why, "LEISERCHESS_REQUIRE_ALL is \"yes\": it must be 0 or 1");
}

#[test]
fn slurm_is_there_only_when_squeue_answers() {
    let dir = scratch::dir("needs-slurm");
    let path = path_of(&[&dir]);
    let why = left_out(verdict(SLURM, &path, Settings::default()));
    assert_eq!(
        why,
        "needs slurm (no squeue on PATH; `scripts/slurm-local.sh start` as root starts a \
         one-node cluster here)"
    );
    let squeue = script(
        &dir,
        "squeue",
        "echo 'squeue: error: Unable to contact slurm controller' >&2; exit 1",
        0o755,
    );
    let why = left_out(verdict(SLURM, &path, Settings::default()));
    assert_eq!(
        why,
        format!(
            "needs slurm ({} -h: exit status: 1, squeue: error: Unable to contact slurm \
             controller; `scripts/slurm-local.sh start` as root starts a one-node cluster here)",
            squeue.display()
        )
    );
    let why = failed(verdict(SLURM, &path, require("1")));
    assert!(
        why.starts_with("LEISERCHESS_REQUIRE_ALL=1 and missing: slurm ("),
        "{why}"
    );
    script(&dir, "squeue", "exit 0", 0o755);
    assert_eq!(
        verdict(SLURM, &path, Settings::default()),
        Verdict::Run(vec![squeue])
    );
}

#[test]
fn needs_none_leaves_out_a_test_whose_needs_are_all_here() {
    let dir = scratch::dir("needs-none");
    script(&dir, "chromium", "exit 0", 0o755);
    script(&dir, "chromedriver", "exit 0", 0o755);
    let path = path_of(&[&dir]);
    assert!(matches!(
        verdict(BROWSER, &path, Settings::default()),
        Verdict::Run(_)
    ));
    assert_eq!(
        left_out(verdict(BROWSER, &path, wanted("none", None))),
        "needs chromium, chromedriver: left to `make test` (LEISERCHESS_NEEDS=none)"
    );
    // REQUIRE_ALL=0 does not change it; an empty value is unset.
    assert!(matches!(
        verdict(BROWSER, &path, wanted("none", Some("0"))),
        Verdict::LeaveOut(_)
    ));
    assert!(matches!(
        verdict(BROWSER, &path, wanted("", None)),
        Verdict::Run(_)
    ));
}

#[test]
fn needs_none_with_require_all_or_another_value_fails_naming_the_variables() {
    let dir = scratch::dir("needs-none-bad");
    let path = path_of(&[&dir]);
    assert_eq!(
        failed(verdict(SLURM, &path, wanted("none", Some("1")))),
        "LEISERCHESS_NEEDS=none leaves out what LEISERCHESS_REQUIRE_ALL=1 requires: set one of them"
    );
    assert_eq!(
        failed(verdict(SLURM, &path, wanted("all", None))),
        "LEISERCHESS_NEEDS is \"all\": it must be none or unset"
    );
}
