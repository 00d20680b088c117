//! The thread that runs the searches, kept from one `go` to the next:
//! starting one for every `go` cost its start-up (a stack mapped, a thread
//! created and scheduled) inside the move's time. A search that panics
//! takes the thread with it; the next `go` starts a new one.

use crate::search::algorithm::Memory;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;

/// A search to run: it hands back the searches' memory.
pub type Job = Box<dyn FnOnce() -> Memory + Send>;

/// A job handed to the thread, with where its memory goes.
struct Task {
    job: Job,
    done: Sender<Memory>,
    finished: Arc<AtomicBool>,
}

/// The kept thread: it waits for jobs until its sender is dropped.
pub struct Searcher {
    tasks: Sender<Task>,
    thread: JoinHandle<()>,
}

/// A job running on the kept thread.
pub struct Pending {
    done: Receiver<Memory>,
    finished: Arc<AtomicBool>,
}

impl Pending {
    /// Whether the job has ended (or its thread died).
    pub fn is_finished(&self) -> bool {
        self.finished.load(Ordering::Acquire)
    }

    /// The job's memory once it ends; `None` if it panicked.
    pub fn join(self) -> Option<Memory> {
        self.done.recv().ok()
    }
}

/// Marks its task finished however the job ends, a panic included.
struct Finish(Arc<AtomicBool>);

impl Drop for Finish {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Release);
    }
}

impl Searcher {
    fn start() -> Searcher {
        let (tasks, queue) = mpsc::channel::<Task>();
        let thread = std::thread::spawn(move || {
            while let Ok(task) = queue.recv() {
                let _finish = Finish(task.finished);
                let memory = (task.job)();
                let _ = task.done.send(memory);
            }
        });
        Searcher { tasks, thread }
    }

    /// Runs `job` on `searcher`'s thread, started first if there is none
    /// or the last one died.
    pub fn run(searcher: &mut Option<Searcher>, job: Job) -> Pending {
        let (done, result) = mpsc::channel();
        let finished = Arc::new(AtomicBool::new(false));
        let mut task = Task {
            job,
            done,
            finished: finished.clone(),
        };
        loop {
            let s = searcher.get_or_insert_with(Searcher::start);
            match s.tasks.send(task) {
                Ok(()) => break,
                Err(mpsc::SendError(back)) => {
                    task = back;
                    if let Some(dead) = searcher.take() {
                        let _ = dead.thread.join();
                    }
                }
            }
        }
        Pending {
            done: result,
            finished,
        }
    }

    /// Ends the thread once its job is done.
    pub fn stop(self) {
        drop(self.tasks);
        let _ = self.thread.join();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_thread_runs_every_job_and_a_panic_starts_another() {
        let mut searcher = None;
        let id = || -> Job { Box::new(Memory::default) };
        let first = Searcher::run(&mut searcher, id());
        assert!(first.join().is_some());
        let thread = searcher.as_ref().unwrap().thread.thread().id();
        let second = Searcher::run(&mut searcher, id());
        assert!(second.join().is_some());
        assert_eq!(searcher.as_ref().unwrap().thread.thread().id(), thread);
        let panics = Searcher::run(&mut searcher, Box::new(|| panic!("a search failed")));
        while !panics.is_finished() {
            std::thread::yield_now();
        }
        assert!(panics.join().is_none());
        let after = Searcher::run(&mut searcher, id());
        assert!(after.join().is_some());
        assert_ne!(searcher.as_ref().unwrap().thread.thread().id(), thread);
        searcher.unwrap().stop();
    }
}
