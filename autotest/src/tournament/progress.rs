//! The running report of a tournament: after each game, a line with its
//! result (the form `scripts/consistency.sh` counts) and the score of its
//! pairing as cutechess-cli prints it,
//!
//! ```text
//! game 7/20: new vs old: 1-0 (King zapped), about 2m 10s left
//! Score of new vs old: 4 - 2 - 1  [0.643] 7
//! SPRT: llr 0.42 (14.3%), lbound -2.94, ubound 2.94
//! ```
//!
//! The score is W - L - D of the pairing's first engine (in the order the
//! engines were given), its score fraction, and the games the pairing
//! played. In runs of more than [`ETA_AFTER`] games, the time left is
//! estimated as the mean game duration so far times the games left,
//! divided by the games played at once (at most the games left). With an
//! SPRT, the log-likelihood ratio so far follows, with its share of the
//! way to the bound it leans to, as cutechess-cli prints it.
//!
//! A resumed run (`-resume`) counts the earlier run's games in the scores
//! and the games done; the time left is estimated from this run's games.

use crate::config::spec::TournamentSpec;
use crate::referee::record::GameRecord;
use crate::stats::sprt::sprt_bounds;
use std::collections::HashMap;

/// Runs of at most this many games get no time estimate.
pub const ETA_AFTER: usize = 4;

pub struct Progress {
    names: Vec<String>,
    total: usize,
    concurrency: usize,
    /// Per pairing (engine indices, lower first): the lower one's wins,
    /// losses, draws.
    scores: HashMap<(usize, usize), [u64; 3]>,
    played_ms: u64,
    /// Games played in this run.
    done: usize,
    /// Games of an earlier run, counted in the scores.
    resumed: usize,
    /// The SPRT's stopping bounds on the LLR, if the run has an SPRT.
    sprt_bounds: Option<(f64, f64)>,
}

impl Progress {
    pub fn new(spec: &TournamentSpec, total: usize) -> Progress {
        Progress {
            names: spec.engines.iter().map(|e| e.name.clone()).collect(),
            total,
            concurrency: spec.concurrency.max(1),
            scores: HashMap::new(),
            played_ms: 0,
            done: 0,
            resumed: 0,
            sprt_bounds: spec.sprt.map(|t| sprt_bounds(t.alpha, t.beta)),
        }
    }

    /// The SPRT line for log-likelihood ratio `llr` (empty without an SPRT).
    pub fn sprt(&self, llr: f64) -> String {
        let Some((lo, hi)) = self.sprt_bounds else {
            return String::new();
        };
        let share = 100.0 * if llr < 0.0 { llr / lo } else { llr / hi };
        format!("SPRT: llr {llr:.2} ({share:.1}%), lbound {lo:.2}, ubound {hi:.2}\n")
    }

    /// Counts a finished game, number `number` of the run; the lines to
    /// print for it.
    pub fn game(&mut self, rec: &GameRecord, number: usize) -> String {
        self.done += 1;
        self.played_ms += rec.duration_ms;
        let mut out = format!(
            "game {number}/{}: {} vs {}: {} ({})",
            self.total, rec.white, rec.black, rec.result, rec.termination
        );
        if let Some(left) = self.eta_ms() {
            out += &format!(", about {} left", duration(left));
        }
        out.push('\n');
        out += &self.score(&rec.white, &rec.black, &rec.result);
        out
    }

    /// Counts a game of an earlier run, resumed: in its pairing's score and
    /// the games done, not in the time a game takes.
    pub fn count_resumed(&mut self, white: &str, black: &str, result: &str) {
        self.resumed += 1;
        self.score(white, black, result);
    }

    /// Counts a game in its pairing's score; the `Score of` line (empty
    /// for an engine not in the tournament).
    fn score(&mut self, white: &str, black: &str, result: &str) -> String {
        let index = |name: &str| self.names.iter().position(|n| n == name);
        let (Some(w), Some(b)) = (index(white), index(black)) else {
            return String::new();
        };
        let (a, other) = (w.min(b), w.max(b));
        // The result from the lower engine's side: 0 win, 1 loss, 2 draw.
        let white_won = match result {
            "1-0" => Some(true),
            "0-1" => Some(false),
            _ => None,
        };
        let slot = match white_won {
            Some(won) if won == (w == a) => 0,
            Some(_) => 1,
            None => 2,
        };
        let s = self.scores.entry((a, other)).or_default();
        s[slot] += 1;
        let n = s.iter().sum::<u64>();
        let fraction = (s[0] as f64 + s[2] as f64 / 2.0) / n as f64;
        format!(
            "Score of {} vs {}: {} - {} - {}  [{fraction:.3}] {n}\n",
            self.names[a], self.names[other], s[0], s[1], s[2]
        )
    }

    /// The estimated time left, for runs longer than [`ETA_AFTER`] games
    /// with games left.
    fn eta_ms(&self) -> Option<u64> {
        let left = self.total.checked_sub(self.resumed + self.done)?;
        if self.total <= ETA_AFTER || left == 0 || self.done == 0 {
            return None;
        }
        let mean = self.played_ms as f64 / self.done as f64;
        Some((mean * left as f64 / self.concurrency.min(left) as f64).round() as u64)
    }
}

