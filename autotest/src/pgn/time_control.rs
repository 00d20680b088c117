//! The tags of a game a cluster task played on clocks scaled by its
//! node's speed (`TournamentSpec::node_speed`, `crate::slurm::node_speed`):
//! `NodeNps` (the node's bench), `TimeScale` (what the clocks were
//! multiplied by) and the clocks as played, in PGN's `TimeControl` form,
//! one tag when both sides had the same and `WhiteTimeControl` and
//! `BlackTimeControl` when not (cutechess's convention). A local run's
//! games have none of them.

use crate::config::spec::{Clock, EngineLimits, TournamentSpec};
use crate::referee::game::DEFAULT_CLOCK;

/// An engine's limits as PGN's `TimeControl` tag says a clock: `300+2.5`
/// (base and increment in seconds; `300` without one), `40/60` (moves per
/// period), `0.5/move` (a fixed time a move, cutechess's form), `-` for
/// none (nodes or depth only).
pub fn time_control(l: &EngineLimits) -> String {
    let secs = |ms: u64| format!("{}", ms as f64 / 1000.0);
    let clock = match l.clock {
        None if *l == EngineLimits::default() => Some(DEFAULT_CLOCK),
        c => c,
    };
    match (clock, l.movetime_ms) {
        (Some(Clock::Fischer { base_ms, inc_ms: 0 }), _) => secs(base_ms),
        (Some(Clock::Fischer { base_ms, inc_ms }), _) => {
            format!("{}+{}", secs(base_ms), secs(inc_ms))
        }
        (Some(Clock::Period { moves, period_ms }), _) => format!("{moves}/{}", secs(period_ms)),
        (None, Some(ms)) => format!("{}/move", secs(ms)),
        (None, None) => "-".to_string(),
    }
}

/// The tags a game between engines `white` and `black` (indices into
/// `spec.engines`) gets: none unless the tournament was played at a
/// node's measured speed.
pub fn node_speed_tags(spec: &TournamentSpec, white: usize, black: usize) -> Vec<(String, String)> {
    let Some(speed) = spec.node_speed else {
        return Vec::new();
    };
    let tag = |k: &str, v: String| (k.to_string(), v);
    let (w, b) = (
        time_control(&spec.engines[white].limits),
        time_control(&spec.engines[black].limits),
    );
    let mut tags = vec![
        tag("NodeNps", format!("{:.0}", speed.nps)),
        tag("TimeScale", format!("{:.3}", speed.scale)),
    ];
    if w == b {
        tags.push(tag("TimeControl", w));
    } else {
        tags.push(tag("WhiteTimeControl", w));
        tags.push(tag("BlackTimeControl", b));
    }
    tags
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::spec::{EngineSpec, NodeSpeed};

    fn limits(clock: Option<Clock>, movetime_ms: Option<u64>) -> EngineLimits {
        EngineLimits {
            clock,
            movetime_ms,
            ..EngineLimits::default()
        }
    }

    #[test]
    fn clocks_in_pgn_form() {
        let fischer = |base_ms, inc_ms| Some(Clock::Fischer { base_ms, inc_ms });
        assert_eq!(time_control(&limits(fischer(2_000, 20), None)), "2+0.02");
        assert_eq!(time_control(&limits(fischer(60_000, 0), None)), "60");
        assert_eq!(time_control(&limits(fischer(1_500, 1), None)), "1.5+0.001");
        let period = Some(Clock::Period {
            moves: 40,
            period_ms: 120_000,
        });
        assert_eq!(time_control(&limits(period, None)), "40/120");
        assert_eq!(time_control(&limits(None, Some(500))), "0.5/move");
        let nodes = EngineLimits {
            nodes: Some(1000),
            ..EngineLimits::default()
        };
        assert_eq!(time_control(&nodes), "-");
        // No limit at all is the referee's default clock.
        assert_eq!(
            time_control(&EngineLimits::default()),
            time_control(&limits(Some(DEFAULT_CLOCK), None))
        );
    }

    #[test]
    fn tags_only_at_a_measured_speed() {
        let engine = |name: &str, l: EngineLimits| EngineSpec {
            name: name.to_string(),
            command: vec!["x".to_string()],
            dir: None,
            options: Vec::new(),
            limits: l,
            restart: true,
        };
        let two = limits(
            Some(Clock::Fischer {
                base_ms: 2_000,
                inc_ms: 20,
            }),
            None,
        );
        let mut spec = TournamentSpec {
            engines: vec![
                engine("a", two.clone()),
                engine("b", two),
                engine("c", limits(None, Some(250))),
            ],
            ..TournamentSpec::default()
        };
        assert!(node_speed_tags(&spec, 0, 1).is_empty());
        spec.node_speed = Some(NodeSpeed {
            nps: 1_631_978.4,
            scale: 2.0,
        });
        let owned = |v: &[(&str, &str)]| -> Vec<(String, String)> {
            v.iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        };
        assert_eq!(
            node_speed_tags(&spec, 1, 0),
            owned(&[
                ("NodeNps", "1631978"),
                ("TimeScale", "2.000"),
                ("TimeControl", "2+0.02")
            ])
        );
        assert_eq!(
            node_speed_tags(&spec, 2, 0)[2..],
            owned(&[
                ("WhiteTimeControl", "0.25/move"),
                ("BlackTimeControl", "2+0.02")
            ])
        );
    }
}
