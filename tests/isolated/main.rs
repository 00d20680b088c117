//! Cases that each run in a process of their own: a trial re-executes
//! this test binary with `LEISERCHESS_CASE=<name>`, and in that child mode
//! the binary runs just that case and exits 0 on success (a failed check
//! panics: exit status 101). The parent waits at most `CASE_TIMEOUT` and
//! reports a failure with the child's exit status or the signal that
//! killed it (SIGSEGV, SIGABRT, …) and the tail of its standard error.
//!
//! A process of its own isolates a crash: an abort or a stack overflow in
//! one case is that case's failure, and the other cases still run
//! (`consistency`). And it gives a case the whole process: the C
//! allocator's settings (`allocator`), and every allocation counted by
//! the binary's global allocator (`game_memory`).
//!
//! The harness's own cases:
//! * `demo/abort`: calls `std::process::abort()` in its child. It runs only
//!   with `LEISERCHESS_DEMO_CRASH=1`; without it, it is reported ignored.
//! * `meta/crash_is_isolated`: runs this harness with
//!   `LEISERCHESS_DEMO_CRASH=1` and checks that `demo/abort` is reported
//!   failed with SIGABRT while every other case still ran and passed.

use leiserchess::play::client::{Client, ClientError, Stderr};
use libtest_mimic::{Arguments, Completion, Failed, Trial};
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, ExitStatus};
use std::time::{Duration, Instant};

/// The shared helpers (`tests/common/`) these modules use.
#[path = "../common"]
mod common {
    pub mod rng;
}

mod allocator;
mod consistency;
mod game_memory;

/// Names the case a child process runs.
const CASE_VAR: &str = "LEISERCHESS_CASE";
/// Enables the deliberately crashing case.
const DEMO_VAR: &str = "LEISERCHESS_DEMO_CRASH";
/// How long one case may run before its process is killed.
const CASE_TIMEOUT: Duration = Duration::from_secs(120);
/// How much of a failed child's standard error a failure shows.
const STDERR_TAIL_LINES: usize = 20;

const DEMO_CASE: &str = "demo/abort";
const META_CASE: &str = "meta/crash_is_isolated";

/// A case: a name and what its child process runs (panics on failure).
struct Case {
    name: String,
    run: Box<dyn Fn() + Send + Sync>,
}

/// A case named `name` whose child process runs `run`.
fn case(name: impl Into<String>, run: impl Fn() + Send + Sync + 'static) -> Case {
    Case {
        name: name.into(),
        run: Box::new(run),
    }
}

/// Every case, the crash demo first (so that when the cases run one at a
/// time, all the others run after it).
fn cases() -> Vec<Case> {
    let mut v = vec![case(DEMO_CASE, || std::process::abort())];
    v.extend(consistency::cases());
    v.extend(allocator::cases());
    v.extend(game_memory::cases());
    v
}

fn main() {
    if let Ok(name) = std::env::var(CASE_VAR) {
        child(&name);
        return;
    }
    let args = Arguments::from_args();
    let mut trials: Vec<Trial> = cases()
        .into_iter()
        .map(|c| {
            let name = c.name;
            if name == DEMO_CASE {
                Trial::ignorable_test(name.clone(), move || {
                    if std::env::var(DEMO_VAR).as_deref() != Ok("1") {
                        return Ok(Completion::ignored_with(format!(
                            "crash demo: runs only with {DEMO_VAR}=1"
                        )));
                    }
                    run_isolated(&name).map(|()| Completion::Completed)
                })
            } else {
                Trial::test(name.clone(), move || run_isolated(&name))
            }
        })
        .collect();
    trials.push(Trial::ignorable_test(META_CASE, meta_crash_is_isolated));
    libtest_mimic::run(&args, trials).exit();
}

/// Child mode: runs case `name` and exits 0, or panics (exit status 101).
fn child(name: &str) {
    let all = cases();
    let Some(c) = all.iter().find(|c| c.name == name) else {
        eprintln!("no case named '{name}'");
        std::process::exit(2);
    };
    (c.run)();
}

// ---------------------------------------------------------------------------
// The parent: one process per case

/// What a finished child did.
struct ChildRun {
    status: ExitStatus,
    stdout: String,
    stderr: String,
}

/// Runs `cmd` with its output captured, killing it after `timeout`. `Err`
/// if it could not be started or timed out (with what it printed so far).
fn run_with_timeout(cmd: Command, timeout: Duration) -> Result<ChildRun, String> {
    let program = cmd.get_program().to_owned();
    let mut child = Client::start(cmd, Stderr::Capture)
        .map_err(|e| format!("cannot start {program:?}: {e}"))?;
    let stderr = |child: &Client| String::from_utf8_lossy(&child.stderr()).into_owned();
    match child.wait_exit(Instant::now() + timeout) {
        Ok(exit) => Ok(ChildRun {
            status: exit.status,
            stdout: exit
                .rest
                .iter()
                .map(|l| String::from_utf8_lossy(&l.raw))
                .collect(),
            stderr: stderr(&child),
        }),
        // Dropping the client kills the child.
        Err(ClientError::Timeout { .. }) => Err(format!(
            "timed out after {} s (killed){}",
            timeout.as_secs(),
            tail(&stderr(&child))
        )),
        Err(e) => Err(format!("cannot wait for the child: {e}")),
    }
}

