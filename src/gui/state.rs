//! What every request shares: the games, the server's limits, and the
//! count of running searches.

use super::store::Store;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// The server's limits.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Threads of each engine search (Lazy SMP).
    pub engine_threads: usize,
    /// Games kept in memory; a new game beyond it drops the oldest.
    pub max_games: usize,
    /// Engine searches (analyses included) running at once; more are
    /// refused with a 429.
    pub max_searches: usize,
    /// The largest request body, in bytes; larger ones get a 413.
    pub body_limit: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            engine_threads: 1,
            max_games: 64,
            max_searches: 4,
            body_limit: 64 * 1024,
        }
    }
}

/// What every request shares.
pub struct AppState {
    store: Mutex<Store>,
    pub config: Config,
    /// The searches running now.
    searches: AtomicUsize,
}

impl AppState {
    pub fn new(config: Config) -> AppState {
        AppState {
            store: Mutex::new(Store::new(config.max_games)),
            config,
            searches: AtomicUsize::new(0),
        }
    }

    /// The games. A handler that panicked while holding them left them as
    /// they were between two whole changes, so a poisoned lock is used on.
    pub fn lock(&self) -> MutexGuard<'_, Store> {
        self.store.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Counts a search among the running ones while it lives.
pub struct Running(Arc<AppState>);

impl Running {
    /// A place among the running searches, if one is free.
    pub fn claim(state: &Arc<AppState>) -> Option<Running> {
        let max = state.config.max_searches;
        state
            .searches
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < max).then_some(n + 1)
            })
            .ok()
            .map(|_| Running(state.clone()))
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.0.searches.fetch_sub(1, Ordering::AcqRel);
    }
}
