//! The real executor: the engine's `datagen`, `relabel` and `train` as
//! child processes (`child`), each step's output in `gen-NNN/STEP.log`,
//! the SPRT in this process (`sprt`), recorded as a run in the results
//! database, or datagen and the SPRT as Slurm job arrays run by this
//! autotest as a child (`slurm`, with `--slurm`), a promotion marked in
//! the store (`mark`), the loop's own
//! lines on standard error and in `DIR/loop.log`, its record written to
//! the results database (`db::loops`, best effort). Before a command runs,
//! each file it reads that the loop made is checked against the sha256
//! the state recorded.

use super::args::Setup;
use super::child;
use super::executor::{Artifact, Executor, Init, Job, SprtJob, SprtResult};
use super::mark::mark;
use super::slurm;
use super::sprt::{self, artifact};
use crate::db::best_effort::BestEffort;
use crate::db::loops::{self, LoopRow};
use crate::interrupt;
use leiserchess::lab::train::INIT_EMBEDDED;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The loop's log in its folder.
pub const LOG: &str = "loop.log";

/// The engine's commands, run as `setup` says.
pub struct EngineExecutor {
    setup: Setup,
    /// This autotest, which runs the Slurm steps.
    autotest: PathBuf,
    log: File,
    /// The results database, until it fails.
    db: Option<BestEffort>,
    /// The loop's row in it, once written.
    loop_id: Option<i64>,
}

impl EngineExecutor {
    /// The executor of `setup`, its log opened to append to, the results
    /// database `setup.db` names opened (said on standard error if it
    /// cannot be, and the loop goes on without it).
    pub fn new(setup: Setup) -> Result<EngineExecutor, String> {
        let path = setup.dir.join(LOG);
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        let db = BestEffort::open(setup.db.as_deref());
        let autotest =
            std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
        Ok(EngineExecutor {
            setup,
            autotest,
            log,
            db,
            loop_id: None,
        })
    }

    /// The command line of `job`, and its step's name (its log's); a
    /// promotion runs no command. With `--slurm`, datagen's is `autotest
    /// datagen -slurm ... --` and the engine's without `--threads`.
    pub fn command(&self, job: &Job) -> Option<(Vec<String>, &'static str)> {
        let s = &self.setup;
        let text = |p: &Path| p.display().to_string();
        let mut words = vec![text(&s.engine)];
        let net = |net: &Option<Artifact>| match net {
            Some(a) => vec!["--net".to_string(), text(&a.path)],
            None => Vec::new(),
        };
        let (name, forwarded) = match job {
            Job::Datagen {
                out,
                positions,
                seed,
                net: n,
                ..
            } => {
                words.extend(["datagen".to_string(), text(out)]);
                words.extend(flag("--positions", positions));
                words.extend(flag("--seed", seed));
                words.extend(net(n));
                ("datagen", &s.datagen_args)
            }
            Job::Relabel {
                data,
                out,
                nodes,
                net: n,
            } => {
                words.extend(["relabel".to_string(), text(&data.path)]);
                words.extend(flag("--out", text(out)));
                words.extend(flag("--nodes", nodes));
                words.extend(net(n));
                ("relabel", &s.relabel_args)
            }
            Job::Train {
                data,
                out,
                epochs,
                seed,
                init,
            } => {
                words.push("train".to_string());
                words.extend(data.iter().map(|a| text(&a.path)));
                words.extend(flag("--out", text(out)));
                words.extend(flag("--epochs", epochs));
                words.extend(flag("--seed", seed));
                words.push("--resume".to_string());
                match init {
                    Some(Init::Embedded) => words.extend(flag("--init", INIT_EMBEDDED)),
                    Some(Init::Net(a)) => words.extend(flag("--init", text(&a.path))),
                    None => {}
                }
                ("train", &s.train_args)
            }
            Job::Promote { .. } => return None,
        };
        let on_slurm = match (job, &s.slurm) {
            (Job::Datagen { generation, .. }, Some(on)) => Some((on, *generation)),
            _ => None,
        };
        if on_slurm.is_none() {
            words.extend(flag("--threads", s.threads));
        }
        if let Some(store) = &s.store {
            words.extend(flag("--store", text(store)));
        }
        words.extend(forwarded.iter().cloned());
        if let Some((on, g)) = on_slurm {
            words = slurm::datagen::command(&self.autotest, on, g, words);
        }
        Some((words, name))
    }
}

