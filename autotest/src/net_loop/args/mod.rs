//! `autotest loop`'s command line, and what it becomes: the plan the step
//! machine follows (budgets and stop rules) with the settings a restart
//! must repeat, and the setup the real executor runs the engine with.
//! The options forwarded to `leiserchess datagen`, `relabel` and `train`
//! are checked here, by those commands' own parsers, before anything runs.

use crate::config::numbers::time_control;
use crate::config::spec::{EngineLimits, SprtSpec};
use crate::config::split_command;
use crate::db::path::DbFlag;
use clap::builder::RangedU64ValueParser;
use clap::{value_parser, ArgGroup, Parser};
use slurm::LoopSlurm;
use std::path::{Path, PathBuf};

pub mod slurm;

/// The command line of `autotest loop`.
#[derive(clap::Args, Clone, Debug, PartialEq)]
#[command(group(ArgGroup::new("limit").required(true).args(["tc", "nodes"])))]
pub struct LoopArgs {
    /// The loop's folder, made if missing: its state (loop.json), its log
    /// (loop.log), each generation's files (gen-NNN/) and the best net
    /// (best.nnue)
    #[arg(long, value_name = "DIR")]
    pub dir: PathBuf,
    /// The leiserchess binary that makes the data, trains and plays
    #[arg(long, value_name = "PATH")]
    pub engine: PathBuf,
    /// The lab store the engine puts its files in (leiserchess ... --store
    /// DIR) [the engine's own default]
    #[arg(long, value_name = "DIR")]
    pub store: Option<PathBuf>,
    /// Self-play positions a generation (datagen --positions)
    #[arg(long, value_name = "N", value_parser = value_parser!(u64).range(1..), allow_negative_numbers = true)]
    pub positions: u64,
    /// Passes of the candidate's training (train --epochs), 1..10000
    #[arg(long, value_name = "N", value_parser = RangedU64ValueParser::<usize>::new().range(1..=10_000), allow_negative_numbers = true)]
    pub epochs: usize,
    /// The SPRT's most games; a candidate still undecided then is rejected
    #[arg(long, value_name = "N", value_parser = value_parser!(u32).range(2..), allow_negative_numbers = true)]
    pub games: u32,
    /// Score each generation's data again with the best net, N nodes a
    /// position (relabel --nodes), before training [no relabelling]
    #[arg(long, value_name = "N", value_parser = value_parser!(u64).range(1..=100_000_000), allow_negative_numbers = true)]
    pub relabel_nodes: Option<u64>,
    /// Train each candidate from the best net's weights (train --init)
    /// instead of random ones: a few million new positions refine a net
    /// that millions more made, where a net trained afresh on them alone
    /// falls short of it
    #[arg(long)]
    pub warm_start: bool,
    /// Train on the data of the newest G generations, this one's included
    #[arg(long, value_name = "G", default_value_t = 1, value_parser = value_parser!(u32).range(1..), allow_negative_numbers = true)]
    pub train_window: u32,
    /// The SPRT's clock, [MOVES/]SECONDS[+INC], for both engines
    #[arg(long, value_name = "TC", value_parser = sprt_clock, allow_negative_numbers = true)]
    pub tc: Option<String>,
    /// The SPRT's games at N nodes a move instead of a clock
    #[arg(long, value_name = "N", value_parser = value_parser!(u64).range(1..), allow_negative_numbers = true)]
    pub nodes: Option<u64>,
    /// The SPRT's H0 bound, normalized Elo
    #[arg(long, value_name = "E", allow_negative_numbers = true)]
    pub elo0: f64,
    /// The SPRT's H1 bound, normalized Elo
    #[arg(long, value_name = "E", allow_negative_numbers = true)]
    pub elo1: f64,
    /// The SPRT's false-positive rate
    #[arg(
        long,
        value_name = "A",
        default_value_t = 0.05,
        allow_negative_numbers = true
    )]
    pub alpha: f64,
    /// The SPRT's false-negative rate
    #[arg(
        long,
        value_name = "B",
        default_value_t = 0.05,
        allow_negative_numbers = true
    )]
    pub beta: f64,
    /// The SPRT's openings file (as -openings file=F order=random)
    #[arg(long, value_name = "FILE")]
    pub openings: PathBuf,
    /// Generation G's datagen, training and openings' order are seeded by
    /// S+G-1
    #[arg(
        long,
        value_name = "S",
        default_value_t = 1,
        allow_negative_numbers = true
    )]
    pub seed: u64,
    /// datagen's, relabel's and train's --threads, and the SPRT's games at
    /// once
    #[arg(long, value_name = "T", default_value_t = 1, value_parser = RangedU64ValueParser::<usize>::new().range(1..=256), allow_negative_numbers = true)]
    pub threads: usize,
    /// More datagen options, e.g. "--nodes 3000 --random-plies 8" (not
    /// those the loop sets: --positions, --seed, --net, --hand, --threads,
    /// --store, --no-store)
    #[arg(long, value_name = "ARGS", allow_hyphen_values = true)]
    pub datagen_args: Option<String>,
    /// More relabel options (not --out, --nodes, --net, --hand, --threads,
    /// --store, --no-store)
    #[arg(long, value_name = "ARGS", allow_hyphen_values = true)]
    pub relabel_args: Option<String>,
    /// More train options, e.g. "--beam --mirror --lambda 0.5" (not --out,
    /// --init, --epochs, --seed, --resume, --threads, --store, --no-store)
    #[arg(long, value_name = "ARGS", allow_hyphen_values = true)]
    pub train_args: Option<String>,
    /// Stop before generation N+1
    #[arg(long, value_name = "N", value_parser = value_parser!(u32).range(1..), allow_negative_numbers = true)]
    pub generations: Option<u32>,
    /// Start no generation once H hours have passed since the loop's
    /// first start, or when the last generation's time would take it
    /// past them
    #[arg(long, value_name = "H", value_parser = hours, allow_negative_numbers = true)]
    pub hours: Option<f64>,
    /// Stop after K candidates rejected in a row
    #[arg(long, value_name = "K", value_parser = value_parser!(u32).range(1..), allow_negative_numbers = true)]
    pub rejections: Option<u32>,
    /// Go on with settings other than those the loop was started with
    /// (they apply from the step it is at)
    #[arg(long)]
    pub force: bool,
    /// Make the data and play the SPRT as Slurm job arrays (relabel and
    /// train stay here), in run directories RUN/gen-G/datagen and
    /// RUN/gen-G/sprt: "dir=RUN [tasks=N] [pairs=N] [cpus=N]
    /// [sbatch=ARGS] [poll=S] [retries=N]", -slurm's settings (tasks=
    /// datagen's, pairs= the SPRT's) [every step on this machine]
    #[arg(long, value_name = "SETTINGS", allow_hyphen_values = true)]
    pub slurm: Option<String>,
    /// Where the loop, its generations and its SPRTs are recorded
    #[command(flatten)]
    pub db: DbFlag,
}

