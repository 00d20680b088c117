//! Scheduling and scoring: the engines checked before the first game
//! (`preflight`); the games of a round-robin or gauntlet, each opening
//! played as a colour-swapped pair, run `concurrency` at a time; results
//! gathered per engine (W/D/L, game pairs, faults; `crate::standings`),
//! PGN written as games finish (the engines' standard error beside it,
//! `crate::stderr_log`), and an SPRT that can end the tournament early.
//! With `-resume`, the games an earlier run wrote count and are not
//! played again (`crate::resume`). After a stop signal
//! (`crate::interrupt`), no new game starts and those in flight finish.

use crate::openings::Opening;
use crate::pgn::to_pgn;
use crate::record::{FaultKind, GameRecord, Termination};
use crate::resume::{self, Resumed};
use crate::spec::{PgnStyle, Schedule, TournamentSpec};
pub use crate::standings::Standing;
use crate::standings::{white_halves, Tally};
use crate::stats;
use crate::stats::sprt::{sprt_bounds, SprtDecision};
use crate::{interrupt, preflight, referee, stderr_log};
use std::collections::VecDeque;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};

/// One game to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    pub number: usize,
    pub round: u32,
    pub white: usize,
    pub black: usize,
    pub opening: usize,
    /// Games with the same pair id are one opening with colours swapped.
    pub pair: usize,
}

