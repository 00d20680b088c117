//! A live UCI session with the engine binary, over the library's client
//! (`play::client`): commands written to its input, every output line
//! timestamped as it is read, and the transcript shown when a test fails.
//! Every read has a timeout, so a hung engine fails the test instead of
//! hanging the suite.

use leiserchess::play::client::{Client, ClientError, Line, Stderr};
use std::process::Command;
use std::time::{Duration, Instant};

/// How long any single answer may take before the test gives up.
pub const PATIENCE: Duration = Duration::from_secs(30);

/// A running engine binary, driven by the library's client, and the
/// transcript for failure messages.
pub struct Engine {
    client: Client,
    pub transcript: Vec<String>,
}

/// One `go`'s answer: its `info depth` lines and the `bestmove` line.
#[derive(Debug)]
pub struct Answer {
    pub infos: Vec<Info>,
    pub best: String,
    pub ponder: Option<String>,
    /// When the reader thread saw the `bestmove` line.
    pub at: Instant,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    Mate(i32),
}

/// The fields of an `info depth …` line this file checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    pub depth: u32,
    pub score: Score,
    pub nodes: u64,
    pub pv: Vec<String>,
}

impl Info {
    pub fn parse(line: &str) -> Option<Info> {
        let t: Vec<&str> = line.split_whitespace().collect();
        if t.first() != Some(&"info") || !t.contains(&"depth") {
            return None;
        }
        let after = |key: &str| t.iter().position(|&w| w == key).map(|i| &t[i + 1..]);
        let depth = after("depth")?.first()?.parse().ok()?;
        let score = match after("score")? {
            ["cp", x, ..] => Score::Cp(x.parse().ok()?),
            ["mate", k, ..] => Score::Mate(k.parse().ok()?),
            _ => return None,
        };
        let nodes = after("nodes")?.first()?.parse().ok()?;
        let pv = after("pv").map_or(Vec::new(), |p| {
            p.iter().map(|s| s.to_string()).collect::<Vec<_>>()
        });
        Some(Info {
            depth,
            score,
            nodes,
            pv,
        })
    }
}

impl Answer {
    pub fn last(&self) -> &Info {
        self.infos
            .last()
            .unwrap_or_else(|| panic!("no info line before 'bestmove {}'", self.best))
    }
}

impl Engine {
    pub fn spawn() -> Engine {
        let cmd = Command::new(env!("CARGO_BIN_EXE_leiserchess"));
        Engine {
            client: Client::start(cmd, Stderr::Inherit).expect("the engine binary starts"),
            transcript: Vec::new(),
        }
    }

    /// Fails the test, showing the end of the conversation.
    pub fn fail(&self, what: &str) -> ! {
        let from = self.transcript.len().saturating_sub(80);
        panic!(
            "{what}\n--- engine transcript (last {} lines; '>' sent, '<' received) ---\n{}",
            self.transcript.len() - from,
            self.transcript[from..].join("\n")
        );
    }

    /// Sends one command line; returns the time just before it was written.
    pub fn send(&mut self, cmd: &str) -> Instant {
        self.transcript.push(format!("> {cmd}"));
        let t = Instant::now();
        if let Err(e) = self.client.send(cmd) {
            self.fail(&format!(
                "could not send '{cmd}': the engine's input is closed ({e})"
            ));
        }
        t
    }

    /// Closes the engine's input (end of input).
    pub fn close_input(&mut self) {
        self.transcript.push("> (end of input)".to_string());
        self.client.close_input();
    }

    /// The next output line, or `None` if none came within `timeout`; the
    /// test fails if the engine closed its output.
    pub fn try_line(&mut self, timeout: Duration) -> Option<(Instant, String)> {
        match self.client.read_line(Instant::now() + timeout) {
            Ok(line) => Some((line.at, self.received(&line))),
            Err(ClientError::Timeout { .. }) => None,
            Err(ClientError::Exited { .. }) => {
                self.fail("the engine closed its output (crashed or exited)")
            }
            Err(e) => self.fail(&e.to_string()),
        }
    }

    /// A line read: its text, in the transcript; the test fails if it is
    /// not UTF-8.
    fn received(&mut self, line: &Line) -> String {
        if std::str::from_utf8(&line.raw).is_err() {
            self.fail(&format!(
                "an output line is not UTF-8: {}",
                line.raw.escape_ascii()
            ));
        }
        let text = line.text();
        self.transcript.push(format!("< {text}"));
        text
    }

    /// The next output line; the test fails after `timeout`.
    pub fn line(&mut self, timeout: Duration) -> (Instant, String) {
        match self.try_line(timeout) {
            Some(l) => l,
            None => self.fail(&format!("no output line within {timeout:?}")),
        }
    }

    /// Reads up to the next line satisfying `want`; fails after `timeout`.
    pub fn until(&mut self, timeout: Duration, want: impl Fn(&str) -> bool) -> (Instant, String) {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let (t, line) = self.line(left);
            if want(&line) {
                return (t, line);
            }
        }
    }

    /// Reads this `go`'s output up to its `bestmove`.
    pub fn answer(&mut self, timeout: Duration) -> Answer {
        let deadline = Instant::now() + timeout;
        let mut infos = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Some((at, line)) = self.try_line(left) else {
                self.fail(&format!("no bestmove within {timeout:?}"));
            };
            if let Some(info) = Info::parse(&line) {
                infos.push(info);
                continue;
            }
            let t: Vec<&str> = line.split_whitespace().collect();
            if t.first() == Some(&"bestmove") {
                let Some(best) = t.get(1) else {
                    self.fail("a bestmove line without a move")
                };
                let ponder = match t.get(2..) {
                    Some(["ponder", p]) => Some(p.to_string()),
                    Some([]) | None => None,
                    Some(_) => self.fail(&format!("malformed bestmove line '{line}'")),
                };
                return Answer {
                    infos,
                    best: best.to_string(),
                    ponder,
                    at,
                };
            }
        }
    }

    /// `isready`, then everything up to `readyok`.
    pub fn sync(&mut self) {
        self.send("isready");
        self.until(PATIENCE, |l| l == "readyok");
    }

    /// Sends `quit` and waits for a clean exit.
    pub fn quit(mut self) {
        self.send("quit");
        self.close_input();
        self.wait_exit();
    }

    /// Waits for the process to exit and reads the rest of its output.
    pub fn wait_exit(&mut self) -> Vec<String> {
        let deadline = Instant::now() + PATIENCE;
        let mut rest = Vec::new();
        loop {
            match self.client.read_line(deadline) {
                Ok(line) => rest.push(self.received(&line)),
                Err(ClientError::Exited { .. }) => break,
                Err(ClientError::Timeout { .. }) => self.fail("the engine did not exit"),
                Err(e) => self.fail(&e.to_string()),
            }
        }
        match self.client.wait(deadline) {
            Ok(status) if status.success() => rest,
            Ok(status) => self.fail(&format!("the engine exited with {status}")),
            Err(_) => self.fail("the engine did not exit"),
        }
    }
}
