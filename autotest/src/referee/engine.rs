//! A UCI engine in a child process: started from its command line and
//! driven by the library's client (`leiserchess::play::client`), which
//! reads with deadlines so that a hung engine is noticed and a crashed one
//! is too. This layer adds the handshake, the options (checked by
//! `option_check`) and `isready`, the engine's standard error
//! (`stderr_log`), and the referee's errors.

use crate::config::spec::EngineSpec;
use crate::referee::option_check;
use crate::referee::stderr_log::{self, StderrLog};
use leiserchess::play::client::{Client, ClientError, Stderr};
use std::os::unix::process::CommandExt;
use std::process::Command;
use std::time::{Duration, Instant};

/// What went wrong talking to an engine.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum EngineError {
    /// It could not be started.
    Start(String),
    /// It exited, or closed its output (with its last standard-error
    /// lines, if it wrote any).
    Exited(String),
    /// It did not answer in time: what was waited for, and how long.
    Timeout(String),
    /// An option of the spec it does not list, or one it refused.
    Option(String),
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            EngineError::Start(s) => write!(f, "could not start: {s}"),
            EngineError::Exited(s) => write!(f, "exited: {s}"),
            EngineError::Timeout(s) | EngineError::Option(s) => f.write_str(s),
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
                EngineError::Timeout(format!("no output within {}", seconds(waited)))
            }
            ClientError::Exited { status } => EngineError::Exited(
                status.map_or("closed its output".to_string(), |s| s.to_string()),
            ),
        }
    }
}

/// `d` in seconds for a message: `10 s`, `0.5 s`, `9.999 s`.
fn seconds(d: Duration) -> String {
    let ms = d.as_millis();
    let fraction = format!("{:03}", ms % 1000);
    match fraction.trim_end_matches('0') {
        "" => format!("{} s", ms / 1000),
        f => format!("{}.{f} s", ms / 1000),
    }
}

/// A running engine. Dropping it appends its standard error to its log.
pub struct Engine {
    pub name: String,
    client: Client,
    /// The option names its `uci` answer listed.
    pub options: Vec<String>,
    log: Option<StderrLog>,
    /// How much of its standard error went to earlier logs (a kept
    /// engine's earlier games).
    logged: usize,
    /// Where on its standard error the option handshake began (at
    /// `uciok`), if options were sent.
    handshake: Option<usize>,
    /// How long it may take to answer `isready` (see `ready_limit`).
    ready: Duration,
}

/// How long an engine may take to answer `uci` and `isready`.
pub const HANDSHAKE: Duration = Duration::from_secs(10);

/// How much longer an engine may take to answer `isready` for each GB
/// of table (`Hash`, in MB) it was given: engines zero or back their
/// table before `readyok`, and fresh memory took 1.3 s a GB on the
/// machines measured (BENCHMARKS.md, "The table backed before the
/// search").
const READY_PER_GB: Duration = Duration::from_secs(3);

/// How long an engine that was sent `options` may take to answer
/// `isready`: `HANDSHAKE`, and `READY_PER_GB` for each whole GB of the
/// table a `Hash` option asked for (counted up to a TB).
fn ready_limit<'a>(options: impl IntoIterator<Item = &'a (String, String)>) -> Duration {
    let hash_mb = options
        .into_iter()
        .filter(|(k, _)| k.eq_ignore_ascii_case("hash"))
        .filter_map(|(_, v)| v.trim().parse::<u64>().ok())
        .last()
        .unwrap_or(0);
    let gb = (hash_mb / 1024).min(1024) as u32;
    HANDSHAKE + READY_PER_GB * gb
}

/// How long an engine may take to exit after `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(100);

/// How long an engine whose input is closed may take to exit: then its
/// standard error is complete, for the message.
const EXIT_GRACE: Duration = Duration::from_millis(100);

