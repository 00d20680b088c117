//! The finished games of a PGN file, each checked to be the game of the
//! schedule its `Round "R.N"` tag names: round R, the same White and
//! Black, the same opening (`FEN` and `Opening` tags). `-resume` goes on
//! from them, and a distributed run merges its shards' files by them
//! (`crate::slurm`). Games without a result (`*`, or cut short by a kill
//! or by a writer not done yet) are counted as dropped; anything else off
//! the schedule is an error naming the file, the game and what differs.

use crate::config::spec::TournamentSpec;
use crate::openings::Opening;
use crate::pgn::read;
use crate::pgn::write::start_tags;
use crate::referee::record::FaultKind;
use crate::tournament::schedule::Job;
use std::collections::HashMap;
use std::path::Path;

/// A finished game of the file, as the schedule knows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    pub job: Job,
    pub white: String,
    pub black: String,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// The fault the loser made, if the game ended on one.
    pub fault: Option<FaultKind>,
}

impl PlayedGame {
    /// The engine at fault (by name) with its fault, if the game ended on
    /// one: the loser.
    pub fn fault_by(&self) -> Option<(&str, FaultKind)> {
        let loser = if self.result == "1-0" {
            &self.black
        } else {
            &self.white
        };
        self.fault.map(|kind| (loser.as_str(), kind))
    }
}

/// A [`PlayedGame`] with its PGN text as in the file.
#[derive(Clone, Debug)]
pub struct PlayedText {
    pub game: PlayedGame,
    pub text: String,
}

/// What a file holds.
#[derive(Clone, Debug, Default)]
pub struct Played {
    /// The finished games, in file order.
    pub games: Vec<PlayedText>,
    /// Games without a result.
    pub dropped: usize,
}

/// The games of PGN `text` (the file at `path`, for messages) checked
/// against `jobs`, the schedule of `spec` over `openings`.
pub fn check(
    spec: &TournamentSpec,
    jobs: &[Job],
    openings: &[Opening],
    path: &Path,
    text: &str,
) -> Result<Played, String> {
    let file = path.display();
    let startpos = Opening::startpos();
    let mut lines: HashMap<usize, usize> = HashMap::new();
    let mut out = Played::default();
    for g in read::parse(text) {
        let Some(result) = g.result() else {
            out.dropped += 1;
            continue;
        };
        let round = g.tag("Round").unwrap_or("");
        let Some((r, n)) = round_number(round) else {
            return Err(format!(
                "{file}: the game at line {} has Round \"{round}\", not a flag tournament's ROUND.GAME",
                g.line
            ));
        };
        let at = format!("{file}: game {n} (line {})", g.line);
        let Some(job) = n.checked_sub(1).and_then(|i| jobs.get(i)) else {
            return Err(format!(
                "{at} is not in this tournament's schedule of {} games: did the flags change?",
                jobs.len()
            ));
        };
        if job.round != r {
            return Err(format!(
                "{at} is in round {r}, but game {n} of this schedule is in round {}: did the flags change?",
                job.round
            ));
        }
        let (white, black) = (g.tag("White").unwrap_or("?"), g.tag("Black").unwrap_or("?"));
        let (ew, eb) = (&spec.engines[job.white].name, &spec.engines[job.black].name);
        if (white, black) != (ew.as_str(), eb.as_str()) {
            return Err(format!(
                "{at} is {white} (White) vs {black} (Black), but game {n} of this schedule is \
                 {ew} vs {eb}: did the engines, their names or the flags change?"
            ));
        }
        let opening = match openings.len() {
            0 => &startpos,
            len => &openings[job.opening % len],
        };
        let expected = start_tags(opening);
        let start = (g.tag("FEN"), g.tag("Opening"));
        if start != (expected.0, expected.1.as_deref()) {
            return Err(format!(
                "{at} starts from {}, but game {n} of this schedule starts from {}: did the \
                 openings, their order or -seed change?",
                describe_start(start.0, start.1),
                describe_start(expected.0, expected.1.as_deref()),
            ));
        }
        if let Some(line) = lines.insert(n, g.line) {
            return Err(format!(
                "{file}: game {n} is there twice (lines {line} and {})",
                g.line
            ));
        }
        let fault = (result != "1/2-1/2")
            .then(|| g.tag("Termination").and_then(FaultKind::from_pgn_tag))
            .flatten();
        let game = PlayedGame {
            job: *job,
            white: white.to_string(),
            black: black.to_string(),
            result: result.to_string(),
            fault,
        };
        out.games.push(PlayedText { game, text: g.text });
    }
    Ok(out)
}

/// `R.N` of a flag tournament's `Round` tag.
fn round_number(round: &str) -> Option<(u32, usize)> {
    let (r, n) = round.split_once('.')?;
    Some((r.parse().ok()?, n.parse().ok()?))
}

fn describe_start(fen: Option<&str>, moves: Option<&str>) -> String {
    let from = fen.map_or("the start position".to_string(), |f| format!("FEN \"{f}\""));
    match moves {
        Some(m) => format!("{from} with opening \"{m}\""),
        None => format!("{from} with no opening moves"),
    }
}
