//! The engine's benchmarks as `autotest bench-record` runs them: each
//! measure's command, the figures read from its output, and the summary
//! of several rounds (median and spread) that `bench-record` and `autotest
//! report` print.
//!
//! * `bench-pvs`: `leiserchess bench --search pvs`; its last line `nodes N
//!   nps R`: the signature and nodes are N, the rate R, the seconds N/R.
//! * `bench-mcts`: `leiserchess bench --search mcts`; `signature S
//!   playouts P playouts/s R`: nodes are the playouts, the seconds P/R.
//! * `perft`: `leiserchess perft 5` from a middlegame of the bench
//!   positions on one thread (about half a second, release build);
//!   `perft D LEAVES` and `info time T ms nps R`.
//! * `evalbench`: `leiserchess evalbench --seconds 1`; `positions K
//!   checksum C` (the signature), `evals E time T ms ns/eval X`, `evals/s R`.

use crate::db::text_enums::{Measure, TextEnum};
use std::path::Path;
use std::process::{Command, Stdio};

/// perft's position: the fourth bench position, whose depth 5 takes about
/// half a second on one thread (the start position: 0.1 s at depth 5, 7 s
/// at depth 6).
pub const PERFT_FEN: &str = "nn2sw4/4ne3/1ne2SWsw2/2se1SW2SW/7SW/3NW1NE2/5NW2/2se4SS W";

/// One run of a measure.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurement {
    /// The search's signature, perft's leaf count, evalbench's checksum.
    pub signature: u64,
    /// Nodes searched, playouts, leaves or evaluations.
    pub nodes: u64,
    pub seconds: f64,
    /// Nodes (playouts, leaves, evaluations) per second.
    pub rate: f64,
}

/// The engine's arguments for `measure`.
pub fn arguments(measure: Measure) -> Vec<&'static str> {
    match measure {
        Measure::BenchPvs => vec!["bench", "--search", "pvs"],
        Measure::BenchMcts => vec!["bench", "--search", "mcts"],
        Measure::Perft => vec!["perft", "5", "--fen", PERFT_FEN, "--threads", "1"],
        Measure::Evalbench => vec!["evalbench", "--seconds", "1"],
    }
}

/// What each measure's rate counts, per second.
pub fn unit(measure: Measure) -> &'static str {
    match measure {
        Measure::BenchPvs => "nodes/s",
        Measure::BenchMcts => "playouts/s",
        Measure::Perft => "leaves/s",
        Measure::Evalbench => "evals/s",
    }
}

/// A command as a shell would take it: words with spaces quoted.
pub fn command_text(program: &Path, args: &[&str]) -> String {
    let mut words = vec![program.display().to_string()];
    words.extend(args.iter().map(|a| {
        if a.contains(' ') {
            format!("'{a}'")
        } else {
            a.to_string()
        }
    }));
    words.join(" ")
}

/// The numbers of the last line of `output` whose first word is
/// `pattern`'s, read by `pattern`: its words, `N` a whole number, `X` a
/// real one (finite, not negative). `command` names the output in errors.
fn numbers(output: &str, pattern: &str, command: &str) -> Result<Vec<f64>, String> {
    let want: Vec<&str> = pattern.split_whitespace().collect();
    let Some(line) = output
        .lines()
        .rev()
        .find(|l| l.split_whitespace().next() == want.first().copied())
    else {
        return Err(format!(
            "`{command}`: its output has no '{pattern}' line (its last line: '{}')",
            output.lines().last().unwrap_or("")
        ));
    };
    let bad = || {
        format!(
            "`{command}`: cannot read the line '{line}' (expected '{pattern}', N and X numbers)"
        )
    };
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.len() != want.len() {
        return Err(bad());
    }
    let mut out = Vec::new();
    for (w, p) in words.iter().zip(&want) {
        match *p {
            "N" => out.push(w.parse::<u64>().map_err(|_| bad())? as f64),
            "X" => out.push(
                w.parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite() && *x >= 0.0)
                    .ok_or_else(bad)?,
            ),
            word if word == *w => {}
            _ => return Err(bad()),
        }
    }
    Ok(out)
}

/// `count` over `rate`, in seconds (none for a zero rate).
fn seconds_at(count: f64, rate: f64) -> f64 {
    if rate > 0.0 {
        count / rate
    } else {
        0.0
    }
}

