//! `leiserchess bench --latency`: where a move's time goes. Real games are
//! replayed through the UCI loop the referee's way (the whole game in a
//! `position` line before every `go`, each side's clock counting down by
//! the wall time its moves took, plus the increment), and the engine
//! stamps each move inside: from reading the `position` line to writing
//! `bestmove`, split into replay, set-up, search and output.

use super::{Engine, Output};
use crate::lab::book::{read_pgn, BookGame};
use crate::rules::fen;
use crate::user_file;
use crate::user_text::quote;
use std::fmt::Write as _;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// One move's times, from the engine's own stamps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveTimes {
    /// The `position` line read to its moves replayed.
    pub replay: Duration,
    /// Replayed to the first iteration's start: the `go` parsed, the root
    /// and the search's thread and workers set up.
    pub setup: Duration,
    /// Of `setup`, the search's own (its table's generation, its
    /// workers), where the algorithm measures it (PVS).
    pub search_setup: Duration,
    /// Of `setup`, the job handed to the kept search thread to its start:
    /// that thread's wake-up.
    pub handoff: Duration,
    /// The iterations, less the `info` lines written between them.
    pub search: Duration,
    /// The `info` lines and `bestmove` written.
    pub output: Duration,
    pub nodes: u64,
    /// The last iteration completed (0: none).
    pub depth: u32,
}

impl MoveTimes {
    /// From reading the `position` line to writing `bestmove`.
    pub fn total(&self) -> Duration {
        self.replay + self.setup + self.search + self.output
    }

    /// The engine's time outside the search.
    pub fn overhead(&self) -> Duration {
        self.total() - self.search
    }
}

/// Where the search threads leave each move's times.
#[derive(Clone, Default)]
pub struct Log(Arc<Mutex<Vec<MoveTimes>>>);

impl Log {
    pub fn push(&self, t: MoveTimes) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).push(t);
    }

    fn take(&self) -> Vec<MoveTimes> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

/// The clock each side starts a game with and its increment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    pub time_ms: u64,
    pub inc_ms: u64,
}

/// What a run measured.
pub struct Run {
    pub games: usize,
    pub clock: Clock,
    pub moves: Vec<MoveTimes>,
    /// Moves that took longer than their side's clock had left.
    pub past_clock: usize,
}

/// The most bytes of a games file read.
const MAX_GAMES_BYTES: u64 = 64 << 20;

/// The games of the PGN file `path` (either style: the movetext's
/// comments and numbers are skipped); an error names the file.
pub fn read_games(path: &Path) -> Result<Vec<BookGame>, String> {
    let name = quote(&path.display().to_string());
    let bytes = user_file::read(path, MAX_GAMES_BYTES).map_err(|e| format!("'{name}': {e}"))?;
    let text = String::from_utf8(bytes).map_err(|_| format!("'{name}': not UTF-8 text"))?;
    let games = read_pgn(&text).map_err(|e| format!("'{name}': {e}"))?;
    if games.iter().all(|g| g.moves.is_empty()) {
        return Err(format!("'{name}': no game with a move"));
    }
    Ok(games)
}

/// The `position` line before ply `ply` of `game` (its first `ply` moves).
pub fn position_line(game: &BookGame, ply: usize) -> String {
    let mut line = if game.fen == fen::STARTPOS {
        "position startpos".to_string()
    } else {
        format!("position fen {}", game.fen)
    };
    if ply > 0 {
        line.push_str(" moves");
        for m in &game.moves[..ply] {
            line.push(' ');
            line.push_str(m);
        }
    }
    line
}

