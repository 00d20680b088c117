//! A tournament spec's values written short, for the tests that build
//! specs or compare parsed ones: owned UCI options and Fischer clocks.

use autotest::config::spec::{Clock, EngineLimits};

/// Owned `(name, value)` UCI options.
pub fn options(v: &[(&str, &str)]) -> Vec<(String, String)> {
    v.iter()
        .map(|(k, x)| (k.to_string(), x.to_string()))
        .collect()
}

/// A Fischer clock of `base_ms` plus `inc_ms` a move.
pub fn fischer_clock(base_ms: u64, inc_ms: u64) -> Option<Clock> {
    Some(Clock::Fischer { base_ms, inc_ms })
}

/// An engine's limits: a clock of `ms` and no increment.
pub fn fischer(ms: u64) -> EngineLimits {
    EngineLimits {
        clock: fischer_clock(ms, 0),
        ..EngineLimits::default()
    }
}
