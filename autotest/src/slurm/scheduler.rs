//! Slurm through its command-line tools: `sbatch` submits a job array,
//! `squeue` says which of its tasks are pending or running, `scancel`
//! ends them. Nothing else talks to the cluster.

use crate::slurm::run_dir::{RunDir, Submission};
use std::fmt;
use std::path::Path;
use std::process::{Command, ExitStatus};
use std::time::Duration;

/// What went wrong asking Slurm.
#[derive(Debug)]
pub enum SlurmError {
    /// The program could not be started: no Slurm on this host.
    Unavailable {
        program: String,
        source: std::io::Error,
    },
    /// It ran and failed (a busy controller, a refused submission).
    Failed {
        command: String,
        status: ExitStatus,
        stderr: String,
    },
}

impl fmt::Display for SlurmError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            SlurmError::Unavailable { program, source } => write!(
                f,
                "cannot run {program} ({source}): is this a Slurm host? \
                 (scripts/slurm-local.sh start brings up a local one)"
            ),
            SlurmError::Failed {
                command,
                status,
                stderr,
            } => write!(f, "{command} failed ({status}): {stderr}"),
        }
    }
}

impl std::error::Error for SlurmError {}

/// A task of one of the run's jobs that Slurm still holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alive {
    pub job: String,
    pub task: usize,
    /// Slurm's state name: PENDING, RUNNING, COMPLETING, ...
    pub state: String,
}

/// States in which a task will still run, or is running.
const ALIVE: &[&str] = &[
    "PENDING",
    "RUNNING",
    "CONFIGURING",
    "COMPLETING",
    "REQUEUED",
    "REQUEUE_FED",
    "REQUEUE_HOLD",
    "RESIZING",
    "SUSPENDED",
    "STAGE_OUT",
    "SIGNALING",
];

