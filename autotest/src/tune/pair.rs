//! One SPSA iteration's games: `theta+` against `theta−` as a
//! colour-swapped pair (self-play), or, with an opponent, each of them
//! against it on the same opening, colours swapped (four games). Tuning
//! against another engine is what a search meant to beat that engine
//! needs: self-play rewards what wins against oneself. A pair in flight
//! while the run was stopped and continued is played again
//! (`interrupt::stopped_during`).

use crate::config::spec::{EngineSpec, TournamentSpec};
use crate::interrupt;
use crate::openings::Opening;
use crate::referee::game;
use crate::referee::record::{white_halves, GameRecord, Termination};
use crate::tune::spsa::{PairJob, PairOutcome, Param};

/// An iteration's played games, in the order [`play`] plays them.
pub struct Pair {
    pub games: Vec<GameRecord>,
    /// Played against an opponent (else `theta+` against `theta−`).
    pub against: bool,
}

impl Pair {
    /// The half-points of `theta+` and of `theta−`, each out of 4 (two
    /// games each); in self-play, out of 4 between them.
    pub fn halves(&self) -> (i32, i32) {
        let g = |i: usize| white_halves(&self.games[i].result) as i32;
        if self.against {
            (g(0) + 2 - g(1), g(2) + 2 - g(3))
        } else {
            (g(0) + 2 - g(1), g(1) + 2 - g(0))
        }
    }

    /// Whether any game ended in a fault, and which.
    pub fn faults(&self) -> impl Iterator<Item = &Termination> {
        self.games
            .iter()
            .map(|g| &g.termination)
            .filter(|t| matches!(t, Termination::Fault { .. }))
    }
}

impl PairOutcome for Pair {
    /// In self-play, `theta+`'s points less `theta−`'s (−2 to 2); against
    /// an opponent, `theta+`'s half-points less `theta−`'s (−4 to 4): the
    /// same measure, each side's result against the opponent in place of
    /// its result against the other side.
    fn r(&self) -> i32 {
        let (plus, minus) = self.halves();
        if self.against {
            plus - minus
        } else {
            (plus - minus) / 2
        }
    }
}

/// The engine with one side's values: the tuned options replace any the
/// user set under the same name (UCI names are case-insensitive).
pub fn side(base: &EngineSpec, suffix: &str, params: &[Param], values: &[i64]) -> EngineSpec {
    let mut e = base.clone();
    e.name = format!("{}{suffix}", base.name);
    let tuned = |k: &str| params.iter().any(|p| p.name.eq_ignore_ascii_case(k));
    e.options.retain(|(k, _)| !tuned(k));
    e.options.extend(
        params
            .iter()
            .zip(values)
            .map(|(p, v)| (p.name.clone(), v.to_string())),
    );
    e
}

/// Plays `job`'s games on opening `iteration mod book size`: the tuned
/// engine is `games.engines[0]`; a second engine there is the opponent.
pub fn play(t: &TournamentSpec, params: &[Param], book: &[Opening], job: &PairJob) -> Pair {
    let base = &t.engines[0];
    let plus = side(base, "+", params, &job.plus);
    let minus = side(base, "-", params, &job.minus);
    let start = Opening::startpos();
    let opening = match book.len() {
        0 => &start,
        n => &book[(job.iteration % n as u64) as usize],
    };
    let round = |g: u32| format!("{}.{g}", job.iteration + 1);
    loop {
        let before = interrupt::continued();
        let pair = play_once(t, &plus, &minus, opening, &round);
        let on_time = pair.games.iter().any(GameRecord::ended_on_time);
        if !interrupt::stopped_during(before, on_time) {
            return pair;
        }
        eprintln!(
            "pair {}: the run was stopped and continued while it was played: not counted, \
             played again",
            job.iteration + 1
        );
    }
}

/// The pair's games, once.
fn play_once(
    t: &TournamentSpec,
    plus: &EngineSpec,
    minus: &EngineSpec,
    opening: &Opening,
    round: &dyn Fn(u32) -> String,
) -> Pair {
    let games = match t.engines.get(1) {
        Some(opp) => vec![
            game::play(plus, opp, opening, t, &round(1)),
            game::play(opp, plus, opening, t, &round(2)),
            game::play(minus, opp, opening, t, &round(3)),
            game::play(opp, minus, opening, t, &round(4)),
        ],
        None => vec![
            game::play(plus, minus, opening, t, &round(1)),
            game::play(minus, plus, opening, t, &round(2)),
        ],
    };
    Pair {
        against: games.len() == 4,
        games,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::record::Start;

    fn pair(results: &[&str]) -> Pair {
        let game = |result: &&str| GameRecord {
            event: "e".to_string(),
            round: "1".to_string(),
            white: "w".to_string(),
            black: "b".to_string(),
            start: Start::StartPos,
            opening: Vec::new(),
            moves: Vec::new(),
            result: result.to_string(),
            termination: Termination::KingZapped,
            started_unix: 0,
            duration_ms: 0,
            memory: Vec::new(),
        };
        Pair {
            games: results.iter().map(game).collect(),
            against: results.len() == 4,
        }
    }

    #[test]
    fn self_play_scores_the_sides_against_each_other() {
        // theta+ wins as white, draws as black.
        let p = pair(&["1-0", "1/2-1/2"]);
        assert_eq!((p.halves(), p.r()), ((3, 1), 1));
        let p = pair(&["0-1", "1-0"]);
        assert_eq!((p.halves(), p.r()), ((0, 4), -2));
    }

    #[test]
    fn against_an_opponent_each_side_scores_its_own_games() {
        // theta+: a win as white, a draw as black; theta-: two losses.
        let p = pair(&["1-0", "1/2-1/2", "0-1", "1-0"]);
        assert_eq!((p.halves(), p.r()), ((3, 0), 3));
        // theta+ loses both, theta- wins both.
        let p = pair(&["0-1", "1-0", "1-0", "0-1"]);
        assert_eq!((p.halves(), p.r()), ((0, 4), -4));
        let p = pair(&["1/2-1/2"; 4]);
        assert_eq!((p.halves(), p.r()), ((2, 2), 0));
    }
}
