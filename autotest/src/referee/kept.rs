//! Engines kept between games (`restart=off`, as cutechess-cli's): each
//! worker of a tournament keeps the processes of the engines it played,
//! by name, and the next game with that engine takes its process back
//! (after `isready`). An engine at fault in a game is not kept: the next
//! game starts it afresh. After each game a kept engine is sent
//! `ucinewgame` and `isready` at once, and its resident memory is
//! measured once it has settled, so that a long session shows whether it
//! grows (the soak's check): what a game leaves behind (an MCTS tree kept
//! between moves, whose size depends on the game) is gone by then, and
//! what is left is what the process keeps from game to game.

use crate::referee::engine::Engine;
use crate::referee::record::EngineMemory;
use std::time::Duration;

/// A worker's kept engines.
#[derive(Default)]
pub struct Kept {
    engines: Vec<KeptEngine>,
}

struct KeptEngine {
    name: String,
    engine: Engine,
    /// Games the process has played.
    games: u32,
}

impl Kept {
    /// Engine `name`'s kept process and the games it has played, if any.
    pub fn take(&mut self, name: &str) -> Option<(Engine, u32)> {
        let i = self.engines.iter().position(|k| k.name == name)?;
        let k = self.engines.swap_remove(i);
        Some((k.engine, k.games))
    }

    /// Keeps `engine` (named `name`) after its `games`-th game, played as
    /// `side`, once it has answered `ucinewgame`; its process and memory
    /// then. An engine that does not answer is let go (the next game
    /// starts it afresh) and its memory is not measured.
    pub fn keep(
        &mut self,
        name: &str,
        mut engine: Engine,
        games: u32,
        side: &'static str,
    ) -> EngineMemory {
        let ready = engine.send("ucinewgame").and_then(|()| engine.sync());
        let memory = EngineMemory {
            side,
            process: format!(
                "{}:{}",
                crate::machine_name::name().as_deref().unwrap_or("?"),
                engine.pid()
            ),
            games,
            rss_kb: ready
                .as_ref()
                .ok()
                .and_then(|()| settled_rss_kb(engine.pid())),
        };
        if ready.is_err() {
            engine.quit();
            return memory;
        }
        self.engines.push(KeptEngine {
            name: name.to_string(),
            engine,
            games,
        });
        memory
    }

    /// Asks every kept engine to quit (the worker's last game is over).
    pub fn quit_all(&mut self) {
        for k in self.engines.drain(..) {
            k.engine.quit();
        }
    }
}

impl Drop for Kept {
    fn drop(&mut self) {
        self.quit_all();
    }
}

/// Between readings of a settling resident set.
const SETTLE_STEP: Duration = Duration::from_millis(10);

/// Readings in a row that must agree: the set unchanged for 50 ms.
const SETTLE_SAME: u32 = 5;

/// Readings at most (1 s) before a resident set still moving is taken as
/// it is.
const SETTLE_READINGS: u32 = 100;

/// Process `pid`'s resident set in kB once it has stayed the same for
/// [`SETTLE_SAME`] readings [`SETTLE_STEP`] apart: an engine may free its
/// old table and tree, and back its new table, on threads of their own
/// after it has answered `isready` (ours does), and a reading in the
/// middle of that says more of the moment than of the process.
pub fn settled_rss_kb(pid: u32) -> Option<u64> {
    settle(|| rss_kb(pid), || std::thread::sleep(SETTLE_STEP))
}

/// `read`'s value once [`SETTLE_SAME`] readings in a row, `wait` apart,
/// have agreed with the one before them, or its last of
/// [`SETTLE_READINGS`]; `None` as soon as a reading fails.
fn settle(mut read: impl FnMut() -> Option<u64>, mut wait: impl FnMut()) -> Option<u64> {
    let mut last = read()?;
    let mut same = 0;
    for _ in 1..SETTLE_READINGS {
        wait();
        let now = read()?;
        same = if now == last { same + 1 } else { 0 };
        last = now;
        if same >= SETTLE_SAME {
            break;
        }
    }
    Some(last)
}

/// Process `pid`'s resident set in kB (`VmRSS` of /proc/PID/status).
pub fn rss_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    vm_rss(&status)
}

/// The `VmRSS:  1234 kB` line's number.
fn vm_rss(status: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_resident_set_is_read_from_proc() {
        let status = "Name:\tleiserchess\nVmPeak:\t  99 kB\nVmRSS:\t   45678 kB\nThreads:\t2\n";
        assert_eq!(vm_rss(status), Some(45678));
        assert_eq!(vm_rss("Name:\tx\n"), None);
        assert!(rss_kb(std::process::id()).is_some_and(|kb| kb > 0));
    }

    /// The readings `settle` takes from `values` (the last repeated) and
    /// what it returns.
    fn settled(values: &[Option<u64>]) -> (Option<u64>, usize) {
        let mut taken = 0;
        let got = settle(
            || {
                taken += 1;
                values[(taken - 1).min(values.len() - 1)]
            },
            || {},
        );
        (got, taken)
    }

    #[test]
    fn a_resident_set_is_taken_once_it_stays_the_same() {
        let s = Some;
        // 10, then 12 six times: the 12 repeated five times settles it.
        assert_eq!(settled(&[s(10), s(12), s(12)]), (s(12), 7));
        assert_eq!(settled(&[s(5)]), (s(5), 6));
        // Four the same, then a change: it starts counting again.
        let v = [s(1), s(1), s(1), s(1), s(1), s(2), s(2)];
        assert_eq!(settled(&v), (s(2), 11));
        // A set that never stops moving is taken at the last reading.
        let moving: Vec<_> = (0..200).map(Some).collect();
        assert_eq!(settled(&moving), (s(99), 100));
        // A process gone: no reading.
        assert_eq!(settled(&[s(10), None]), (None, 2));
        assert_eq!(settled(&[None]), (None, 1));
    }
}