/// What a generation spends.
#[derive(Clone, Debug, PartialEq)]
pub struct Budget {
    pub positions: u64,
    pub epochs: usize,
    pub games: u32,
    /// Relabel at this many nodes a position; `None`: no relabel step.
    pub relabel_nodes: Option<u64>,
    /// Generations of data a candidate trains on.
    pub train_window: u32,
    /// Each candidate starts from the best net (`--warm-start`).
    pub warm_start: bool,
    pub seed: u64,
}

/// When the loop stops (any that is met).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StopRules {
    pub generations: Option<u32>,
    pub hours: Option<f64>,
    pub rejections: Option<u32>,
}

/// What the step machine follows.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    pub budget: Budget,
    pub stop: StopRules,
    /// The settings a restart must repeat (the state file's `settings`).
    pub settings: Vec<(String, Option<String>)>,
}

/// What the real executor runs the engine with.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    /// The loop's folder, absolute.
    pub dir: PathBuf,
    pub engine: PathBuf,
    pub store: Option<PathBuf>,
    /// The results database (`--db`), as `db::path::choose` takes it.
    pub db: Option<String>,
    pub threads: usize,
    pub datagen_args: Vec<String>,
    pub relabel_args: Vec<String>,
    pub train_args: Vec<String>,
    /// The SPRT's limits of both engines, its bounds and its openings.
    pub limits: EngineLimits,
    pub sprt: SprtSpec,
    pub openings: PathBuf,
    /// Datagen and the SPRT on Slurm (`--slurm`); `None`: here.
    pub slurm: Option<LoopSlurm>,
}

