//! Who may use the CPU beside whom: tests that only need it share it; a
//! test that measures a latency runs with no other test of this binary
//! beside it.

use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};

static CPU: RwLock<()> = RwLock::new(());

/// For a test that only needs the CPU: it may run beside the others.
pub fn shared() -> RwLockReadGuard<'static, ()> {
    CPU.read().unwrap_or_else(|e| e.into_inner())
}

/// For a test that measures a latency: nothing else of this binary runs.
pub fn alone() -> RwLockWriteGuard<'static, ()> {
    CPU.write().unwrap_or_else(|e| e.into_inner())
}
