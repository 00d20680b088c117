//! What a run records about where it ran: the CPU, the Slurm job, and
//! each engine's binary (its SHA-256 and the git commit of its
//! directory). All best effort: what cannot be found is left empty.

use crate::config::spec::{Clock, EngineLimits, EngineSpec};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The CPU's model name, from /proc/cpuinfo.
pub fn cpu_model() -> Option<String> {
    let text = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    text.lines()
        .filter_map(|l| l.split_once(':'))
        .find(|(k, _)| k.trim() == "model name")
        .map(|(_, v)| v.trim().to_string())
}

/// The CPUs this process may use.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The Slurm job this runs in, if any.
pub fn slurm_job_id() -> Option<String> {
    std::env::var("SLURM_JOB_ID").ok().filter(|v| !v.is_empty())
}

/// The file the engine's command starts, if its first word resolves to
/// one: a path (taken from the engine's directory when relative), or a
/// name found on PATH.
pub fn binary(engine: &EngineSpec) -> Option<PathBuf> {
    let word = engine.command.first()?;
    let path = if word.contains('/') {
        match &engine.dir {
            Some(dir) if Path::new(word).is_relative() => dir.join(word),
            _ => PathBuf::from(word),
        }
    } else {
        std::env::split_paths(&std::env::var_os("PATH")?)
            .map(|d| d.join(word))
            .find(|p| p.is_file())?
    };
    path.is_file().then_some(path)
}

/// The SHA-256 of the file at `path`, in hex.
pub fn sha256(path: &Path) -> Option<String> {
    let mut file = std::fs::File::open(path).ok()?;
    let mut hasher = Sha256::new();
    std::io::copy(&mut file, &mut hasher).ok()?;
    Some(
        hasher
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect(),
    )
}

/// The commit checked out where `binary` lies (`git rev-parse HEAD` in
/// its directory), if that is a git work tree.
pub fn git_commit(binary: &Path) -> Option<String> {
    let dir = binary.parent().filter(|d| !d.as_os_str().is_empty())?;
    let out = Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(dir)
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    let commit = String::from_utf8_lossy(&out.stdout).trim().to_string();
    (out.status.success() && !commit.is_empty()).then_some(commit)
}

/// An engine's limits as the flags write them: `tc=40/60`, `tc=10+0.1`,
/// `st=1`, `depth=5`, `nodes=1000`, space-separated; `-` for none.
pub fn limits_text(l: &EngineLimits) -> String {
    let secs = |ms: u64| format!("{}", ms as f64 / 1000.0);
    let mut parts = Vec::new();
    match l.clock {
        Some(Clock::Fischer { base_ms, inc_ms }) => {
            parts.push(format!("tc={}+{}", secs(base_ms), secs(inc_ms)))
        }
        Some(Clock::Period { moves, period_ms }) => {
            parts.push(format!("tc={moves}/{}", secs(period_ms)))
        }
        None => {}
    }
    if let Some(ms) = l.movetime_ms {
        parts.push(format!("st={}", secs(ms)));
    }
    if let Some(d) = l.depth {
        parts.push(format!("depth={d}"));
    }
    if let Some(n) = l.nodes {
        parts.push(format!("nodes={n}"));
    }
    if parts.is_empty() {
        "-".to_string()
    } else {
        parts.join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_as_flags() {
        let l = EngineLimits {
            clock: Some(Clock::Fischer {
                base_ms: 10_000,
                inc_ms: 100,
            }),
            depth: Some(3),
            ..EngineLimits::default()
        };
        assert_eq!(limits_text(&l), "tc=10+0.1 depth=3");
        assert_eq!(limits_text(&EngineLimits::default()), "-");
    }

    /// The SHA-256 of a known input (FIPS 180-2's "abc").
    #[test]
    fn sha256_of_a_file() {
        let path = crate::scratch::dir("provenance-sha256").join("abc");
        std::fs::write(&path, "abc").unwrap();
        let hash = sha256(&path);
        assert_eq!(
            hash.as_deref(),
            Some("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        );
    }
}
