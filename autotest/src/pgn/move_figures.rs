//! Each side's figures a move, from the comments after the moves of PGN
//! files (`autotest stats --pgn … --moves`): the thinking time, depth and
//! nodes of its searched moves, medians and the mean time. Equal-time
//! claims and the reference matches are read from these.
//!
//! A comment of three fields after a move is read as `{time depth
//! nodes}`: autotest's standard layout writes seconds with a decimal point
//! and `-` for what the engine did not say, the course layout whole
//! nanoseconds. A move is counted as searched when its depth or nodes
//! are above 0; a book move (`{0 0 0}`, `{0.000 - -}`, an engine's own
//! book at depth 0) and a move without such a comment are counted apart.
//!
//! Given the games' Fischer clocks (one for every player, or a player's
//! own, as in a time-odds match), each side's clock is rebuilt from the
//! same times (the main time, less each move's time, plus the increment
//! after it; a move without figures costs nothing): its lowest point in
//! each game, and the games in which it fell below zero, which the course
//! referee's PGN does not otherwise mark; and its searched moves' time over
//! the goal the engine's default time plan gives at that clock (whole
//! milliseconds, as `go` sends them): how much of its plan a side spends,
//! which is what must match for two searches to spend equal time, since
//! the clock, not the plan, bounds a game's time.

use crate::pgn::read::{self, PgnGame};
use leiserchess::search::time::{Plan, SearchLimits};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

/// A move's figures: seconds, and the depth and nodes if said.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Figures {
    seconds: f64,
    depth: Option<u64>,
    nodes: Option<u64>,
}

impl Figures {
    /// Whether the move was searched: a depth or nodes above 0.
    fn searched(&self) -> bool {
        self.depth.unwrap_or(0) > 0 || self.nodes.unwrap_or(0) > 0
    }
}

/// A side's moves over the games read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SideMoves {
    searched: Vec<Figures>,
    /// Moves with no figures, or a book move's.
    unsearched: u64,
    /// With a clock: each game's lowest clock, in seconds.
    lowest: Vec<f64>,
    /// With a clock: the searched moves' time, and the default plan's
    /// goals at their clocks, in seconds.
    spent: f64,
    goals: f64,
}

/// A Fischer clock: the main time and the increment a move, in seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fischer {
    pub main: f64,
    pub inc: f64,
}

impl std::str::FromStr for Fischer {
    type Err = String;

    /// `MAIN+INC` in seconds, as autotest's `tc=`.
    fn from_str(s: &str) -> Result<Fischer, String> {
        let bad = || format!("a clock is MAIN+INC in seconds (0.1+0.001), not '{s}'");
        let (main, inc) = s.split_once('+').ok_or_else(bad)?;
        let number = |x: &str| {
            x.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0)
                .ok_or_else(bad)
        };
        Ok(Fischer {
            main: number(main)?,
            inc: number(inc)?,
        })
    }
}

/// A clock for the players named `name`, or without one for every
/// player not named in another (`[NAME=]MAIN+INC`).
#[derive(Clone, Debug, PartialEq)]
pub struct Clocks {
    pub name: Option<String>,
    pub clock: Fischer,
}

impl std::str::FromStr for Clocks {
    type Err = String;

    fn from_str(s: &str) -> Result<Clocks, String> {
        let (name, clock) = match s.rsplit_once('=') {
            Some((name, clock)) => (Some(name.to_string()), clock),
            None => (None, s),
        };
        Ok(Clocks {
            name,
            clock: clock.parse()?,
        })
    }
}

/// Player `name`'s clock in `clocks`: its own, else the one for all.
fn clock_of(clocks: &[Clocks], name: &str) -> Option<Fischer> {
    let own = clocks.iter().find(|c| c.name.as_deref() == Some(name));
    own.or_else(|| clocks.iter().find(|c| c.name.is_none()))
        .map(|c| c.clock)
}

/// The figures of every player in the games `player` plays in `files`,
/// each side's clock rebuilt where `clocks` gives it one.
pub fn gather(
    files: &[String],
    player: &str,
    clocks: &[Clocks],
) -> Result<BTreeMap<String, SideMoves>, String> {
    let mut sides = BTreeMap::new();
    for f in files {
        let games = read::read(Path::new(f)).map_err(|e| format!("stats: {e}"))?;
        for g in games
            .iter()
            .filter(|g| g.tag("White") == Some(player) || g.tag("Black") == Some(player))
        {
            add_game(g, clocks, &mut sides);
        }
    }
    Ok(sides)
}

