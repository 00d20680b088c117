//! What a test needs beyond the Rust toolchain, looked for when it runs: a
//! program on PATH (Chromium, chromedriver) or a Slurm cluster that
//! answers `squeue`. A test whose needs are missing is reported ignored,
//! naming them and how to get them, with one line on standard error; with
//! `LEISERCHESS_REQUIRE_ALL=1` (`make test`) it fails instead; with
//! `LEISERCHESS_NEEDS=none` (`make check`) every such test is left out,
//! found or not, so that nothing outside the repository is touched (a
//! browser's profile, a cluster's spool). Included by the engine's
//! `library` and `external` binaries and by autotest's `external` and
//! `cluster_faults`.

// Each binary that includes it uses the needs of its own tests, and none
// uses them all (`CURL`, for one, only autotest's document examples).
#![allow(dead_code)]

use libtest_mimic::{Completion, Trial};
use std::ffi::OsStr;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Set to 1, a missing need fails its test rather than leaving it out.
pub const REQUIRE_ALL: &str = "LEISERCHESS_REQUIRE_ALL";

/// Set to `none`, every test with a need is left out, to `make test`.
pub const NEEDS: &str = "LEISERCHESS_NEEDS";

const SLURM_GET: &str = "`scripts/slurm-local.sh start` as root starts a one-node cluster here";

/// Something a test needs.
pub enum Need {
    /// A program on PATH under one of `names`; `get` says how to install it.
    Program {
        names: &'static [&'static str],
        get: &'static str,
    },
    /// A Slurm controller that answers `squeue`.
    Slurm,
}

pub const CHROMIUM: Need = Need::Program {
    names: &["chromium", "chromium-browser"],
    get: "`make deps` as root installs Debian's chromium",
};

pub const CHROMEDRIVER: Need = Need::Program {
    names: &["chromedriver"],
    get: "`make deps` as root installs Debian's chromium-driver",
};

pub const CURL: Need = Need::Program {
    names: &["curl"],
    get: "`make deps` as root installs Debian's curl",
};

impl Need {
    /// Its short name, for the test's kind.
    pub fn name(&self) -> &'static str {
        match self {
            Need::Program { names, .. } => names[0],
            Need::Slurm => "slurm",
        }
    }

    /// Where it is (the program, or `squeue`), or what is missing and how
    /// to get it.
    pub fn find(&self, path: &OsStr) -> Result<PathBuf, String> {
        match self {
            Need::Program { names, get } => names
                .iter()
                .find_map(|n| on_path(n, path))
                .ok_or_else(|| format!("{} (no {} on PATH; {get})", names[0], names.join(" or "))),
            Need::Slurm => {
                let squeue = on_path("squeue", path)
                    .ok_or_else(|| format!("slurm (no squeue on PATH; {SLURM_GET})"))?;
                let out = Command::new(&squeue).arg("-h").output().map_err(|e| {
                    format!("slurm (cannot run {}: {e}; {SLURM_GET})", squeue.display())
                })?;
                if out.status.success() {
                    return Ok(squeue);
                }
                let said = String::from_utf8_lossy(&out.stderr);
                let said = said.lines().next().unwrap_or("").trim();
                Err(format!(
                    "slurm ({} -h: {}{}{}; {SLURM_GET})",
                    squeue.display(),
                    out.status,
                    if said.is_empty() { "" } else { ", " },
                    said
                ))
            }
        }
    }
}

/// The executable file `name` in the first of `path`'s directories that
/// holds one.
pub fn on_path(name: &str, path: &OsStr) -> Option<PathBuf> {
    std::env::split_paths(path)
        .map(|dir| dir.join(name))
        .find(|p| executable(p))
}

fn executable(p: &Path) -> bool {
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// What becomes of a test.
#[derive(Debug, PartialEq)]
pub enum Verdict {
    /// Everything is here: where each need was found, in order.
    Run(Vec<PathBuf>),
    /// Left out: what is missing and how to get it.
    LeaveOut(String),
    /// Failed: something is missing and `LEISERCHESS_REQUIRE_ALL=1`, or
    /// that variable's value is not 0 or 1.
    Fail(String),
}

/// The values of the two variables that decide what a missing need does.
#[derive(Clone, Copy, Default)]
pub struct Settings<'a> {
    /// `LEISERCHESS_REQUIRE_ALL`.
    pub require_all: Option<&'a OsStr>,
    /// `LEISERCHESS_NEEDS`.
    pub needs: Option<&'a OsStr>,
}

/// The verdict for a test of `needs`, given PATH and the two variables.
pub fn verdict(needs: &[Need], path: &OsStr, settings: Settings) -> Verdict {
    let text = |v: Option<&OsStr>| v.map(|v| v.to_str().unwrap_or("(not UTF-8)").to_string());
    let required = match text(settings.require_all).as_deref() {
        None | Some("" | "0") => false,
        Some("1") => true,
        Some(v) => return Verdict::Fail(format!("{REQUIRE_ALL} is {v:?}: it must be 0 or 1")),
    };
    match text(settings.needs).as_deref() {
        None | Some("") => {}
        Some("none") if required => {
            return Verdict::Fail(format!(
                "{NEEDS}=none leaves out what {REQUIRE_ALL}=1 requires: set one of them"
            ))
        }
        Some("none") => {
            let names: Vec<&str> = needs.iter().map(Need::name).collect();
            return Verdict::LeaveOut(format!(
                "needs {}: left to `make test` ({NEEDS}=none)",
                names.join(", ")
            ));
        }
        Some(v) => return Verdict::Fail(format!("{NEEDS} is {v:?}: it must be none or unset")),
    }
    let (found, missing): (Vec<_>, Vec<_>) =
        needs.iter().map(|n| n.find(path)).partition(Result::is_ok);
    if missing.is_empty() {
        return Verdict::Run(found.into_iter().map(Result::unwrap).collect());
    }
    let missing: Vec<String> = missing.into_iter().map(Result::unwrap_err).collect();
    let missing = missing.join(", ");
    if required {
        Verdict::Fail(format!("{REQUIRE_ALL}=1 and missing: {missing}"))
    } else {
        Verdict::LeaveOut(format!("needs {missing}"))
    }
}

/// A test of `needs`: run with where each was found when all are here,
/// otherwise ignored or failed as `verdict` says. Its kind lists its needs.
pub fn trial(
    name: &str,
    needs: &'static [Need],
    run: impl FnOnce(&[PathBuf]) + Send + 'static,
) -> Trial {
    let test = name.to_string();
    let kind = needs.iter().map(Need::name).collect::<Vec<_>>().join(", ");
    Trial::ignorable_test(name, move || {
        let path = std::env::var_os("PATH").unwrap_or_default();
        let (require_all, wanted) = (std::env::var_os(REQUIRE_ALL), std::env::var_os(NEEDS));
        let settings = Settings {
            require_all: require_all.as_deref(),
            needs: wanted.as_deref(),
        };
        match verdict(needs, &path, settings) {
            Verdict::Run(found) => {
                run(&found);
                Ok(Completion::Completed)
            }
            Verdict::LeaveOut(why) => {
                eprintln!("left out: {test}: {why}");
                Ok(Completion::ignored_with(why))
            }
            Verdict::Fail(why) => Err(why.into()),
        }
    })
    .with_kind(format!("needs {kind}"))
}
