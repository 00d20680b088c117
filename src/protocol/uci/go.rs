//! Parsing `go`'s arguments. Any word that is not a limit, or a limit whose
//! value is not a whole number ≥ 0, refuses the whole `go`: a referee that
//! waits for `bestmove` must never be left with an unlimited search because
//! one value was misspelt.

use crate::quote::quote;
use crate::rules::moves::Move;
use crate::rules::piece::Color;
use crate::search::time::SearchLimits;

/// Deepest `go depth`; deeper requests are searched to this.
const MAX_DEPTH: u64 = 64;

/// What one `go` asks for.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Go {
    pub limits: SearchLimits,
    /// `searchmoves`: only these root moves (empty: all).
    pub searchmoves: Vec<Move>,
}

/// Parses `go`'s arguments; `wtime`/`btime`/`winc`/`binc` count for `side`.
/// The error names the first bad word and why.
pub fn parse(args: &[&str], side: Color) -> Result<Go, String> {
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
                // The moves run to the next word that is not a move.
                while let Some(m) = args.get(i + 1).and_then(|t| Move::parse(t).ok()) {
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
    Ok(go)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(text: &str) -> Result<Go, String> {
        parse(&text.split_whitespace().collect::<Vec<_>>(), Color::Black)
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
        assert_eq!(go("").unwrap(), Go::default());
        assert_eq!(go("depth 999").unwrap().limits.depth, Some(64));
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
