//! `-resume`: a flag tournament goes on from the games an earlier run with
//! the same flags wrote to its `-pgnout` file.
//!
//! Each game of the file must be the game of the [`schedule`] its `Round
//! "R.N"` tag names (`played`); anything else stops the run before it
//! plays, naming the file, the game and what differs. The games
//! count in the standings (W/D/L, pairs, faults from the `Termination`
//! tag) and the SPRT, and their jobs are not played again; a pair with one
//! game in the file is completed. Games without a result (`*`, or cut
//! short by a kill) are played again: the file is rewritten with the games
//! counted only, and the new games are appended to it.

use crate::config::spec::TournamentSpec;
use crate::openings::Opening;
use crate::referee::record::white_halves;
use crate::stats::sprt::SprtDecision;
use crate::tournament::played::{self, PlayedGame};
use crate::tournament::schedule::schedule;
use crate::tournament::standings::Tally;
use std::fs::File;
use std::path::{Path, PathBuf};

/// What the earlier run left.
#[derive(Clone, Debug)]
pub struct Resumed {
    pub path: PathBuf,
    /// The games counted, by game number.
    pub games: Vec<PlayedGame>,
    /// Their PGN text, in the same order.
    pub texts: Vec<String>,
    /// Games of the file without a result: dropped from it, played again.
    pub dropped: usize,
    /// The standings after the games counted.
    pub tally: Tally,
    /// Games in the schedule.
    total: usize,
    /// Whether the file was there.
    existed: bool,
    /// The counted games' PGN in file order: what the file is rewritten to.
    text: String,
}

/// The earlier run's games if `spec.resume` (`None` otherwise); a missing
/// file is a run with no games yet.
pub fn load(spec: &TournamentSpec, openings: &[Opening]) -> Result<Option<Resumed>, String> {
    if !spec.resume {
        return Ok(None);
    }
    let Some(path) = &spec.pgn_out else {
        return Err("-resume needs -pgnout FILE: the games to go on from are read from it".into());
    };
    match std::fs::read(path) {
        Ok(bytes) => from_text(spec, openings, path, &String::from_utf8_lossy(&bytes)).map(Some),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let mut r = from_text(spec, openings, path, "")?;
            r.existed = false;
            Ok(Some(r))
        }
        Err(e) => Err(format!("cannot read {}: {e}", path.display())),
    }
}

/// The games of PGN `text` (the file at `path`) checked against the
/// schedule.
fn from_text(
    spec: &TournamentSpec,
    openings: &[Opening],
    path: &Path,
    text: &str,
) -> Result<Resumed, String> {
    let jobs = schedule(spec, openings.len());
    let found = played::check(spec, &jobs, openings, path, text)?;
    let mut kept = String::new();
    for g in &found.games {
        kept.push_str(g.text.trim_end());
        kept.push_str("\n\n");
    }
    let mut found_games = found.games;
    found_games.sort_by_key(|g| g.game.job.number);
    let (games, texts): (Vec<PlayedGame>, Vec<String>) =
        found_games.into_iter().map(|g| (g.game, g.text)).unzip();
    let dropped = found.dropped;
    let mut tally = Tally::new(spec.engines.len());
    for g in &games {
        tally.add(spec, &g.job, white_halves(&g.result), g.fault_by());
    }
    Ok(Resumed {
        path: path.to_path_buf(),
        games,
        texts,
        dropped,
        tally,
        total: jobs.len(),
        existed: true,
        text: kept,
    })
}

impl Resumed {
    /// Whether game `number` of the schedule was played already.
    pub fn played(&self, number: usize) -> bool {
        self.games
            .binary_search_by_key(&number, |g| g.job.number)
            .is_ok()
    }

    /// Whether the SPRT decided on the games of the file.
    pub fn sprt_decided(&self, spec: &TournamentSpec) -> Option<(f64, SprtDecision)> {
        let sprt = self.tally.sprt(spec).filter(|_| !self.games.is_empty());
        sprt.filter(|&(_, d)| d != SprtDecision::Continue)
    }

