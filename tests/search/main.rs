//! The PVS and best-first searches end to end, over UCI and as a library,
//! with the tests that measure how fast the engine answers (`stop`,
//! `isready`, `ponderhit`, clocks). Those must not share the CPU with
//! another test: a latency test takes all of it (`cpu::alone`), every
//! test that searches a share (`cpu::shared`). The tests of another
//! binary take no such share, so these have a binary of their own.

/// The shared helpers (`tests/common/`) these modules use.
#[path = "../common"]
mod common {
    pub mod reference;
    pub mod session;
}

mod bestfirst;
mod cpu;
mod search;