/// Replays every ply of `games` through one engine writing to `output`
/// (`ucinewgame` before each game), a `go time T inc I` before each ply
/// with the clock of the side to move, then plays the game's own move.
/// `setup` lines (`setoption …`) are sent first, after `OwnBook` is
/// turned off: every ply is searched. A line the engine refuses
/// (`info string error`) is the error, naming the game and ply.
pub fn run(
    games: &[BookGame],
    clock: Clock,
    setup: &[String],
    output: Output,
) -> Result<Run, String> {
    let log = Log::default();
    let mut engine = Engine::new(output);
    engine.latency = Some(log.clone());
    let send = |engine: &mut Engine, line: &str, at: &str| {
        let mut out = Vec::new();
        engine.handle(line, &mut out);
        let said = String::from_utf8_lossy(&out);
        match said.lines().find(|l| l.starts_with("info string error")) {
            Some(e) => Err(format!("{at}: '{line}' was refused: {e}")),
            None => Ok(()),
        }
    };
    let own_book = "setoption name OwnBook value false".to_string();
    for line in std::iter::once(&own_book).chain(setup) {
        send(&mut engine, line, "set-up")?;
    }
    let (mut moves, mut past_clock) = (Vec::new(), 0);
    for (g, game) in games.iter().enumerate() {
        send(&mut engine, "ucinewgame", &format!("game {}", g + 1))?;
        send(&mut engine, "isready", &format!("game {}", g + 1))?;
        // Each side's clock in µs, by the ply's parity.
        let mut left = [clock.time_ms * 1000; 2];
        for ply in 0..game.moves.len() {
            let at = format!("game {} ply {}", g + 1, ply + 1);
            send(&mut engine, &position_line(game, ply), &at)?;
            let go = format!("go time {} inc {}", left[ply % 2] / 1000, clock.inc_ms);
            send(&mut engine, &go, &at)?;
            engine.wait();
            let t = log
                .take()
                .pop()
                .ok_or_else(|| format!("{at}: the search left no times"))?;
            let spent = t.total().as_micros() as u64;
            if spent > left[ply % 2] {
                past_clock += 1;
            }
            left[ply % 2] = left[ply % 2].saturating_sub(spent) + clock.inc_ms * 1000;
            moves.push(t);
        }
    }
    engine.finish();
    Ok(Run {
        games: games.len(),
        clock,
        moves,
        past_clock,
    })
}

/// The `p`-th percentile of `sorted` (nearest rank); zero when empty.
pub fn percentile<T: Copy + Default>(sorted: &[T], p: u32) -> T {
    if sorted.is_empty() {
        return T::default();
    }
    let rank = (sorted.len() * p as usize).div_ceil(100).max(1);
    sorted[rank - 1]
}

/// One row of the report: a part of each move's time.
type Part = fn(&MoveTimes) -> Duration;

