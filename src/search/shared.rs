//! What the threads of one search share, whichever the algorithm: the
//! transposition table, the stop and ponder flags, the helpers' node
//! count, the net and the move policy.

use super::tt::Table;
use crate::eval::nnue::Network;
use crate::eval::policy::Policy;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// What the threads of one search share.
pub struct Shared {
    pub tt: Table,
    /// Set to end the search (by `stop`, or by the main thread's limits).
    pub stop: AtomicBool,
    /// While set, the clock does not run (`go ponder` until `ponderhit`).
    pub pondering: AtomicBool,
    /// The helper threads' nodes.
    pub nodes: AtomicU64,
    /// The learned evaluation's net (`EvalFile`), used with `use_nnue`.
    pub net: Arc<Network>,
    /// The move policy (`PolicyFile`), the Monte-Carlo tree search's
    /// priors with `mcts_policy`.
    pub policy: Arc<Policy>,
}

impl Shared {
    /// Idle search state with a table of `hash_mb` MB in `ways`-way
    /// buckets, the embedded net and the embedded policy.
    pub fn new(hash_mb: usize, ways: usize) -> Shared {
        Shared::with_net(hash_mb, ways, Network::shared_embedded())
    }

    /// The same with `net` (and the embedded policy).
    pub fn with_net(hash_mb: usize, ways: usize, net: Arc<Network>) -> Shared {
        Shared {
            tt: Table::new(hash_mb, ways),
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            net,
            policy: Policy::shared_embedded(),
        }
    }

    /// The same with `policy`.
    pub fn with_policy(self, policy: Arc<Policy>) -> Shared {
        Shared { policy, ..self }
    }

    /// Under `go infinite` (`infinite`) or while pondering, waits for
    /// `stop`; then sets it, so that the search's threads know it is over.
    pub fn wait_for_stop(&self, infinite: bool) {
        while (infinite || self.pondering.load(Ordering::Relaxed))
            && !self.stop.load(Ordering::Relaxed)
        {
            std::thread::sleep(Duration::from_millis(1));
        }
        self.stop.store(true, Ordering::Relaxed);
    }
}
