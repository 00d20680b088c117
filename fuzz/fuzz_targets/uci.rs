//! The whole UCI loop: the input's lines handed one by one to a fresh
//! engine's `Engine::handle`, as `uci::run` hands them, until `quit` or the
//! end of the input, then `Engine::finish`. Nothing is asserted of the
//! output: the target fails on a panic, a `check_rep` failure (its exit) or
//! a hang.
//!
//! Each line is bounded before it is sent, so that one input cannot take
//! long or grow large:
//!
//! - `go`: its `infinite` and `ponder` words are dropped and `nodes
//!   GO_NODES movetime GO_MS` appended (the later word wins), and the
//!   target waits for the search to end by itself (`Engine::wait`), so a
//!   search runs to its limit whatever line comes next. The cost: `stop`,
//!   `ponderhit` and `isready` never meet a running search here, and no
//!   `go` is answered from the book (a `nodes` limit skips it).
//! - `perft`: depth at most PERFT_DEPTH (a bare `perft` counts to 4); the
//!   target waits for it too.
//! - `setoption`: `hash`, `threads` and `mcts_tree_mb` capped
//!   (`leiserchess_fuzz::capped`).
//! - `debug`: dropped, as it breaks the board on purpose (`debug corrupt`),
//!   after which the engine's behaviour is undefined.

#![no_main]

use leiserchess::protocol::uci::{command_at, Engine, Flow, Output};
use leiserchess_fuzz::capped;
use libfuzzer_sys::fuzz_target;

const GO_NODES: u32 = 100;
/// A backstop for searches whose nodes are slow (MCTS with deep node
/// searches): a limit, not a timing.
const GO_MS: u32 = 200;
const PERFT_DEPTH: u32 = 3;

fuzz_target!(|data: &[u8]| {
    let mut engine = Engine::new(Output::new(std::io::sink()));
    for raw in data.split(|&b| b == b'\n') {
        // `uci::run` answers a line that is not UTF-8 with an error and reads on.
        let Ok(line) = std::str::from_utf8(raw.strip_suffix(b"\r").unwrap_or(raw)) else {
            continue;
        };
        let Some(line) = bounded(line) else {
            continue;
        };
        let flow = engine.handle(&line, &mut Vec::new());
        engine.wait();
        if flow == Flow::Quit {
            break;
        }
    }
    engine.finish();
});

/// The line as the target sends it (see the module documentation); `None`
/// to leave it out.
fn bounded(line: &str) -> Option<String> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some(at) = command_at(&tokens) else {
        return Some(line.to_string());
    };
    let args = &tokens[at + 1..];
    match tokens[at] {
        "debug" => None,
        "go" => {
            let kept: Vec<&str> = args
                .iter()
                .copied()
                .filter(|t| {
                    !t.eq_ignore_ascii_case("infinite") && !t.eq_ignore_ascii_case("ponder")
                })
                .collect();
            Some(format!(
                "go {} nodes {GO_NODES} movetime {GO_MS}",
                kept.join(" ")
            ))
        }
        "perft" => match args {
            [] => Some(format!("perft {PERFT_DEPTH}")),
            [d] if d.parse::<u32>().is_ok_and(|d| d > PERFT_DEPTH) => {
                Some(format!("perft {PERFT_DEPTH}"))
            }
            _ => Some(line.to_string()),
        },
        "setoption" => Some(setoption(args).unwrap_or_else(|| line.to_string())),
        _ => Some(line.to_string()),
    }
}

/// A `setoption` of a capped option with its value capped, read as the
/// engine reads it: the name runs from `name` to the first `value` after
/// it, the value is the rest.
fn setoption(args: &[&str]) -> Option<String> {
    let n = args.iter().position(|t| t.eq_ignore_ascii_case("name"))?;
    let v = n
        + 1
        + args[n + 1..]
            .iter()
            .position(|t| t.eq_ignore_ascii_case("value"))?;
    let name = args[n + 1..v].join(" ");
    let value = capped(&name, &args[v + 1..].join(" "))?;
    Some(format!("setoption name {name} value {value}"))
}
