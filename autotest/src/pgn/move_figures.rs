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

use crate::pgn::read::{self, PgnGame};
use std::collections::BTreeMap;
use std::path::Path;

/// One searched move: seconds, and the depth and nodes if said.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Searched {
    seconds: f64,
    depth: Option<u64>,
    nodes: Option<u64>,
}

/// A side's moves over the games read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SideMoves {
    searched: Vec<Searched>,
    /// Moves with no figures, or a book move's.
    unsearched: u64,
}

/// The figures of every player in the games `player` plays in `files`.
pub fn gather(files: &[String], player: &str) -> Result<BTreeMap<String, SideMoves>, String> {
    let mut sides = BTreeMap::new();
    for f in files {
        let games = read::read(Path::new(f)).map_err(|e| format!("stats: {e}"))?;
        for g in games
            .iter()
            .filter(|g| g.tag("White") == Some(player) || g.tag("Black") == Some(player))
        {
            add_game(g, &mut sides);
        }
    }
    Ok(sides)
}

/// A line a side: `NAME: N searched moves (+U unsearched): time median
/// X ms, mean Y ms; depth median D; nodes median K`.
pub fn lines(sides: &BTreeMap<String, SideMoves>) -> String {
    let mut out = String::new();
    for (name, s) in sides {
        let mut times: Vec<f64> = s.searched.iter().map(|m| m.seconds).collect();
        out += &format!("moves of {name}: {} searched", times.len());
        if s.unsearched > 0 {
            out += &format!(" (+{} unsearched)", s.unsearched);
        }
        if times.is_empty() {
            out += "\n";
            continue;
        }
        let mean = times.iter().sum::<f64>() / times.len() as f64;
        times.sort_by(f64::total_cmp);
        let median = lower_median(&times);
        out += &format!(
            ": time median {:.2} ms, mean {:.2} ms; depth median {}; nodes median {}\n",
            median * 1e3,
            mean * 1e3,
            shown(s.searched.iter().filter_map(|m| m.depth).collect()),
            shown(s.searched.iter().filter_map(|m| m.nodes).collect()),
        );
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

/// Adds game `g`'s moves to their movers' figures.
fn add_game(g: &PgnGame, sides: &mut BTreeMap<String, SideMoves>) {
    let names = [g.tag("White"), g.tag("Black")].map(|n| n.unwrap_or("?").to_string());
    let mut black_first = false;
    let mut plies = 0usize;
    // The last move's figures are settled when the next token comes.
    let mut pending: Option<(usize, Option<Searched>)> = None;
    let mut settle = |pending: &mut Option<(usize, Option<Searched>)>, black_first: bool| {
        if let Some((ply, figures)) = pending.take() {
            let side = (ply + usize::from(black_first)) % 2;
            let entry = sides.entry(names[side].clone()).or_default();
            match figures {
                Some(m) => entry.searched.push(m),
                None => entry.unsearched += 1,
            }
        }
    };
    for item in items(movetext(&g.text)) {
        match item {
            Item::Comment(c) => {
                if let Some((_, figures @ None)) = &mut pending {
                    *figures = searched(c);
                }
            }
            Item::Token(t) if is_move_number(t) => {
                if plies == 0 && t.ends_with("...") {
                    black_first = true;
                }
            }
            Item::Token("1-0" | "0-1" | "1/2-1/2" | "*") => break,
            Item::Token(_) => {
                settle(&mut pending, black_first);
                pending = Some((plies, None));
                plies += 1;
            }
        }
    }
    settle(&mut pending, black_first);
}

/// The figures of a `{time depth nodes}` comment, if it is one of a
/// searched move.
fn searched(comment: &str) -> Option<Searched> {
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
    let (depth, nodes) = (number(depth)?, number(nodes)?);
    let any = depth.unwrap_or(0) > 0 || nodes.unwrap_or(0) > 0;
    any.then_some(Searched {
        seconds,
        depth,
        nodes,
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
        let mut sides = BTreeMap::new();
        for g in parse(text) {
            add_game(&g, &mut sides);
        }
        sides
    }

    /// The course layout: nanoseconds, `{0 0 0}` book moves, an engine's
    /// own book move at depth 0 counted apart.
    #[test]
    fn course_layout() {
        let text = "[Event \"e\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n\
            1. g3f4 {0 0 0} c5U {0 0 0} 2. g4U {3000000 6 900} b3L {115582 0 0}\n\
            3. g4g5 {1000000 5 300} c3U {2000000 4 40} 4. e1d2 {2000000 7 600} 1-0\n\n";
        let s = sides(text);
        let a = &s["a"];
        assert_eq!(a.unsearched, 1);
        assert_eq!(a.searched.len(), 3);
        assert_eq!(
            a.searched[0],
            Searched {
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

    #[test]
    fn comments_and_numbers() {
        assert_eq!(searched("0 0 0"), None);
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