fn output(program: &str, args: &[String]) -> Result<String, SlurmError> {
    let out = Command::new(program)
        .args(args)
        .output()
        .map_err(|source| SlurmError::Unavailable {
            program: program.to_string(),
            source,
        })?;
    if !out.status.success() {
        return Err(SlurmError::Failed {
            command: format!("{program} {}", args.join(" ")),
            status: out.status,
            stderr: String::from_utf8_lossy(&out.stderr).trim().to_string(),
        });
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// `0-3,5,7-9`: Slurm's `--array` list of task ids.
pub fn array_list(tasks: &[usize]) -> String {
    let mut sorted = tasks.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut parts = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let mut j = i;
        while j + 1 < sorted.len() && sorted[j + 1] == sorted[j] + 1 {
            j += 1;
        }
        parts.push(match j - i {
            0 => sorted[i].to_string(),
            _ => format!("{}-{}", sorted[i], sorted[j]),
        });
        i = j + 1;
    }
    parts.join(",")
}

/// Submits `tasks` of the run as one job array, each running `autotest
/// slurm SUBCOMMAND` (`RunDir::task_script`); `extra` goes to sbatch as
/// given (after ours, so it may override them). Records it in the run
/// directory.
pub fn submit(
    run: &RunDir,
    subcommand: &str,
    tasks: &[usize],
    cpus: usize,
    cwd: &Path,
    extra: &[String],
) -> Result<Submission, String> {
    let script = run.task_script(subcommand)?;
    let mut args = vec![
        "--parsable".to_string(),
        format!("--array={}", array_list(tasks)),
        format!("--job-name=autotest-{}", run.name()),
        format!("--output={}", run.log_pattern().display()),
        "--open-mode=append".to_string(),
        "--requeue".to_string(),
        format!("--cpus-per-task={cpus}"),
        format!("--chdir={}", cwd.display()),
    ];
    args.extend(extra.iter().cloned());
    args.push(script.display().to_string());
    let out = output("sbatch", &args).map_err(|e| e.to_string())?;
    // `--parsable` prints `JOB_ID` or `JOB_ID;CLUSTER`.
    let job = out.trim().split(';').next().unwrap_or("").to_string();
    if job.is_empty() || !job.chars().all(|c| c.is_ascii_digit()) {
        return Err(format!("sbatch printed no job id: {out:?}"));
    }
    let s = Submission {
        job,
        tasks: tasks.to_vec(),
    };
    run.record(&s)?;
    Ok(s)
}

/// The tasks of `jobs` Slurm still holds, pending or running. A busy
/// controller may fail a query now and then: it is asked again, up to
/// [`QUERY_TRIES`] times a second apart, before the error counts; a
/// `squeue` that cannot be run at all is not asked again.
pub fn alive(jobs: &[String]) -> Result<Vec<Alive>, SlurmError> {
    retried(QUERY_TRIES, Duration::from_secs(1), || alive_once(jobs))
}

/// How many times `squeue` is asked before its failure stops a run.
pub const QUERY_TRIES: u32 = 5;

/// `query`'s answer, asked again `pause` apart while Slurm answers with a
/// failure, at most `tries` times in all.
fn retried<T>(
    tries: u32,
    pause: Duration,
    mut query: impl FnMut() -> Result<T, SlurmError>,
) -> Result<T, SlurmError> {
    let mut tried = 1;
    loop {
        match query() {
            Err(e @ SlurmError::Failed { .. }) if tried < tries => {
                eprintln!("autotest: {e}; asking again");
                tried += 1;
                std::thread::sleep(pause);
            }
            result => return result,
        }
    }
}

fn alive_once(jobs: &[String]) -> Result<Vec<Alive>, SlurmError> {
    if jobs.is_empty() {
        return Ok(Vec::new());
    }
    let args: Vec<String> = ["-h", "-r", "--me", "-o", "%F|%K|%T"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let text = output("squeue", &args)?;
    Ok(parse_squeue(&text, jobs))
}

fn parse_squeue(text: &str, jobs: &[String]) -> Vec<Alive> {
    text.lines()
        .filter_map(|line| {
            let mut f = line.trim().split('|');
            let (job, task, state) = (f.next()?, f.next()?, f.next()?);
            let ours = jobs.iter().any(|j| j == job) && ALIVE.contains(&state);
            ours.then(|| {
                Some(Alive {
                    job: job.to_string(),
                    task: task.parse().ok()?,
                    state: state.to_string(),
                })
            })?
        })
        .collect()
}

/// Cancels every task of `jobs`.
pub fn cancel(jobs: &[String]) -> Result<(), SlurmError> {
    if jobs.is_empty() {
        return Ok(());
    }
    output("scancel", jobs).map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn array_lists_run_together() {
        assert_eq!(array_list(&[0, 1, 2, 3]), "0-3");
        assert_eq!(array_list(&[9, 3, 5, 7, 8]), "3,5,7-9");
        assert_eq!(array_list(&[4]), "4");
    }

    /// A failed query is asked again up to the tries; a program that
    /// cannot be run is not.
    #[test]
    fn only_failures_are_asked_again() {
        use std::os::unix::process::ExitStatusExt;
        let asked = |error: fn() -> SlurmError| {
            let mut n = 0;
            let result: Result<(), SlurmError> = retried(3, Duration::ZERO, || {
                n += 1;
                Err(error())
            });
            (n, result.unwrap_err().to_string())
        };
        let (n, e) = asked(|| SlurmError::Failed {
            command: "squeue -h".to_string(),
            status: ExitStatus::from_raw(256),
            stderr: "slurm_load_jobs error: Socket timed out".to_string(),
        });
        assert_eq!(n, 3);
        assert!(
            e.starts_with("squeue -h failed (exit status: 1): slurm_load_jobs"),
            "{e}"
        );
        let (n, e) = asked(|| SlurmError::Unavailable {
            program: "squeue".to_string(),
            source: std::io::Error::from(std::io::ErrorKind::NotFound),
        });
        assert_eq!(n, 1);
        assert!(e.contains("is this a Slurm host?"), "{e}");
    }

    #[test]
    fn squeue_lines_of_our_jobs() {
        let text = "12|3|RUNNING\n12|4|PENDING\n13|0|RUNNING\n12|5|COMPLETED\nbad\n";
        let ours = parse_squeue(text, &["12".to_string()]);
        let tasks: Vec<(usize, &str)> = ours.iter().map(|a| (a.task, a.state.as_str())).collect();
        assert_eq!(tasks, [(3, "RUNNING"), (4, "PENDING")]);
    }
}
