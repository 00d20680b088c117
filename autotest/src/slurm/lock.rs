//! One attempt at a shard at a time. Slurm may start a shard's next
//! attempt while the last one still plays: a node cut off from the
//! controller is set down and its tasks requeued elsewhere, but the tasks
//! on it live on until the node is back and slurmd kills them. Two
//! attempts would then write the shard's files at once (and a resumed one
//! renames its PGN over the other's open file). So an attempt holds an
//! exclusive lock on `RUN/shards/K/lock` for as long as it plays, and the
//! next one waits for it, saying so, before it reads the shard's files.
//!
//! The lock is flock(2), through `std::fs::File::lock`: the kernel drops
//! it when its holder ends, however it ends, and the engines do not
//! inherit it (Rust opens files close-on-exec). Over NFS, Linux emulates
//! flock with POSIX locks, which every client sees; Lustre needs its
//! `flock` mount option.

use crate::interrupt;
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::Path;
use std::time::{Duration, Instant};

/// How often a waiting attempt tries the lock again.
const RETRY: Duration = Duration::from_millis(250);

/// A shard's lock, held until dropped or the process ends.
pub struct ShardLock {
    _file: File,
}

/// Takes the lock file `path` of `what` (`shard 3`), waiting as long as
/// another attempt holds it; a stop signal ends the wait with an error.
/// The file then names this attempt, for the message of the next one.
pub fn acquire(path: &Path, what: &str) -> Result<ShardLock, String> {
    let cannot = |e: std::io::Error| format!("cannot lock {}: {e}", path.display());
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(cannot)?;
    let start = Instant::now();
    let mut waited = false;
    loop {
        match file.try_lock() {
            Ok(()) => break,
            Err(TryLockError::WouldBlock) => {}
            Err(TryLockError::Error(e)) => return Err(cannot(e)),
        }
        if !waited {
            eprintln!(
                "autotest: {what} is held by another attempt ({}): waiting for it to end",
                holder(&mut file)
            );
            waited = true;
        }
        if let Some(signal) = interrupt::received() {
            return Err(format!(
                "stopped by {} while waiting for {what}'s lock",
                interrupt::name(signal)
            ));
        }
        std::thread::sleep(RETRY);
    }
    if waited {
        eprintln!(
            "autotest: {what} is free after {:.1} s: going on from its files",
            start.elapsed().as_secs_f64()
        );
    }
    let me = format!("{}\n", this_attempt());
    file.set_len(0)
        .and_then(|()| file.rewind())
        .and_then(|()| file.write_all(me.as_bytes()))
        .map_err(cannot)?;
    Ok(ShardLock { _file: file })
}

/// Who holds the lock, as its holder wrote it.
fn holder(file: &mut File) -> String {
    let mut text = String::new();
    match file.rewind().and_then(|()| file.read_to_string(&mut text)) {
        Ok(_) if !text.trim().is_empty() => text.trim().to_string(),
        _ => "it has not said who it is".to_string(),
    }
}

/// This attempt: its Slurm node and job when it is a task, and its pid.
fn this_attempt() -> String {
    let var = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
    let host = crate::machine_name::name().unwrap_or_else(|| "an unknown host".to_string());
    let job = var("SLURM_JOB_ID").map_or(String::new(), |j| format!(", job {j}"));
    format!("node {host}{job}, pid {}", std::process::id())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A second attempt waits for the first to drop the lock, and then
    /// finds it named in the file.
    #[test]
    fn the_second_attempt_waits_for_the_first() {
        let dir = crate::scratch::dir("slurm-lock");
        let path = dir.join("lock");
        let first = acquire(&path, "shard 0").unwrap();
        let held = std::fs::read_to_string(&path).unwrap();
        assert!(
            held.contains(&format!("pid {}", std::process::id())),
            "{held}"
        );
        let second = {
            let path = path.clone();
            std::thread::spawn(move || {
                let t = Instant::now();
                let lock = acquire(&path, "shard 0");
                (lock.is_ok(), t.elapsed())
            })
        };
        std::thread::sleep(Duration::from_millis(600));
        assert!(!second.is_finished(), "the second attempt did not wait");
        drop(first);
        let (ok, waited) = second.join().unwrap();
        assert!(ok);
        assert!(waited >= Duration::from_millis(600), "{waited:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
