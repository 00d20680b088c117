//! The thread that runs the searches, kept from one `go` to the next:
//! starting one for every `go` cost its start-up (a stack mapped, a thread
//! created and scheduled) inside the move's time. A search that panics
//! takes the thread with it; the next `go` starts a new one. A
//! `position` wakes it ahead of the `go` that follows.

use crate::search::algorithm::Memory;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long the thread, woken by a `position`, stays awake for the `go`
/// that follows it: a referee sends the two together, and a sleeping
/// thread's wake-up (25 to 31 µs on an idle vCPU, BENCHMARKS.md "A
/// move's latency at 0.1+0.001") is then paid while the position is
/// replayed instead of after the `go`.
const AWAKE: Duration = Duration::from_micros(200);

/// A search to run: it hands back the searches' memory.
pub type Job = Box<dyn FnOnce() -> Memory + Send>;

/// A job handed to the thread, with where its memory goes.
struct Task {
    job: Job,
    done: Sender<Memory>,
    finished: Arc<AtomicBool>,
}

/// What the kept thread is sent.
enum Message {
    Run(Task),
    /// Stay awake for [`AWAKE`]: a job is coming.
    Wake,
}

/// The kept thread: it waits for jobs until its sender is dropped.
pub struct Searcher {
    tasks: Sender<Message>,
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
        let (tasks, queue) = mpsc::channel::<Message>();
        let thread = std::thread::spawn(move || {
            while let Ok(message) = queue.recv() {
                let task = match message {
                    Message::Run(task) => task,
                    Message::Wake => match awake_for(&queue, AWAKE) {
                        Some(task) => task,
                        None => continue,
                    },
                };
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
            match s.tasks.send(Message::Run(task)) {
                Ok(()) => break,
                Err(mpsc::SendError(back)) => {
                    let Message::Run(back) = back else {
                        unreachable!("the job sent comes back")
                    };
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

    /// Wakes the thread, if there is one, for a job about to be sent.
    pub fn wake(searcher: &Option<Searcher>) {
        if let Some(s) = searcher {
            let _ = s.tasks.send(Message::Wake);
        }
    }

    /// Ends the thread once its job is done.
    pub fn stop(self) {
        drop(self.tasks);
        let _ = self.thread.join();
    }
}

/// The first job sent within `span`, polled without sleeping; `None`
/// when none came (or the sender is gone).
fn awake_for(queue: &Receiver<Message>, span: Duration) -> Option<Task> {
    let until = Instant::now() + span;
    loop {
        match queue.try_recv() {
            Ok(Message::Run(task)) => return Some(task),
            Ok(Message::Wake) => {}
            Err(TryRecvError::Disconnected) => return None,
            Err(TryRecvError::Empty) if Instant::now() >= until => return None,
            Err(TryRecvError::Empty) => std::hint::spin_loop(),
        }
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

    /// A wake-up is no job: the thread runs the job sent within its
    /// window, goes back to waiting after it, and the next job runs too.
    #[test]
    fn a_wake_keeps_the_thread_for_the_next_job() {
        let mut searcher = None;
        Searcher::wake(&searcher);
        assert!(searcher.is_none(), "a wake starts no thread");
        let id = || -> Job { Box::new(Memory::default) };
        assert!(Searcher::run(&mut searcher, id()).join().is_some());
        let thread = searcher.as_ref().unwrap().thread.thread().id();
        Searcher::wake(&searcher);
        assert!(Searcher::run(&mut searcher, id()).join().is_some());
        Searcher::wake(&searcher);
        Searcher::wake(&searcher);
        std::thread::sleep(AWAKE * 5);
        assert!(Searcher::run(&mut searcher, id()).join().is_some());
        assert_eq!(searcher.as_ref().unwrap().thread.thread().id(), thread);
        searcher.unwrap().stop();
    }

    #[test]
    fn awake_returns_the_job_sent_and_none_after_its_span() {
        let (tasks, queue) = mpsc::channel();
        assert!(awake_for(&queue, Duration::from_micros(50)).is_none());
        let (done, _result) = mpsc::channel();
        let task = Task {
            job: Box::new(Memory::default),
            done,
            finished: Arc::new(AtomicBool::new(false)),
        };
        tasks.send(Message::Wake).unwrap();
        tasks.send(Message::Run(task)).unwrap();
        assert!(awake_for(&queue, Duration::from_secs(5)).is_some());
        drop(tasks);
        assert!(awake_for(&queue, Duration::from_secs(5)).is_none());
    }
}
