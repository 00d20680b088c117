//! A UCI engine in a child process: started from its command line, talked
//! to over pipes, read with deadlines so that a hung engine is noticed and
//! a crashed one is too.

use crate::spec::EngineSpec;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// What went wrong talking to an engine.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum EngineError {
    /// It could not be started.
    Start(String),
    /// It exited, or closed its output.
    Exited(String),
    /// It did not answer in time.
    Timeout(String),
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            EngineError::Start(s) => write!(f, "could not start: {s}"),
            EngineError::Exited(s) => write!(f, "exited: {s}"),
            EngineError::Timeout(s) => write!(f, "no answer: {s}"),
        }
    }
}

/// A running engine.
pub struct Engine {
    pub name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The option names its `uci` answer listed.
    pub options: Vec<String>,
}

/// How long an engine may take to answer `uci` and `isready`.
pub const HANDSHAKE: Duration = Duration::from_secs(10);

impl Engine {
    /// Starts the engine and completes the handshake (`uci` … `uciok`,
    /// options, `isready` … `readyok`). The spec's options are sent in
    /// order; then each of `defaults` that the engine lists and the spec
    /// does not set (names compared case-insensitively, as in UCI).
    pub fn start(spec: &EngineSpec, defaults: &[(&str, String)]) -> Result<Engine, EngineError> {
        let (program, args) = spec
            .command
            .split_first()
            .ok_or_else(|| EngineError::Start("the command is empty".to_string()))?;
        let mut cmd = Command::new(program);
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = &spec.dir {
            cmd.current_dir(dir);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| EngineError::Start(format!("{program}: {e}")))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        // A reader thread turns the engine's output into a channel, so that
        // reads can time out. Bytes that are not UTF-8 are replaced, not
        // taken for the end of the output.
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf);
                        if tx
                            .send(line.trim_end_matches(['\n', '\r']).to_string())
                            .is_err()
                        {
                            break;
                        }
                    }
                }
            }
        });
        let mut e = Engine {
            name: spec.name.clone(),
            child,
            stdin,
            lines,
            options: Vec::new(),
        };
        e.send("uci")?;
        let deadline = Instant::now() + HANDSHAKE;
        loop {
            let line = e.read_line(deadline).map_err(|err| match err {
                EngineError::Timeout(_) => EngineError::Timeout(format!(
                    "no 'uciok' within {} s of 'uci'",
                    HANDSHAKE.as_secs()
                )),
                other => other,
            })?;
            match line.split_whitespace().next() {
                Some("uciok") => break,
                Some("option") => e.options.extend(option_name(&line)),
                _ => {}
            }
        }
        let set = |k: &str| spec.options.iter().any(|(o, _)| o.eq_ignore_ascii_case(k));
        let advertised = |k: &str| e.options.iter().any(|o| o.eq_ignore_ascii_case(k));
        let extra: Vec<(String, String)> = defaults
            .iter()
            .filter(|(k, _)| advertised(k) && !set(k))
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect();
        for (k, v) in spec.options.iter().chain(&extra) {
            e.send(&format!("setoption name {k} value {v}"))?;
        }
        e.sync()?;
        Ok(e)
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| EngineError::Exited(format!("cannot write '{line}': {e}")))
    }

    /// The next line, waiting until `deadline` at most.
    pub fn read_line(&mut self, deadline: Instant) -> Result<String, EngineError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Timeout(format!(
                "nothing within {} ms",
                wait.as_millis()
            ))),
            Err(RecvTimeoutError::Disconnected) => Err(EngineError::Exited(self.exit_status())),
        }
    }

    /// Reads until a line that starts with `word`, within `limit`.
    pub fn expect(&mut self, word: &str, limit: Duration) -> Result<String, EngineError> {
        let deadline = Instant::now() + limit;
        loop {
            let line = self.read_line(deadline)?;
            if line.split_whitespace().next() == Some(word) {
                return Ok(line);
            }
        }
    }

    /// `isready` … `readyok`.
    pub fn sync(&mut self) -> Result<(), EngineError> {
        self.send("isready")?;
        self.expect("readyok", HANDSHAKE).map(|_| ())
    }

    fn exit_status(&mut self) -> String {
        // The output closed: give the process a moment to be reaped.
        for _ in 0..50 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.to_string();
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        "closed its output".to_string()
    }

    /// Asks the engine to quit, and kills it if it does not.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        for _ in 0..50 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The name of a UCI `option name <id> type <t> …` line: the words
/// between `name` and `type`.
fn option_name(line: &str) -> Option<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let start = words.iter().position(|w| *w == "name")? + 1;
    let end = words[start..]
        .iter()
        .position(|w| *w == "type")
        .map_or(words.len(), |i| start + i);
    (end > start).then(|| words[start..end].join(" "))
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_names() {
        let name = |l: &str| option_name(l);
        assert_eq!(
            name("option name no_zap_plies type spin default 100 min 0 max 1000"),
            Some("no_zap_plies".to_string())
        );
        assert_eq!(
            name("option name Clear Hash type button"),
            Some("Clear Hash".to_string())
        );
        assert_eq!(name("option name Bare"), Some("Bare".to_string()));
        assert_eq!(name("option type spin"), None);
        assert_eq!(name("option name type spin"), None);
    }
}
