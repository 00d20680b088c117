//! The fake executor of the machine's tests (`tests.rs`): it records
//! every call and the loop's records, answers each call with a file named
//! by what it asked,
//! keeps a clock that each finished call moves on, and fails the call it
//! is told to, as a crash or as a stop signal would end it.

use super::executor::{Artifact, Executor, Job, SprtJob, SprtResult, Verdict};
use crate::db::loops::LoopRow;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// A call the machine made.
#[derive(Clone, Debug, PartialEq)]
pub enum Call {
    Make(Job),
    Sprt(SprtJob),
}

/// Seconds each kind of call takes on the fake clock.
fn seconds(call: &Call) -> f64 {
    match call {
        Call::Make(Job::Datagen { .. }) => 100.0,
        Call::Make(Job::Relabel { .. }) => 20.0,
        Call::Make(Job::Train { .. }) => 50.0,
        Call::Sprt(_) => 30.0,
        Call::Make(Job::Promote { .. }) => 1.0,
    }
}

#[derive(Default)]
pub struct Fake {
    /// The loop's folder, left out of the made-up hashes.
    dir: PathBuf,
    pub calls: Vec<Call>,
    pub said: Vec<String>,
    /// The loop's records, in order.
    pub records: Vec<LoopRow>,
    pub clock: f64,
    /// The SPRT's verdict by generation (H1 where none is given).
    verdicts: HashMap<u32, Verdict>,
    /// The call (counted from 0) that fails as a crash.
    pub crash: Option<usize>,
    /// The call that a stop signal cuts short.
    pub signal: Option<usize>,
    signalled: bool,
}

impl Fake {
    pub fn new(dir: &Path, verdicts: &[(u32, Verdict)]) -> Fake {
        Fake {
            dir: dir.to_path_buf(),
            clock: 1_000_000.0,
            verdicts: verdicts.iter().copied().collect(),
            ..Fake::default()
        }
    }

    /// Records `call`; fails it if told to, else moves the clock on.
    fn call(&mut self, call: Call) -> Result<(), String> {
        let n = self.calls.len();
        let took = seconds(&call);
        self.calls.push(call);
        if self.crash == Some(n) {
            return Err("crashed".to_string());
        }
        if self.signal == Some(n) {
            self.signalled = true;
            return Err("stopped by SIGTERM".to_string());
        }
        self.clock += took;
        Ok(())
    }
}

/// `value` as `{:?}` shows it, the folder `dir` written `DIR`.
pub fn text<T: std::fmt::Debug>(value: &T, dir: &Path) -> String {
    format!("{value:?}").replace(&dir.display().to_string(), "DIR")
}

impl Fake {
    /// The made-up file at `path`, its hash that of everything the call
    /// asked (wherever the loop's folder is).
    fn made(&self, path: &Path, call: &Call) -> Artifact {
        let digest = Sha256::digest(text(call, &self.dir).as_bytes());
        Artifact {
            path: path.to_path_buf(),
            sha256: digest.iter().map(|b| format!("{b:02x}")).collect(),
        }
    }
}

/// The generation of a file of `gen-NNN/`.
fn generation_of(path: &Path) -> u32 {
    let dir = path
        .parent()
        .unwrap()
        .file_name()
        .unwrap()
        .to_str()
        .unwrap();
    dir.strip_prefix("gen-").unwrap().parse().unwrap()
}

impl Executor for Fake {
    fn now(&mut self) -> f64 {
        self.clock
    }

    fn say(&mut self, line: &str) {
        self.said.push(line.to_string());
    }

    fn make(&mut self, job: &Job) -> Result<Artifact, String> {
        let call = Call::Make(job.clone());
        self.call(call.clone())?;
        let out = match job {
            Job::Datagen { out, .. } | Job::Relabel { out, .. } | Job::Train { out, .. } => out,
            Job::Promote { to, .. } => to,
        };
        Ok(self.made(out, &call))
    }

    fn sprt(&mut self, job: &SprtJob) -> Result<SprtResult, String> {
        let call = Call::Sprt(job.clone());
        self.call(call.clone())?;
        let g = generation_of(&job.pgn);
        let verdict = self.verdicts.get(&g).copied().unwrap_or(Verdict::H1);
        Ok(SprtResult {
            pgn: self.made(&job.pgn, &call),
            verdict,
            llr: if verdict == Verdict::H1 { 2.95 } else { -2.95 },
            wdl: [10, 5, u64::from(g)],
        })
    }

    fn stop_signal(&self) -> Option<&'static str> {
        self.signalled.then_some("SIGTERM")
    }

    fn record(&mut self, row: &LoopRow) {
        self.records.push(row.clone());
    }
}
