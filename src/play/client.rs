//! The other end of UCI: a program (an engine) run as a child process and
//! talked to line by line over its standard input and output. A reader
//! thread turns the output into a channel, so that every read has a
//! deadline and a hung program is noticed; a program that crashed is
//! noticed too. Dropping a [`Client`] kills the program if it still runs,
//! reaps it, and ends the reader threads.
//!
//! The engine itself never uses this module: it is for referees and tests.

use std::fmt;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a read that found the output closed waits for the exit status.
const REAP_GRACE: Duration = Duration::from_millis(100);

/// How often an exit is polled for.
const POLL: Duration = Duration::from_millis(2);

/// How long dropping a client waits for its reader threads: they end as
/// soon as the killed program's pipes close, unless a process it started
/// still holds them open (then the thread ends with that process).
const JOIN_GRACE: Duration = Duration::from_secs(1);

/// What went wrong talking to the program.
#[derive(Debug)]
pub enum ClientError {
    /// The program could not be started.
    Start { program: String, source: io::Error },
    /// A write to its input failed (it exited, or closed its input).
    Write { what: String, source: io::Error },
    /// Nothing came before the deadline.
    Timeout {
        /// What the read waited for.
        waiting_for: String,
        /// How long it waited.
        waited: Duration,
    },
    /// It closed its output: its exit status, if it was seen in time.
    Exited { status: Option<ExitStatus> },
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            ClientError::Start { program, source } => {
                write!(f, "could not start {program}: {source}")
            }
            ClientError::Write { what, source } => write!(f, "could not write {what}: {source}"),
            ClientError::Timeout {
                waiting_for,
                waited,
            } => write!(
                f,
                "timeout waiting for {waiting_for} ({} ms)",
                waited.as_millis()
            ),
            ClientError::Exited { status: Some(s) } => write!(f, "exited ({s})"),
            ClientError::Exited { status: None } => write!(f, "exited (closed its output)"),
        }
    }
}

impl std::error::Error for ClientError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ClientError::Start { source, .. } | ClientError::Write { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// Where the program's standard error goes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Stderr {
    /// Thrown away.
    Null,
    /// The caller's standard error.
    Inherit,
    /// Kept, for [`Client::stderr`].
    Capture,
}

/// One line of the program's output.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Line {
    /// When the reader thread read it.
    pub at: Instant,
    /// The bytes as written, with the line end if there was one.
    pub raw: Vec<u8>,
}

impl Line {
    /// The line without its end (`\n` or `\r\n`); bytes that are not
    /// UTF-8 are replaced, not taken for the end of the output.
    pub fn text(&self) -> String {
        let line = self.raw.strip_suffix(b"\n").unwrap_or(&self.raw);
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        String::from_utf8_lossy(line).into_owned()
    }
}

/// How a program ended: its status and the output not read before.
#[derive(Debug)]
pub struct Exit {
    pub status: ExitStatus,
    pub rest: Vec<Line>,
}

/// A running program.
pub struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Line>,
    reader: Option<JoinHandle<()>>,
    stderr: Arc<Mutex<Vec<u8>>>,
    stderr_reader: Option<JoinHandle<()>>,
}

