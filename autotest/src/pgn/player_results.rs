//! One player's results gathered from PGN files (`autotest stats --pgn`):
//! W/D/L, and the pentanomial counts of colour-swapped game pairs.
//!
//! Two games are a pair when they come from the same file, have the same
//! round (R of a flag tournament's `Round "R.N"`; for a plain-number
//! Round, games 2k and 2k+1, as the course layout numbers games from 0 and
//! plays a pair per opening), the same two players with colours swapped,
//! and the same `FEN` and `Opening` tags (none on both is the same). Where
//! a round has several candidates, a game pairs with the latest unpaired
//! one numbered before it, as a flag tournament numbers a pair's games one
//! after the other. The course layout has no `Opening` tag, so a course
//! file continued after an odd number of games pairs the later games
//! across two openings. Games without a result (`*`, or cut short) are
//! skipped; games in no pair count in W/D/L only.

use crate::pgn::read::{self, PgnGame};
use crate::referee::record::white_halves;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A player's results.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayerResults {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Pairs by the player's points in them: 0, ½, 1, 1½, 2.
    pub pairs: [u64; 5],
    /// The player's games without a result, skipped.
    pub unfinished: u64,
    /// The player's games counted that are in no complete pair.
    pub unpaired: u64,
}

impl PlayerResults {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }
}

/// Where a game may find its pair: its round in a flag tournament's file,
/// or its couple 2k/2k+1 in a course file.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Round<'a> {
    Flag(&'a str),
    Course(u64),
}

/// A game that may be half of a pair: its number, whether the player had
/// White, and the player's half-points.
type Candidate = (u64, bool, u64);

/// `player`'s results in the PGN files `files` (added up); an error if a
/// file cannot be read or the player is in none of their games.
pub fn gather(files: &[String], player: &str) -> Result<PlayerResults, String> {
    let mut games = Vec::new();
    for f in files {
        games.push(read::read(Path::new(f)).map_err(|e| format!("stats: {e}"))?);
    }
    let r = tally(&games, player);
    if r.games() + r.unfinished == 0 {
        let names: BTreeSet<&str> = games
            .iter()
            .flatten()
            .flat_map(|g| [g.tag("White"), g.tag("Black")])
            .flatten()
            .collect();
        let shown: Vec<&str> = names.iter().take(10).copied().collect();
        let more = if names.len() > shown.len() {
            ", …"
        } else {
            ""
        };
        return Err(format!(
            "stats: '{player}' plays in no game of {} (players there: {}{more})",
            files.join(", "),
            if shown.is_empty() {
                "none".to_string()
            } else {
                shown.join(", ")
            }
        ));
    }
    Ok(r)
}

/// `player`'s results in the games of each file.
pub fn tally(files: &[Vec<PgnGame>], player: &str) -> PlayerResults {
    let mut r = PlayerResults::default();
    let mut rounds: BTreeMap<_, Vec<Candidate>> = BTreeMap::new();
    for (file, games) in files.iter().enumerate() {
        for g in games {
            let (white, black) = (g.tag("White"), g.tag("Black"));
            let (is_white, opponent) = match (white, black) {
                (Some(w), Some(b)) if w == player => (true, b),
                (Some(w), Some(b)) if b == player => (false, w),
                _ => continue,
            };
            let Some(result) = g.result() else {
                r.unfinished += 1;
                continue;
            };
            let halves = match is_white {
                true => white_halves(result),
                false => 2 - white_halves(result),
            };
            match halves {
                2 => r.wins += 1,
                1 => r.draws += 1,
                _ => r.losses += 1,
            }
            if let Some((round, number)) = g.tag("Round").and_then(round_of) {
                let start = (g.tag("FEN"), g.tag("Opening"));
                rounds
                    .entry((file, round, opponent, start))
                    .or_default()
                    .push((number, is_white, halves));
            }
        }
    }
    for mut games in rounds.into_values() {
        games.sort_unstable();
        let mut open: Vec<Candidate> = Vec::new();
        for g in games {
            match open.iter().rposition(|o| o.1 != g.1) {
                Some(i) => r.pairs[(open.remove(i).2 + g.2) as usize] += 1,
                None => open.push(g),
            }
        }
    }
    r.unpaired = r.games() - 2 * r.pairs.iter().sum::<u64>();
    r
}

