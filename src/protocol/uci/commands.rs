//! The command table: what `help` lists, what the loop recognises, and the
//! short aliases other engines accept.

use super::line_out;

pub(super) const COMMANDS: &[(&str, &str)] = &[
    ("uci", "identify the engine and list its options"),
    ("isready", "answer readyok"),
    ("setoption name <id> [value <x>]", "set an option"),
    ("ucinewgame", "start a new game from the start position"),
    (
        "position startpos|endgame|fen <board> <W|B> [moves m1 m2 ...]",
        "set the position",
    ),
    (
        "go [depth d] [nodes n] [movetime ms] [time ms] [inc ms] [movestogo n] [mate n] [infinite] [ponder] [searchmoves m ...]",
        "search (also wtime btime winc binc); a bad word refuses the go",
    ),
    ("stop", "end the search and answer bestmove"),
    (
        "ponderhit",
        "the pondered move was played: search on the clock",
    ),
    ("perft [d]", "count leaf nodes to depth 1..d (default 4)"),
    ("display", "draw the board (also: d)"),
    (
        "eval [move]",
        "print the evaluation terms and score (after move, if given)",
    ),
    ("generate", "list the moves of the position"),
    ("move <m>", "play one move"),
    ("help", "list the commands"),
    ("quit", "exit"),
];

/// The commands of the `debug-commands` feature, listed by `help` after
/// `COMMANDS`.
#[cfg(feature = "debug-commands")]
const DEBUG_COMMANDS: &[(&str, &str)] = &[(
    "dump [name]",
    "print a named structure (board tt killers history coverage); no name: list them",
)];
#[cfg(not(feature = "debug-commands"))]
const DEBUG_COMMANDS: &[(&str, &str)] = &[];

/// Commands that exist but are not listed: `debug corrupt board [how]`
/// breaks the current board on purpose, a testing aid for `check_rep`.
#[cfg(feature = "debug-commands")]
const HIDDEN_COMMANDS: &[&str] = &["debug"];
#[cfg(not(feature = "debug-commands"))]
const HIDDEN_COMMANDS: &[&str] = &[];

/// Short names of commands, as other engines accept them.
const ALIASES: &[(&str, &str)] = &[("d", "display")];

/// The command an alias stands for, or `token` itself.
pub(super) fn canonical(token: &str) -> &str {
    ALIASES
        .iter()
        .find(|(alias, _)| *alias == token)
        .map_or(token, |(_, cmd)| cmd)
}

pub(super) fn is_command(token: &str) -> bool {
    ALIASES.iter().any(|(alias, _)| *alias == token)
        || COMMANDS
            .iter()
            .chain(DEBUG_COMMANDS)
            .any(|(usage, _)| usage.split(' ').next() == Some(token))
        || HIDDEN_COMMANDS.contains(&token)
}

/// `help`: every listed command with what it does.
pub(super) fn help(out: &mut Vec<u8>) {
    for (usage, what) in COMMANDS.iter().chain(DEBUG_COMMANDS) {
        line_out(out, &format!("{usage:<64} {what}"));
    }
}
