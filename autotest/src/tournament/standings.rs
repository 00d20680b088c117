//! The standings of a tournament as its games come in: W/D/L, game pairs
//! and faults per engine, and the SPRT on the first engine's results.
//! The runner counts the games it plays here, and `resume` the games of
//! an earlier run; both by their [`Job`] in the schedule.

use crate::config::spec::TournamentSpec;
use crate::referee::record::FaultKind;
use crate::stats::sprt::{llr_penta, llr_wdl, sprt_decision, SprtDecision};
use crate::tournament::schedule::Job;
use std::collections::{BTreeMap, HashMap};

/// One engine's results.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Standing {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Game pairs by this engine's points in them: 0, ½, 1, 1½, 2.
    pub pairs: [u64; 5],
    pub faults: BTreeMap<&'static str, u64>,
}

impl Standing {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }
}

/// Every engine's standing, and the first games of pairs whose second
/// game is still to come.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub standings: Vec<Standing>,
    /// Per pair id: the first game's white and its half-points.
    half_pairs: HashMap<usize, (usize, u64)>,
}

impl Tally {
    pub fn new(engines: usize) -> Tally {
        Tally {
            standings: vec![Standing::default(); engines],
            half_pairs: HashMap::new(),
        }
    }

    /// Counts the game of `job`: white's half-points, and the engine at
    /// fault (by name) with its fault, if the game ended so.
    pub fn add(
        &mut self,
        spec: &TournamentSpec,
        job: &Job,
        halves: u64,
        fault: Option<(&str, FaultKind)>,
    ) {
        for (idx, mine) in [(job.white, halves), (job.black, 2 - halves)] {
            let s = &mut self.standings[idx];
            match mine {
                2 => s.wins += 1,
                1 => s.draws += 1,
                _ => s.losses += 1,
            }
        }
        if let Some((engine, kind)) = fault {
            if let Some(i) = spec.engines.iter().position(|e| e.name == engine) {
                *self.standings[i].faults.entry(kind.name()).or_insert(0) += 1;
            }
        }
        // Pairs: the second game of a pair completes it.
        if spec.repeat {
            match self.half_pairs.remove(&job.pair) {
                None => {
                    self.half_pairs.insert(job.pair, (job.white, halves));
                }
                Some((first_white, first)) => {
                    // Points of the first game's white over both games.
                    let a = first_white;
                    let a_points = first + if job.white == a { halves } else { 2 - halves };
                    let b = if job.white == a { job.black } else { job.white };
                    self.standings[a].pairs[a_points as usize] += 1;
                    self.standings[b].pairs[4 - a_points as usize] += 1;
                }
            }
        }
    }

    /// The SPRT's log-likelihood ratio and decision on the first engine's
    /// results so far (from its pairs with `repeat`), if it has an SPRT.
    pub fn sprt(&self, spec: &TournamentSpec) -> Option<(f64, SprtDecision)> {
        let t = spec.sprt?;
        let s = &self.standings[0];
        let llr = if spec.repeat {
            llr_penta(s.pairs, t.elo0, t.elo1)
        } else {
            llr_wdl(s.wins, s.draws, s.losses, t.elo0, t.elo1)
        };
        Some((llr, sprt_decision(llr, t.alpha, t.beta)))
    }
}