/// The games of the tournament, in order: `rounds` rounds, or with
/// `max_games` as many rounds as needed, cut at that many games.
pub fn schedule(spec: &TournamentSpec, openings: usize) -> Vec<Job> {
    let n = spec.engines.len();
    let family = |i: usize| spec.family.get(i).cloned().flatten();
    let encounters: Vec<(usize, usize)> = match spec.schedule {
        Schedule::RoundRobin => (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .filter(|&(a, b)| family(a).is_none() || family(a) != family(b))
            .collect(),
        Schedule::Gauntlet => (1..n).map(|b| (0, b)).collect(),
    };
    let per = if spec.repeat { 2 } else { 1 };
    let rounds = match spec.max_games {
        Some(n) => n.div_ceil((encounters.len() as u32 * spec.games).max(1)),
        None => spec.rounds,
    };
    let mut jobs = Vec::new();
    let mut next_opening = 0;
    let mut pair = 0;
    for round in 1..=rounds {
        for &(a, b) in &encounters {
            for g in 0..spec.games.div_ceil(per) {
                let opening = next_opening % openings.max(1);
                next_opening += 1;
                for k in 0..per.min(spec.games - g * per) {
                    let (white, black) = if k == 0 { (a, b) } else { (b, a) };
                    jobs.push(Job {
                        number: jobs.len() + 1,
                        round,
                        white,
                        black,
                        opening,
                        pair,
                    });
                }
                pair += 1;
            }
        }
    }
    if let Some(n) = spec.max_games {
        jobs.truncate(n as usize);
    }
    jobs
}

/// What the tournament produced.
pub struct Summary {
    pub standings: Vec<Standing>,
    pub games: Vec<GameRecord>,
    /// The SPRT's verdict, if one was asked for and reached.
    pub sprt: Option<(f64, SprtDecision)>,
}

/// Plays the tournament, once every engine passed [`preflight::check`].
/// `report` is called with each finished game, its number, the total and,
/// with an SPRT, the log-likelihood ratio after it, in the order games
/// finish. With `spec.resume`, goes on from the PGN file as
/// [`run_resumed`] does.
pub fn run(
    spec: &TournamentSpec,
    openings: &[Opening],
    report: impl FnMut(&GameRecord, usize, usize, Option<f64>),
) -> Result<Summary, String> {
    let resumed = resume::load(spec, openings)?;
    run_resumed(spec, openings, resumed.as_ref(), report)
}

/// [`run`], going on from the games of an earlier run: they count in the
/// standings and the SPRT and are not played again, the game numbers
/// given to `report` count them, and the new games are added to the PGN
/// file. Nothing is played if the SPRT has already decided.
pub fn run_resumed(
    spec: &TournamentSpec,
    openings: &[Opening],
    resumed: Option<&Resumed>,
    mut report: impl FnMut(&GameRecord, usize, usize, Option<f64>),
) -> Result<Summary, String> {
    let jobs = schedule(spec, openings.len());
    let total = jobs.len();
    let (mut tally, before) = match resumed {
        Some(r) => (r.tally.clone(), r.games.len()),
        None => (Tally::new(spec.engines.len()), 0),
    };
    let mut sprt = if before > 0 { tally.sprt(spec) } else { None };
    let todo: VecDeque<Job> = jobs
        .iter()
        .filter(|j| !resumed.is_some_and(|r| r.played(j.number)))
        .copied()
        .collect();
    if todo.is_empty() || sprt.is_some_and(|(_, d)| d != SprtDecision::Continue) {
        return Ok(Summary {
            standings: tally.standings,
            games: Vec::new(),
            sprt,
        });
    }
    if resumed.is_none() && !spec.pgn_append {
        stderr_log::remove_all(spec)?;
    }
    preflight::check(spec)?;
    let queue = Mutex::new(todo);
    let stop = AtomicBool::new(false);
    let (mut pgn, games_before) = match resumed {
        Some(r) => (Some(r.reopen()?), 0),
        None => open_pgn(spec)?,
    };
    // A course PGN goes on where the file left off: game numbers, and
    // openings after those its pairs used.
    let course = spec.pgn_style == PgnStyle::Course;
    let opening_offset = if course { games_before.div_ceil(2) } else { 0 };
    let default_opening = Opening::startpos();
    let mut games = Vec::new();
    let (tx, rx) = mpsc::channel::<(Job, GameRecord)>();
    std::thread::scope(|scope| {
        for _ in 0..spec.concurrency.max(1) {
            let tx = tx.clone();
            let (queue, stop, default_opening) = (&queue, &stop, &default_opening);
            scope.spawn(move || loop {
                if stop.load(Ordering::Relaxed) || interrupt::received().is_some() {
                    break;
                }
                let job = queue.lock().unwrap_or_else(|e| e.into_inner()).pop_front();
                let Some(job) = job else { break };
                let opening = match openings.len() {
                    0 => default_opening,
                    n => &openings[(job.opening + opening_offset) % n],
                };
                let round = if course {
                    (games_before + job.number - 1).to_string()
                } else {
                    format!("{}.{}", job.round, job.number)
                };
                let rec = referee::play(
                    &spec.engines[job.white],
                    &spec.engines[job.black],
                    opening,
                    spec,
                    &round,
                );
                if tx.send((job, rec)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        for (job, rec) in rx {
            let fault = match &rec.termination {
                Termination::Fault { engine, kind, .. } => Some((engine.as_str(), *kind)),
                _ => None,
            };
            tally.add(spec, &job, white_halves(&rec.result), fault);
            if fault.is_some_and(|(_, kind)| kind == FaultKind::Crash) && !spec.recover {
                stop.store(true, Ordering::Relaxed);
            }
            if let Some(f) = pgn.as_mut() {
                let _ = f.write_all(to_pgn(&rec, spec.pgn_style).as_bytes());
                let _ = f.flush();
            }
            sprt = tally.sprt(spec);
            if sprt.is_some_and(|(_, d)| d != SprtDecision::Continue) {
                stop.store(true, Ordering::Relaxed);
            }
            let number = before + games.len() + 1;
            report(&rec, number, total, sprt.map(|(llr, _)| llr));
            games.push(rec);
        }
    });
    Ok(Summary {
        standings: tally.standings,
        games,
        sprt,
    })
}

/// The PGN file, if any, and how many games it already holds: opened for
/// appending with `pgn_append`, else replaced.
fn open_pgn(spec: &TournamentSpec) -> Result<(Option<std::fs::File>, usize), String> {
    let Some(path) = &spec.pgn_out else {
        return Ok((None, 0));
    };
    let cannot = |e: std::io::Error| format!("cannot write {}: {e}", path.display());
    if !spec.pgn_append {
        return Ok((Some(std::fs::File::create(path).map_err(cannot)?), 0));
    }
    let before = match std::fs::read(path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes)
            .lines()
            .filter(|l| l.starts_with("[Event "))
            .count(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => 0,
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let file = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map_err(cannot)?;
    Ok((Some(file), before))
}

/// The final table: one line per engine.
pub fn table(spec: &TournamentSpec, s: &Summary) -> String {
    let mut out = format!(
        "{:<16} {:>6} {:>6} {:>6} {:>6} {:>7} {:>17} {:>6} {:>6}  {}\n",
        "engine", "games", "wins", "draws", "losses", "score", "Elo ±95%", "LOS", "draws", "faults"
    );
    for (e, st) in spec.engines.iter().zip(&s.standings) {
        // The pentanomial estimate where there are pairs, unless all of
        // them scored the same while the games did not.
        let wdl = stats::estimate_wdl(st.wins, st.draws, st.losses);
        let est = match stats::estimate_penta(st.pairs) {
            Some(p) if p.hi > p.lo || wdl.is_some_and(|w| w.hi <= w.lo) => Some(p),
            _ => wdl,
        };
        let games = st.games().max(1) as f64;
        let score = (st.wins as f64 + st.draws as f64 / 2.0) / games;
        let (elo, los) = match est {
            Some(est) => (
                stats::elo_shown(&est, st.games(), 1),
                format!("{:.1}%", est.los * 100.0),
            ),
            None => ("-".to_string(), "-".to_string()),
        };
        let faults: Vec<String> = st.faults.iter().map(|(k, n)| format!("{k} {n}")).collect();
        out += &format!(
            "{:<16} {:>6} {:>6} {:>6} {:>6} {:>6.1}% {:>17} {:>6} {:>5.1}%  {}\n",
            e.name,
            st.games(),
            st.wins,
            st.draws,
            st.losses,
            score * 100.0,
            elo,
            los,
            st.draws as f64 / games * 100.0,
            if faults.is_empty() {
                "none".to_string()
            } else {
                faults.join(", ")
            }
        );
    }
    if let Some((llr, d)) = s.sprt {
        let t = spec.sprt.expect("an SPRT result comes from an SPRT spec");
        let (lo, hi) = sprt_bounds(t.alpha, t.beta);
        out += &format!(
            "SPRT elo0 {} elo1 {}: LLR {llr:.2} [{lo:.2}, {hi:.2}] {d:?}\n",
            t.elo0, t.elo1
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::course_file::parse_course_config;

    /// (white, black, opening) of each game.
    fn games(spec: &TournamentSpec, openings: usize) -> Vec<(usize, usize, usize)> {
        schedule(spec, openings)
            .iter()
            .map(|j| (j.white, j.black, j.opening))
            .collect()
    }

    /// `game_rounds = N` is N games in all, as the course referee plays
    /// them: pairings in turn, a colour-swapped pair per opening.
    #[test]
    fn course_game_rounds_count_games() {
        let two = "player = a\ninvoke = e\nplayer = b\ninvoke = e\n";
        let spec = parse_course_config(&format!("game_rounds = 3\n{two}")).unwrap();
        assert_eq!(games(&spec, 10), [(0, 1, 0), (1, 0, 0), (0, 1, 1)]);
        let three = format!("game_rounds = 7\n{two}player = c\ninvoke = e\n");
        let spec = parse_course_config(&three).unwrap();
        assert_eq!(
            games(&spec, 2),
            [
                (0, 1, 0),
                (1, 0, 0),
                (0, 2, 1),
                (2, 0, 1),
                (1, 2, 0),
                (2, 1, 0),
                (0, 1, 1)
            ]
        );
        // Without it, one pair per pairing.
        assert_eq!(schedule(&parse_course_config(two).unwrap(), 1).len(), 2);
    }

    fn summary(standings: Vec<Standing>) -> Summary {
        Summary {
            standings,
            games: Vec::new(),
            sprt: None,
        }
    }

    fn two_engines() -> TournamentSpec {
        parse_course_config("player = a\ninvoke = e\nplayer = b\ninvoke = e\n").unwrap()
    }

    /// A clean sweep shows a one-sided bound, never `± 0.0`.
    #[test]
    fn table_shows_bounds_at_0_and_100_percent() {
        let won = Standing {
            wins: 10,
            pairs: [0, 0, 0, 0, 5],
            ..Standing::default()
        };
        let lost = Standing {
            losses: 10,
            pairs: [5, 0, 0, 0, 0],
            ..Standing::default()
        };
        let table = table(&two_engines(), &summary(vec![won, lost]));
        let lines: Vec<&str> = table.lines().collect();
        assert!(lines[1].contains("> +182.7"), "{table}");
        assert!(lines[2].contains("< -182.7"), "{table}");
        assert!(
            !table.contains("± 0.0") && !table.contains("inf"),
            "{table}"
        );
    }

    /// Pairs that all scored the same (a win and a draw each) show the
    /// games' interval instead of a zero-width one; all draws say so.
    #[test]
    fn table_without_spread_in_the_pairs() {
        let even = Standing {
            wins: 4,
            draws: 4,
            pairs: [0, 0, 0, 4, 0],
            ..Standing::default()
        };
        let drawn = Standing {
            draws: 8,
            pairs: [0, 0, 4, 0, 0],
            ..Standing::default()
        };
        let table = table(&two_engines(), &summary(vec![even, drawn]));
        let lines: Vec<&str> = table.lines().collect();
        let wdl = stats::estimate_wdl(4, 4, 0).unwrap();
        assert!(
            lines[1].contains(&stats::elo_shown(&wdl, 8, 1)) && wdl.hi > wdl.lo,
            "{table}"
        );
        assert!(lines[2].contains("+0.0 (no spread)"), "{table}");
        assert!(!table.contains("± 0.0"), "{table}");
    }
}