/// `45s`, `3m 05s`, `2h 03m`.
pub fn duration(ms: u64) -> String {
    let s = ms.div_ceil(1000);
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m {:02}s", s / 60, s % 60),
        _ => format!("{}h {:02}m", s / 3600, s / 60 % 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::spec::EngineSpec;
    use crate::referee::record::{Start, Termination};

    fn spec(names: &[&str], concurrency: usize) -> TournamentSpec {
        TournamentSpec {
            engines: names
                .iter()
                .map(|n| EngineSpec {
                    name: n.to_string(),
                    command: vec!["e".to_string()],
                    dir: None,
                    options: Vec::new(),
                    limits: Default::default(),
                    restart: true,
                })
                .collect(),
            concurrency,
            ..TournamentSpec::default()
        }
    }

    fn game(white: &str, black: &str, result: &str, duration_ms: u64) -> GameRecord {
        GameRecord {
            event: "e".to_string(),
            round: "1".to_string(),
            white: white.to_string(),
            black: black.to_string(),
            start: Start::StartPos,
            opening: Vec::new(),
            moves: Vec::new(),
            result: result.to_string(),
            termination: Termination::KingZapped,
            started_unix: 0,
            duration_ms,
            memory: Vec::new(),
        }
    }

    #[test]
    fn sprt_lines_as_cutechess() {
        let plain = Progress::new(&spec(&["new", "old"], 1), 4);
        assert_eq!(plain.sprt(1.0), "");
        let mut with = spec(&["new", "old"], 1);
        with.sprt = Some(crate::config::spec::SprtSpec {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        });
        let p = Progress::new(&with, 4);
        assert_eq!(
            p.sprt(19f64.ln() / 2.0),
            "SPRT: llr 1.47 (50.0%), lbound -2.94, ubound 2.94\n"
        );
        assert!(p
            .sprt(-19f64.ln() / 10.0)
            .starts_with("SPRT: llr -0.29 (10.0%)"));
    }

    #[test]
    fn score_lines_as_cutechess() {
        let mut p = Progress::new(&spec(&["new", "old"], 1), 4);
        let lines: Vec<String> = [
            game("new", "old", "1-0", 1000),
            game("old", "new", "1-0", 1000),
            game("old", "new", "0-1", 1000),
            game("new", "old", "1/2-1/2", 1000),
        ]
        .iter()
        .enumerate()
        .map(|(i, g)| p.game(g, i + 1))
        .collect();
        assert_eq!(
            lines[0],
            "game 1/4: new vs old: 1-0 (King zapped)\n\
             Score of new vs old: 1 - 0 - 0  [1.000] 1\n"
        );
        // Always from the first-given engine's side, whatever the colours.
        assert!(lines[1].ends_with("Score of new vs old: 1 - 1 - 0  [0.500] 2\n"));
        assert!(lines[2].ends_with("Score of new vs old: 2 - 1 - 0  [0.667] 3\n"));
        assert!(lines[3].ends_with("Score of new vs old: 2 - 1 - 1  [0.625] 4\n"));
        assert!(
            lines.iter().all(|l| !l.contains("left")),
            "4 games: no estimate"
        );
    }

    #[test]
    fn pairings_are_scored_apart() {
        let mut p = Progress::new(&spec(&["a", "b", "c"], 1), 3);
        p.game(&game("a", "b", "0-1", 1), 1);
        let out = p.game(&game("c", "b", "1-0", 1), 2);
        assert!(
            out.ends_with("Score of b vs c: 0 - 1 - 0  [0.000] 1\n"),
            "{out}"
        );
        let out = p.game(&game("b", "a", "1/2-1/2", 1), 3);
        assert!(
            out.ends_with("Score of a vs b: 0 - 1 - 1  [0.250] 2\n"),
            "{out}"
        );
    }

    #[test]
    fn time_left_from_the_mean_game_and_the_concurrency() {
        // 10 games, 2 at a time, 30 s a game: after 2, 8 left = 2 min.
        let mut p = Progress::new(&spec(&["a", "b"], 2), 10);
        p.game(&game("a", "b", "1-0", 20_000), 1);
        let out = p.game(&game("b", "a", "1-0", 40_000), 2);
        assert!(
            out.starts_with("game 2/10: b vs a: 1-0 (King zapped), about 2m 00s left\n"),
            "{out}"
        );
        for n in 3..=9 {
            p.game(&game("a", "b", "1-0", 30_000), n);
        }
        // One left: it runs alone, so a whole mean game (30 s).
        assert_eq!(p.eta_ms(), Some(30_000));
        let out = p.game(&game("a", "b", "1-0", 30_000), 10);
        assert!(!out.contains("left"), "none left: {out}");
    }

    /// Games of an earlier run count in the score and the games left, but
    /// the mean game is this run's.
    #[test]
    fn resumed_games_count_in_the_score_not_the_time() {
        let mut p = Progress::new(&spec(&["new", "old"], 1), 10);
        for _ in 0..5 {
            p.count_resumed("new", "old", "1-0");
        }
        p.count_resumed("old", "new", "1/2-1/2");
        let out = p.game(&game("old", "new", "1-0", 10_000), 7);
        assert_eq!(
            out,
            "game 7/10: old vs new: 1-0 (King zapped), about 30s left\n\
             Score of new vs old: 5 - 1 - 1  [0.786] 7\n"
        );
    }

    #[test]
    fn durations() {
        assert_eq!(duration(0), "0s");
        assert_eq!(duration(44_001), "45s");
        assert_eq!(duration(185_000), "3m 05s");
        assert_eq!(duration(7_380_000), "2h 03m");
    }
}