/// `--name value`.
fn flag(name: &str, value: impl ToString) -> [String; 2] {
    [name.to_string(), value.to_string()]
}

/// Whether the file of `a` is still what the loop made.
fn unchanged(a: &Artifact) -> Result<(), String> {
    let now = artifact(&a.path)?;
    if now.sha256 == a.sha256 {
        return Ok(());
    }
    Err(format!(
        "{} changed since the loop made it: sha256 {}, the state says {}",
        a.path.display(),
        now.sha256,
        a.sha256
    ))
}

/// The files `job` reads that the loop made, and the file it makes.
fn files(job: &Job) -> (Vec<&Artifact>, &Path) {
    match job {
        Job::Datagen { out, net, .. } => (net.iter().collect(), out),
        Job::Relabel { data, out, net, .. } => (std::iter::once(data).chain(net).collect(), out),
        Job::Train {
            data, out, init, ..
        } => {
            let mut read: Vec<&Artifact> = data.iter().collect();
            if let Some(Init::Net(a)) = init {
                read.push(a);
            }
            (read, out)
        }
        Job::Promote { net, to, .. } => (vec![net], to),
    }
}

/// `path` with `suffix` added to its name.
fn beside(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// `net` copied over `to` by a rename, so that `to` is always a whole net.
fn promote(net: &Path, to: &Path) -> Result<(), String> {
    let temporary = beside(to, ".tmp");
    std::fs::copy(net, &temporary)
        .and_then(|_| std::fs::rename(&temporary, to))
        .map_err(|e| format!("cannot copy {} to {}: {e}", net.display(), to.display()))?;
    Ok(())
}

impl Executor for EngineExecutor {
    fn now(&mut self) -> f64 {
        let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
        since.map_or(0.0, |d| d.as_secs_f64())
    }

    fn say(&mut self, line: &str) {
        eprintln!("{line}");
        let _ = writeln!(self.log, "{line}");
    }

    fn make(&mut self, job: &Job) -> Result<Artifact, String> {
        if let Some(signal) = self.stop_signal() {
            return Err(format!("stopped by {signal}"));
        }
        let (inputs, out) = files(job);
        for a in inputs {
            unchanged(a)?;
        }
        let Some((words, name)) = self.command(job) else {
            if let Job::Promote {
                net,
                to,
                generation,
                sprt,
                against,
            } = job
            {
                promote(&net.path, to)?;
                if let Err(e) = mark(&self.setup, net, *generation, sprt, against.as_ref()) {
                    self.say(&format!(
                        "loop: the store's mark of the promoted net failed: {e}; the loop goes on"
                    ));
                }
            }
            return artifact(out);
        };
        if let Job::Relabel { out, .. } = job {
            // Output without a cursor is from a run stopped before its first
            // stretch was kept, which relabel will not write over.
            if out.exists() && !beside(out, ".cursor").exists() {
                std::fs::remove_file(out)
                    .map_err(|e| format!("cannot remove {}: {e}", out.display()))?;
            }
        }
        self.say(&format!("loop: {}", child::shown(&words)));
        let log = out.with_file_name(format!("{name}.log"));
        if let (
            Job::Datagen {
                generation, net, ..
            },
            Some(on),
        ) = (job, &self.setup.slurm)
        {
            let run = on.run_dir(*generation, "datagen");
            if let Err(e) = slurm::run(&self.setup, &words, &log) {
                if self.stop_signal().is_some() {
                    self.say(&slurm::detached(&run));
                }
                return Err(e);
            }
            let stored = slurm::datagen::register(&self.setup, out, net.as_ref(), &words);
            if let Err(e) = stored {
                self.say(&format!(
                    "loop: the merged data not put in the store: {e}; the loop goes on"
                ));
            }
            return artifact(out);
        }
        child::run(&words, &log, || interrupt::received().map(interrupt::name))?;
        artifact(out)
    }

    fn sprt(&mut self, job: &SprtJob) -> Result<SprtResult, String> {
        if let Some(signal) = self.stop_signal() {
            return Err(format!("stopped by {signal}"));
        }
        unchanged(&job.candidate)?;
        if let Some(best) = &job.best {
            unchanged(best)?;
        }
        let Some(on) = self.setup.slurm.clone() else {
            let recording = self.db.as_mut().zip(self.loop_id);
            return sprt::play(&self.setup, job, recording);
        };
        let (words, _) = slurm::sprt::command(&self.autotest, &self.setup, &on, job);
        self.say(&format!("loop: {}", child::shown(&words)));
        let recording = self.db.as_mut().zip(self.loop_id);
        let played = slurm::sprt::play(&self.setup, &on, job, &words, recording);
        if played.is_err() && self.stop_signal().is_some() {
            self.say(&slurm::detached(&on.run_dir(job.generation, "sprt")));
        }
        played
    }

    fn stop_signal(&self) -> Option<&'static str> {
        interrupt::received().map(interrupt::name)
    }

    fn record(&mut self, row: &LoopRow) {
        if let Some(db) = self.db.as_mut() {
            self.loop_id = db.attempt(|conn| loops::write(conn, row));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::spec::EngineLimits;
    use crate::net_loop::executor::Verdict;

    fn setup(dir: &Path) -> Setup {
        Setup {
            store: Some(PathBuf::from("/s")),
            datagen_args: vec!["--nodes".to_string(), "20".to_string()],
            train_args: vec!["--beam".to_string()],
            limits: EngineLimits::default(),
            ..Setup::example(dir)
        }
    }

    fn net(path: &str) -> Artifact {
        Artifact {
            path: PathBuf::from(path),
            sha256: "ab".to_string(),
        }
    }

    #[test]
    fn each_job_is_the_engine_command_with_the_loop_s_flags_then_the_forwarded() {
        let dir = crate::scratch::dir("net_loop-engine-commands");
        let exec = EngineExecutor::new(setup(&dir)).unwrap();
        let line = |job: &Job| exec.command(job).map(|(w, name)| (w.join(" "), name));
        let datagen = Job::Datagen {
            generation: 2,
            out: PathBuf::from("/l/gen-002/data.bin"),
            positions: 500,
            seed: 8,
            net: Some(net("/l/gen-001/net.nnue")),
        };
        assert_eq!(
            line(&datagen),
            Some((
                "/e/leiserchess datagen /l/gen-002/data.bin --positions 500 --seed 8 \
                 --net /l/gen-001/net.nnue --threads 2 --store /s --nodes 20"
                    .to_string(),
                "datagen"
            ))
        );
        let relabel = Job::Relabel {
            data: net("/l/gen-001/data.bin"),
            out: PathBuf::from("/l/gen-001/relabelled.bin"),
            nodes: 50,
            net: None,
        };
        assert_eq!(
            line(&relabel),
            Some((
                "/e/leiserchess relabel /l/gen-001/data.bin --out /l/gen-001/relabelled.bin \
                 --nodes 50 --threads 2 --store /s"
                    .to_string(),
                "relabel"
            ))
        );
        let train = Job::Train {
            data: vec![net("/a.bin"), net("/b.bin")],
            out: PathBuf::from("/l/gen-002/net.nnue"),
            epochs: 3,
            seed: 8,
            init: None,
        };
        assert_eq!(
            line(&train),
            Some((
                "/e/leiserchess train /a.bin /b.bin --out /l/gen-002/net.nnue --epochs 3 \
                 --seed 8 --resume --threads 2 --store /s --beam"
                    .to_string(),
                "train"
            ))
        );
        // --warm-start: from the embedded net until a promotion, then
        // from the best net's file.
        let from = |start: Init| {
            let mut job = train.clone();
            if let Job::Train { init, .. } = &mut job {
                *init = Some(start);
            }
            job
        };
        let words = |job: &Job| line(job).unwrap().0;
        assert!(words(&from(Init::Embedded)).contains(" --resume --init embedded --threads 2 "));
        assert!(words(&from(Init::Net(net("/l/best.nnue"))))
            .contains(" --resume --init /l/best.nnue --threads 2 "));
        let promote = promotion(net("/n"), dir.join("best.nnue"));
        assert_eq!(line(&promote), None);
        // On Slurm, datagen is autotest's, the same engine command after
        // its `--` but for --threads (the tasks' cpus=); the others as
        // they were.
        let mut on_slurm = setup(&dir);
        on_slurm.slurm = Some(slurm::LoopSlurm::parse("dir=/r tasks=3 pairs=2").unwrap());
        let exec = EngineExecutor::new(on_slurm).unwrap();
        let line = |job: &Job| exec.command(job).map(|(w, name)| (w.join(" "), name));
        assert_eq!(
            line(&datagen),
            Some((
                format!(
                    "{} datagen -slurm dir=/r/gen-002/datagen tasks=3 -- /e/leiserchess datagen \
                     /l/gen-002/data.bin --positions 500 --seed 8 --net /l/gen-001/net.nnue \
                     --store /s --nodes 20",
                    std::env::current_exe().unwrap().display()
                ),
                "datagen"
            ))
        );
        assert!(line(&relabel).unwrap().0.contains(" --threads 2 "));
        assert!(line(&train).unwrap().0.contains(" --threads 2 "));
    }

    /// Generation 3's promotion of `net` to `to`, after an SPRT won.
    fn promotion(net: Artifact, to: PathBuf) -> Job {
        Job::Promote {
            sprt: SprtResult {
                pgn: net.clone(),
                verdict: Verdict::H1,
                llr: 3.0,
                wdl: [5, 1, 0],
            },
            net,
            to,
            generation: 3,
            against: None,
        }
    }

    #[test]
    fn a_promotion_copies_and_marks_the_net_and_a_changed_input_is_refused() {
        let dir = crate::scratch::dir("net_loop-engine-promote");
        let mut with_store = setup(&dir);
        with_store.store = Some(dir.join("store"));
        let mut exec = EngineExecutor::new(with_store).unwrap();
        let candidate = dir.join("net.nnue");
        std::fs::write(&candidate, b"a net").unwrap();
        let made = artifact(&candidate).unwrap();
        let to = dir.join("best.nnue");
        std::fs::write(&to, b"an older net").unwrap();
        let job = promotion(made.clone(), to.clone());
        let copy = exec.make(&job).unwrap();
        assert_eq!((copy.path, copy.sha256), (to.clone(), made.sha256.clone()));
        assert_eq!(std::fs::read(&to).unwrap(), b"a net");
        assert!(!beside(&to, ".tmp").exists());
        let store = leiserchess::lab::store::open(Some(&dir.join("store"))).unwrap();
        let record = leiserchess::lab::store::read_record(&store, &made.sha256).unwrap();
        assert_eq!(record.promoted.len(), 1);
        assert_eq!(record.promoted[0].generation, 3);
        std::fs::write(&candidate, b"another net").unwrap();
        let e = exec.make(&job).unwrap_err();
        assert_eq!(
            e,
            format!(
                "{} changed since the loop made it: sha256 {}, the state says {}",
                candidate.display(),
                artifact(&candidate).unwrap().sha256,
                made.sha256
            )
        );
        std::fs::remove_file(&candidate).unwrap();
        let e = exec.make(&job).unwrap_err();
        assert_eq!(e, format!("cannot read {}", candidate.display()));
        exec.say("loop: a line");
        let log = std::fs::read_to_string(dir.join(LOG)).unwrap();
        assert_eq!(log, "loop: a line\n");
    }

    /// A store that cannot be written: the promotion is made, the mark's
    /// failure said.
    #[test]
    fn a_mark_that_fails_is_said_and_the_promotion_stands() {
        let dir = crate::scratch::dir("net_loop-engine-mark-fails");
        let not_a_store = dir.join("a-file");
        std::fs::write(&not_a_store, b"").unwrap();
        let mut bad = setup(&dir);
        bad.store = Some(not_a_store);
        let mut exec = EngineExecutor::new(bad).unwrap();
        let candidate = dir.join("net.nnue");
        std::fs::write(&candidate, b"a net").unwrap();
        let made = artifact(&candidate).unwrap();
        let to = dir.join("best.nnue");
        exec.make(&promotion(made, to.clone())).unwrap();
        assert_eq!(std::fs::read(&to).unwrap(), b"a net");
        let log = std::fs::read_to_string(dir.join(LOG)).unwrap();
        assert!(
            log.starts_with("loop: the store's mark of the promoted net failed: ")
                && log.ends_with("; the loop goes on\n"),
            "{log}"
        );
    }
}
