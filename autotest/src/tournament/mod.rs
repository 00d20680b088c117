//! Tournaments: the game schedule (`schedule`), running it (`run`), the
//! standings as games come in (`standings`), the finished games of a PGN
//! file checked against the schedule (`played`), an earlier run's games
//! taken up again (`resume`), the running report (`progress`), the final
//! table (`table`), and all of it on this machine (`play`). `resume` and
//! `standings` know the schedule, not the runner.

pub mod play;
pub mod played;
pub mod progress;
pub mod resume;
pub mod run;
pub mod schedule;
pub mod standings;
pub mod table;

pub use run::{run, run_resumed};
pub use schedule::schedule;
pub use table::table;
