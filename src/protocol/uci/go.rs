//! Parsing `go`'s arguments. Any word that is not a limit, or a limit whose
//! value is not a whole number ≥ 0, refuses the whole `go`: a referee that
//! waits for `bestmove` must never be left with an unlimited search because
//! one value was misspelt. Nor is a `go` that gives the side to move no
//! limit at all (only the other side's clock, only an increment or
//! `movestogo`, or nothing) left unlimited: it searches
//! [`DEFAULT_BUDGET_MS`]; only `infinite` searches until `stop`.

use crate::rules::moves::Move;
use crate::rules::piece::Color;
use crate::search::time::SearchLimits;
use crate::user_text::quote;

/// Deepest `go depth`; deeper requests are searched to this.
const MAX_DEPTH: u64 = 64;

/// The search time of a `go` that gives the side to move no limit: long
/// enough for a good move, short enough that a referee which sent the
/// wrong side's clock gets one.
pub const DEFAULT_BUDGET_MS: u64 = 5_000;

/// The words of `go`; any other word after `searchmoves` must be a move.
const WORDS: &[&str] = &[
    "depth",
    "mate",
    "nodes",
    "movetime",
    "time",
    "inc",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "infinite",
    "ponder",
    "searchmoves",
];

/// What one `go` asks for.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Go {
    pub limits: SearchLimits,
    /// `searchmoves`: only these root moves (empty: all).
    pub searchmoves: Vec<Move>,
    /// The side to move had no limit: [`DEFAULT_BUDGET_MS`] was set.
    pub budgeted: bool,
}

/// Parses `go`'s arguments, words of `line`; `wtime`/`btime`/`winc`/`binc`
/// count for `side`. The error names the first bad word and why (a bad
/// move with its offset in `line`).
pub fn parse(args: &[&str], line: &str, side: Color) -> Result<Go, String> {
    let mut go = Go::default();
    let l = &mut go.limits;
    let white = side == Color::White;
    let mut i = 0;
    while i < args.len() {
        let word = args[i].to_ascii_lowercase();
        let mut number = || -> Result<u64, String> {
            i += 1;
            let v = args
                .get(i)
                .ok_or(format!("go {word} needs a whole number"))?;
            v.parse::<u64>().map_err(|_| {
                format!(
                    "go {word} wants a whole number of at least 0, got '{}'",
                    quote(v)
                )
            })
        };
        match word.as_str() {
            "depth" => l.depth = Some(number()?.clamp(1, MAX_DEPTH) as u32),
            "mate" => l.mate = Some(number()?.clamp(1, MAX_DEPTH) as u32),
            "nodes" => l.nodes = Some(number()?.max(1)),
            "movetime" => l.movetime = Some(number()?),
            "time" => l.time = Some(number()?),
            "inc" => l.inc = number()?,
            "wtime" | "btime" => {
                let n = number()?;
                if (word == "wtime") == white {
                    l.time = Some(n);
                }
            }
            "winc" | "binc" => {
                let n = number()?;
                if (word == "winc") == white {
                    l.inc = n;
                }
            }
            "movestogo" => l.movestogo = Some(number()?.min(1000) as u32),
            "infinite" => l.infinite = true,
            "ponder" => l.ponder = true,
            "searchmoves" => {
                // The moves run to the next word of `go`.
                while let Some(t) = args
                    .get(i + 1)
                    .filter(|t| !WORDS.contains(&t.to_ascii_lowercase().as_str()))
                {
                    let m = Move::parse(t).map_err(|e| {
                        format!(
                            "go searchmoves: '{}' at offset {} is not a move: {}",
                            quote(t),
                            offset(t, line),
                            e.why
                        )
                    })?;
                    go.searchmoves.push(m);
                    i += 1;
                }
                if go.searchmoves.is_empty() {
                    return Err("go searchmoves needs at least one move".to_string());
                }
            }
            _ => return Err(format!("go: unknown word '{}'", quote(args[i]))),
        }
        i += 1;
    }
    let l = &mut go.limits;
    let bounded = l.time.is_some()
        || l.depth.is_some()
        || l.mate.is_some()
        || l.nodes.is_some()
        || l.movetime.is_some()
        || l.infinite;
    if !bounded {
        l.movetime = Some(DEFAULT_BUDGET_MS);
        go.budgeted = true;
    }
    Ok(go)
}

