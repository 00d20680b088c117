//! The run directory, on a filesystem the coordinator and every node
//! share. Everything a run is and has done is in files there, so that a
//! task knows its work and a coordinator restarted on it goes on:
//!
//! ```text
//! RUN/run.args          the tournament's arguments, one a line
//! RUN/run.cwd           the directory they are relative to
//! RUN/task.sh           what each array task runs
//! RUN/submitted         a line per sbatch: `JOB_ID TASK,TASK,...`
//! RUN/cancelled         there once `autotest slurm cancel` ran
//! RUN/db-run            the run's id in the results database, then that
//!                       database's path (`slurm::run_record`)
//! RUN/shards/K/games.pgn  shard K's games (and its engines' stderr logs)
//! RUN/shards/K/data.bin   or its positions, for `autotest datagen`
//! RUN/shards/K/lock     held by the attempt playing shard K (`lock`)
//! RUN/logs/task-K.out   task K's output, every attempt appended
//! ```

use crate::slurm::attempts;
use std::path::{Path, PathBuf};

pub struct RunDir {
    pub root: PathBuf,
}

/// One `sbatch` of the run: its job id and the array task ids (shards).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Submission {
    pub job: String,
    pub tasks: Vec<usize>,
}

/// The directory this process runs in.
pub fn current_dir() -> Result<PathBuf, String> {
    std::env::current_dir().map_err(|e| format!("cannot read the current directory: {e}"))
}

fn cannot(what: &str, path: &Path, e: std::io::Error) -> String {
    format!("cannot {what} {}: {e}", path.display())
}

impl RunDir {
    /// The run directory at `dir` for `args` run from `cwd`: made if new;
    /// an existing one must hold the same arguments (it is attached to).
    /// Returns it and whether it existed.
    pub fn create_or_attach(
        dir: &Path,
        args: &[String],
        cwd: &Path,
    ) -> Result<(RunDir, bool), String> {
        if let Some(bad) = args.iter().find(|a| a.contains('\n')) {
            return Err(format!(
                "-slurm cannot pass an argument with a line break: {bad:?}"
            ));
        }
        std::fs::create_dir_all(dir).map_err(|e| cannot("create", dir, e))?;
        let root = dir.canonicalize().map_err(|e| cannot("find", dir, e))?;
        let run = RunDir { root };
        let stored = run.root.join("run.args");
        let existed = stored.exists();
        if existed {
            let (old_args, old_cwd) = run.arguments()?;
            if old_args != args || old_cwd != cwd {
                return Err(format!(
                    "{} holds another run (its arguments or directory differ: see run.args and \
                     run.cwd there); use a new dir= or remove it",
                    run.root.display()
                ));
            }
        } else {
            for sub in ["shards", "logs"] {
                let p = run.root.join(sub);
                std::fs::create_dir_all(&p).map_err(|e| cannot("create", &p, e))?;
            }
            let cwd_file = run.root.join("run.cwd");
            std::fs::write(&cwd_file, format!("{}\n", cwd.display()))
                .map_err(|e| cannot("write", &cwd_file, e))?;
            // run.args last: its presence says the directory is whole.
            let text: String = args.iter().map(|a| format!("{a}\n")).collect();
            std::fs::write(&stored, text).map_err(|e| cannot("write", &stored, e))?;
        }
        Ok((run, existed))
    }

    /// An existing run directory.
    pub fn open(dir: &Path) -> Result<RunDir, String> {
        let root = dir.canonicalize().map_err(|e| cannot("find", dir, e))?;
        if !root.join("run.args").exists() {
            return Err(format!(
                "{} is not a run directory (no run.args)",
                root.display()
            ));
        }
        Ok(RunDir { root })
    }

    /// The arguments the run was started with, and their directory.
    pub fn arguments(&self) -> Result<(Vec<String>, PathBuf), String> {
        let read = |name: &str| {
            let p = self.root.join(name);
            std::fs::read_to_string(&p).map_err(|e| cannot("read", &p, e))
        };
        let args = read("run.args")?.lines().map(str::to_string).collect();
        let cwd = PathBuf::from(read("run.cwd")?.trim_end_matches('\n'));
        Ok((args, cwd))
    }