    /// What was resumed, to print at the start: the games, and per pairing
    /// the first engine's wins, losses and draws (as cutechess's `Score
    /// of` line); whether there is nothing left to play.
    pub fn describe(&self, spec: &TournamentSpec) -> String {
        let file = self.path.display();
        if !self.existed {
            return format!("-resume: {file} is not there yet: starting from the first game\n");
        }
        let names: Vec<&str> = spec.engines.iter().map(|e| e.name.as_str()).collect();
        let mut pairings = Vec::new();
        for a in 0..names.len() {
            for b in a + 1..names.len() {
                let mut wld = [0u64; 3];
                for g in &self.games {
                    let (w, bl) = (g.job.white, g.job.black);
                    if (w, bl) != (a, b) && (w, bl) != (b, a) {
                        continue;
                    }
                    let halves = white_halves(&g.result);
                    // a's half-points: 0 a loss, 1 a draw, 2 a win.
                    let mine = if w == a { halves } else { 2 - halves };
                    wld[[1, 2, 0][mine as usize]] += 1;
                }
                if wld.iter().sum::<u64>() > 0 {
                    let [w, l, d] = wld;
                    pairings.push(format!("{} {w} - {l} - {d} {}", names[a], names[b]));
                }
            }
        }
        let mut out = format!("resumed {} games from {file}", self.games.len());
        if !pairings.is_empty() {
            out += &format!(" ({})", pairings.join(", "));
        }
        if self.dropped > 0 {
            out += &format!(
                "; {} without a result dropped from it, to be played again",
                self.dropped
            );
        }
        out.push('\n');
        if let Some((llr, d)) = self.sprt_decided(spec) {
            out +=
                &format!("the SPRT has already decided: {d:?} (LLR {llr:.2}); nothing to play\n");
        } else if self.games.len() == self.total {
            out += "every game of the schedule was played; nothing to play\n";
        }
        out
    }

