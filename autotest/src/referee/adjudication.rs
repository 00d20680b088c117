//! Adjudication from the engines' reported scores, as cutechess-cli's
//! `-draw` and `-resign` do it.
//!
//! Each engine move carries the last score the engine reported while
//! thinking on it (`info … score cp X` or `score mate K`, from its own
//! view; a mate counts as [`MATE_CP`]). A move without a score breaks
//! every streak it is part of.
//!
//! * Draw (`movenumber=N movecount=M score=S`): once each engine's last M
//!   moves all have scores within ±S cp and were all played at move N or
//!   later (moves are numbered as in the PGN, the opening's included).
//! * Resign (`movecount=M score=S [twosided=true]`): an engine whose last
//!   M scores are all at most −S cp loses; with `twosided`, only when its
//!   opponent's last M scores are also all at least +S cp.

use crate::config::numbers::{at_least, at_most, whole};
use crate::config::spec::{DrawRule, ResignRule};

/// What a mate score counts as, in centipawns.
pub const MATE_CP: i32 = 100_000;

/// The score of an engine's `info` line, if it has one: `score cp X`
/// (a bound marker after it is ignored) or `score mate K` (`+MATE_CP` for
/// K > 0, `-MATE_CP` for K ≤ 0: the engine is being mated).
pub fn info_score(line: &str) -> Option<i32> {
    let mut words = line.split_whitespace();
    if words.next() != Some("info") {
        return None;
    }
    while let Some(w) = words.next() {
        match w {
            // The rest of the line is text.
            "string" => return None,
            "score" => {}
            _ => continue,
        }
        return match (words.next(), words.next().map(str::parse::<i64>)) {
            (Some("cp"), Some(Ok(cp))) => Some(cp.clamp(-(MATE_CP as i64), MATE_CP as i64) as i32),
            (Some("mate"), Some(Ok(k))) => Some(if k > 0 { MATE_CP } else { -MATE_CP }),
            _ => None,
        };
    }
    None
}

/// The adjudicator's verdict.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Verdict {
    Draw,
    /// The engine playing this side (0: Tangerine, 1: Lavender) resigns.
    Resigns(usize),
}

/// The scores of one game's engine moves so far, per side.
#[derive(Clone, Debug)]
pub struct Adjudicator {
    draw: Option<DrawRule>,
    resign: Option<ResignRule>,
    /// Per side: (move number, score) of each of its engine moves.
    moves: [Vec<(u32, Option<i32>)>; 2],
}

impl Adjudicator {
    pub fn new(draw: Option<DrawRule>, resign: Option<ResignRule>) -> Adjudicator {
        Adjudicator {
            draw,
            resign,
            moves: [Vec::new(), Vec::new()],
        }
    }

    /// Records `side`'s move, number `move_number`, with its score; the
    /// verdict if one is due now.
    pub fn record(&mut self, side: usize, move_number: u32, score: Option<i32>) -> Option<Verdict> {
        self.moves[side].push((move_number, score));
        if let Some(r) = self.resign {
            // The mover's scores changed, and with `two_sided` so did the
            // condition on its opponent: check both, the mover first.
            for s in [side, 1 - side] {
                let losing = self.last_all(s, r.move_count, |_, v| v <= -r.score_cp);
                let winning =
                    !r.two_sided || self.last_all(1 - s, r.move_count, |_, v| v >= r.score_cp);
                if losing && winning {
                    return Some(Verdict::Resigns(s));
                }
            }
        }
        if let Some(d) = self.draw {
            let quiet = |n: u32, v: i32| n >= d.move_number && v.abs() <= d.score_cp;
            if self.last_all(0, d.move_count, quiet) && self.last_all(1, d.move_count, quiet) {
                return Some(Verdict::Draw);
            }
        }
        None
    }

    /// Whether `side` has at least `count` moves and its last `count` all
    /// have scores that pass `test(move number, score)`.
    fn last_all(&self, side: usize, count: u32, test: impl Fn(u32, i32) -> bool) -> bool {
        let moves = &self.moves[side];
        let count = count as usize;
        count <= moves.len()
            && moves[moves.len() - count..]
                .iter()
                .all(|&(n, s)| s.is_some_and(|v| test(n, v)))
    }
}

/// A bad `-draw`/`-resign` setting: the index of the `key=value` at fault
/// in the list given (`None`: a required key is missing) and the message.
pub type SettingError = (Option<usize>, String);

/// `movenumber=N movecount=M score=S`, all required.
pub fn parse_draw(settings: &[(&str, &str)]) -> Result<DrawRule, SettingError> {
    let [n, m, s] = values(settings, &["movenumber", "movecount", "score"], "-draw")?;
    let (Some(move_number), Some(move_count), Some(score_cp)) = (n, m, s) else {
        return Err((
            None,
            "-draw needs movenumber=N movecount=M score=S".to_string(),
        ));
    };
    Ok(DrawRule {
        move_number,
        move_count: at_least_one(settings, move_count)?,
        score_cp: score_cp as i32,
    })
}

