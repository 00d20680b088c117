//! Clocks fair on any node (`-slurm ... nps=REF`). Nodes of a cluster
//! differ in speed, and a fixed clock is not the same game on each; so,
//! as fishtest and OpenBench do, each task measures its node with the
//! first engine's bench before it plays and scales every engine's clock by
//! REF / measured: a faster node gets less time. Fischer base and
//! increment, a period clock's period and `movetime` are scaled; node and
//! depth limits are not time and stay. The task's games carry the
//! figures in their PGN tags (`pgn::time_control`).

use crate::config::spec::{Clock, EngineLimits, EngineSpec, NodeSpeed};
use crate::referee::game::DEFAULT_CLOCK;
use std::process::{Command, Stdio};

/// The arguments that make our engine bench: its fixed PVS bench (24
/// positions, one thread), whose last line is `nodes N nps M`.
pub const BENCH: [&str; 3] = ["bench", "--search", "pvs"];

/// The time scales a task accepts: a node this much slower or faster than
/// the reference is broken, not slow.
pub const MOST: f64 = 8.0;

/// What `nps=` and `bench=` ask for.
#[derive(Clone, Debug, PartialEq)]
pub struct Reference {
    /// The reference speed, nodes per second.
    pub nps: f64,
    /// What follows the first engine's command to make it bench.
    pub bench: Vec<String>,
}

/// The `nps` figure of the last line of `output` that has one (the word
/// `nps` followed by a number).
pub fn nps_of(output: &str) -> Option<f64> {
    output.lines().rev().find_map(|line| {
        let words: Vec<&str> = line.split_whitespace().collect();
        words
            .windows(2)
            .rev()
            .find(|w| w[0] == "nps")
            .and_then(|w| w[1].parse::<f64>().ok())
            .filter(|n| n.is_finite())
    })
}

/// The time scale of a node that measured `measured` nodes per second
/// against `reference`, to three decimals (the figure the PGN records is
/// the one the clocks were scaled by); refused outside 1/8 .. 8.
pub fn scale(reference: f64, measured: f64) -> Result<f64, String> {
    let exact = reference / measured;
    if !(measured > 0.0 && (1.0 / MOST..=MOST).contains(&exact)) {
        return Err(format!(
            "node speed: this node measured {measured:.0} nps against the reference {reference}: \
             time x {exact:.3} is outside 1/8 .. 8 (is the node broken, or nps= wrong?)"
        ));
    }
    Ok((exact * 1000.0).round() / 1000.0)
}

/// `ms` scaled by `factor`, in whole milliseconds, at least 1 if `ms` was
/// not 0.
pub fn scale_ms(ms: u64, factor: f64) -> u64 {
    match ms {
        0 => 0,
        _ => ((ms as f64 * factor).round() as u64).max(1),
    }
}

/// `l` with its time scaled by `factor`; an engine with no limit at all
/// plays the referee's default clock, so that is scaled.
pub fn scale_limits(l: &EngineLimits, factor: f64) -> EngineLimits {
    let clock = match l.clock {
        None if *l == EngineLimits::default() => Some(DEFAULT_CLOCK),
        c => c,
    };
    EngineLimits {
        clock: clock.map(|c| match c {
            Clock::Fischer { base_ms, inc_ms } => Clock::Fischer {
                base_ms: scale_ms(base_ms, factor),
                inc_ms: scale_ms(inc_ms, factor),
            },
            Clock::Period { moves, period_ms } => Clock::Period {
                moves,
                period_ms: scale_ms(period_ms, factor),
            },
        }),
        movetime_ms: l.movetime_ms.map(|ms| scale_ms(ms, factor)),
        depth: l.depth,
        nodes: l.nodes,
    }
}

/// The command line that benches `engine`, as one string for messages.
fn shown(engine: &EngineSpec, bench: &[String]) -> String {
    let words: Vec<&str> = engine
        .command
        .iter()
        .chain(bench)
        .map(String::as_str)
        .collect();
    let dir = engine
        .dir
        .as_ref()
        .map_or(String::new(), |d| format!(" (in {})", d.display()));
    format!("`{}`{dir}", words.join(" "))
}

/// What a command printed, for an error: its last lines.
fn printed(output: &str) -> String {
    let lines: Vec<&str> = output.lines().collect();
    let last = &lines[lines.len().saturating_sub(8)..];
    match last.is_empty() {
        true => "it printed nothing".to_string(),
        false => format!("the end of what it printed:\n{}", last.join("\n")),
    }
}