    /// The run's name (its directory's), for its Slurm job name.
    pub fn name(&self) -> String {
        self.root
            .file_name()
            .map_or("run".into(), |n| n.to_string_lossy().into_owned())
    }

    /// What a coordinator stopped by a signal says: the tasks go on.
    pub fn detached(&self) -> String {
        format!(
            "autotest: detached; the tasks go on. `autotest slurm watch {0}` follows the run \
             again, `autotest slurm cancel {0}` stops it",
            self.root.display()
        )
    }

    /// Enters the directory the run's arguments are relative to and
    /// returns them.
    pub fn enter(&self) -> Result<Vec<String>, String> {
        let (args, cwd) = self.arguments()?;
        std::env::set_current_dir(&cwd).map_err(|e| cannot("enter", &cwd, e))?;
        Ok(args)
    }

    pub fn shard_pgn(&self, k: usize) -> PathBuf {
        self.root
            .join("shards")
            .join(k.to_string())
            .join("games.pgn")
    }

    pub fn shard_data(&self, k: usize) -> PathBuf {
        self.root
            .join("shards")
            .join(k.to_string())
            .join("data.bin")
    }

    /// The file whose lock an attempt at shard `k` holds (`slurm::lock`).
    pub fn shard_lock(&self, k: usize) -> PathBuf {
        self.root.join("shards").join(k.to_string()).join("lock")
    }

    pub fn task_log(&self, k: usize) -> PathBuf {
        self.root.join("logs").join(format!("task-{k}.out"))
    }

    /// The log pattern for `sbatch --output`.
    pub fn log_pattern(&self) -> PathBuf {
        self.root.join("logs").join("task-%a.out")
    }

    /// Writes the batch script each task runs: this `autotest slurm
    /// SUBCOMMAND RUN $SLURM_ARRAY_TASK_ID` (`task`: a tournament's shard;
    /// `datagen-task`: a share of the positions), after the line that
    /// counts the try (`attempts`).
    pub fn task_script(&self, subcommand: &str) -> Result<PathBuf, String> {
        let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
        let path = self.root.join("task.sh");
        let script = format!(
            "#!/bin/sh\n# One shard of an autotest run (autotest -slurm); written by the coordinator.\n\
             echo \"{}\"\n\
             exec '{}' slurm {subcommand} '{}' \"$SLURM_ARRAY_TASK_ID\"\n",
            attempts::START_ECHO,
            exe.display(),
            self.root.display()
        );
        std::fs::write(&path, script).map_err(|e| cannot("write", &path, e))?;
        Ok(path)
    }

    /// Every `sbatch` of the run so far.
    pub fn submissions(&self) -> Result<Vec<Submission>, String> {
        let path = self.root.join("submitted");
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(cannot("read", &path, e)),
        };
        let mut out = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let bad = || {
                format!(
                    "{}, line {}: expected 'JOB_ID TASK,...'",
                    path.display(),
                    i + 1
                )
            };
            let (job, tasks) = line.split_once(' ').ok_or_else(bad)?;
            let tasks = tasks
                .split(',')
                .map(|t| t.parse::<usize>())
                .collect::<Result<Vec<_>, _>>()
                .map_err(|_| bad())?;
            out.push(Submission {
                job: job.to_string(),
                tasks,
            });
        }
        Ok(out)
    }

    pub fn record(&self, s: &Submission) -> Result<(), String> {
        use std::io::Write;
        let path = self.root.join("submitted");
        let tasks: Vec<String> = s.tasks.iter().map(usize::to_string).collect();
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .and_then(|mut f| writeln!(f, "{} {}", s.job, tasks.join(",")))
            .map_err(|e| cannot("write", &path, e))
    }

    pub fn cancelled(&self) -> bool {
        self.root.join("cancelled").exists()
    }

    pub fn mark_cancelled(&self) -> Result<(), String> {
        let path = self.root.join("cancelled");
        std::fs::write(&path, "").map_err(|e| cannot("write", &path, e))
    }
}