/// `movecount=M score=S [twosided=true|false]`.
pub fn parse_resign(settings: &[(&str, &str)]) -> Result<ResignRule, SettingError> {
    let mut two_sided = false;
    let mut rest = Vec::new();
    for (i, &(k, v)) in settings.iter().enumerate() {
        if k == "twosided" {
            two_sided = match v {
                "true" => true,
                "false" => false,
                _ => return Err((Some(i), format!("twosided is true or false, got '{v}'"))),
            };
        } else {
            rest.push((i, (k, v)));
        }
    }
    let pairs: Vec<(&str, &str)> = rest.iter().map(|&(_, kv)| kv).collect();
    let [m, s] = values(&pairs, &["movecount", "score"], "-resign")
        .map_err(|(i, m)| (i.map(|i| rest[i].0), m))?;
    let (Some(move_count), Some(score_cp)) = (m, s) else {
        return Err((
            None,
            "-resign needs movecount=M score=S [twosided=true]".to_string(),
        ));
    };
    Ok(ResignRule {
        move_count: at_least_one(settings, move_count)?,
        score_cp: score_cp as i32,
        two_sided,
    })
}

/// The values of `keys` in `settings`, each a whole number up to
/// `MATE_CP`; a key not in `keys` is an error naming `flag`.
fn values<const N: usize>(
    settings: &[(&str, &str)],
    keys: &[&str; N],
    flag: &str,
) -> Result<[Option<u32>; N], SettingError> {
    let mut out = [None; N];
    for (i, &(k, v)) in settings.iter().enumerate() {
        let Some(slot) = keys.iter().position(|&key| key == k) else {
            return Err((
                Some(i),
                format!("unknown {flag} setting '{k}' (known: {})", keys.join(", ")),
            ));
        };
        let n = whole(v, k).and_then(|n| at_most(n, MATE_CP as u32, k));
        out[slot] = Some(n.map_err(|m| (Some(i), m))?);
    }
    Ok(out)
}