/// The report: the percentiles of each part (µs), the depths, the nodes a
/// second inside these searches against `bench_nps` (the fixed-depth
/// bench's, when measured), and the moves past the clock.
pub fn report(run: &Run, bench_nps: Option<f64>) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "latency: {} moves of {} games at go time {} inc {} (ms), each side's clock counting down",
        run.moves.len(),
        run.games,
        run.clock.time_ms,
        run.clock.inc_ms
    );
    let _ = writeln!(
        out,
        "{:<10} {:>9} {:>9} {:>9} {:>9}",
        "µs", "p50", "p90", "p99", "max"
    );
    let parts: [(&str, Part); 8] = [
        ("replay", |t| t.replay),
        ("set-up", |t| t.setup),
        ("handoff", |t| t.handoff),
        ("in-search", |t| t.search_setup),
        ("search", |t| t.search),
        ("output", |t| t.output),
        ("total", MoveTimes::total),
        ("overhead", MoveTimes::overhead),
    ];
    for (name, part) in parts {
        let mut v: Vec<u64> = run
            .moves
            .iter()
            .map(|t| part(t).as_micros() as u64)
            .collect();
        v.sort_unstable();
        let _ = writeln!(
            out,
            "{name:<10} {:>9} {:>9} {:>9} {:>9}",
            percentile(&v, 50),
            percentile(&v, 90),
            percentile(&v, 99),
            percentile(&v, 100)
        );
    }
    let mut depths: Vec<u32> = run.moves.iter().map(|t| t.depth).collect();
    depths.sort_unstable();
    let mut nodes: Vec<u64> = run.moves.iter().map(|t| t.nodes).collect();
    nodes.sort_unstable();
    let _ = writeln!(
        out,
        "depth p50 {} p10 {}; nodes a move p50 {}",
        percentile(&depths, 50),
        percentile(&depths, 10),
        percentile(&nodes, 50)
    );
    let searched: Duration = run.moves.iter().map(|t| t.search).sum();
    let all_nodes: u64 = run.moves.iter().map(|t| t.nodes).sum();
    let nps = all_nodes as f64 / searched.as_secs_f64().max(1e-9);
    let _ = match bench_nps {
        Some(b) => writeln!(
            out,
            "nps in these searches {nps:.0}; bench's {b:.0}: {:.0}%",
            100.0 * nps / b.max(1e-9)
        ),
        None => writeln!(out, "nps in these searches {nps:.0}"),
    };
    let _ = writeln!(out, "moves past the clock: {}", run.past_clock);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(fen: &str, moves: &[&str]) -> BookGame {
        BookGame {
            fen: fen.to_string(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            winner: None,
        }
    }

    #[test]
    fn percentiles_take_the_nearest_rank() {
        let v: Vec<u64> = (1..=200).collect();
        assert_eq!(percentile(&v, 50), 100);
        assert_eq!(percentile(&v, 90), 180);
        assert_eq!(percentile(&v, 99), 198);
        assert_eq!(percentile(&v, 100), 200);
        assert_eq!(percentile(&[7u64], 1), 7);
        assert_eq!(percentile::<u64>(&[], 50), 0);
    }

    #[test]
    fn position_lines_carry_the_game_so_far() {
        let g = game(fen::STARTPOS, &["g4L", "b3L", "h0g1"]);
        assert_eq!(position_line(&g, 0), "position startpos");
        assert_eq!(position_line(&g, 2), "position startpos moves g4L b3L");
        let e = game(fen::ENDGAME, &["a1R"]);
        assert_eq!(
            position_line(&e, 1),
            format!("position fen {} moves a1R", fen::ENDGAME)
        );
    }

    fn times(us: [u64; 4], nodes: u64, depth: u32) -> MoveTimes {
        let d = Duration::from_micros;
        MoveTimes {
            replay: d(us[0]),
            setup: d(us[1]),
            search_setup: d(us[1] / 2),
            handoff: d(us[1] / 4),
            search: d(us[2]),
            output: d(us[3]),
            nodes,
            depth,
        }
    }

    #[test]
    fn the_report_splits_the_total_and_compares_the_nps() {
        let run = Run {
            games: 1,
            clock: Clock {
                time_ms: 100,
                inc_ms: 1,
            },
            moves: vec![
                times([10, 20, 1000, 5], 2000, 2),
                times([30, 40, 3000, 15], 9000, 3),
            ],
            past_clock: 1,
        };
        let text = report(&run, Some(5_000_000.0));
        let row = |name: &str| -> Vec<String> {
            let line = text.lines().find(|l| l.starts_with(name)).unwrap();
            line.split_whitespace()
                .skip(1)
                .map(str::to_string)
                .collect()
        };
        assert_eq!(row("replay"), ["10", "30", "30", "30"]);
        assert_eq!(row("in-search"), ["10", "20", "20", "20"]);
        assert_eq!(row("handoff"), ["5", "10", "10", "10"]);
        assert_eq!(row("total"), ["1035", "3085", "3085", "3085"]);
        assert_eq!(row("overhead"), ["35", "85", "85", "85"]);
        // 11000 nodes in 4 ms: 2.75 M a second, 55% of bench's 5 M.
        assert!(
            text.contains("nps in these searches 2750000; bench's 5000000: 55%"),
            "{text}"
        );
        assert!(
            text.contains("depth p50 2 p10 2; nodes a move p50 2000"),
            "{text}"
        );
        assert!(text.contains("moves past the clock: 1"), "{text}");
        assert!(text.starts_with("latency: 2 moves of 1 games at go time 100 inc 1"));
    }

    /// Two short games through the real loop: a time for every ply, each
    /// part stamped (a replay of a longer game is not free), a search that
    /// found a move.
    #[test]
    fn a_run_times_every_ply_of_every_game() {
        let games = [
            game(fen::STARTPOS, &["g4L", "b3L", "h0g1", "a7b6"]),
            game(fen::ENDGAME, &[]),
        ];
        let clock = Clock {
            time_ms: 100,
            inc_ms: 1,
        };
        let run = run(&games, clock, &[], Output::new(std::io::sink())).unwrap();
        assert_eq!(run.moves.len(), 4);
        for t in &run.moves {
            assert!(t.depth >= 1 && t.nodes > 0, "{t:?}");
            assert!(
                t.setup > Duration::ZERO && t.search > Duration::ZERO,
                "{t:?}"
            );
            assert!(t.output > Duration::ZERO, "{t:?}");
            assert!(t.handoff > Duration::ZERO && t.handoff < t.setup, "{t:?}");
            assert!(t.total() < Duration::from_millis(100), "{t:?}");
        }
    }

    #[test]
    fn a_refused_line_names_the_game_and_ply() {
        let games = [game(fen::STARTPOS, &["g4L", "zz9", "b3L"])];
        let clock = Clock {
            time_ms: 100,
            inc_ms: 1,
        };
        let Err(e) = run(&games, clock, &[], Output::new(std::io::sink())) else {
            panic!("a bad move was replayed");
        };
        assert!(
            e.starts_with("game 1 ply 3: 'position startpos moves g4L zz9' was refused"),
            "{e}"
        );
    }
}
