//! What the threads of one search share, whichever the algorithm: the
//! transposition table, the stop and ponder flags, the helpers' node
//! count and the net.

use super::tt::Table;
use crate::eval::nnue::Network;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::Arc;

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
}

impl Shared {
    /// Idle search state with a table of `hash_mb` MB in `ways`-way
    /// buckets and the embedded net.
    pub fn new(hash_mb: usize, ways: usize) -> Shared {
        Shared::with_net(hash_mb, ways, Network::shared_embedded())
    }

    /// The same with `net`.
    pub fn with_net(hash_mb: usize, ways: usize, net: Arc<Network>) -> Shared {
        Shared {
            tt: Table::new(hash_mb, ways),
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            net,
        }
    }
}