/// `movecount`, checked after every key has been read.
fn at_least_one(settings: &[(&str, &str)], move_count: u32) -> Result<u32, SettingError> {
    at_least(move_count, 1, "movecount")
        .map_err(|m| (settings.iter().position(|&(k, _)| k == "movecount"), m))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn draw(move_number: u32, move_count: u32, score_cp: i32) -> Option<DrawRule> {
        Some(DrawRule {
            move_number,
            move_count,
            score_cp,
        })
    }

    fn resign(move_count: u32, score_cp: i32, two_sided: bool) -> Option<ResignRule> {
        Some(ResignRule {
            move_count,
            score_cp,
            two_sided,
        })
    }

    /// Feeds `(side, move number, score)` moves; the verdicts after each.
    fn run(a: &mut Adjudicator, moves: &[(usize, u32, Option<i32>)]) -> Vec<Option<Verdict>> {
        moves.iter().map(|&(s, n, v)| a.record(s, n, v)).collect()
    }

    #[test]
    fn scores_of_info_lines() {
        assert_eq!(
            info_score("info depth 3 score cp -25 nodes 9 pv a"),
            Some(-25)
        );
        assert_eq!(info_score("info score cp 17 lowerbound"), Some(17));
        assert_eq!(info_score("info depth 9 score mate 3 pv x"), Some(MATE_CP));
        assert_eq!(info_score("info score mate -2"), Some(-MATE_CP));
        assert_eq!(info_score("info score mate 0"), Some(-MATE_CP));
        assert_eq!(info_score("info score cp 99999999999"), Some(MATE_CP));
        for none in [
            "info depth 3 nodes 9",
            "info score cp abc",
            "info score",
            "info score wdl 1 2 3",
            "info string score cp 5",
            "bestmove a0a1 score cp 5",
            "",
        ] {
            assert_eq!(info_score(none), None, "{none}");
        }
    }

    #[test]
    fn draw_needs_both_sides_from_the_move_number_on() {
        let mut a = Adjudicator::new(draw(3, 2, 10), None);
        let v = run(
            &mut a,
            &[
                (0, 1, Some(0)),
                (1, 1, Some(5)),
                (0, 2, Some(-10)),
                (1, 2, Some(10)),
                // Two quiet moves each, but not all from move 3 on.
                (0, 3, Some(3)),
                (1, 3, Some(3)),
                (0, 4, Some(11)),
                (1, 4, Some(0)),
                (0, 5, Some(0)),
                (1, 5, Some(0)),
                (0, 6, Some(0)),
            ],
        );
        let first = v.iter().position(Option::is_some);
        // Tangerine's 11 at move 4 breaks its streak: moves 5 and 6.
        assert_eq!(first, Some(10), "{v:?}");
        assert_eq!(v[10], Some(Verdict::Draw));
    }

    #[test]
    fn a_move_without_a_score_breaks_a_streak() {
        let mut a = Adjudicator::new(draw(0, 1, 10), None);
        assert_eq!(a.record(0, 1, Some(0)), None);
        assert_eq!(a.record(1, 1, None), None);
        assert_eq!(a.record(0, 2, Some(0)), None);
        assert_eq!(a.record(1, 2, Some(0)), Some(Verdict::Draw));
    }

    #[test]
    fn resign_one_sided_and_two_sided() {
        let moves = [
            (0, 1, Some(-400)),
            (1, 1, Some(100)),
            (0, 2, Some(-MATE_CP)),
            (1, 2, Some(500)),
            (0, 3, Some(-450)),
        ];
        let mut a = Adjudicator::new(None, resign(2, 400, false));
        let v = run(&mut a, &moves);
        assert_eq!(v[2], Some(Verdict::Resigns(0)), "{v:?}");
        assert!(v[..2].iter().all(Option::is_none));
        // Two-sided: Lavender's last two scores must be ≥ 400 as well,
        // which they are only after its 500.
        let mut a = Adjudicator::new(None, resign(2, 400, true));
        let v = run(&mut a, &moves);
        assert_eq!(v[..3], [None, None, None]);
        assert_eq!(v[3], None, "100 then 500: not yet");
        let mut a = Adjudicator::new(None, resign(2, 400, true));
        let v = run(
            &mut a,
            &[
                (0, 1, Some(-400)),
                (1, 1, Some(400)),
                (0, 2, Some(-401)),
                (1, 2, Some(MATE_CP)),
            ],
        );
        // Decided when the winner's second score arrives.
        assert_eq!(v, [None, None, None, Some(Verdict::Resigns(0))]);
        // Lavender resigns too, and -399 is not low enough.
        let mut a = Adjudicator::new(None, resign(1, 400, false));
        assert_eq!(a.record(1, 1, Some(-399)), None);
        assert_eq!(a.record(1, 2, Some(-400)), Some(Verdict::Resigns(1)));
    }

    #[test]
    fn settings() {
        assert_eq!(
            parse_draw(&[("movenumber", "40"), ("movecount", "8"), ("score", "10")]),
            Ok(draw(40, 8, 10).unwrap())
        );
        assert_eq!(
            parse_resign(&[("score", "400"), ("movecount", "3")]),
            Ok(resign(3, 400, false).unwrap())
        );
        assert_eq!(
            parse_resign(&[("movecount", "3"), ("twosided", "true"), ("score", "400")]),
            Ok(resign(3, 400, true).unwrap())
        );
        assert_eq!(
            parse_resign(&[("twosided", "false"), ("movecount", "3"), ("score", "400")]),
            Ok(resign(3, 400, false).unwrap())
        );
        let cases: &[(Result<(), SettingError>, Option<usize>, &str)] = &[
            (
                parse_draw(&[("movenumber", "40"), ("movecount", "8")]).map(drop),
                None,
                "needs movenumber=N movecount=M score=S",
            ),
            (
                parse_draw(&[("movenumber", "x"), ("movecount", "8"), ("score", "1")]).map(drop),
                Some(0),
                "movenumber must be a whole number",
            ),
            (
                parse_draw(&[("movenumber", "1"), ("movecount", "0"), ("score", "1")]).map(drop),
                Some(1),
                "movecount must be at least 1",
            ),
            (
                parse_draw(&[("movenumber", "1"), ("count", "3")]).map(drop),
                Some(1),
                "unknown -draw setting 'count'",
            ),
            (
                parse_resign(&[("movecount", "3"), ("score", "-400")]).map(drop),
                Some(1),
                "score must be a whole number",
            ),
            (
                parse_resign(&[("twosided", "yes"), ("movecount", "3"), ("score", "4")]).map(drop),
                Some(0),
                "twosided is true or false",
            ),
            (
                parse_resign(&[("twosided", "true"), ("score", "4"), ("movenumber", "4")])
                    .map(drop),
                Some(2),
                "unknown -resign setting 'movenumber'",
            ),
            (
                parse_resign(&[("score", "4")]).map(drop),
                None,
                "-resign needs movecount=M score=S",
            ),
            (
                parse_resign(&[("score", "100001"), ("movecount", "1")]).map(drop),
                Some(0),
                "score must be at most 100000",
            ),
        ];
        for (got, index, want) in cases {
            let (i, m) = got.clone().unwrap_err();
            assert_eq!(i, *index, "{m}");
            assert!(m.contains(want), "{m}");
        }
    }
}
