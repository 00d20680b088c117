//! The real engine on the tenth-of-a-second clock (0.1+0.001), judged as
//! the course referee judges it (`-timemargin 0`: no grace past the
//! clock): its time plan never loses a game on time.

use crate::common::{programs::leiserchess, scratch};
use std::path::Path;
use std::process::Command;

/// Fault terminations as the PGN's `Termination` tag names them.
const FAULTS: [&str; 4] = [
    "time forfeit",
    "rules infraction",
    "abandoned",
    "stalled connection",
];

/// Eight games of the engine against itself at 0.1+0.001, one at a time,
/// in `dir`: the PGN, once every game was played.
fn eight_games(dir: &Path, seed: &str) -> String {
    let engine = format!("cmd={}", leiserchess().display());
    let book = Path::new(env!("CARGO_MANIFEST_DIR")).join("openings.txt");
    let book = format!("file={}", book.display());
    let out = Command::new(env!("CARGO_BIN_EXE_autotest"))
        .env("AUTOTEST_DB", "none")
        .args(["-engine", &engine, "name=a", "-engine", &engine, "name=b"])
        .args(["-each", "tc=0.1+0.001", "-timemargin", "0"])
        .args(["-games", "8", "-concurrency", "1", "-seed", seed])
        .args(["-openings", &book, "order=random", "-pgnout", "games.pgn"])
        .current_dir(dir)
        .output()
        .expect("run autotest");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let pgn = std::fs::read_to_string(dir.join("games.pgn")).expect("the PGN");
    assert_eq!(pgn.matches("[Result ").count(), 8, "{pgn}");
    pgn
}

/// Eight games without a fault, in one of three tries: on a busy machine
/// (the other tests run beside this one) a move can wait tens of ms for a
/// CPU and lose on time whatever the plan, while a plan that spends past
/// the clock drains it in every long game and loses in every try (one
/// with a 5 ms floor did).
#[test]
fn no_time_forfeit_at_a_tenth_of_a_second() {
    let mut faults = Vec::new();
    for seed in ["86", "87", "88"] {
        let dir = scratch::dir(&format!("short_clock/seed-{seed}"));
        let pgn = eight_games(&dir, seed);
        let found: Vec<&str> = FAULTS.into_iter().filter(|f| pgn.contains(f)).collect();
        if found.is_empty() {
            return;
        }
        faults.push(format!("seed {seed}: {found:?}"));
    }
    panic!("a fault in every try: {faults:?}");
}