impl Engine {
    /// Starts the engine and completes the handshake (`uci` … `uciok`,
    /// options, `isready` … `readyok`). The spec's options are sent in
    /// order, each of them one the engine lists (names compared
    /// case-insensitively, as in UCI); then each of `defaults` that the
    /// engine lists and the spec does not set. A refusal of one (see
    /// `option_check`) before `readyok` is an error; on the
    /// standard error it is seen if the client has read it by then
    /// ([`Engine::stderr_refusal`] looks again later). The standard error
    /// goes to `log` when the engine is dropped.
    pub fn start(
        spec: &EngineSpec,
        defaults: &[(&str, String)],
        log: Option<StderrLog>,
    ) -> Result<Engine, EngineError> {
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
            client: Client::start(cmd, Stderr::Capture)?,
            options: Vec::new(),
            log,
            logged: 0,
            handshake: None,
            ready: HANDSHAKE,
        };
        for line in e.answer("uci", "uciok", HANDSHAKE)? {
            if line.split_whitespace().next() == Some("option") {
                e.options.extend(option_name(&line));
            }
        }
        let lists = |k: &str| e.options.iter().any(|o| o.eq_ignore_ascii_case(k));
        if let Some((k, _)) = spec.options.iter().find(|(k, _)| !lists(k)) {
            return Err(EngineError::Option(option_check::unknown(k, &e.options)));
        }
        let set = |k: &str| spec.options.iter().any(|(o, _)| o.eq_ignore_ascii_case(k));
        let extra: Vec<(String, String)> = defaults
            .iter()
            .filter(|(k, _)| lists(k) && !set(k))
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect();
        let sent: Vec<&(String, String)> = spec.options.iter().chain(&extra).collect();
        e.ready = ready_limit(sent.iter().copied());
        if !sent.is_empty() {
            e.handshake = Some(e.client.stderr().len());
        }
        for (k, v) in sent {
            e.send(&format!("setoption name {k} value {v}"))?;
        }
        let before_readyok = e.answer("isready", "readyok", e.ready)?;
        if e.handshake.is_some() {
            if let Some(line) = before_readyok
                .iter()
                .find(|l| option_check::refuses_on_output(l))
            {
                let quoted = stderr_log::quote(line);
                return Err(EngineError::Option(format!("refused an option: {quoted}")));
            }
            e.stderr_refusal()?;
        }
        Ok(e)
    }

    /// A refusal of an option among the standard-error lines the client
    /// has read since the option handshake began (none if no option was
    /// sent). A refusal there comes in no order with `readyok` on the
    /// output: a caller that must see it waits a little first.
    pub fn stderr_refusal(&self) -> Result<(), EngineError> {
        let Some(from) = self.handshake else {
            return Ok(());
        };
        let stderr = self.client.stderr();
        let text = String::from_utf8_lossy(stderr.get(from..).unwrap_or_default());
        match text.lines().find(|l| option_check::refuses_on_stderr(l)) {
            Some(line) => Err(EngineError::Option(format!(
                "refused an option on its standard error: {}",
                stderr_log::quote(line)
            ))),
            None => Ok(()),
        }
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        let sent = self.client.send(line);
        sent.map_err(|e| self.failed(e))
    }

    /// The next line, waiting until `deadline` at most.
    pub fn read_line(&mut self, deadline: Instant) -> Result<String, EngineError> {
        let read = self.client.read_line(deadline);
        read.map(|l| l.text()).map_err(|e| self.failed(e))
    }

    /// Sends `command` and reads up to the line that starts with `word`,
    /// within `limit`; the lines before it.
    pub fn answer(
        &mut self,
        command: &str,
        word: &str,
        limit: Duration,
    ) -> Result<Vec<String>, EngineError> {
        self.send(command)?;
        let deadline = Instant::now() + limit;
        let mut before = Vec::new();
        loop {
            let line = self.read_line(deadline).map_err(|err| match err {
                EngineError::Timeout(_) => EngineError::Timeout(format!(
                    "no '{word}' within {} of '{command}'",
                    seconds(limit)
                )),
                other => other,
            })?;
            if line.split_whitespace().next() == Some(word) {
                return Ok(before);
            }
            before.push(line);
        }
    }

    /// `isready` … `readyok`.
    pub fn sync(&mut self) -> Result<(), EngineError> {
        self.answer("isready", "readyok", self.ready).map(drop)
    }

    /// The process's id.
    pub fn pid(&self) -> u32 {
        self.client.id()
    }

    /// Appends the standard error so far to the current log and sends
    /// what follows to `log`: a kept engine's next game.
    pub fn next_log(&mut self, log: Option<StderrLog>) {
        self.write_log();
        self.log = log;
    }

    /// Appends the standard error not yet logged to the log, if any.
    fn write_log(&mut self) {
        let stderr = self.client.stderr();
        let new = stderr.get(self.logged..).unwrap_or_default();
        if let Some(log) = &self.log {
            if let Err(e) = log.append(new) {
                // Not worth a game: the run goes on without the log.
                eprintln!("autotest: cannot write {}: {e}", log.path.display());
            }
        }
        self.logged = stderr.len();
    }

    /// Asks the engine to quit, and kills it if it does not.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        let _ = self.client.wait(Instant::now() + QUIT_GRACE);
    }

    /// The error for `e`; an engine that died gets its last
    /// standard-error lines, once it has exited (so that they are all
    /// read).
    fn failed(&mut self, e: ClientError) -> EngineError {
        let e = match e {
            // A write that failed found the engine gone: its exit status
            // says how (a signal from outside is not the engine's fault).
            ClientError::Write { what, source } => {
                match self.client.wait(Instant::now() + EXIT_GRACE) {
                    Ok(status) => {
                        let why = format!("{status} (found writing {what}: {source})");
                        return EngineError::Exited(why + &stderr_log::tail(&self.client.stderr()));
                    }
                    Err(_) => ClientError::Write { what, source },
                }
            }
            e => e,
        };
        match EngineError::from(e) {
            EngineError::Exited(why) => {
                EngineError::Exited(why + &stderr_log::tail(&self.client.stderr()))
            }
            other => other,
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.write_log();
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

    #[test]
    fn a_large_table_gets_longer_to_be_ready() {
        let opts = |kv: &[(&str, &str)]| -> Vec<(String, String)> {
            kv.iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        };
        let limit = |kv: &[(&str, &str)]| ready_limit(&opts(kv));
        assert_eq!(limit(&[]), HANDSHAKE);
        assert_eq!(limit(&[("threads", "2")]), HANDSHAKE);
        assert_eq!(limit(&[("hash", "0")]), HANDSHAKE);
        assert_eq!(limit(&[("Hash", "1023")]), HANDSHAKE);
        assert_eq!(limit(&[("hash", "1024")]), Duration::from_secs(13));
        assert_eq!(limit(&[("HASH", " 16384 ")]), Duration::from_secs(58));
        assert_eq!(
            limit(&[("hash", "64"), ("hash", "2048")]),
            Duration::from_secs(16)
        );
        assert_eq!(limit(&[("hash", "lots")]), HANDSHAKE);
        let most = Duration::from_secs(10 + 3 * 1024);
        assert_eq!(limit(&[("hash", &u64::MAX.to_string())]), most);
    }

    #[test]
    fn seconds_read_as_seconds() {
        assert_eq!(seconds(Duration::from_secs(10)), "10 s");
        assert_eq!(seconds(Duration::from_millis(500)), "0.5 s");
        assert_eq!(seconds(Duration::from_millis(9_999)), "9.999 s");
        assert_eq!(seconds(Duration::from_micros(9_999_999)), "9.999 s");
    }
}
