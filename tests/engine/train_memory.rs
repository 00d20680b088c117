//! `leiserchess train` streams its data: one epoch over a file named 400
//! times takes no more resident memory than over it named 40 times (within
//! a quarter, the allocator's slack), and stays within `--memory`.

use crate::common::scratch;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

/// The anonymous resident memory (`RssAnon`) of process `pid`, kB, or
/// `None` once it has gone.
fn rss_anon(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("RssAnon:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// One epoch over `data` named `times` times in 16 MB: the most
/// anonymous memory seen while it ran, kB, and what it printed to stderr.
fn peak(dir: &Path, data: &Path, times: usize) -> (u64, String) {
    let out = dir.join(format!("n{times}.nnue"));
    let mut child = Command::new(env!("CARGO_BIN_EXE_leiserchess"))
        .args(["train", "--no-store"])
        .args(std::iter::repeat_n(data, times))
        .args(["--out", out.to_str().unwrap()])
        .args(["--epochs", "1", "--memory", "16", "--window", "1024"])
        .args(["--batch", "1024", "--threads", "2"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut most = 0;
    while child.try_wait().unwrap().is_none() {
        most = most.max(rss_anon(child.id()).unwrap_or(0));
        std::thread::sleep(Duration::from_millis(2));
    }
    let run = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr).to_string();
    assert!(run.status.success(), "{stderr}");
    assert!(out.exists(), "{stderr}");
    (most, stderr)
}

#[test]
fn ten_times_the_data_takes_no_more_memory() {
    let dir = scratch::dir("train-memory");
    let data = dir.join("d.bin");
    let made = Command::new(env!("CARGO_BIN_EXE_leiserchess"))
        .args(["datagen", "--no-store", data.to_str().unwrap()])
        .args(["--positions", "5000", "--nodes", "100", "--seed", "9"])
        .output()
        .unwrap();
    assert!(made.status.success(), "{made:?}");
    let (small, _) = peak(&dir, &data, 40);
    let (large, said) = peak(&dir, &data, 400);
    assert!(
        said.contains("the held-out positions read again after each epoch"),
        "400 copies stream their held-out positions: {said}"
    );
    assert!(
        large as f64 <= 1.25 * small as f64,
        "{large} kB over 400 copies, {small} kB over 40"
    );
    assert!(large <= 16 << 10, "{large} kB in --memory 16");
    std::fs::remove_dir_all(&dir).unwrap();
}