/// Where `word`, a slice of `line`, starts in it (0 for any other text).
fn offset(word: &str, line: &str) -> usize {
    let (w, l) = (word.as_ptr() as usize, line.as_ptr() as usize);
    if w >= l && w + word.len() <= l + line.len() {
        w - l
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `text`'s words as `go`'s arguments, Black to move.
    fn go(text: &str) -> Result<Go, String> {
        parse(
            &text.split_whitespace().collect::<Vec<_>>(),
            text,
            Color::Black,
        )
    }

    #[test]
    fn limits_and_the_side_to_moves_clock() {
        let g = go("wtime 100 btime 2000 winc 1 binc 30 movestogo 12 depth 7").unwrap();
        assert_eq!(g.limits.time, Some(2000));
        assert_eq!(g.limits.inc, 30);
        assert_eq!(g.limits.movestogo, Some(12));
        assert_eq!(g.limits.depth, Some(7));
        let g = go("time 900 inc 10 nodes 0 mate 3 ponder").unwrap();
        assert_eq!(
            (g.limits.time, g.limits.inc, g.limits.nodes, g.limits.mate),
            (Some(900), 10, Some(1), Some(3))
        );
        assert!(g.limits.ponder && !g.limits.infinite);
        assert!(!g.budgeted);
        assert_eq!(go("depth 999").unwrap().limits.depth, Some(64));
    }

    #[test]
    fn no_limit_for_the_side_to_move_is_the_default_budget() {
        // Black to move: White's clock, increments or movestogo alone
        // leave it unlimited, as does a bare `go`.
        for text in [
            "wtime 1000 winc 10",
            "inc 10",
            "winc 10 binc 10",
            "movestogo 5",
            "",
            "ponder",
        ] {
            let g = go(text).unwrap();
            assert!(g.budgeted, "{text}");
            assert_eq!(g.limits.movetime, Some(DEFAULT_BUDGET_MS), "{text}");
        }
        for text in [
            "btime 1000",
            "time 1000",
            "infinite",
            "depth 3",
            "nodes 9",
            "mate 2",
            "movetime 40",
        ] {
            let g = go(text).unwrap();
            assert!(!g.budgeted, "{text}");
            assert_ne!(g.limits.movetime, Some(DEFAULT_BUDGET_MS), "{text}");
        }
    }

    #[test]
    fn searchmoves_run_to_the_next_word() {
        let g = go("searchmoves h0L g4f5 depth 3").unwrap();
        assert_eq!(
            g.searchmoves,
            [Move::parse("h0L").unwrap(), Move::parse("g4f5").unwrap()]
        );
        assert_eq!(g.limits.depth, Some(3));
        assert!(go("searchmoves depth 3")
            .unwrap_err()
            .contains("at least one move"));
    }

    #[test]
    fn a_bad_searchmove_is_named_with_its_offset() {
        assert_eq!(
            go("searchmoves zz").unwrap_err(),
            "go searchmoves: 'zz' at offset 12 is not a move: does not start with a square a0..h7"
        );
        let e = go("depth 3 searchmoves h0L  g4g6 infinite").unwrap_err();
        assert!(
            e.starts_with("go searchmoves: 'g4g6' at offset 25 is not a move"),
            "{e}"
        );
    }

    #[test]
    fn any_bad_word_refuses_the_whole_go() {
        for (text, why) in [
            (
                "movetime 1.5",
                "go movetime wants a whole number of at least 0, got '1.5'",
            ),
            (
                "depth abc",
                "go depth wants a whole number of at least 0, got 'abc'",
            ),
            (
                "wtime -5",
                "go wtime wants a whole number of at least 0, got '-5'",
            ),
            (
                "btime -5",
                "go btime wants a whole number of at least 0, got '-5'",
            ),
            ("depth", "go depth needs a whole number"),
            ("depht 5", "go: unknown word 'depht'"),
            ("depth 5 extra", "go: unknown word 'extra'"),
            (
                "nodes 99999999999999999999999",
                "go nodes wants a whole number",
            ),
        ] {
            let e = go(text).unwrap_err();
            assert!(e.starts_with(why), "{text}: {e}");
        }
    }
}
