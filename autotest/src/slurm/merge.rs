//! The shards' games merged into one tournament. Each shard's PGN file is
//! read again when it changed (size or time), its finished games checked
//! against the whole schedule (`tournament::played`) and against the
//! shard's pairs, and kept by game number: a game is counted once however
//! often its file is read or rewritten (a resumed task rewrites its file),
//! and a game in two files is an error.
//!
//! The result is that of the games in schedule order from game 1 up to the
//! first one not in yet, stopped at the game on which the SPRT decides:
//! the games, standings and SPRT verdict a local run with the same seed
//! and one game at a time has, whatever order the tasks finish in. Games
//! played past that point (by tasks not yet cancelled) are left out.

use crate::config::spec::TournamentSpec;
use crate::openings::Opening;
use crate::referee::record::white_halves;
use crate::stats::sprt::SprtDecision;
use crate::tournament::played::{self, PlayedText};
use crate::tournament::schedule::Job;
use crate::tournament::standings::Tally;
use std::collections::BTreeMap;
use std::ops::Range;
use std::path::PathBuf;
use std::time::SystemTime;

pub struct Merge {
    jobs: Vec<Job>,
    shards: Vec<Range<usize>>,
    files: Vec<PathBuf>,
    /// Per shard: the size and time of its file when last read.
    seen: Vec<Option<(u64, SystemTime)>>,
    games: BTreeMap<usize, PlayedText>,
}

/// The merged result so far.
pub struct Standing {
    pub tally: Tally,
    /// Games 1..=`games` of the schedule, all in.
    pub games: usize,
    pub sprt: Option<(f64, SprtDecision)>,
    /// The LLR after each of those games, with an SPRT.
    pub llrs: Vec<Option<f64>>,
    /// Whether the run is over: every game in, or the SPRT decided.
    pub done: bool,
}

impl Merge {
    /// `files[k]` is shard `k`'s PGN, `shards[k]` its pairs.
    pub fn new(jobs: Vec<Job>, shards: Vec<Range<usize>>, files: Vec<PathBuf>) -> Merge {
        let seen = vec![None; files.len()];
        Merge {
            jobs,
            shards,
            files,
            seen,
            games: BTreeMap::new(),
        }
    }

    /// Reads the shard files that changed; returns how many games are new.
    pub fn refresh(
        &mut self,
        spec: &TournamentSpec,
        openings: &[Opening],
    ) -> Result<usize, String> {
        let before = self.games.len();
        for k in 0..self.files.len() {
            let path = &self.files[k];
            let Ok(meta) = std::fs::metadata(path) else {
                continue;
            };
            let stamp = (
                meta.len(),
                meta.modified().unwrap_or(SystemTime::UNIX_EPOCH),
            );
            if self.seen[k] == Some(stamp) {
                continue;
            }
            let bytes =
                std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let found = played::check(
                spec,
                &self.jobs,
                openings,
                path,
                &String::from_utf8_lossy(&bytes),
            )?;
            for g in found.games {
                let (number, pair) = (g.game.job.number, g.game.job.pair);
                if !self.shards[k].contains(&pair) {
                    return Err(format!(
                        "{}: game {number} is not one of shard {k}'s (pairs {:?})",
                        path.display(),
                        self.shards[k]
                    ));
                }
                self.games.entry(number).or_insert(g);
            }
            self.seen[k] = Some(stamp);
        }
        Ok(self.games.len() - before)
    }

    /// Games in, in any order.
    pub fn count(&self) -> usize {
        self.games.len()
    }

    /// Whether every game of shard `k` is in.
    pub fn shard_complete(&self, k: usize) -> bool {
        let pairs = &self.shards[k];
        self.jobs
            .iter()
            .filter(|j| pairs.contains(&j.pair))
            .all(|j| self.games.contains_key(&j.number))
    }

    /// The result of the games in order, as a local run would have it.
    pub fn standing(&self, spec: &TournamentSpec) -> Standing {
        let mut tally = Tally::new(spec.engines.len());
        let mut sprt = None;
        let mut games = 0;
        let mut llrs = Vec::new();
        for job in &self.jobs {
            let Some(g) = self.games.get(&job.number) else {
                break;
            };
            let g = &g.game;
            tally.add(spec, job, white_halves(&g.result), g.fault_by());
            games += 1;
            sprt = tally.sprt(spec);
            llrs.push(sprt.map(|(llr, _)| llr));
            if sprt.is_some_and(|(_, d)| d != SprtDecision::Continue) {
                break;
            }
        }
        let decided = sprt.is_some_and(|(_, d)| d != SprtDecision::Continue);
        Standing {
            tally,
            games,
            sprt,
            llrs,
            done: decided || games == self.jobs.len(),
        }
    }

    /// The games 1..=`games`, in order.
    pub fn in_order(&self, games: usize) -> impl Iterator<Item = &PlayedText> {
        self.games
            .values()
            .take_while(move |g| g.game.job.number <= games)
    }

    /// The PGN of games 1..=`games`, in order.
    pub fn pgn(&self, games: usize) -> String {
        let mut out = String::new();
        for g in self.in_order(games) {
            out.push_str(g.text.trim_end());
            out.push_str("\n\n");
        }
        out
    }
}