/// The figures of `measure`'s `output`; `command` (the command line that
/// printed it) names it in errors.
pub fn parse(measure: Measure, command: &str, output: &str) -> Result<Measurement, String> {
    let read = |pattern: &str| numbers(output, pattern, command);
    let m = match measure {
        Measure::BenchPvs => {
            let v = read("nodes N nps X")?;
            Measurement {
                signature: v[0] as u64,
                nodes: v[0] as u64,
                seconds: seconds_at(v[0], v[1]),
                rate: v[1],
            }
        }
        Measure::BenchMcts => {
            let v = read("signature N playouts N playouts/s X")?;
            Measurement {
                signature: v[0] as u64,
                nodes: v[1] as u64,
                seconds: seconds_at(v[1], v[2]),
                rate: v[2],
            }
        }
        Measure::Perft => {
            let leaves = read("perft N N")?[1];
            let v = read("info time X ms nps X")?;
            Measurement {
                signature: leaves as u64,
                nodes: leaves as u64,
                seconds: v[0] / 1000.0,
                rate: v[1],
            }
        }
        Measure::Evalbench => {
            let checksum = read("positions N checksum N")?[1];
            let v = read("evals N time X ms ns/eval X")?;
            Measurement {
                signature: checksum as u64,
                nodes: v[0] as u64,
                seconds: v[1] / 1000.0,
                rate: read("evals/s X")?[0],
            }
        }
    };
    Ok(m)
}

/// Runs `measure` with the engine at `engine` and reads its output.
pub fn run(engine: &Path, measure: Measure) -> Result<Measurement, String> {
    let args = arguments(measure);
    let text = command_text(engine, &args);
    let out = Command::new(engine)
        .args(&args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run `{text}`: {e}"))?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        return Err(format!(
            "`{text}` failed ({}): {}",
            out.status,
            stderr.lines().last().unwrap_or("no error message")
        ));
    }
    parse(measure, &text, &String::from_utf8_lossy(&out.stdout))
}

/// The median of `xs` (the mean of the middle two for an even count).
pub fn median(xs: &[f64]) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    match n {
        0 => f64::NAN,
        _ if n % 2 == 1 => v[n / 2],
        _ => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// A markdown table of `rounds` (measure, measurement), a line per
/// measure in [`Measure::ALL`]'s order: the rounds, the rate's median and
/// its range, the median seconds, and the signature (every different one).
pub fn summary_table(rounds: &[(Measure, Measurement)]) -> String {
    let mut out = String::from(
        "| measure | rounds | median | min .. max | seconds (median) | signature |\n\
         |---|---:|---:|---:|---:|---|\n",
    );
    for &measure in Measure::ALL {
        let ms: Vec<&Measurement> = rounds
            .iter()
            .filter(|(m, _)| *m == measure)
            .map(|(_, m)| m)
            .collect();
        if ms.is_empty() {
            continue;
        }
        let rates: Vec<f64> = ms.iter().map(|m| m.rate).collect();
        let seconds: Vec<f64> = ms.iter().map(|m| m.seconds).collect();
        let (lo, hi) = rates.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), r| {
            (lo.min(*r), hi.max(*r))
        });
        let mut signatures: Vec<String> = Vec::new();
        for m in &ms {
            let s = m.signature.to_string();
            if !signatures.contains(&s) {
                signatures.push(s);
            }
        }
        out += &format!(
            "| {measure} | {} | {:.0} {} | {lo:.0} .. {hi:.0} | {:.3} | {} |\n",
            ms.len(),
            median(&rates),
            unit(measure),
            median(&seconds),
            signatures.join(", ")
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_and_a_line_that_cannot_be_read() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        let e = parse(
            Measure::BenchPvs,
            "leiserchess bench",
            "nodes 12 nps fast\n",
        )
        .unwrap_err();
        assert!(
            e.contains("`leiserchess bench`") && e.contains("'nodes 12 nps fast'"),
            "{e}"
        );
        let e = parse(Measure::Perft, "leiserchess perft", "perft 5 10\n").unwrap_err();
        assert!(e.contains("no 'info time X ms nps X' line"), "{e}");
    }
}