#[cfg(test)]
impl Setup {
    /// The setup the executor's tests start from: folder `dir`, engine
    /// `/e/leiserchess`, no store, no database, two threads, nothing
    /// forwarded, 40 nodes a move, an SPRT of [0, 5] at 5% each way,
    /// openings `/o`, no Slurm.
    pub fn example(dir: &Path) -> Setup {
        Setup {
            dir: dir.to_path_buf(),
            engine: PathBuf::from("/e/leiserchess"),
            store: None,
            db: Some("none".to_string()),
            threads: 2,
            datagen_args: Vec::new(),
            relabel_args: Vec::new(),
            train_args: Vec::new(),
            limits: EngineLimits {
                nodes: Some(40),
                ..EngineLimits::default()
            },
            sprt: SprtSpec {
                elo0: 0.0,
                elo1: 5.0,
                alpha: 0.05,
                beta: 0.05,
            },
            openings: PathBuf::from("/o"),
            slurm: None,
        }
    }
}

/// The flags each engine command must not be given through `--*-args`:
/// the loop sets them.
const DATAGEN_OWN: &[&str] = &[
    "--positions",
    "--seed",
    "--net",
    "--hand",
    "--threads",
    "--store",
    "--no-store",
];
const RELABEL_OWN: &[&str] = &[
    "--out",
    "--nodes",
    "--net",
    "--hand",
    "--threads",
    "--store",
    "--no-store",
];
const TRAIN_OWN: &[&str] = &[
    "--out",
    "--init",
    "--epochs",
    "--seed",
    "--resume",
    "--threads",
    "--store",
    "--no-store",
];

impl LoopArgs {
    /// The plan and the setup, the folder made; bad values refused naming
    /// their flag.
    pub fn plan(&self) -> Result<(Plan, Setup), String> {
        let sprt = SprtSpec {
            elo0: self.elo0,
            elo1: self.elo1,
            alpha: self.alpha,
            beta: self.beta,
        };
        for (flag, v) in [("--alpha", self.alpha), ("--beta", self.beta)] {
            if !(v > 0.0 && v < 1.0) {
                return Err(format!("{flag} {v}: must be between 0 and 1"));
            }
        }
        if self.elo0.partial_cmp(&self.elo1) != Some(std::cmp::Ordering::Less) {
            return Err(format!(
                "--elo0 {} must be less than --elo1 {}",
                self.elo0, self.elo1
            ));
        }
        if !self.engine.is_file() {
            return Err(format!("--engine {}: no such file", self.engine.display()));
        }
        crate::openings::load(&self.openings, None).map_err(|e| format!("--openings: {e}"))?;
        let datagen_args = forwarded("--datagen-args", &self.datagen_args, DATAGEN_OWN, |w| {
            check::<leiserchess::lab::datagen::Args>(&["datagen", "x"], w)
        })?;
        let relabel_args = forwarded("--relabel-args", &self.relabel_args, RELABEL_OWN, |w| {
            check::<leiserchess::lab::relabel::Args>(&["relabel", "x", "--out", "y"], w)
        })?;
        let train_args = forwarded("--train-args", &self.train_args, TRAIN_OWN, |w| {
            check::<leiserchess::lab::train::Args>(&["train", "x", "--out", "y"], w)
        })?;
        let slurm = self.slurm.as_deref().map(LoopSlurm::parse).transpose()?;
        std::fs::create_dir_all(&self.dir)
            .map_err(|e| format!("--dir {}: cannot make it: {e}", self.dir.display()))?;
        let limits = EngineLimits {
            clock: match &self.tc {
                Some(tc) => time_control(tc)?,
                None => None,
            },
            nodes: self.nodes,
            ..EngineLimits::default()
        };
        let setup = Setup {
            dir: absolute(&self.dir)?,
            engine: absolute(&self.engine)?,
            store: self.store.as_deref().map(absolute).transpose()?,
            db: self.db.db.clone(),
            threads: self.threads,
            datagen_args,
            relabel_args,
            train_args,
            limits,
            sprt,
            openings: absolute(&self.openings)?,
            slurm,
        };
        let plan = Plan {
            budget: Budget {
                positions: self.positions,
                epochs: self.epochs,
                games: self.games,
                relabel_nodes: self.relabel_nodes,
                train_window: self.train_window,
                warm_start: self.warm_start,
                seed: self.seed,
            },
            stop: StopRules {
                generations: self.generations,
                hours: self.hours,
                rejections: self.rejections,
            },
            settings: self.settings(&setup),
        };
        Ok((plan, setup))
    }

