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
}

/// How long an engine may take to answer `uci` and `isready`.
pub const HANDSHAKE: Duration = Duration::from_secs(10);

impl Engine {
    /// Starts the engine and completes the handshake (`uci` … `uciok`,
    /// options, `isready` … `readyok`).
    pub fn start(spec: &EngineSpec) -> Result<Engine, EngineError> {
        let (program, args) = spec
            .command
            .split_first()
            .ok_or_else(|| EngineError::Start(format!("{}: empty command", spec.name)))?;
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
            .map_err(|e| EngineError::Start(format!("{}: {program}: {e}", spec.name)))?;
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
        };
        e.send("uci")?;
        e.expect("uciok", HANDSHAKE)?;
        for (k, v) in &spec.options {
            e.send(&format!("setoption name {k} value {v}"))?;
        }
        e.sync()?;
        Ok(e)
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| EngineError::Exited(format!("{}: cannot write '{line}': {e}", self.name)))
    }

    /// The next line, waiting until `deadline` at most.
    pub fn read_line(&mut self, deadline: Instant) -> Result<String, EngineError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Timeout(format!(
                "{}: nothing within {} ms",
                self.name,
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
                return format!("{}: {status}", self.name);
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        format!("{}: closed its output", self.name)
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

impl Drop for Engine {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
