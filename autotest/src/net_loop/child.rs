//! An engine command run as a child process: its standard output and
//! error passed through to ours as they come (its progress lines) and
//! kept in a log file, and the child killed when a stop signal comes (a
//! datagen, relabel or train cut short goes on from its own files).
//!
//! A child outlives a loop killed alone (SIGKILL to autotest, not to its
//! process group) and would write its files beside the next run's. So
//! its pid and command line are kept in a pid file while it runs, and
//! the next run of the step kills a child of the same command line still
//! running under that pid before it starts its own.

use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How often the child is looked at while it runs.
const POLL: Duration = Duration::from_millis(100);

/// The words of a command line, as a log shows them.
pub fn shown(words: &[String]) -> String {
    words.join(" ")
}

/// How long a leftover child may take to die.
const LEFTOVER_DIES: Duration = Duration::from_secs(10);

/// Runs `words` (the program, then its arguments), its output passed
/// through to standard error and appended to `log`, its pid kept in
/// `log` with the extension `pid` while it runs (a leftover of the same
/// command there killed first); `stop` is asked while it runs and, when
/// it names a signal, the child is killed and that is the error.
pub fn run(
    words: &[String],
    log: &Path,
    stop: impl Fn() -> Option<&'static str>,
) -> Result<(), String> {
    run_with(words, log, |_| {}, stop)
}

/// [`run`], the child's command set up by `prepare` first (its directory,
/// its environment).
pub fn run_with(
    words: &[String],
    log: &Path,
    prepare: impl FnOnce(&mut Command),
    stop: impl Fn() -> Option<&'static str>,
) -> Result<(), String> {
    let pid_file = log.with_extension("pid");
    kill_leftover(&pid_file, words)?;
    let cannot_log = |e: std::io::Error| format!("cannot write {}: {e}", log.display());
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
        .map_err(cannot_log)?;
    writeln!(file, "== {}", shown(words)).map_err(cannot_log)?;
    let file = Arc::new(Mutex::new(file));
    let mut command = Command::new(&words[0]);
    prepare(&mut command);
    let mut child = command
        .args(&words[1..])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", words[0]))?;
    let pid = format!("{}\n{}", child.id(), words.join("\0"));
    if let Err(e) = std::fs::write(&pid_file, pid) {
        let _ = child.kill();
        let _ = child.wait();
        return Err(format!("cannot write {}: {e}", pid_file.display()));
    }
    let copies = [
        pass_on(
            child
                .stdout
                .take()
                .map(|o| Box::new(o) as Box<dyn Read + Send>),
            &file,
        ),
        pass_on(
            child
                .stderr
                .take()
                .map(|e| Box::new(e) as Box<dyn Read + Send>),
            &file,
        ),
    ];
    let ended = wait(&mut child, &stop);
    for copy in copies.into_iter().flatten() {
        let _ = copy.join();
    }
    let _ = std::fs::remove_file(&pid_file);
    let status = ended?;
    if status.success() {
        Ok(())
    } else {
        Err(format!(
            "{} ended with {status} (its output is in {})",
            shown(words),
            log.display()
        ))
    }
}

/// The words process `pid` runs, if it is running (not a zombie).
fn running(pid: &str) -> Vec<String> {
    let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    let text = String::from_utf8_lossy(&cmdline);
    let text = text.strip_suffix('\0').unwrap_or(&text);
    text.split('\0')
        .filter(|_| !text.is_empty())
        .map(str::to_string)
        .collect()
}

/// Kills the child `pid_file` names if it still runs `words`, and waits
/// for its end.
fn kill_leftover(pid_file: &Path, words: &[String]) -> Result<(), String> {
    let Ok(text) = std::fs::read_to_string(pid_file) else {
        return Ok(());
    };
    let Some((pid, recorded)) = text.split_once('\n') else {
        return Ok(());
    };
    let recorded: Vec<&str> = recorded.split('\0').collect();
    if recorded != words || running(pid) != words {
        return Ok(());
    }
    eprintln!(
        "loop: killing pid {pid}, left running by an earlier run: {}",
        shown(words)
    );
    let _ = Command::new("kill").args(["-KILL", pid]).status();
    let deadline = std::time::Instant::now() + LEFTOVER_DIES;
    while running(pid) == words {
        if std::time::Instant::now() > deadline {
            return Err(format!(
                "pid {pid}, left running by an earlier run ({}), does not end",
                shown(words)
            ));
        }
        std::thread::sleep(POLL);
    }
    Ok(())
}