    /// The file rewritten with the counted games only, open for adding
    /// the new ones.
    pub fn reopen(&self) -> Result<File, String> {
        let cannot = |e: std::io::Error| format!("cannot write {}: {e}", self.path.display());
        // Written aside and renamed over it, so a run killed meanwhile
        // leaves the old file whole.
        let mut aside = self.path.clone().into_os_string();
        aside.push(".resume-tmp");
        std::fs::write(&aside, &self.text).map_err(cannot)?;
        std::fs::rename(&aside, &self.path).map_err(cannot)?;
        std::fs::OpenOptions::new()
            .append(true)
            .open(&self.path)
            .map_err(cannot)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::spec::{EngineSpec, PgnStyle, SprtSpec};
    use crate::pgn::write::to_pgn;
    use crate::referee::record::{GameRecord, Start, Termination};
    use crate::tournament::run::run_resumed;

    fn engine(name: &str) -> EngineSpec {
        EngineSpec {
            name: name.to_string(),
            // Never started: a test that plays would fail on it.
            command: vec!["/no/such/engine".to_string()],
            dir: None,
            options: Vec::new(),
            limits: Default::default(),
            restart: true,
        }
    }

    fn spec(path: &Path, rounds: u32) -> TournamentSpec {
        TournamentSpec {
            engines: vec![engine("tuned"), engine("base")],
            games: 2,
            rounds,
            resume: true,
            pgn_out: Some(path.to_path_buf()),
            ..TournamentSpec::default()
        }
    }

    fn openings() -> Vec<Opening> {
        let opening = |moves: &str| Opening {
            start: Start::StartPos,
            moves: moves.split(' ').map(String::from).collect(),
        };
        vec![opening("g4L b3L"), opening("h0R")]
    }

    /// Game `number` of the schedule of `spec` as the tournament writes
    /// it, with `result` (`*` when empty).
    fn game(spec: &TournamentSpec, number: usize, result: &str) -> String {
        let job = schedule(spec, 2)[number - 1];
        let rec = GameRecord {
            event: "autotest".to_string(),
            round: format!("{}.{}", job.round, job.number),
            white: spec.engines[job.white].name.clone(),
            black: spec.engines[job.black].name.clone(),
            start: Start::StartPos,
            opening: openings()[job.opening % 2].moves.clone(),
            moves: Vec::new(),
            result: result.to_string(),
            termination: Termination::KingZapped,
            started_unix: 0,
            duration_ms: 0,
            memory: Vec::new(),
        };
        to_pgn(&rec, PgnStyle::Standard)
    }

    fn scratch(test: &str) -> PathBuf {
        crate::scratch::dir(&format!("resume-{test}")).join("games.pgn")
    }

    /// Games 1-3 count (in any order, a fault with them); an unfinished
    /// game and one cut short are dropped from the file, which goes on
    /// with the new games after the kept ones.
    #[test]
    fn counts_the_games_and_drops_those_without_a_result() {
        let path = scratch("resume-counts");
        let spec = spec(&path, 3);
        // Game 3: tuned (White) wins when base runs out of time.
        let forfeit = game(&spec, 3, "1-0").replace("\"normal\"", "\"time forfeit\"");
        let kept = [game(&spec, 1, "1-0"), forfeit, game(&spec, 2, "1/2-1/2")];
        let cut = game(&spec, 5, "0-1");
        let text = [
            kept[0].clone(),
            game(&spec, 4, ""),
            kept[1].clone(),
            kept[2].clone(),
            cut[..cut.len() - 6].to_string(),
        ]
        .concat();
        std::fs::write(&path, &text).unwrap();
        let r = load(&spec, &openings()).unwrap().expect("resumed");
        let numbers: Vec<usize> = r.games.iter().map(|g| g.job.number).collect();
        assert_eq!(numbers, [1, 2, 3]);
        assert_eq!(r.dropped, 2);
        assert!(r.played(2) && !r.played(4) && !r.played(5));
        let s = &r.tally.standings;
        assert_eq!((s[0].wins, s[0].draws, s[0].losses), (2, 1, 0));
        assert_eq!((s[1].wins, s[1].draws, s[1].losses), (0, 1, 2));
        // Pair 0 (games 1, 2): tuned 1½ points; game 3 waits for game 4.
        assert_eq!(s[0].pairs, [0, 0, 0, 1, 0]);
        assert_eq!(s[1].pairs, [0, 1, 0, 0, 0]);
        assert!(s[0].faults.is_empty());
        assert_eq!(
            s[1].faults.iter().collect::<Vec<_>>(),
            [(&"time forfeit", &1)]
        );
        let mut tally = r.tally.clone();
        tally.add(&spec, &schedule(&spec, 2)[3], 2, None);
        assert_eq!(
            tally.standings[0].pairs,
            [0, 0, 1, 1, 0],
            "game 4 completes it"
        );
        assert_eq!(
            r.describe(&spec),
            format!(
                "resumed 3 games from {} (tuned 2 - 0 - 1 base); 2 without a result \
                 dropped from it, to be played again\n",
                path.display()
            )
        );
        let mut f = r.reopen().unwrap();
        std::io::Write::write_all(&mut f, b"next").unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            kept.concat() + "next"
        );
        // Not asked for: nothing is read.
        let plain = TournamentSpec {
            resume: false,
            ..spec.clone()
        };
        assert!(load(&plain, &openings()).unwrap().is_none());
        // No file yet: from the first game.
        std::fs::remove_file(&path).unwrap();
        let r = load(&spec, &openings()).unwrap().unwrap();
        assert!(r.games.is_empty() && !r.played(1));
        assert!(r.describe(&spec).contains("is not there yet"));
    }

