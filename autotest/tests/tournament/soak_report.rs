//! `scripts/soak_report.sh` on made-up legs: it counts the faults that must
//! be zero, and judges each kept process's memory by the least of its
//! readings in the second and in the third third of its session, so that
//! readings that swing up from a floor pass, and so does a step in the
//! first third (the warm-up), while a leak that lifts the floor fails.

use crate::common::scratch;
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A leg's directory with `games` games of engine `a` (one process)
/// against `b` (another), `a`'s memory after game g `rss(g)` kB, `b`'s a
/// flat 20,000; game `forfeit` (if any) lost on time.
fn leg(name: &str, games: u32, rss: impl Fn(u32) -> u64, forfeit: Option<u32>) -> PathBuf {
    let dir = scratch::dir(&format!("soak_report/{name}"));
    let mut pgn = String::new();
    for g in 1..=games {
        let termination = if forfeit == Some(g) {
            "time forfeit"
        } else {
            "normal"
        };
        write!(
            pgn,
            "[Event \"soak\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\
             [Termination \"{termination}\"]\n[WhiteProcess \"n1:100\"]\n\
             [WhiteProcessGames \"{g}\"]\n[WhiteRSS \"{}\"]\n[BlackProcess \"n1:200\"]\n\
             [BlackProcessGames \"{g}\"]\n[BlackRSS \"20000\"]\n\n1. d1c1 *\n\n",
            rss(g)
        )
        .unwrap();
    }
    std::fs::write(dir.join("games.pgn"), pgn).unwrap();
    dir
}

/// The report on `dir`: whether it passed, and its output.
fn report(dir: &Path) -> (bool, String) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/soak_report.sh");
    let out = Command::new("bash")
        .arg(script)
        .arg(dir)
        .output()
        .expect("bash runs the report");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

/// The report's memory line of process `process`.
fn process_line<'a>(text: &'a str, process: &str) -> &'a str {
    text.lines()
        .find(|l| l.contains(process))
        .unwrap_or_else(|| panic!("no line of {process}: {text}"))
}

/// Readings that swing by up to 3 MB around a steady low, as MCTS's do:
/// every fifth game at the low, the others above it, and in the second
/// half now and then 4 MB above it (a peak-against-peak rule fails this).
fn swinging(g: u32) -> u64 {
    if g.is_multiple_of(5) {
        22_000
    } else if g > 500 && g % 50 == 1 {
        26_000
    } else {
        22_000 + u64::from(g * 7919 % 3000)
    }
}

#[test]
fn readings_that_swing_around_a_steady_low_pass() {
    let (ok, text) = report(&leg("swinging", 1000, swinging, None));
    assert!(ok, "{text}");
    let line = process_line(&text, "n1:100");
    assert!(line.contains("22000 kB      22000 kB"), "{line}");
    assert!(!line.contains("GROWS"), "{line}");
}

#[test]
fn a_step_in_the_warm_up_passes() {
    // What every PVS process showed: one step of about 480 kB within its
    // first 300 games (a cache kept by a second heap), flat after it.
    let step = |g: u32| swinging(g) + if g > 220 { 480 } else { 0 };
    let (ok, text) = report(&leg("step", 1000, step, None));
    assert!(ok, "{text}");
    let line = process_line(&text, "n1:100");
    assert!(line.contains("22480 kB      22480 kB"), "{line}");
}

#[test]
fn a_leak_that_lifts_the_low_fails() {
    // 1 kB a game under the swings: from the second third's least to the
    // third's, about 1.5%.
    let leaking = |g: u32| swinging(g) + u64::from(g);
    let (ok, text) = report(&leg("leaking", 1000, leaking, None));
    assert!(!ok, "{text}");
    let line = process_line(&text, "n1:100");
    assert!(line.ends_with("GROWS"), "{line}");
    let b = process_line(&text, "n1:200");
    assert!(!b.contains("GROWS"), "{b}");
}

#[test]
fn a_short_session_is_not_judged_and_a_forfeit_fails() {
    let leaking = |g: u32| 20_000 + u64::from(g) * 100;
    let (ok, text) = report(&leg("short", 200, leaking, None));
    assert!(ok, "{text}");
    assert!(text.contains("not judged"), "{text}");
    let (ok, text) = report(&leg("forfeit", 200, swinging, Some(17)));
    assert!(!ok, "{text}");
    let counts = text.lines().nth(1).expect("the leg's counts");
    let fields: Vec<&str> = counts.split_whitespace().collect();
    assert_eq!(fields[7], "1", "time forfeits: {counts}");
}