/// The round of a `Round` tag and the game's number in it.
fn round_of(tag: &str) -> Option<(Round<'_>, u64)> {
    match tag.split_once('.') {
        Some((round, n)) => Some((Round::Flag(round), n.parse().ok()?)),
        None => tag.parse().ok().map(|k: u64| (Round::Course(k / 2), k)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(round: &str, white: &str, black: &str, result: &str, opening: &str) -> String {
        let opening = match opening {
            "" => String::new(),
            o => format!("[Opening \"{o}\"]\n"),
        };
        format!(
            "[Event \"t\"]\n[Round \"{round}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n\
             [Result \"{result}\"]\n{opening}\n1. d1c1 {{0.1 1 1}} {result}\n\n"
        )
    }

    /// The pairing rule on hand-made games, figures worked out by hand:
    /// file 1, `new` against `old`:
    ///   1.1 new-old 1-0, 1.2 old-new ½ (opening ab): a pair, 1½ points: P3
    ///   1.3 new-old 0-1, 1.4 old-new 1-0 (opening c): 0 points: P0
    ///   2.5 new-old ½, 2.6 old-new 0-1 (no opening): 1½ points: P3
    ///   2.7 new-old 1-0, 2.8 old-new `*`: skipped, 2.7 alone
    ///   3.9 new-old 1-0 (x), 3.10 old-new 0-1 (y): openings differ, alone
    ///   4.11 new-old ½, 5.12 old-new ½: rounds differ, alone
    ///   6.13 new-old 1-0, 6.14 new-old 1-0: colours not swapped, alone
    ///   1.15 old-third 1-0: not new's
    /// file 2, course numbering:
    ///   0 new-old 1-0, 1 old-new 0-1: 2 points: P4
    ///   2 old-new 1-0, 3 new-old ½: ½ point: P1
    ///   4 new-old 1-0: its pair (5) is missing, alone
    /// W: 1.1 2.6 2.7 3.9 3.10 6.13 6.14, 0 1 4 = 10; D: 1.2 2.5 4.11 5.12,
    /// 3 = 5; L: 1.3 1.4, 2 = 3. Pairs P0..P4 = 1 1 0 2 1 (10 games), so 8
    /// of the 18 games are alone; 1 skipped.
    fn files() -> Vec<String> {
        let one = [
            game("1.1", "new", "old", "1-0", "a b"),
            game("1.2", "old", "new", "1/2-1/2", "a b"),
            game("1.3", "new", "old", "0-1", "c"),
            game("1.4", "old", "new", "1-0", "c"),
            game("2.6", "old", "new", "0-1", ""),
            game("2.5", "new", "old", "1/2-1/2", ""),
            game("2.7", "new", "old", "1-0", ""),
            game("2.8", "old", "new", "*", ""),
            game("3.9", "new", "old", "1-0", "x"),
            game("3.10", "old", "new", "0-1", "y"),
            game("4.11", "new", "old", "1/2-1/2", ""),
            game("5.12", "old", "new", "1/2-1/2", ""),
            game("6.13", "new", "old", "1-0", ""),
            game("6.14", "new", "old", "1-0", ""),
            game("1.15", "old", "third", "1-0", ""),
        ];
        let two = [
            game("0", "new", "old", "1-0", ""),
            game("1", "old", "new", "0-1", ""),
            game("2", "old", "new", "1-0", ""),
            game("3", "new", "old", "1/2-1/2", ""),
            game("4", "new", "old", "1-0", ""),
        ];
        vec![one.concat(), two.concat()]
    }

    #[test]
    fn pairs_by_round_players_colours_and_opening() {
        let parsed: Vec<Vec<PgnGame>> = files().iter().map(|t| read::parse(t)).collect();
        let r = tally(&parsed, "new");
        assert_eq!(
            r,
            PlayerResults {
                wins: 10,
                draws: 5,
                losses: 3,
                pairs: [1, 1, 0, 2, 1],
                unfinished: 1,
                unpaired: 8,
            }
        );
        // The other side of the same games.
        let old = tally(&parsed, "old");
        assert_eq!((old.wins, old.draws, old.losses), (4, 5, 10));
        assert_eq!(old.pairs, [1, 2, 0, 1, 1]);
        let one = tally(&parsed[..1], "new");
        assert_eq!(one.pairs, [1, 0, 0, 2, 0]);
        // A pair's games in two files are no pair.
        let apart: Vec<Vec<PgnGame>> = [("1.1", "new", "old"), ("1.2", "old", "new")]
            .iter()
            .map(|(r, w, b)| read::parse(&game(r, w, b, "1-0", "")))
            .collect();
        let r = tally(&apart, "new");
        assert_eq!((r.pairs, r.unpaired), ([0; 5], 2));
        assert_eq!(tally(&[apart.concat()], "new").pairs, [0, 0, 1, 0, 0]);
    }
}