impl Client {
    /// Starts `command` with its input and output piped to the client.
    pub fn start(mut command: Command, stderr: Stderr) -> Result<Client, ClientError> {
        command.stdin(Stdio::piped()).stdout(Stdio::piped());
        command.stderr(match stderr {
            Stderr::Null => Stdio::null(),
            Stderr::Inherit => Stdio::inherit(),
            Stderr::Capture => Stdio::piped(),
        });
        let mut child = command.spawn().map_err(|source| ClientError::Start {
            program: command.get_program().to_string_lossy().into_owned(),
            source,
        })?;
        let stdin = child.stdin.take();
        let (tx, lines) = channel();
        let reader = child.stdout.take().map(|out| {
            std::thread::spawn(move || {
                let mut out = BufReader::new(out);
                loop {
                    let mut raw = Vec::new();
                    match out.read_until(b'\n', &mut raw) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let line = Line {
                                at: Instant::now(),
                                raw,
                            };
                            if tx.send(line).is_err() {
                                break;
                            }
                        }
                    }
                }
            })
        });
        let kept = Arc::new(Mutex::new(Vec::new()));
        let stderr_reader = child.stderr.take().map(|mut err| {
            let sink = Arc::clone(&kept);
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                while let Ok(n @ 1..) = err.read(&mut buf) {
                    match sink.lock() {
                        Ok(mut s) => s.extend_from_slice(&buf[..n]),
                        Err(_) => break,
                    }
                }
            })
        });
        Ok(Client {
            child,
            stdin,
            lines,
            reader,
            stderr: kept,
            stderr_reader,
        })
    }

    /// Sends one line (`line` and a line end).
    pub fn send(&mut self, line: &str) -> Result<(), ClientError> {
        let bytes = format!("{line}\n");
        self.write(bytes.as_bytes(), || format!("'{line}'"))
    }

    /// Sends `bytes` exactly: input that need not be UTF-8 nor whole lines.
    pub fn send_raw(&mut self, bytes: &[u8]) -> Result<(), ClientError> {
        self.write(bytes, || format!("{} bytes", bytes.len()))
    }

    fn write(&mut self, bytes: &[u8], what: impl Fn() -> String) -> Result<(), ClientError> {
        let result = match self.stdin.as_mut() {
            Some(w) => w.write_all(bytes).and_then(|_| w.flush()),
            None => Err(io::Error::new(
                io::ErrorKind::BrokenPipe,
                "the input is closed",
            )),
        };
        result.map_err(|source| ClientError::Write {
            what: what(),
            source,
        })
    }

    /// Closes the program's input (its end of input).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The next output line, waiting until `deadline` at most.
    pub fn read_line(&mut self, deadline: Instant) -> Result<Line, ClientError> {
        self.read(deadline, "a line")
    }

    /// Reads up to the first line that satisfies `want`, until `deadline`;
    /// `waiting_for` names it in a timeout. `want` sees every line read.
    pub fn read_until(
        &mut self,
        deadline: Instant,
        waiting_for: &str,
        mut want: impl FnMut(&Line) -> bool,
    ) -> Result<Line, ClientError> {
        let waited = deadline.saturating_duration_since(Instant::now());
        loop {
            let line = self.read(deadline, waiting_for).map_err(|e| match e {
                ClientError::Timeout { waiting_for, .. } => ClientError::Timeout {
                    waiting_for,
                    waited,
                },
                other => other,
            })?;
            if want(&line) {
                return Ok(line);
            }
        }
    }

    fn read(&mut self, deadline: Instant, waiting_for: &str) -> Result<Line, ClientError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(ClientError::Timeout {
                waiting_for: waiting_for.to_string(),
                waited: wait,
            }),
            Err(RecvTimeoutError::Disconnected) => {
                let status = self.wait(Instant::now() + REAP_GRACE).ok();
                Err(ClientError::Exited { status })
            }
        }
    }

    /// Waits until `deadline` for the program to exit; then its captured
    /// standard error is complete. The output is not read.
    pub fn wait(&mut self, deadline: Instant) -> Result<ExitStatus, ClientError> {
        let waited = deadline.saturating_duration_since(Instant::now());
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    join_by(&mut self.stderr_reader, deadline);
                    return Ok(status);
                }
                Ok(None) if Instant::now() < deadline => std::thread::sleep(POLL),
                _ => {
                    return Err(ClientError::Timeout {
                        waiting_for: "the exit".to_string(),
                        waited,
                    })
                }
            }
        }
    }

    /// Closes the program's input, reads the rest of its output and waits
    /// for it to exit, all until `deadline`.
    pub fn wait_exit(&mut self, deadline: Instant) -> Result<Exit, ClientError> {
        self.close_input();
        let mut rest = Vec::new();
        loop {
            match self.read(deadline, "the end of the output") {
                Ok(line) => rest.push(line),
                Err(ClientError::Exited { .. }) => break,
                Err(e) => return Err(e),
            }
        }
        let status = self.wait(deadline)?;
        Ok(Exit { status, rest })
    }

    /// The child's process id.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Its standard error so far (empty unless captured).
    pub fn stderr(&self) -> Vec<u8> {
        self.stderr.lock().map(|s| s.clone()).unwrap_or_default()
    }
}

