//! `scripts/thread_speedup_pool.sh`, which pools saved outputs of
//! `scripts/thread_speedup.sh`, on small outputs whose pooled figures are
//! worked out by hand.

use crate::common::scratch;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A `thread_speedup.sh` output's per-position table: one row per
/// `(one thread ms, speed-up, nodes, cores, FEN)`.
fn output(rows: &[(u32, f64, f64, f64, &str)]) -> String {
    let mut text = String::from("round 1/1: 1 thread 900 ms, 2 threads 500 ms\n");
    text.push_str("position  1 thread (ms)  2 threads (ms)  speed-up  nodes  cores\n");
    for (i, (ms, speed, nodes, cores, fen)) in rows.iter().enumerate() {
        let two = (f64::from(*ms) / speed).round();
        text.push_str(&format!(
            "{:>8} {ms:>14} {two:>16} {speed:>8.2}x {nodes:>5.2}x {cores:>6.2}x  {fen}\n",
            i + 1
        ));
    }
    text.push_str("geometric mean over the positions: not read by the pool\n");
    text
}

/// Runs the script on `outputs`, written to files in a fresh directory.
fn pool(name: &str, outputs: &[String]) -> Output {
    let dir = scratch::dir(&format!("pool-{name}"));
    let files: Vec<PathBuf> = outputs
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let f = dir.join(format!("day{i}.log"));
            std::fs::write(&f, text).expect("an output written");
            f
        })
        .collect();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/thread_speedup_pool.sh");
    let out = Command::new("bash")
        .arg(script)
        .args(&files)
        .output()
        .expect("bash runs");
    std::fs::remove_dir_all(&dir).expect("the directory removed");
    out
}

const A: &str = "ss7/8/8/8/8/8/8/7NN W";
const B: &str = "nn7/8/8/8/8/8/8/7SS B";

#[test]
fn positions_average_over_days_then_over_the_set() {
    // Position A: 2x both days; B: 0.5x then 2x, 1x over the days: the
    // set sqrt(2), and resampled AA, AB or BB: 2x, sqrt(2) or 1x. Nodes:
    // A 1x; B 1.21x then 1x, 1.1x: the set sqrt(1.1). The cores as fast
    // as the threads: 100% of them.
    let day1 = output(&[(200, 2.0, 1.0, 2.0, A), (2000, 0.5, 1.21, 0.5, B)]);
    let day2 = output(&[(200, 2.0, 1.0, 2.0, A), (2000, 2.0, 1.0, 2.0, B)]);
    let out = pool("mean", &[day1, day2]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let first = text.lines().next().expect("a summary line");
    let summary = "2 outputs, 2 positions: speed-up 1.41x (95%: 1.00x .. 2.00x), nodes 1.05x";
    assert!(first.starts_with(summary), "{first}");
    assert!(first.contains("100% of the cores"), "{first}");
    // Each day's own mean: sqrt(2 * 0.5) and sqrt(2 * 2).
    assert!(text.contains("each output: 1.00x 2.00x"), "{text}");
    assert!(
        text.contains("one thread under 0.3 s: 1 position, speed-up 2.00x"),
        "{text}"
    );
    assert!(
        text.contains("one thread 1 s and more: 1 position, speed-up 1.00x"),
        "{text}"
    );
}

#[test]
fn outputs_of_different_position_sets_are_refused() {
    let day1 = output(&[(200, 2.0, 1.0, 2.0, A)]);
    let day2 = output(&[(200, 2.0, 1.0, 2.0, B)]);
    let out = pool("sets", &[day1, day2]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("in 1 of the 2 outputs, not one position set"),
        "{err}"
    );
}

#[test]
fn an_empty_output_is_refused() {
    let out = pool("void", &[String::new()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("missing, unreadable or empty"), "{err}");
}

#[test]
fn an_output_without_a_table_is_refused() {
    let out = pool("empty", &["round 1/1: interrupted\n".to_string()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("no per-position table"), "{err}");
}
