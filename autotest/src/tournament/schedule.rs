//! The game schedule: which game of the tournament has which engines,
//! colours and opening, by its number. The runner plays it, `-resume`
//! matches an earlier run's games to it, and the standings pair games by
//! it.

use crate::config::spec::{Schedule, TournamentSpec};

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

/// The games this run plays: the whole schedule, or the shard of it that
/// `spec.only_pairs` names (numbers as in the whole schedule).
pub fn to_play(spec: &TournamentSpec, openings: usize) -> Vec<Job> {
    let mut jobs = schedule(spec, openings);
    if let Some(pairs) = &spec.only_pairs {
        jobs.retain(|j| pairs.contains(&j.pair));
    }
    jobs
}

/// How many pairs (colour-swapped games of one opening, or single games
/// without `repeat`) the schedule has: the unit a run is sharded by.
pub fn pair_count(jobs: &[Job]) -> usize {
    jobs.iter().map(|j| j.pair + 1).max().unwrap_or(0)
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
}
