//! The engine's transposition table over its life: made at the start and
//! anew on `ucinewgame` and the options that need it, backed on a thread
//! of its own, the old one freed on another.

use super::Engine;
use crate::config::EngineConfig;
use crate::eval::nnue::Network;
use crate::eval::policy::Policy;
use crate::search::Shared;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

impl Engine {
    /// A new, empty transposition table (sized by the options), and no
    /// kept MCTS tree (its values are of the old evaluation or game). The
    /// old ones are freed on a thread of their own: unmapping gigabytes
    /// takes a while, and `ucinewgame` must answer at once; the new one is
    /// backed on another.
    pub(super) fn renew_table(&mut self) {
        self.join_freeing();
        let new = Arc::new(new_shared(
            &self.config,
            self.net.clone(),
            self.policy.clone(),
        ));
        let old = std::mem::replace(&mut self.shared, new);
        let tree = self.memory.tree.take();
        self.freeing = Some(std::thread::spawn(move || drop((old, tree))));
        // The old table's thread stops after its part in hand.
        self.join_populating(true);
        self.populating = Some(populate(&self.shared));
    }

    /// Waits for the thread backing the table, told to stop after its
    /// part in hand if `stop`.
    pub(super) fn join_populating(&mut self, stop: bool) {
        if let Some(p) = self.populating.take() {
            if stop {
                p.stop.store(true, Ordering::Relaxed);
            }
            // An madvise that fails leaves the pages lazy: nothing to say.
            let _ = p.thread.join();
        }
    }

    pub(super) fn join_freeing(&mut self) {
        if let Some(t) = self.freeing.take() {
            // Dropping a table can not fail; a panic there has nothing to say.
            let _ = t.join();
        }
    }
}

/// The search's table and flags, sized by the `hash` and `tt_ways`
/// options, with the net `net` and the move policy `policy`.
pub(super) fn new_shared(c: &EngineConfig, net: Arc<Network>, policy: Arc<Policy>) -> Shared {
    Shared::with_net(c.table.hash_mb, c.table.ways, net).with_policy(policy)
}

/// A thread backing a table's pages, and its word to stop between parts.
pub(super) struct Populating {
    thread: JoinHandle<()>,
    stop: Arc<AtomicBool>,
}

/// Backs `shared`'s table on a thread of its own, so that neither the
/// command that made it waits nor the first search pays for its pages
/// (BENCHMARKS.md, "The table backed before the search"); part by part,
/// and only while the engine keeps the table and wants it backed.
pub(super) fn populate(shared: &Arc<Shared>) -> Populating {
    let table = Arc::downgrade(shared);
    let stop = Arc::new(AtomicBool::new(false));
    let told = stop.clone();
    let thread = std::thread::spawn(move || {
        for k in 0.. {
            if told.load(Ordering::Relaxed)
                || table.upgrade().and_then(|s| s.tt.populate(k)) != Some(true)
            {
                break;
            }
        }
    });
    Populating { thread, stop }
}
