//! How many times a shard was tried. The batch script (`RunDir::task_script`)
//! writes [`start_line`] to the task's log before anything else, so a try
//! is a job in which the shard started: a task still pending when a pause
//! cancelled its job never ran and is not one, and Slurm requeueing a task
//! within its job (a lost node) is the same try going on. A task that ends
//! before its script runs writes nothing; [`SUBMISSIONS_PER_TRY`] bounds
//! how often such a shard is submitted.

/// The line the batch script writes first, as a shell `echo` argument.
pub const START_ECHO: &str =
    "autotest: shard $SLURM_ARRAY_TASK_ID starts in job $SLURM_ARRAY_JOB_ID on $(hostname)";

/// Submissions allowed for each try before a shard that never starts stops
/// the run.
pub const SUBMISSIONS_PER_TRY: usize = 3;

/// The start line of shard `k` in job `job`, up to the host.
pub fn start_line(k: usize, job: &str) -> String {
    format!("autotest: shard {k} starts in job {job} on ")
}

/// Shard `k`'s tries so far: (the `jobs` it was submitted in whose start
/// line is in the task's `log`, its submissions).
pub fn tries(jobs: &[&str], log: &str, k: usize) -> (usize, usize) {
    let started = jobs
        .iter()
        .filter(|job| {
            let start = start_line(k, job);
            log.lines().any(|l| l.starts_with(&start))
        })
        .count();
    (started, jobs.len())
}

/// Why shard `k`, submitted in `jobs`, is not submitted again with
/// `retries` retries, if it is not.
pub fn exhausted(jobs: &[&str], log: &str, k: usize, retries: u32) -> Option<String> {
    let (started, submitted) = tries(jobs, log, k);
    let allowed = 1 + retries as usize;
    if started >= allowed {
        Some(format!(
            "shard {k} started in {started} jobs and is not finished"
        ))
    } else if submitted >= allowed * SUBMISSIONS_PER_TRY {
        Some(format!(
            "shard {k} was submitted {submitted} times, started in {started} of them, and is \
             not finished"
        ))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_try_is_a_job_the_shard_started_in() {
        // Jobs 5, 7 and 9 held shard 1; job 7 was cancelled by a pause
        // while shard 1 was pending.
        let jobs = ["5", "7", "9"];
        let log = "autotest: shard 1 starts in job 5 on lc-n1\n\
                   datagen: 741 / 500000 positions\n\
                   autotest: shard 1 starts in job 5 on lc-n2\n\
                   autotest: shard 1 starts in job 9 on lc-n1\n\
                   autotest: shard 11 starts in job 7 on lc-n1\n";
        assert_eq!(tries(&jobs, log, 1), (2, 3));
        assert_eq!(tries(&jobs[1..2], log, 1), (0, 1));
        assert_eq!(exhausted(&jobs, log, 1, 2), None);
        assert_eq!(
            exhausted(&jobs, log, 1, 1).as_deref(),
            Some("shard 1 started in 2 jobs and is not finished")
        );
    }

    #[test]
    fn a_shard_that_never_starts_is_not_submitted_for_ever() {
        let jobs = ["0", "1", "2", "3", "4", "5"];
        assert_eq!(exhausted(&jobs[..5], "", 4, 1), None);
        assert_eq!(
            exhausted(&jobs, "", 4, 1).as_deref(),
            Some("shard 4 was submitted 6 times, started in 0 of them, and is not finished")
        );
    }
}
