//! The real engine on the tenth-of-a-second clock (0.1+0.001), judged as
//! the course referee judges it (`-timemargin 0`: no grace past the
//! clock): its time plan never loses a game on time.

use crate::common::{programs::leiserchess, scratch};
use std::path::Path;
use std::process::Command;

/// Eight games of the engine against itself at 0.1+0.001, one at a time:
/// every game played, none lost on time (nor by any other fault).
#[test]
fn no_time_forfeit_at_a_tenth_of_a_second() {
    let dir = scratch::dir("short_clock/forfeits");
    let engine = format!("cmd={}", leiserchess().display());
    let book = Path::new(env!("CARGO_MANIFEST_DIR")).join("openings.txt");
    let book = format!("file={}", book.display());
    let out = Command::new(env!("CARGO_BIN_EXE_autotest"))
        .env("AUTOTEST_DB", "none")
        .args(["-engine", &engine, "name=a", "-engine", &engine, "name=b"])
        .args(["-each", "tc=0.1+0.001", "-timemargin", "0"])
        .args(["-games", "8", "-concurrency", "1", "-seed", "86"])
        .args(["-openings", &book, "order=random", "-pgnout", "games.pgn"])
        .current_dir(&dir)
        .output()
        .expect("run autotest");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let pgn = std::fs::read_to_string(dir.join("games.pgn")).expect("the PGN");
    assert_eq!(pgn.matches("[Result ").count(), 8, "{pgn}");
    for fault in [
        "time forfeit",
        "rules infraction",
        "abandoned",
        "stalled connection",
    ] {
        assert!(!pgn.contains(fault), "a game ended in {fault}: {pgn}");
    }
}