/// Runs `engine`'s command with `bench` after it, in its directory, and
/// reads the node's speed from what it prints (standard output, then
/// standard error).
pub fn measure(engine: &EngineSpec, bench: &[String]) -> Result<f64, String> {
    let what = shown(engine, bench);
    let (program, args) = engine
        .command
        .split_first()
        .ok_or_else(|| format!("node speed: {what}: the engine's command is empty"))?;
    let mut cmd = Command::new(program);
    cmd.args(args).args(bench).stdin(Stdio::null());
    if let Some(dir) = &engine.dir {
        cmd.current_dir(dir);
    }
    let out = cmd
        .output()
        .map_err(|e| format!("node speed: cannot run {what}: {e}"))?;
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    if !out.status.success() {
        return Err(format!(
            "node speed: {what} failed ({}); {}",
            out.status,
            printed(&text)
        ));
    }
    match nps_of(&text) {
        Some(nps) if nps > 0.0 => Ok(nps),
        _ => Err(format!(
            "node speed: {what} printed no line with `nps N` (N above 0); {}",
            printed(&text)
        )),
    }
}

/// Measures this node with the first of `engines` and scales every
/// engine's clock: the speed the games record, and the log line that
/// says it.
pub fn apply(engines: &mut [EngineSpec], r: &Reference) -> Result<(NodeSpeed, String), String> {
    let first = engines.first().ok_or("node speed: no engine to bench")?;
    let nps = measure(first, &r.bench)?;
    let factor = scale(r.nps, nps)?;
    for e in engines.iter_mut() {
        e.limits = scale_limits(&e.limits, factor);
    }
    let line = format!(
        "autotest: node speed {nps:.0} nps (bench), reference {}: time x {factor:.3}",
        r.nps
    );
    Ok((NodeSpeed { nps, scale: factor }, line))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn the_nps_of_the_last_line_that_has_one() {
        let bench = "1 bestmove h5L score mate 2 nodes 4423 time 0 ms\n\
                     info depth 3 nps 999\n\
                     nodes 579454 nps 1631978\n";
        assert_eq!(nps_of(bench), Some(1_631_978.0));
        // A later line without one does not hide it; a later one wins.
        assert_eq!(nps_of("nodes 5 nps 10\ndone\n"), Some(10.0));
        assert_eq!(nps_of("nps 10\nspeed nps 2.5e6 total\n"), Some(2.5e6));
        // `nps` must be followed by a number.
        assert_eq!(nps_of("nodes 5 nps fast\n"), None);
        assert_eq!(nps_of("nps\n12\n"), None);
        assert_eq!(nps_of("knps 12\n"), None);
        assert_eq!(nps_of(""), None);
    }

    #[test]
    fn the_scale_is_the_reference_over_the_measure_within_an_eighth_and_eight() {
        assert_eq!(scale(2_000_000.0, 1_000_000.0), Ok(2.0));
        assert_eq!(scale(1_000_000.0, 3_000_000.0), Ok(0.333));
        assert_eq!(scale(1_000.0, 8_000.0), Ok(0.125));
        assert_eq!(scale(8_000.0, 1_000.0), Ok(8.0));
        let err = scale(9_000.0, 1_000.0).unwrap_err();
        assert!(
            err.contains("measured 1000 nps against the reference 9000"),
            "{err}"
        );
        assert!(err.contains("time x 9.000 is outside 1/8 .. 8"), "{err}");
        let err = scale(1_000.0, 8_100.0).unwrap_err();
        assert!(err.contains("time x 0.123"), "{err}");
        assert!(scale(1_000.0, 0.0).is_err());
    }

    #[test]
    fn milliseconds_rounded_never_to_nothing() {
        assert_eq!(scale_ms(1_000, 2.0), 2_000);
        assert_eq!(scale_ms(10, 0.333), 3);
        assert_eq!(scale_ms(15, 0.5), 8, "half rounds away from 0");
        assert_eq!(scale_ms(1, 0.125), 1, "at least 1 ms");
        assert_eq!(scale_ms(0, 8.0), 0);
    }

    #[test]
    fn time_is_scaled_nodes_and_depth_are_not() {
        let fischer = EngineLimits {
            clock: Some(Clock::Fischer {
                base_ms: 10_000,
                inc_ms: 100,
            }),
            nodes: Some(5_000),
            depth: Some(7),
            movetime_ms: None,
        };
        let want = EngineLimits {
            clock: Some(Clock::Fischer {
                base_ms: 15_000,
                inc_ms: 150,
            }),
            ..fischer.clone()
        };
        assert_eq!(scale_limits(&fischer, 1.5), want);
        let period = EngineLimits {
            clock: Some(Clock::Period {
                moves: 40,
                period_ms: 60_000,
            }),
            movetime_ms: Some(300),
            ..EngineLimits::default()
        };
        let want = EngineLimits {
            clock: Some(Clock::Period {
                moves: 40,
                period_ms: 19_980,
            }),
            movetime_ms: Some(100),
            ..EngineLimits::default()
        };
        assert_eq!(scale_limits(&period, 0.333), want);
        let nodes = EngineLimits {
            nodes: Some(1_000),
            ..EngineLimits::default()
        };
        assert_eq!(scale_limits(&nodes, 4.0), nodes);
        // No limit at all: the default clock, scaled.
        let Clock::Fischer { base_ms, inc_ms } = DEFAULT_CLOCK else {
            panic!("the default clock is a Fischer clock")
        };
        let none = scale_limits(&EngineLimits::default(), 2.0);
        assert_eq!(
            none.clock,
            Some(Clock::Fischer {
                base_ms: base_ms * 2,
                inc_ms: inc_ms * 2
            })
        );
    }

    /// An engine whose command is `sh -c SCRIPT` (the bench's arguments
    /// come after it, as `$0`, `$1`, ...), in `dir`.
    fn shell(script: &str, dir: Option<PathBuf>) -> EngineSpec {
        EngineSpec {
            name: "a".to_string(),
            command: vec!["sh".into(), "-c".into(), script.into()],
            dir,
            options: Vec::new(),
            limits: EngineLimits::default(),
            restart: true,
        }
    }

    fn words(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_bench_runs_with_its_arguments_in_the_engines_directory() {
        let dir = crate::scratch::dir("slurm-node-speed");
        std::fs::write(dir.join("speed"), "4000\n").unwrap();
        // `$1` is the bench's second word: it must be passed.
        let e = shell(
            "test \"$0 $1\" = 'bench --search' || exit 3; echo \"nodes 9 nps $(cat speed)\"",
            Some(dir.clone()),
        );
        assert_eq!(measure(&e, &words(&BENCH)), Ok(4_000.0));
        let mut engines = vec![e.clone(), shell("true", None)];
        engines[1].limits.nodes = Some(100);
        let r = Reference {
            nps: 6_000.0,
            bench: words(&BENCH),
        };
        let (speed, line) = apply(&mut engines, &r).unwrap();
        assert_eq!(
            speed,
            NodeSpeed {
                nps: 4_000.0,
                scale: 1.5
            }
        );
        assert_eq!(
            line,
            "autotest: node speed 4000 nps (bench), reference 6000: time x 1.500"
        );
        assert_eq!(engines[0].limits, scale_limits(&e.limits, 1.5));
        assert_eq!(engines[1].limits.nodes, Some(100));
        assert_eq!(engines[1].limits.clock, None);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_failed_or_silent_bench_is_an_error_naming_it() {
        let failed = shell("echo 'no such position'; exit 3", None);
        let err = measure(&failed, &words(&["bench"])).unwrap_err();
        assert!(
            err.contains("`sh -c echo 'no such position'; exit 3 bench` failed"),
            "{err}"
        );
        assert!(err.contains("exit status: 3"), "{err}");
        assert!(err.ends_with("\nno such position"), "{err}");
        let silent = shell("echo 'nodes 5'; echo warming up >&2", None);
        let err = measure(&silent, &[]).unwrap_err();
        assert!(err.contains("printed no line with `nps N`"), "{err}");
        assert!(err.ends_with("\nnodes 5\nwarming up"), "{err}");
        let zero = shell("echo 'nps 0'", None);
        let err = measure(&zero, &[]).unwrap_err();
        assert!(
            err.contains("(N above 0); the end of what it printed:\nnps 0"),
            "{err}"
        );
        let mute = shell("true", None);
        let err = measure(&mute, &[]).unwrap_err();
        assert!(
            err.ends_with(
                "`sh -c true` printed no line with `nps N` (N above 0); it printed nothing"
            ),
            "{err}"
        );
        let missing = EngineSpec {
            command: vec!["/nonexistent/engine".into()],
            ..shell("", Some(PathBuf::from("/tmp")))
        };
        let err = measure(&missing, &words(&BENCH)).unwrap_err();
        assert!(
            err.contains("cannot run `/nonexistent/engine bench --search pvs` (in /tmp)"),
            "{err}"
        );
        let too_fast = shell("echo 'nps 100000'", None);
        let r = Reference {
            nps: 1_000.0,
            bench: Vec::new(),
        };
        let err = apply(&mut [too_fast], &r).unwrap_err();
        assert!(err.contains("outside 1/8 .. 8"), "{err}");
    }
}