/// Runs case `name` in a child process of this binary.
fn run_isolated(name: &str) -> Result<(), Failed> {
    let exe = std::env::current_exe().map_err(|e| format!("current_exe: {e}"))?;
    let mut cmd = Command::new(exe);
    cmd.env(CASE_VAR, name);
    let run = run_with_timeout(cmd, CASE_TIMEOUT)?;
    if run.status.success() {
        return Ok(());
    }
    Err(format!(
        "case '{name}' {}{}",
        describe(run.status),
        tail(&run.stderr)
    )
    .into())
}

/// "exited with status N" or "killed by signal N (SIGNAME)".
fn describe(status: ExitStatus) -> String {
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exited with status {code}"),
        (None, Some(sig)) => {
            let core = if status.core_dumped() {
                ", core dumped"
            } else {
                ""
            };
            format!("killed by signal {sig} ({}{core})", signal_name(sig))
        }
        (None, None) => format!("ended with {status}"),
    }
}

/// The name of a common signal (Linux numbering).
fn signal_name(sig: i32) -> &'static str {
    match sig {
        1 => "SIGHUP",
        2 => "SIGINT",
        4 => "SIGILL",
        5 => "SIGTRAP",
        6 => "SIGABRT",
        7 => "SIGBUS",
        8 => "SIGFPE",
        9 => "SIGKILL",
        11 => "SIGSEGV",
        13 => "SIGPIPE",
        15 => "SIGTERM",
        _ => "unnamed signal",
    }
}

/// The last lines of a child's standard error, for a failure message; a
/// panic's backtrace is left out (the message before it is kept).
fn tail(stderr: &str) -> String {
    let lines: Vec<&str> = stderr
        .lines()
        .take_while(|l| !l.starts_with("stack backtrace:"))
        .collect();
    if lines.is_empty() {
        return "; its standard error was empty".to_string();
    }
    let from = lines.len().saturating_sub(STDERR_TAIL_LINES);
    format!(
        "; the last {} lines of its standard error:\n{}",
        lines.len() - from,
        lines[from..].join("\n")
    )
}

/// Runs this harness again with the crash demo on, one case at a time and
/// the demo first, and checks what it reports: the demo failed with
/// SIGABRT, every other case ran after it and passed.
fn meta_crash_is_isolated() -> Result<Completion, Failed> {
    if std::env::var(DEMO_VAR).is_ok() {
        // This is the inner run (or the user asked for the demo): no recursion.
        return Ok(Completion::ignored_with(format!(
            "runs the harness with {DEMO_VAR}=1 itself"
        )));
    }
    let exe = std::env::current_exe().map_err(|e| format!("current_exe: {e}"))?;
    let mut cmd = Command::new(exe);
    cmd.env(DEMO_VAR, "1").env_remove(CASE_VAR).args([
        "--test-threads",
        "1",
        "--color",
        "never",
        "--skip",
        "meta/",
    ]);
    let run = run_with_timeout(cmd, 2 * CASE_TIMEOUT)?;
    let out = &run.stdout;
    let context = || format!("\n--- the inner run's output ---\n{out}{}", run.stderr);
    if run.status.code() != Some(101) {
        return Err(format!(
            "the inner run {}, expected exit status 101 (a failed test){}",
            describe(run.status),
            context()
        )
        .into());
    }
    let names: Vec<String> = cases().into_iter().map(|c| c.name).collect();
    // Result lines: `test NAME<padding> ... ok|FAILED|ignored`, in order.
    let results: Vec<(&str, &str)> = out
        .lines()
        .filter_map(|l| l.strip_prefix("test ")?.split_once(" ... "))
        .map(|(name, result)| (name.trim(), result.trim()))
        .collect();
    let position = |name: &str| results.iter().position(|(n, _)| *n == name);
    let result_of = |name: &str| position(name).map(|i| results[i].1);
    if result_of(DEMO_CASE) != Some("FAILED") {
        return Err(format!("'{DEMO_CASE}' was not reported FAILED{}", context()).into());
    }
    let signal = format!("case '{DEMO_CASE}' killed by signal 6 (SIGABRT");
    if !out.contains(&signal) {
        return Err(format!("no '{signal}' in the failure report{}", context()).into());
    }
    let demo_at = position(DEMO_CASE);
    for name in names.iter().filter(|n| *n != DEMO_CASE) {
        if result_of(name) != Some("ok") {
            return Err(format!("'{name}' did not run and pass{}", context()).into());
        }
        if position(name) < demo_at {
            return Err(format!("'{name}' ran before the crash demo{}", context()).into());
        }
    }
    let summary = format!("{} passed; 1 failed", names.len() - 1);
    if !out.contains(&summary) {
        return Err(format!("no '{summary}' in the summary{}", context()).into());
    }
    Ok(Completion::Completed)
}