    /// A game that is not the schedule's stops the run, saying where and
    /// what differs.
    #[test]
    fn a_game_off_the_schedule_is_an_error() {
        let path = scratch("resume-mismatch");
        let spec = spec(&path, 2);
        let file = path.display().to_string();
        let error = |text: String| from_text(&spec, &openings(), &path, &text).unwrap_err();
        let swapped = game(&spec, 2, "1-0")
            .replace("White \"base", "White \"x")
            .replace("Black \"tuned", "Black \"base")
            .replace("White \"x", "White \"tuned");
        assert_eq!(
            error(game(&spec, 1, "1-0") + &swapped),
            format!(
                "{file}: game 2 (line 14) is tuned (White) vs base (Black), but game 2 of this \
                 schedule is base vs tuned: did the engines, their names or the flags change?"
            )
        );
        let other_opening = game(&spec, 1, "1-0").replace("g4L b3L", "h0R");
        assert!(error(other_opening).contains(
            "game 1 (line 1) starts from the start position with opening \"h0R\", but game 1 of \
             this schedule starts from the start position with opening \"g4L b3L\""
        ));
        let beyond = TournamentSpec {
            rounds: 3,
            ..spec.clone()
        };
        assert!(error(game(&beyond, 5, "1-0"))
            .contains("game 5 (line 1) is not in this tournament's schedule of 4 games"));
        assert!(error(game(&spec, 3, "1-0").replace("\"2.3\"", "\"1.3\""))
            .contains("game 3 (line 1) is in round 1, but game 3 of this schedule is in round 2"));
        assert!(error(game(&spec, 1, "1-0").replace("\"1.1\"", "\"0\""))
            .contains("the game at line 1 has Round \"0\", not a flag tournament's ROUND.GAME"));
        assert_eq!(
            error(game(&spec, 1, "1-0") + &game(&spec, 1, "0-1")),
            format!("{file}: game 1 is there twice (lines 1 and 14)")
        );
    }

    /// An SPRT that decided on the file's games: nothing is played (the
    /// engines, which do not exist, are not even started).
    #[test]
    fn an_sprt_decided_in_the_file_plays_nothing() {
        let path = scratch("resume-sprt");
        let spec = TournamentSpec {
            sprt: Some(SprtSpec {
                elo0: 0.0,
                elo1: 100.0,
                alpha: 0.1,
                beta: 0.1,
            }),
            ..spec(&path, 50)
        };
        // Tuned wins as White and draws as Black: pairs of 1½ points.
        let text: String = (1..=40)
            .map(|n| game(&spec, n, if n % 2 == 1 { "1-0" } else { "1/2-1/2" }))
            .collect();
        std::fs::write(&path, &text).unwrap();
        let r = load(&spec, &openings()).unwrap().unwrap();
        let (llr, decision) = r.sprt_decided(&spec).expect("decided");
        assert_eq!(decision, SprtDecision::H1);
        assert!(r.describe(&spec).ends_with(&format!(
            "the SPRT has already decided: H1 (LLR {llr:.2}); nothing to play\n"
        )));
        let summary = run_resumed(&spec, &openings(), Some(&r), |_, _, _, _| {
            panic!("nothing is played")
        })
        .unwrap();
        assert!(summary.games.is_empty());
        assert_eq!(summary.standings[0].pairs, [0, 0, 0, 20, 0]);
        assert_eq!(summary.sprt, Some((llr, SprtDecision::H1)));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text, "untouched");
        // Fewer games: the SPRT goes on, and the engines are started.
        let text: String = (1..=4).map(|n| game(&spec, n, "1-0")).collect();
        std::fs::write(&path, &text).unwrap();
        let r = load(&spec, &openings()).unwrap().unwrap();
        assert!(r.sprt_decided(&spec).is_none());
        let e = run_resumed(&spec, &openings(), Some(&r), |_, _, _, _| {})
            .err()
            .expect("the engines cannot start");
        assert!(e.contains("/no/such/engine"), "{e}");
    }
}
