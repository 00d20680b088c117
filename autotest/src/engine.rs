//! A UCI engine in a child process: started from its command line and
//! driven by the library's client (`leiserchess::protocol::client`), which
//! reads with deadlines so that a hung engine is noticed and a crashed one
//! is too. This layer adds the handshake, the options and `isready`, and
//! the referee's errors.

use crate::spec::EngineSpec;
use leiserchess::protocol::client::{Client, ClientError, Stderr};
use std::os::unix::process::CommandExt;
use std::process::Command;
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

impl std::error::Error for EngineError {}

impl From<ClientError> for EngineError {
    fn from(e: ClientError) -> EngineError {
        match e {
            ClientError::Start { program, source } => {
                EngineError::Start(format!("{program}: {source}"))
            }
            ClientError::Write { what, source } => {
                EngineError::Exited(format!("cannot write {what}: {source}"))
            }
            ClientError::Timeout { waited, .. } => {
                EngineError::Timeout(format!("nothing within {} ms", waited.as_millis()))
            }
            ClientError::Exited { status } => EngineError::Exited(
                status.map_or("closed its output".to_string(), |s| s.to_string()),
            ),
        }
    }
}

/// A running engine.
pub struct Engine {
    pub name: String,
    client: Client,
    /// The option names its `uci` answer listed.
    pub options: Vec<String>,
}

/// How long an engine may take to answer `uci` and `isready`.
pub const HANDSHAKE: Duration = Duration::from_secs(10);

/// How long an engine may take to exit after `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(100);

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
        cmd.args(args);
        // A process group of its own: a Ctrl-C at the terminal stops
        // autotest alone, which finishes the game (crate::interrupt).
        cmd.process_group(0);
        if let Some(dir) = &spec.dir {
            cmd.current_dir(dir);
        }
        let mut e = Engine {
            name: spec.name.clone(),
            client: Client::start(cmd, Stderr::Null)?,
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
        Ok(self.client.send(line)?)
    }

    /// The next line, waiting until `deadline` at most.
    pub fn read_line(&mut self, deadline: Instant) -> Result<String, EngineError> {
        Ok(self.client.read_line(deadline)?.text())
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

    /// Asks the engine to quit, and kills it if it does not.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        let _ = self.client.wait(Instant::now() + QUIT_GRACE);
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
