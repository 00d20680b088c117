//! Running `sh` and `uci` blocks: this build's binaries on PATH, a scratch
//! directory a document's blocks share, and a time limit on each block.

use super::blocks::Block;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// A block may take this long: its examples are meant to take seconds,
/// and the tests' build runs beside other tests on two cores.
const BLOCK_LIMIT: Duration = Duration::from_secs(180);

/// How the engine says a line was refused.
const ERROR: &str = "info string error";

/// This build's `leiserchess` and `autotest`, and a directory holding
/// just those two names, for PATH.
#[derive(Clone)]
pub struct Binaries {
    pub leiserchess: PathBuf,
    pub autotest: PathBuf,
    pub dir: PathBuf,
}

impl Binaries {
    pub fn of_this_build() -> Result<Binaries, String> {
        let autotest = PathBuf::from(env!("CARGO_BIN_EXE_autotest"));
        let leiserchess = autotest.with_file_name("leiserchess");
        if !leiserchess.exists() {
            return Err(format!(
                "{} is missing: run the tests with `cargo test --workspace`",
                leiserchess.display()
            ));
        }
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("doc-examples-bin");
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for (name, target) in [("leiserchess", &leiserchess), ("autotest", &autotest)] {
            let link = dir.join(name);
            let _ = std::fs::remove_file(&link);
            std::os::unix::fs::symlink(target, &link)
                .map_err(|e| format!("{}: {e}", link.display()))?;
        }
        Ok(Binaries {
            leiserchess,
            autotest,
            dir,
        })
    }

    fn path_var(&self) -> String {
        let rest = std::env::var("PATH").unwrap_or_default();
        format!("{}:{rest}", self.dir.display())
    }
}

/// A fresh directory for one document, showing the repository's
/// top-level entries (but its build and history) as symlinks.
pub fn scratch(repo: &Path, doc: &str) -> Result<PathBuf, String> {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("doc-examples")
        .join(doc.replace('/', "_"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let entries = std::fs::read_dir(repo).map_err(|e| format!("{}: {e}", repo.display()))?;
    for e in entries.flatten() {
        let name = e.file_name();
        if name == "target" || name == ".git" {
            continue;
        }
        std::os::unix::fs::symlink(e.path(), dir.join(&name))
            .map_err(|err| format!("{}: {err}", dir.join(&name).display()))?;
    }
    Ok(dir)
}

/// Runs an `sh` block with `bash -e -o pipefail`; it must exit 0 in time.
pub fn shell(bins: &Binaries, dir: &Path, block: &Block) -> Result<(), String> {
    let log = dir.join(format!(".block-{}.log", block.line));
    let out = std::fs::File::create(&log).map_err(|e| format!("{}: {e}", log.display()))?;
    let err = out.try_clone().map_err(|e| e.to_string())?;
    // autotest's default results database goes in the scratch directory,
    // not the user's own.
    let data = std::path::absolute(dir.join(".data")).map_err(|e| e.to_string())?;
    let mut child = Command::new("bash")
        .args(["-e", "-o", "pipefail", "-c", &block.text])
        .current_dir(dir)
        .env("PATH", bins.path_var())
        .env("XDG_DATA_HOME", data)
        .env_remove("AUTOTEST_DB")
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(err)
        .process_group(0)
        .spawn()
        .map_err(|e| format!("bash: {e}"))?;
    let status = wait(&mut child, BLOCK_LIMIT);
    let output = std::fs::read_to_string(&log).unwrap_or_default();
    match status {
        Some(s) if s.success() => Ok(()),
        Some(s) => Err(format!("the block exited with {s}:\n{}", tail(&output))),
        None => Err(format!(
            "the block took over {BLOCK_LIMIT:?}:\n{}",
            tail(&output)
        )),
    }
}

/// Feeds a `uci` block to the engine a line at a time, waiting after a
/// `go` for its `bestmove` and after `perft N` for its count, so that the
/// end of input does not cut them short. Any `info string error` line, a
/// failed exit or the time limit fails it.
pub fn uci(bins: &Binaries, dir: &Path, block: &Block) -> Result<(), String> {
    let mut child = Command::new(&bins.leiserchess)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .process_group(0)
        .spawn()
        .map_err(|e| format!("{}: {e}", bins.leiserchess.display()))?;
    let (tx, rx) = mpsc::channel();
    let stdout = child.stdout.take().expect("piped");
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let deadline = Instant::now() + BLOCK_LIMIT;
    let mut seen = Vec::new();
    let mut stdin = child.stdin.take().expect("piped");
    let result: Result<(), String> = (|| {
        for line in block.text.lines().map(str::trim).filter(|l| !l.is_empty()) {
            writeln!(stdin, "{line}").map_err(|e| format!("writing '{line}': {e}"))?;
            let words: Vec<&str> = line.split_whitespace().collect();
            let awaited = match words.as_slice() {
                ["go", ..] => Some("bestmove ".to_string()),
                ["perft", n, ..] => Some(format!("perft {n} ")),
                _ => None,
            };
            if let Some(prefix) = awaited {
                loop {
                    let left = deadline.saturating_duration_since(Instant::now());
                    let got = rx
                        .recv_timeout(left)
                        .map_err(|_| format!("no '{}' after '{line}' in time", prefix.trim()))?;
                    let (done, refused) = (got.starts_with(&prefix), got.contains(ERROR));
                    seen.push(got);
                    if refused {
                        return Err(format!("'{line}' was refused"));
                    }
                    if done {
                        break;
                    }
                }
            }
        }
        Ok(())
    })();
    drop(stdin);
    let status = wait(
        &mut child,
        deadline.saturating_duration_since(Instant::now()),
    );
    seen.extend(rx.try_iter());
    result.map_err(|e| format!("{e}:\n{}", tail(&seen.join("\n"))))?;
    if let Some(bad) = seen.iter().find(|l| l.contains(ERROR)) {
        return Err(format!("the engine answered '{bad}'"));
    }
    match status {
        Some(s) if s.success() => Ok(()),
        Some(s) => Err(format!(
            "the engine exited with {s}:\n{}",
            tail(&seen.join("\n"))
        )),
        None => Err("the engine did not exit at the end of its input".to_string()),
    }
}

/// Waits up to `limit`; past it kills the child's whole process group.
fn wait(child: &mut Child, limit: Duration) -> Option<std::process::ExitStatus> {
    let deadline = Instant::now() + limit;
    loop {
        if let Ok(Some(status)) = child.try_wait() {
            return Some(status);
        }
        if Instant::now() >= deadline {
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", child.id())])
                .status();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The last lines of an output, for a failure's message.
fn tail(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(30)..].join("\n")
}
