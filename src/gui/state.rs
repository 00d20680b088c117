//! What every request shares: the games, the engine the searches use, the
//! server's limits, and the count of running searches.

use super::store::Store;
use crate::config::EngineConfig;
use crate::eval::nnue::Network;
use crate::eval::policy::Policy;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// The server's limits, and the engine's options at start.
#[derive(Clone, Debug)]
pub struct Config {
    /// The engine's options (threads, table, search, …) at start; the page
    /// changes them through `/api/options`.
    pub engine: EngineConfig,
    /// Games kept in memory; a new game beyond it drops the oldest.
    pub max_games: usize,
    /// Engine searches (analyses included) running at once; more are
    /// refused with a 429.
    pub max_searches: usize,
    /// Games that keep what their last search learnt (the MCTS tree, PVS's
    /// move ordering) for their next: the ones searched last. A kept tree
    /// takes up to `mcts_tree_mb`.
    pub remembered_games: usize,
    /// The largest request body, in bytes; larger ones get a 413.
    pub body_limit: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            engine: EngineConfig::default(),
            max_games: 64,
            max_searches: 4,
            remembered_games: 2,
            body_limit: 64 * 1024,
        }
    }
}

/// The engine every new search uses: its configuration as the options
/// set it, the net its `EvalFile` names and the move policy its
/// `PolicyFile` names.
pub struct Engine {
    pub config: EngineConfig,
    pub net: Arc<Network>,
    pub policy: Arc<Policy>,
}

/// What every request shares.
pub struct AppState {
    store: Mutex<Store>,
    engine: Mutex<Engine>,
    pub config: Config,
    /// The searches running now.
    searches: AtomicUsize,
}

impl AppState {
    /// The state at start; an `EvalFile` or a `PolicyFile` that does not
    /// load leaves the embedded net or policy (and the option empty), as
    /// `setoption` would.
    pub fn new(config: Config) -> AppState {
        let mut engine = config.engine.clone();
        let net = engine.net().unwrap_or_else(|_| {
            engine.eval_file.clear();
            Network::shared_embedded()
        });
        let policy = engine.policy().unwrap_or_else(|_| {
            engine.policy_file.clear();
            Policy::shared_embedded()
        });
        AppState {
            store: Mutex::new(Store::new(config.max_games, config.remembered_games)),
            engine: Mutex::new(Engine {
                config: engine,
                net,
                policy,
            }),
            config,
            searches: AtomicUsize::new(0),
        }
    }

    /// The games. A handler that panicked while holding them left them as
    /// they were between two whole changes, so a poisoned lock is used on.
    pub fn lock(&self) -> MutexGuard<'_, Store> {
        self.store.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The engine. Changed only whole (a value and its effect together),
    /// so a poisoned lock is used on too.
    pub fn engine(&self) -> MutexGuard<'_, Engine> {
        self.engine.lock().unwrap_or_else(|e| e.into_inner())
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