    /// The settings a restart must repeat: all but the stop rules,
    /// `--threads`, `--force` and `--db`, which change nothing a step
    /// makes. `--slurm` is one: its datagen's data are not the local
    /// step's, and a run directory goes on only with the command that
    /// made it.
    fn settings(&self, setup: &Setup) -> Vec<(String, Option<String>)> {
        let path = |p: &Path| Some(p.display().to_string());
        [
            ("--engine", path(&setup.engine)),
            ("--store", setup.store.as_deref().and_then(path)),
            ("--positions", Some(self.positions.to_string())),
            ("--epochs", Some(self.epochs.to_string())),
            ("--games", Some(self.games.to_string())),
            ("--relabel-nodes", self.relabel_nodes.map(|n| n.to_string())),
            ("--train-window", Some(self.train_window.to_string())),
            ("--warm-start", self.warm_start.then(|| "on".to_string())),
            ("--tc", self.tc.clone()),
            ("--nodes", self.nodes.map(|n| n.to_string())),
            ("--elo0", Some(self.elo0.to_string())),
            ("--elo1", Some(self.elo1.to_string())),
            ("--alpha", Some(self.alpha.to_string())),
            ("--beta", Some(self.beta.to_string())),
            ("--openings", path(&setup.openings)),
            ("--seed", Some(self.seed.to_string())),
            ("--datagen-args", self.datagen_args.clone()),
            ("--relabel-args", self.relabel_args.clone()),
            ("--train-args", self.train_args.clone()),
            ("--slurm", setup.slurm.as_ref().map(LoopSlurm::text)),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect()
    }
}

/// `path` from the root, as the state file and the child processes take
/// it whatever the directory they run in.
fn absolute(path: &Path) -> Result<PathBuf, String> {
    std::path::absolute(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// `--tc`'s value: a clock (not `inf`: an SPRT's games need a limit).
fn sprt_clock(text: &str) -> Result<String, String> {
    match time_control(text)? {
        Some(_) => Ok(text.to_string()),
        None => Err("an SPRT's games need a clock or --nodes".to_string()),
    }
}

/// `--hours`' value: a positive number of hours.
fn hours(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(h) if h > 0.0 && h.is_finite() => Ok(h),
        _ => Err("wants a positive number of hours, e.g. 10 or 0.5".to_string()),
    }
}

/// The words of `--*-args` (`flag`): none of the loop's own (`own`), and
/// accepted by the command's parser (`check`).
fn forwarded(
    flag: &str,
    text: &Option<String>,
    own: &[&str],
    check: impl FnOnce(&[String]) -> Result<(), String>,
) -> Result<Vec<String>, String> {
    let Some(text) = text else {
        return Ok(Vec::new());
    };
    let words = split_command(text).map_err(|e| format!("{flag}: {e}"))?;
    let owned = words.iter().find(|w| {
        own.iter()
            .any(|o| w.as_str() == *o || w.strip_prefix(o).is_some_and(|r| r.starts_with('=')))
    });
    if let Some(word) = owned {
        return Err(format!(
            "{flag}: {word} is the loop's to set, not given through {flag}"
        ));
    }
    check(&words).map_err(|e| format!("{flag} '{text}': {e}"))?;
    Ok(words)
}

/// Whether the engine command `A` takes `words` after `head` (its name
/// and the arguments the loop gives): clap's refusal's first line.
fn check<A: Parser>(head: &[&str], words: &[String]) -> Result<(), String> {
    let all = head
        .iter()
        .map(|w| w.to_string())
        .chain(words.iter().cloned());
    A::try_parse_from(all).map(|_| ()).map_err(|e| {
        let text = e.to_string();
        let first = text.lines().next().unwrap_or("refused");
        first.trim_start_matches("error: ").to_string()
    })
}

#[cfg(test)]
mod tests;
