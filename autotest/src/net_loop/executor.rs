//! What the step machine asks of the world, behind a trait so that the
//! machine is tested with a fake that records every call and can fail
//! any of them (`net_loop/tests.rs`): the engine's commands that make a
//! file, the SPRT, the clock, the log, whether a stop signal came, and
//! the loop's record in the results database.
//! The real one is `net_loop::engine`.

use crate::db::loops::LoopRow;
use std::path::PathBuf;

/// A file a step made, by path and content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Artifact {
    pub path: PathBuf,
    /// Its SHA-256, in hex.
    pub sha256: String,
}

/// A step that makes one file: the engine's `datagen`, `relabel` or
/// `train`, or the promoted net copied to its place.
#[derive(Clone, Debug, PartialEq)]
pub enum Job {
    /// `datagen OUT --positions N --seed S [--net NET]`: `net` is the
    /// best net (the engine's embedded one when `None`); `generation`
    /// names its Slurm run's directory (`--slurm`).
    Datagen {
        generation: u32,
        out: PathBuf,
        positions: u64,
        seed: u64,
        net: Option<Artifact>,
    },
    /// `relabel DATA --out OUT --nodes N [--net NET]`.
    Relabel {
        data: Artifact,
        out: PathBuf,
        nodes: u64,
        net: Option<Artifact>,
    },
    /// `train DATA… --out OUT --epochs E --seed S --resume [--init NET]`.
    Train {
        data: Vec<Artifact>,
        out: PathBuf,
        epochs: usize,
        seed: u64,
        init: Option<Init>,
    },
    /// The promoted net copied to `to`, replacing it atomically, and
    /// marked in the store as promoted by generation `generation`'s
    /// `sprt` against `against` (`None`: the engine's embedded net).
    Promote {
        net: Artifact,
        to: PathBuf,
        generation: u32,
        sprt: SprtResult,
        against: Option<Artifact>,
    },
}

/// The net a candidate's training starts from (`--warm-start`): the
/// best, the engine's embedded net until a promotion.
#[derive(Clone, Debug, PartialEq)]
pub enum Init {
    Embedded,
    Net(Artifact),
}

impl Init {
    /// The best net `best` (`None`: the embedded one) to start from.
    pub fn best(best: &Option<Artifact>) -> Init {
        best.clone().map_or(Init::Embedded, Init::Net)
    }
}

/// The SPRT of a candidate against the best: at most `games` games,
/// written to `pgn` and taken up from it when it holds some already.
#[derive(Clone, Debug, PartialEq)]
pub struct SprtJob {
    pub generation: u32,
    pub candidate: Artifact,
    /// The best net; `None`: the engine's embedded one.
    pub best: Option<Artifact>,
    pub pgn: PathBuf,
    pub games: u32,
    /// Seeds the openings' order.
    pub seed: u64,
}

/// How an SPRT ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The candidate is better by `elo1`: promoted.
    H1,
    /// It is not better by `elo1`: rejected.
    H0,
    /// Every game played without a decision: rejected.
    Undecided,
}

impl Verdict {
    /// Its name in the state file.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::H1 => "H1",
            Verdict::H0 => "H0",
            Verdict::Undecided => "undecided",
        }
    }

    /// The verdict a name names.
    pub fn from_name(name: &str) -> Option<Verdict> {
        [Verdict::H1, Verdict::H0, Verdict::Undecided]
            .into_iter()
            .find(|v| v.name() == name)
    }
}

/// What an SPRT left: its games and verdict, the candidate's score.
#[derive(Clone, Debug, PartialEq)]
pub struct SprtResult {
    pub pgn: Artifact,
    pub verdict: Verdict,
    /// The log-likelihood ratio after the last game.
    pub llr: f64,
    /// The candidate's wins, draws and losses.
    pub wdl: [u64; 3],
}

/// The world the step machine runs in.
pub trait Executor {
    /// Seconds since the Unix epoch.
    fn now(&mut self) -> f64;
    /// A line of the loop's own (progress, decisions) told to the user
    /// and kept in the loop's log.
    fn say(&mut self, line: &str);
    /// Runs `job` to its end (going on from its own partial output where
    /// the command can) and returns the file made.
    fn make(&mut self, job: &Job) -> Result<Artifact, String>;
    /// Plays the SPRT to its decision or its last game.
    fn sprt(&mut self, job: &SprtJob) -> Result<SprtResult, String>;
    /// The stop signal received (`SIGINT`, `SIGTERM`), if one was: the
    /// loop starts no new step, and a step it cut short is not done.
    fn stop_signal(&self) -> Option<&'static str>;
    /// The loop's record as it stands (at the start, and after each step
    /// once the state is saved), for the results database: best effort,
    /// the state file being what the loop goes on from.
    fn record(&mut self, row: &LoopRow);
}