/// Joins the thread in `handle` if it ends by `deadline`; else leaves it
/// to end on its own.
fn join_by(handle: &mut Option<JoinHandle<()>>, deadline: Instant) {
    while handle.as_ref().is_some_and(|h| !h.is_finished()) && Instant::now() < deadline {
        std::thread::sleep(POLL);
    }
    if handle.as_ref().is_some_and(JoinHandle::is_finished) {
        if let Some(h) = handle.take() {
            let _ = h.join();
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        self.stdin = None;
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
        let deadline = Instant::now() + JOIN_GRACE;
        join_by(&mut self.reader, deadline);
        join_by(&mut self.stderr_reader, deadline);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str, stderr: Stderr) -> Client {
        let mut c = Command::new("sh");
        c.args(["-c", script]);
        Client::start(c, stderr).expect("sh starts")
    }

    fn soon() -> Instant {
        Instant::now() + Duration::from_secs(10)
    }

    #[test]
    fn lines_come_back_in_order_with_their_ends() {
        let mut c = Client::start(Command::new("cat"), Stderr::Null).expect("cat starts");
        c.send("uci").unwrap();
        c.send_raw(b"a\r\nb\xffc\n").unwrap();
        assert_eq!(c.read_line(soon()).unwrap().text(), "uci");
        let crlf = c.read_line(soon()).unwrap();
        assert_eq!(
            (crlf.raw.as_slice(), crlf.text()),
            (&b"a\r\n"[..], "a".into())
        );
        assert_eq!(c.read_line(soon()).unwrap().text(), "b\u{fffd}c");
    }

    #[test]
    fn a_silent_program_times_out() {
        let mut c = Client::start(Command::new("cat"), Stderr::Null).unwrap();
        let e = c
            .read_line(Instant::now() + Duration::from_millis(20))
            .unwrap_err();
        assert!(matches!(e, ClientError::Timeout { .. }), "{e:?}");
        assert!(
            e.to_string().starts_with("timeout waiting for a line ("),
            "{e}"
        );
        c.send("x").unwrap();
        let e = c
            .read_until(Instant::now() + Duration::from_millis(50), "'y'", |l| {
                l.text() == "y"
            })
            .unwrap_err();
        assert!(
            e.to_string().starts_with("timeout waiting for 'y' ("),
            "{e}"
        );
    }

    #[test]
    fn read_until_skips_to_the_wanted_line() {
        let mut c = sh("echo a; echo b; echo c", Stderr::Null);
        let mut seen = Vec::new();
        let line = c
            .read_until(soon(), "b", |l| {
                seen.push(l.text());
                l.text() == "b"
            })
            .unwrap();
        assert_eq!(line.text(), "b");
        assert_eq!(seen, ["a", "b"]);
        assert_eq!(c.read_line(soon()).unwrap().text(), "c");
    }

    #[test]
    fn an_exit_is_reported_with_its_status() {
        let mut c = sh("echo bye; exit 7", Stderr::Null);
        assert_eq!(c.read_line(soon()).unwrap().text(), "bye");
        let e = c.read_line(soon()).unwrap_err();
        let ClientError::Exited { status: Some(s) } = &e else {
            panic!("{e:?}")
        };
        assert_eq!(s.code(), Some(7));
        assert!(e.to_string().starts_with("exited ("), "{e}");
    }

    #[test]
    fn wait_exit_collects_the_rest_and_the_standard_error() {
        let mut c = sh(
            "read -r l; echo \"got $l\"; echo oops >&2; printf end",
            Stderr::Capture,
        );
        c.send("in").unwrap();
        let exit = c.wait_exit(soon()).unwrap();
        assert!(exit.status.success());
        let out: Vec<u8> = exit.rest.iter().flat_map(|l| l.raw.clone()).collect();
        assert_eq!(out, b"got in\nend");
        assert_eq!(c.stderr(), b"oops\n");
    }

    #[test]
    fn closing_the_input_ends_cat() {
        let mut c = Client::start(Command::new("cat"), Stderr::Null).unwrap();
        c.send("last").unwrap();
        let exit = c.wait_exit(soon()).unwrap();
        assert_eq!(exit.rest.len(), 1);
        let e = c.send("late").unwrap_err();
        assert!(e.to_string().starts_with("could not write 'late': "), "{e}");
    }

    #[test]
    fn a_hung_program_times_out_and_is_killed_on_drop() {
        let mut c = sh("trap '' TERM; exec sleep 60", Stderr::Null);
        let pid = c.child.id();
        let e = c
            .wait_exit(Instant::now() + Duration::from_millis(50))
            .unwrap_err();
        assert!(e.to_string().starts_with("timeout waiting for "), "{e}");
        let started = Instant::now();
        drop(c);
        assert!(started.elapsed() < JOIN_GRACE);
        assert!(!std::path::Path::new(&format!("/proc/{pid}")).exists());
    }

    #[test]
    fn a_missing_program_does_not_start() {
        let e = Client::start(Command::new("/no/such/program"), Stderr::Null)
            .err()
            .expect("no start");
        assert!(
            e.to_string()
                .starts_with("could not start /no/such/program: "),
            "{e}"
        );
        assert!(std::error::Error::source(&e).is_some());
    }
}