/// The child's end, or its kill on a stop signal.
fn wait(
    child: &mut Child,
    stop: &impl Fn() -> Option<&'static str>,
) -> Result<std::process::ExitStatus, String> {
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Ok(status),
            Ok(None) => {}
            Err(e) => return Err(format!("cannot wait for the child: {e}")),
        }
        if let Some(signal) = stop() {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("stopped by {signal}"));
        }
        std::thread::sleep(POLL);
    }
}

/// A thread copying `from` to standard error and the log as it comes.
fn pass_on(
    from: Option<Box<dyn Read + Send>>,
    log: &Arc<Mutex<File>>,
) -> Option<std::thread::JoinHandle<()>> {
    let mut from = from?;
    let log = Arc::clone(log);
    Some(std::thread::spawn(move || {
        let mut buf = [0u8; 8192];
        while let Ok(n) = from.read(&mut buf) {
            if n == 0 {
                break;
            }
            let _ = std::io::stderr().write_all(&buf[..n]);
            let _ = log
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .write_all(&buf[..n]);
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(v: &[&str]) -> Vec<String> {
        v.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn output_is_logged_and_a_failure_named() {
        let dir = crate::scratch::dir("net_loop-child");
        let log = dir.join("step.log");
        run(
            &words(&["sh", "-c", "echo out; echo err >&2"]),
            &log,
            || None,
        )
        .unwrap();
        let text = std::fs::read_to_string(&log).unwrap();
        assert!(
            text.starts_with("== sh -c echo out; echo err >&2\n"),
            "{text}"
        );
        assert!(text.contains("out\n") && text.contains("err\n"), "{text}");
        let e = run(&words(&["sh", "-c", "exit 3"]), &log, || None).unwrap_err();
        assert!(e.contains("sh -c exit 3 ended with exit status: 3"), "{e}");
        assert!(e.contains(&log.display().to_string()), "{e}");
        let e = run(&words(&["/no/such/program"]), &log, || None).unwrap_err();
        assert!(e.starts_with("cannot start /no/such/program"), "{e}");
    }

    #[test]
    fn a_child_left_running_by_a_killed_loop_is_killed_first() {
        let dir = crate::scratch::dir("net_loop-child-leftover");
        let log = dir.join("step.log");
        let command = words(&["sleep", "60"]);
        let mut leftover = Command::new("sleep").arg("60").spawn().unwrap();
        let id = leftover.id().to_string();
        let recorded = format!("{id}\nsleep\060");
        std::fs::write(dir.join("step.pid"), &recorded).unwrap();
        // Another command's run leaves it.
        run(&words(&["true"]), &log, || None).unwrap();
        assert_eq!(running(&id), command);
        // The same command's kills it first.
        std::fs::write(dir.join("step.pid"), &recorded).unwrap();
        let started = std::time::Instant::now();
        let e = run(&command, &log, || Some("SIGTERM")).unwrap_err();
        assert_eq!(e, "stopped by SIGTERM");
        assert!(started.elapsed() < Duration::from_secs(10));
        assert!(running(&id).is_empty());
        let _ = leftover.wait();
        // The pid file is removed once the child ended.
        assert!(!dir.join("step.pid").exists());
    }

    #[test]
    fn a_stop_signal_kills_the_child() {
        let dir = crate::scratch::dir("net_loop-child-stop");
        let started = std::time::Instant::now();
        let e = run(&words(&["sleep", "30"]), &dir.join("log"), || {
            Some("SIGTERM")
        })
        .unwrap_err();
        assert_eq!(e, "stopped by SIGTERM");
        assert!(started.elapsed() < Duration::from_secs(10));
    }
}
