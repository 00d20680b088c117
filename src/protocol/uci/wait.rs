//! Waiting for the work beside the loop to end by itself: what `end_job`
//! does once it has told the work to stop, and what a caller that bounded
//! its `go` does instead of stopping it (the `uci` fuzz target, whose
//! searches then run to their limit whatever line comes next).

use super::{Engine, Running};

impl Engine {
    /// Waits for the running work, if any, to end by itself (a `go` with a
    /// limit, a `perft`) and takes back the search's tables. A `go
    /// infinite` or a pondering `go` never ends by itself.
    pub fn wait(&mut self) {
        match self.running.take() {
            None => {}
            Some(Running::Search { pending }) => {
                if let Some(memory) = pending.join() {
                    self.memory = memory;
                }
            }
            // A perft thread that panicked has nothing to hand back.
            Some(Running::Perft { thread, .. }) => {
                let _ = thread.join();
            }
        }
    }
}