/// A line a side: `moves of NAME: N searched (+U unsearched): time
/// median X ms, mean Y ms; depth median D; nodes median K`, and with a
/// clock `; lowest clock a game: median L ms, least M ms; run out in R
/// of G games`.
pub fn lines(sides: &BTreeMap<String, SideMoves>) -> String {
    let mut out = String::new();
    for (name, s) in sides {
        let mut times: Vec<f64> = s.searched.iter().map(|m| m.seconds).collect();
        out += &format!("moves of {name}: {} searched", times.len());
        if s.unsearched > 0 {
            out += &format!(" (+{} unsearched)", s.unsearched);
        }
        if !times.is_empty() {
            let mean = times.iter().sum::<f64>() / times.len() as f64;
            times.sort_by(f64::total_cmp);
            out += &format!(
                ": time median {:.2} ms, mean {:.2} ms; depth median {}; nodes median {}",
                lower_median(&times) * 1e3,
                mean * 1e3,
                shown(s.searched.iter().filter_map(|m| m.depth).collect()),
                shown(s.searched.iter().filter_map(|m| m.nodes).collect()),
            );
        }
        if !s.lowest.is_empty() {
            let mut lowest = s.lowest.clone();
            lowest.sort_by(f64::total_cmp);
            out += &format!(
                "; lowest clock a game: median {:.1} ms, least {:.1} ms; run out in {} of {} games",
                lower_median(&lowest) * 1e3,
                lowest[0] * 1e3,
                lowest.iter().filter(|l| **l < 0.0).count(),
                lowest.len(),
            );
        }
        if s.goals > 0.0 {
            out += &format!(
                "; time over the default plan's goal {:.1}%",
                s.spent / s.goals * 100.0
            );
        }
        out += "\n";
    }
    out
}

/// The lower median of sorted `v` (the element, so a count stays whole).
fn lower_median<T: Copy>(v: &[T]) -> T {
    v[(v.len() - 1) / 2]
}

/// The lower median of `v`, or `-` when no move said it.
fn shown(mut v: Vec<u64>) -> String {
    v.sort_unstable();
    if v.is_empty() {
        "-".into()
    } else {
        lower_median(&v).to_string()
    }
}

/// Adds game `g`'s moves to their movers' figures, and each side's lowest
/// clock in it where `clocks` gives the side one.
fn add_game(g: &PgnGame, clocks: &[Clocks], sides: &mut BTreeMap<String, SideMoves>) {
    let names = [g.tag("White"), g.tag("Black")].map(|n| n.unwrap_or("?").to_string());
    // Each move: its mover (0 White, 1 Black) and its figures, if any.
    let mut moves: Vec<(usize, Option<Figures>)> = Vec::new();
    let mut black_first = false;
    for item in items(movetext(&g.text)) {
        match item {
            Item::Comment(c) => {
                if let Some((_, figures @ None)) = moves.last_mut() {
                    *figures = parse_figures(c);
                }
            }
            Item::Token(t) if is_move_number(t) => {
                if moves.is_empty() && t.ends_with("...") {
                    black_first = true;
                }
            }
            Item::Token("1-0" | "0-1" | "1/2-1/2" | "*") => break,
            Item::Token(_) => moves.push(((moves.len() + usize::from(black_first)) % 2, None)),
        }
    }
    let clock = [0, 1].map(|side| clock_of(clocks, &names[side]));
    let mut left = clock.map(|c| c.map_or(0.0, |c| c.main));
    let mut lowest = left;
    for &(side, figures) in &moves {
        let entry = sides.entry(names[side].clone()).or_default();
        match figures.filter(Figures::searched) {
            Some(f) => {
                entry.searched.push(f);
                if let Some(c) = clock[side] {
                    entry.spent += f.seconds;
                    entry.goals += goal(left[side], c.inc);
                }
            }
            None => entry.unsearched += 1,
        }
        left[side] -= figures.map_or(0.0, |f| f.seconds);
        lowest[side] = lowest[side].min(left[side]);
        left[side] += clock[side].map_or(0.0, |c| c.inc);
    }
    for (side, name) in names.iter().enumerate() {
        if clock[side].is_some() && moves.iter().any(|(s, _)| *s == side) {
            let entry = sides.entry(name.clone()).or_default();
            entry.lowest.push(lowest[side]);
        }
    }
}

/// The goal, in seconds, of the engine's default time plan for a move
/// with `left` seconds on the clock and `inc` a move (0 on a clock run
/// out).
fn goal(left: f64, inc: f64) -> f64 {
    let ms = |s: f64| (s.max(0.0) * 1e3).round() as u64;
    let limits = SearchLimits {
        time: Some(ms(left)),
        inc: ms(inc),
        ..SearchLimits::default()
    };
    let soft = Plan::new(&limits, Instant::now()).soft;
    soft.map_or(0.0, |d| d.as_secs_f64())
}

