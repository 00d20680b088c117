//! `-slurm`: a tournament's flags with the cluster's among them, and how
//! the games are cut into shards (one array task each).
//!
//! ```text
//! -slurm dir=RUN [pairs=N | tasks=N] [cpus=N] [sbatch="ARGS"] [poll=SECONDS] [retries=N]
//!        [nps=REF [bench="ARGS"]]
//! ```
//!
//! `dir` is the run directory on a filesystem the nodes share; `pairs` a
//! tournament's pairs per shard [20, raised so that there are at most
//! [`MAX_TASKS`] tasks]; `tasks` how many shards `autotest datagen` cuts
//! its positions into [8]; `cpus` each task's CPUs and games at once [1];
//! `sbatch` more arguments for `sbatch` (partition, account, time limit),
//! split as engine command lines are; `poll` how often the coordinator
//! looks [0.5 s]; `retries` how many times a shard whose task ended
//! without finishing it is submitted again [2]; `nps` a tournament's
//! reference speed, each task's clocks scaled by it over its node's
//! measured one, and `bench` the arguments that make the first engine
//! measure it [`bench --search pvs`] (`node_speed`).

use crate::config::flags::{arg_error, key_values, parse_flags_with};
use crate::config::numbers::{at_least, real, whole};
use crate::config::spec::TournamentSpec;
use crate::config::{split_command, validate, ConfigError};
use crate::slurm::node_speed::{Reference, BENCH};
use crate::slurm::run_dir::RunDir;
use std::ops::Range;
use std::path::PathBuf;
use std::time::Duration;

/// The flag.
pub const FLAG: &str = "-slurm";
/// Pairs per shard unless `pairs=` says otherwise.
pub const DEFAULT_PAIRS: usize = 20;
/// The most array tasks a run submits: Slurm's default `MaxArraySize`
/// (1001) allows task ids 0 to 1000.
pub const MAX_TASKS: usize = 1000;

#[derive(Clone, Debug, PartialEq)]
pub struct SlurmOptions {
    pub dir: PathBuf,
    pub pairs: Option<usize>,
    pub tasks: Option<usize>,
    pub cpus: usize,
    pub sbatch: Vec<String>,
    pub poll: Duration,
    pub retries: u32,
    /// `nps=` and `bench=`: clocks scaled by each node's speed.
    pub speed: Option<Reference>,
}

/// Tournament flags, `-slurm` among them or not; the spec is validated.
pub fn parse(args: &[String]) -> Result<(TournamentSpec, Option<SlurmOptions>), ConfigError> {
    let mut slurm: Option<SlurmOptions> = None;
    let spec = parse_flags_with(args, |i| {
        if args[i] != FLAG {
            return Ok(None);
        }
        if slurm.is_some() {
            return Err(arg_error(args, i, "is given twice"));
        }
        let kv = key_values(args, i)?;
        if let Some(&(j, ..)) = kv.iter().find(|(_, k, _)| *k == "tasks") {
            let m = "a tournament is cut by pairs=, not tasks= (autotest datagen's)";
            return Err(arg_error(args, j, m));
        }
        slurm = Some(parse_options(args, &kv)?);
        Ok(Some(1 + kv.len()))
    })?;
    validate(&spec)?;
    if slurm.is_some() && spec.resume {
        return Err(ConfigError::Invalid(
            "-slurm goes on from its run directory by itself: drop -resume".into(),
        ));
    }
    Ok((spec, slurm))
}

/// The tournament a run directory holds, with its `-slurm` options; its
/// directory entered ([`RunDir::enter`]).
pub fn stored(run: &RunDir) -> Result<(TournamentSpec, SlurmOptions), String> {
    let args = run.enter()?;
    let at = format!("{}/run.args", run.root.display());
    let (spec, opts) = parse(&args).map_err(|e| format!("{at}: {e}"))?;
    Ok((spec, opts.ok_or(format!("{at} has no -slurm"))?))
}

impl SlurmOptions {
    /// A tournament's pairs per shard.
    pub fn pairs(&self) -> usize {
        self.pairs.unwrap_or(DEFAULT_PAIRS)
    }
}

/// The `key=value` settings of a `-slurm` flag (`kv`, from
/// [`key_values`]) among `args`.
pub fn parse_options(
    args: &[String],
    kv: &[(usize, &str, &str)],
) -> Result<SlurmOptions, ConfigError> {
    let mut o = SlurmOptions {
        dir: PathBuf::new(),
        pairs: None,
        tasks: None,
        cpus: 1,
        sbatch: Vec::new(),
        poll: Duration::from_millis(500),
        retries: 2,
        speed: None,
    };
    let mut dir = None;
    let mut bench = None;
    for &(j, k, v) in kv {
        let bad = |m: String| arg_error(args, j, &m);
        match k {
            "dir" if !v.is_empty() => dir = Some(PathBuf::from(v)),
            "pairs" | "tasks" => {
                let n = whole::<usize>(v, k)
                    .and_then(|n| at_least(n, 1, k))
                    .map_err(bad)?;
                match k {
                    "pairs" => o.pairs = Some(n),
                    _ => o.tasks = Some(n.min(MAX_TASKS)),
                }
            }
            "cpus" => {
                o.cpus = whole::<usize>(v, "cpus")
                    .and_then(|n| at_least(n, 1, "cpus"))
                    .map_err(bad)?
            }
            "retries" => o.retries = whole::<u32>(v, "retries").map_err(bad)?,
            "poll" => {
                let s = real(v, "poll").map_err(bad)?;
                if !(0.01..=3600.0).contains(&s) {
                    return Err(bad("poll must be between 0.01 and 3600 seconds".into()));
                }
                o.poll = Duration::from_secs_f64(s);
            }
            "sbatch" => o.sbatch = split_command(v).map_err(bad)?,
            "nps" => {
                let nps = real(v, "nps").map_err(bad)?;
                if nps <= 0.0 {
                    return Err(bad("nps must be above 0 (nodes per second)".into()));
                }
                o.speed = Some(Reference {
                    nps,
                    bench: BENCH.map(String::from).to_vec(),
                });
            }
            "bench" => bench = Some((j, split_command(v).map_err(|e| bad(format!("bench: {e}")))?)),
            _ => {
                return Err(bad(format!(
                    "unknown -slurm key '{k}' (dir, pairs, tasks, cpus, sbatch, poll, retries, \
                     nps, bench)"
                )))
            }
        }
    }
    o.dir = dir.ok_or_else(|| arg_error(args, kv[0].0 - 1, "needs dir=RUN, the run directory"))?;
    if let Some((j, words)) = bench {
        let speed = o.speed.as_mut().ok_or_else(|| {
            arg_error(
                args,
                j,
                "bench= measures the node for nps=REF: give nps= too",
            )
        })?;
        speed.bench = words;
    }
    Ok(o)
}

