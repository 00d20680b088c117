//! `perft` in the loop: counts on its own copy of the board, on a thread
//! of its own, so that the loop stays free beside it.

use super::{line_out, say, Engine, Running};
use crate::rules::perft::perft_threads_until;
use crate::user_text::quote;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Deepest `perft` the loop runs, so that a typo can not hang the engine.
const MAX_PERFT_DEPTH: u32 = 7;

impl Engine {
    /// `perft [d]`: counts depth 1..d on a thread of its own, one line a
    /// depth, while the loop goes on reading; `stop`, `quit` or a new `go`
    /// or `perft` cut it short. `perft 0` counts the position
    /// itself, as `leiserchess perft 0` does.
    pub(super) fn perft(&mut self, args: &[&str], out: &mut Vec<u8>) {
        let depth = match args {
            [] => 4,
            [d] => match d.parse::<u32>() {
                Ok(d) if d <= MAX_PERFT_DEPTH => d,
                _ => {
                    return say(
                        out,
                        format!(
                            "error: perft depth must be a number 0..{MAX_PERFT_DEPTH}, got '{}'",
                            quote(d)
                        ),
                    )
                }
            },
            _ => return say(out, "error: perft takes at most one depth".to_string()),
        };
        if depth == 0 {
            return line_out(out, "perft 0 1");
        }
        let threads = self.config.threads;
        let board = self.game.board().clone();
        let stop = Arc::new(AtomicBool::new(false));
        let (stopped, output) = (stop.clone(), self.output.clone());
        let thread = std::thread::spawn(move || {
            for k in 1..=depth {
                let n = (!stopped.load(Ordering::Relaxed))
                    .then(|| perft_threads_until(&board, k, threads, &stopped))
                    .flatten();
                let Some(n) = n else {
                    output.write(format!("info string perft stopped at depth {k}\n").as_bytes());
                    break;
                };
                output.write(format!("perft {k} {n}\n").as_bytes());
            }
        });
        self.running = Some(Running::Perft { thread, stop });
    }
}