/// The figures of a `{time depth nodes}` comment, if it is one.
fn parse_figures(comment: &str) -> Option<Figures> {
    let fields: Vec<&str> = comment.split_whitespace().collect();
    let [time, depth, nodes] = fields[..] else {
        return None;
    };
    let seconds = if time.contains('.') {
        time.parse::<f64>().ok()?
    } else {
        time.parse::<u64>().ok()? as f64 / 1e9
    };
    let number = |s: &str| match s {
        "-" => Some(None),
        s => s.parse::<u64>().ok().map(Some),
    };
    Some(Figures {
        seconds,
        depth: number(depth)?,
        nodes: number(nodes)?,
    })
}

/// `12.` or `12...`.
fn is_move_number(t: &str) -> bool {
    let digits = t.trim_end_matches('.');
    digits.len() < t.len() && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// A game's text after its tag lines.
fn movetext(text: &str) -> &str {
    let mut rest = text;
    while rest.starts_with('[') {
        rest = rest.split_once('\n').map_or("", |(_, r)| r);
    }
    rest
}

#[derive(Debug, PartialEq)]
enum Item<'a> {
    Token(&'a str),
    Comment(&'a str),
}

/// The movetext's tokens and `{…}` comments in order (`;` comments
/// dropped; an unclosed comment runs to the end).
fn items(text: &str) -> Vec<Item<'_>> {
    let mut out = Vec::new();
    let mut rest = text;
    loop {
        rest = rest.trim_start();
        let Some(c) = rest.chars().next() else {
            return out;
        };
        match c {
            '{' => {
                let (inner, after) = rest[1..].split_once('}').unwrap_or((&rest[1..], ""));
                out.push(Item::Comment(inner));
                rest = after;
            }
            ';' => rest = rest.split_once('\n').map_or("", |(_, r)| r),
            _ => {
                let end = rest
                    .find(|c: char| c.is_whitespace() || c == '{' || c == ';')
                    .unwrap_or(rest.len());
                out.push(Item::Token(&rest[..end]));
                rest = &rest[end..];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::read::parse;

    fn sides(text: &str) -> BTreeMap<String, SideMoves> {
        sides_on(text, &[])
    }

    fn sides_on(text: &str, clocks: &[&str]) -> BTreeMap<String, SideMoves> {
        let clocks: Vec<Clocks> = clocks.iter().map(|c| c.parse().unwrap()).collect();
        let mut sides = BTreeMap::new();
        for g in parse(text) {
            add_game(&g, &clocks, &mut sides);
        }
        sides
    }

    /// The course layout: nanoseconds, `{0 0 0}` book moves, an engine's
    /// own book move at depth 0 counted apart.
    const COURSE: &str = "[Event \"e\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n\
            1. g3f4 {0 0 0} c5U {0 0 0} 2. g4U {3000000 6 900} b3L {115582 0 0}\n\
            3. g4g5 {1000000 5 300} c3U {2000000 4 40} 4. e1d2 {2000000 7 600} 1-0\n\n";

    #[test]
    fn course_layout() {
        let s = sides(COURSE);
        let a = &s["a"];
        assert_eq!(a.unsearched, 1);
        assert_eq!(a.searched.len(), 3);
        assert_eq!(
            a.searched[0],
            Figures {
                seconds: 0.003,
                depth: Some(6),
                nodes: Some(900)
            }
        );
        assert_eq!((s["b"].searched.len(), s["b"].unsearched), (1, 2));
        assert_eq!(
            lines(&s),
            "moves of a: 3 searched (+1 unsearched): time median 2.00 ms, mean 2.00 ms; \
             depth median 6; nodes median 600\n\
             moves of b: 1 searched (+2 unsearched): time median 2.00 ms, mean 2.00 ms; \
             depth median 4; nodes median 40\n"
        );
    }

    /// autotest's layout: seconds, `-` for what was not said, the book
    /// moves without comments, Black first from a FEN.
    #[test]
    fn standard_layout_and_black_first() {
        let text = "[Event \"e\"]\n[White \"w\"]\n[Black \"k\"]\n[Result \"0-1\"]\n\n\
            1. d1c2 c5c6 2. e2d3 c4d3e4 {book} 3. g4L\n{0.000 - -} a7b6 {0.010 3 -}\n\
            4. h1g2 {0.004 - 500} ; a note {0.9 9 9}\n{King zapped} 0-1\n\n\
            [Event \"e\"]\n[White \"k\"]\n[Black \"w\"]\n[FEN \"x\"]\n[Result \"*\"]\n\n\
            1... a1a2 {0.020 2 10} 2. b1b2 {0.030 1 -} *\n\n";
        let s = sides(text);
        assert_eq!(s["w"].unsearched, 3);
        assert_eq!(s["k"].unsearched, 2);
        assert_eq!(
            lines(&s),
            "moves of k: 2 searched (+2 unsearched): time median 10.00 ms, mean 20.00 ms; \
             depth median 1; nodes median -\n\
             moves of w: 2 searched (+3 unsearched): time median 4.00 ms, mean 12.00 ms; \
             depth median 2; nodes median 10\n"
        );
    }

    /// Each side's clock rebuilt: at 5 ms + 1 ms a's lowest is 2 ms
    /// (5 − 0, +1, −3, +1, −1, +1, −2), b's 4.9 (5 − 0, +1, −0.116, +1,
    /// −2); at 2 ms + 0 both run out, a to −4 ms, b to −0.1.
    #[test]
    fn clocks_rebuilt() {
        let head = |s: &SideMoves| (s.searched.len(), s.unsearched);
        let s = sides_on(COURSE, &["0.005+0.001"]);
        assert_eq!((head(&s["a"]), head(&s["b"])), ((3, 1), (1, 2)));
        let text = lines(&s);
        assert!(text.contains("nodes median 600; lowest clock a game: median 2.0 ms, least 2.0 ms; run out in 0 of 1 games; time over"), "{text}");
        assert!(text.contains("nodes median 40; lowest clock a game: median 4.9 ms, least 4.9 ms; run out in 0 of 1 games; time over"), "{text}");
        let text = lines(&sides_on(COURSE, &["0.002+0"]));
        assert!(
            text.contains("least -4.0 ms; run out in 1 of 1 games; time over"),
            "{text}"
        );
        assert!(
            text.contains("least -0.1 ms; run out in 1 of 1 games; time over"),
            "{text}"
        );
        // A time-odds match: b's own clock, a's the one for all; or b's
        // alone, and a's line without a clock.
        let text = lines(&sides_on(COURSE, &["0.002+0", "b=0.005+0.001"]));
        assert!(
            text.contains("least -4.0 ms; run out in 1 of 1 games; time over"),
            "{text}"
        );
        assert!(
            text.contains("least 4.9 ms; run out in 0 of 1 games; time over"),
            "{text}"
        );
        let text = lines(&sides_on(COURSE, &["b=0.005+0.001"]));
        assert!(text.contains("nodes median 600\nmoves of b"), "{text}");
        let named = "x=y=1+0".parse::<Clocks>().map(|c| c.name);
        assert_eq!(named, Ok(Some("x=y".into())));
        assert_eq!(
            "0.1+0.001".parse(),
            Ok(Fischer {
                main: 0.1,
                inc: 0.001
            })
        );
        for bad in ["0.1", "x+1", "-1+0", "1+inf"] {
            let e = bad.parse::<Fischer>().unwrap_err();
            assert!(e.contains(&format!("not '{bad}'")), "{e}");
        }
    }

    /// At 10+0.1 the default plan's first goal is (10 s − 30 ms) / 25 +
    /// 80% of 0.1 s = 478.8 ms: a's one move of 478.8 ms is 100% of it,
    /// b's two moves (its clock at 10 s, then 10.061 s in whole ms: goals
    /// 478.8 and 481.24 ms) their sum over the goals'.
    #[test]
    fn time_over_the_default_goal() {
        let text = "[Event \"e\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\n\
            1. a1a2 {0.4788 5 100} b1b2 {0.0394 5 100} 2. a2a3 {0.000 - -} b2b3 {0.4394 5 100} *\n\n";
        let out = lines(&sides_on(text, &["10+0.1"]));
        assert!(
            out.contains("games; time over the default plan's goal 100.0%\nmoves of b"),
            "{out}"
        );
        let b = &sides_on(text, &["10+0.1"])["b"];
        let want = (0.0394 + 0.4394) / (0.4788 + 0.48124);
        assert!(
            (b.spent / b.goals - want).abs() < 1e-9,
            "{} {want}",
            b.spent / b.goals
        );
        assert_eq!(goal(-1.0, 0.1), 0.0);
    }

    #[test]
    fn comments_and_numbers() {
        let searched = |c: &str| parse_figures(c).filter(Figures::searched);
        assert_eq!(searched("0 0 0"), None);
        assert_eq!(parse_figures("0 0 0").map(|f| f.seconds), Some(0.0));
        assert_eq!(searched("book"), None);
        assert_eq!(searched("1 2"), None);
        assert_eq!(searched("x 1 1"), None);
        assert_eq!(searched("0.5 1 y"), None);
        assert!(is_move_number("12.") && is_move_number("3..."));
        assert!(!is_move_number("12") && !is_move_number(".") && !is_move_number("a1."));
        assert_eq!(
            items("a {b c} ; d\ne {f"),
            [
                Item::Token("a"),
                Item::Comment("b c"),
                Item::Token("e"),
                Item::Comment("f")
            ]
        );
        assert_eq!(
            lines(&sides("[Event \"e\"]\n[White \"a\"]\n\n1. x 1-0\n")),
            "moves of a: 0 searched (+1 unsearched)\n"
        );
    }
}
