//! The scripted fake engine (`tests/fake/scripted.sh MODE PIDS`) and what
//! a test of it needs: its engine spec and clocks, the tournament it
//! plays, a directory for the pids of one test's fakes and the check that
//! none is left behind, and time-bounded runs.
//!
//! Leftover processes: each fake writes its pid to a directory of its own
//! test (its second argument); after the game every one of those pids must
//! be gone from /proc (neither running nor an unreaped zombie).

use super::programs::strings;
use super::scratch;
use autotest::config::spec::{EngineLimits, EngineSpec, Schedule, TournamentSpec};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The fake engine script.
pub fn fake() -> PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake/scripted.sh");
    // Make it executable, whatever mode the checkout gave it.
    let mut perm = std::fs::metadata(&path)
        .expect("tests/fake/scripted.sh exists")
        .permissions();
    if perm.mode() & 0o111 != 0o111 {
        perm.set_mode(perm.mode() | 0o755);
        // Tests run in parallel: another one may be doing the same.
        let _ = std::fs::set_permissions(&path, perm);
    }
    path
}

/// A fresh directory for the pids of one test's fakes, `pids/TEST` in
/// the binary's scratch directory (`test` unique in the binary).
pub fn pid_dir(test: &str) -> PathBuf {
    scratch::dir(&format!("pids/{test}"))
}

/// The clock of the well-behaved engine: roomy, so that a loaded machine
/// does not make it lose on time.
pub const GOOD_CLOCK_MS: u64 = 2_000;
/// The clock of the misbehaving engine: small, so hangs are found fast.
pub const BAD_CLOCK_MS: u64 = 200;
/// Every single-game test must end within this.
pub const GAME_LIMIT: Duration = Duration::from_secs(10);

/// A fake engine in `mode`, writing its pid into `pids`.
pub fn engine(name: &str, mode: &str, limits: EngineLimits, pids: &Path) -> EngineSpec {
    EngineSpec {
        name: name.to_string(),
        command: vec![
            fake().to_string_lossy().into_owned(),
            mode.to_string(),
            pids.to_string_lossy().into_owned(),
        ],
        dir: None,
        options: vec![("Hash".to_string(), "1".to_string())],
        limits,
        restart: true,
    }
}

/// A tournament of `engines` as the fault tests play it: a round robin,
/// one colour-swapped pair a round, one game at a time, a crashed engine
/// restarted and the tournament going on.
pub fn tournament_spec(engines: Vec<EngineSpec>) -> TournamentSpec {
    TournamentSpec {
        title: "faults".to_string(),
        engines,
        schedule: Schedule::RoundRobin,
        games: 2,
        rounds: 1,
        concurrency: 1,
        repeat: true,
        max_plies: 0,
        repetitions: 3,
        no_zap_plies: 100,
        time_margin_ms: 50,
        recover: true,
        ..TournamentSpec::default()
    }
}

/// Runs `f` on a thread and fails if it takes longer than `limit`.
pub fn bounded<T: Send + 'static>(
    limit: Duration,
    f: impl FnOnce() -> T + Send + 'static,
) -> (T, Duration) {
    let (tx, rx) = mpsc::channel();
    let start = Instant::now();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    match rx.recv_timeout(limit) {
        Ok(v) => (v, start.elapsed()),
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("did not finish within {limit:?}"),
        Err(mpsc::RecvTimeoutError::Disconnected) => panic!("the test thread panicked"),
    }
}

/// The pids the fakes of `dir` wrote that are still there: running, or
/// exited but never waited for (zombies).
pub fn leftovers(dir: &Path) -> Vec<String> {
    let mut left = Vec::new();
    for entry in std::fs::read_dir(dir).expect("read the pid directory") {
        let pid = entry
            .expect("pid file")
            .file_name()
            .to_string_lossy()
            .into_owned();
        if let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            // "pid (comm) S ppid …": a recycled pid would not be one of ours.
            let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
            let mut fields = after.split_whitespace();
            let state = fields.next().unwrap_or("?");
            let ppid = fields.next().unwrap_or("?");
            let cmdline =
                std::fs::read_to_string(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            let ours =
                ppid == std::process::id().to_string() || cmdline.contains(&*dir.to_string_lossy());
            if ours {
                left.push(format!(
                    "{pid} (state {state}, {})",
                    cmdline.replace('\0', " ").trim()
                ));
            }
        }
    }
    left
}

/// How many fakes were started with pids in `dir`.
pub fn started(dir: &Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |d| d.count())
}

pub fn assert_no_leftovers(dir: &Path) {
    let left = leftovers(dir);
    assert!(left.is_empty(), "engine processes left behind: {left:?}");
    let _ = std::fs::remove_dir_all(dir);
}

/// `-engine` flags of two fakes in `mode`, named a and b, writing their
/// pids into `pids`, followed by `rest`.
pub fn two_fakes(mode: &str, pids: &Path, rest: &[&str]) -> Vec<String> {
    let cmd = format!("cmd={} {mode} {}", fake().display(), pids.display());
    let mut args = strings(&["-engine", &cmd, "name=a", "-engine", &cmd, "name=b"]);
    args.extend(strings(rest));
    args
}