/// The shards of a schedule of `pairs` pairs, `per` pairs each (more if
/// that would make over [`MAX_TASKS`] tasks): contiguous pair ranges, task
/// `k` playing the `k`-th.
pub fn shards(pairs: usize, per: usize) -> Vec<Range<usize>> {
    let per = per.max(pairs.div_ceil(MAX_TASKS)).max(1);
    (0..pairs.div_ceil(per))
        .map(|k| k * per..((k + 1) * per).min(pairs))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    const ENGINES: &[&str] = &["-engine", "cmd=a", "-engine", "cmd=b"];

    #[test]
    fn options_and_their_errors() {
        let mut args = strings(ENGINES);
        args.extend(strings(&[
            "-slurm",
            "dir=run",
            "pairs=4",
            "sbatch=-p main --time=10",
            "poll=0.2",
        ]));
        let (_, o) = parse(&args).unwrap();
        let o = o.unwrap();
        assert_eq!(
            (o.dir.clone(), o.pairs(), o.cpus, o.retries),
            (PathBuf::from("run"), 4, 1, 2)
        );
        assert_eq!(o.sbatch, strings(&["-p", "main", "--time=10"]));
        assert_eq!(o.poll, Duration::from_millis(200));
        assert_eq!(parse(&strings(ENGINES)).unwrap().1, None);
        let err = |extra: &[&str]| {
            let mut a = strings(ENGINES);
            a.extend(strings(extra));
            parse(&a).unwrap_err().to_string()
        };
        assert!(err(&["-slurm", "pairs=3"]).contains("needs dir=RUN"));
        assert!(err(&["-slurm", "dir=r", "pairs=0"]).contains("argument 7 'pairs=0'"));
        assert!(err(&["-slurm", "dir=r", "colour=red"]).contains("unknown -slurm key 'colour'"));
        assert!(err(&["-slurm", "dir=r", "-slurm", "dir=s"]).contains("given twice"));
        assert!(err(&["-slurm", "dir=r", "tasks=3"]).contains("not tasks="));
        assert!(err(&["-slurm", "dir=r", "-pgnout", "x", "-resume"]).contains("drop -resume"));
    }

    #[test]
    fn the_reference_speed_and_its_bench() {
        let slurm = |extra: &[&str]| {
            let mut a = strings(ENGINES);
            a.extend(strings(&["-slurm", "dir=run"]));
            a.extend(strings(extra));
            parse(&a).map(|(_, o)| o.unwrap().speed)
        };
        assert_eq!(slurm(&[]), Ok(None));
        let default = Reference {
            nps: 1.5e6,
            bench: strings(&BENCH),
        };
        assert_eq!(slurm(&["nps=1500000"]), Ok(Some(default)));
        let custom = Reference {
            nps: 2e6,
            bench: strings(&["bench", "--depth", "9 x"]),
        };
        let got = slurm(&["bench=bench --depth \"9 x\"", "nps=2e6"]);
        assert_eq!(got, Ok(Some(custom)));
        let err = |extra: &[&str]| slurm(extra).unwrap_err().to_string();
        for bad in ["nps=fast", "nps=0", "nps=-5", "nps=inf"] {
            let e = err(&[bad]);
            assert!(e.contains(&format!("argument 7 '{bad}'")), "{e}");
            assert!(e.contains("nps must be"), "{e}");
        }
        let e = err(&["bench=bench"]);
        assert!(e.contains("argument 7 'bench=bench'"), "{e}");
        assert!(e.contains("give nps= too"), "{e}");
        let e = err(&["nps=1e6", "bench="]);
        assert!(
            e.contains("argument 8 'bench=': bench: the command line is empty"),
            "{e}"
        );
        let e = err(&["nps=1e6", "bench=\"x"]);
        assert!(
            e.contains("argument 8") && e.contains("unterminated"),
            "{e}"
        );
    }

    #[test]
    fn shards_cover_every_pair_once() {
        assert_eq!(shards(10, 4), vec![0..4, 4..8, 8..10]);
        assert_eq!(shards(3, 20), vec![0..3]);
        assert!(shards(0, 5).is_empty());
        let big = shards(5_000, 1);
        assert_eq!(big.len(), MAX_TASKS);
        assert_eq!(big.last().unwrap().end, 5_000);
        assert!(big.windows(2).all(|w| w[0].end == w[1].start));
    }
}
