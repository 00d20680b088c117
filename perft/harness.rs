//! The data-driven perft regression suite (a libtest-mimic harness).
//!
//! Reads the reference data in `<CARGO_MANIFEST_DIR>/perft/data/` and makes
//! one trial per case:
//!
//! - `perft/<line>/d<depth>`: the fast `perft` against every count listed on
//!   line `<line>` of `perft.txt`. Cases whose expected count is above the
//!   node budget (`DEFAULT_BUDGET`, or the env var `PERFT_BUDGET`) are marked
//!   ignored; `-- --include-ignored` runs them. Cases above `THREADED_ABOVE`
//!   leaves (whatever the budget) run with `perft_threads` on all cores.
//! - `perft/<line>/plain`: the oracle `perft_plain` at every listed depth whose
//!   expected count is at most `PLAIN_LIMIT`.
//! - `positions/<line>`: for line `<line>` of `positions.txt`, the fast perft
//!   at depths 1 to 3, the oracle at depths 1 and 2, the sorted generated move
//!   list, and the FEN round trip. (The eval column is checked elsewhere.)
//!
//! A missing reference directory or a malformed data line fails the whole
//! harness before any trial runs, naming the path (and file and line).

use leiserchess::rules::board::Board;
use leiserchess::rules::fen::{parse, to_fen};
use leiserchess::rules::movegen::generate;
use leiserchess::rules::moves::MoveList;
use leiserchess::rules::perft::{perft, perft_plain, perft_threads};
use libtest_mimic::{Arguments, Failed, Trial};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Default node budget: fast-perft cases expecting more leaves than this are
/// ignored unless `--include-ignored` is given.
const DEFAULT_BUDGET: u64 = 60_000_000;

/// Cases expecting more leaves than this run with `perft_threads` on all
/// cores (a fixed threshold: `PERFT_BUDGET` does not move it).
const THREADED_ABOVE: u64 = DEFAULT_BUDGET;

/// The oracle runs only at depths whose expected count is at most this.
const PLAIN_LIMIT: u64 = 300_000;

/// Depths listed per line of `positions.txt`.
const POSITION_DEPTHS: usize = 3;

/// Oracle depths checked per line of `positions.txt`.
const POSITION_PLAIN_DEPTH: usize = 2;

/// One line of `perft.txt`.
struct PerftCase {
    /// `perft.txt:<line>`, for messages.
    origin: String,
    line: usize,
    fen: String,
    /// `counts[d - 1]` = perft at depth `d`.
    counts: Vec<u64>,
}

/// One line of `positions.txt`.
struct PositionCase {
    origin: String,
    line: usize,
    fen: String,
    counts: [u64; POSITION_DEPTHS],
    moves: Vec<String>,
}

fn main() -> ExitCode {
    let args = Arguments::from_args();
    let trials = match build_trials() {
        Ok(trials) => trials,
        Err(errors) => {
            eprintln!("error: the perft harness can not load its reference data:");
            for e in &errors {
                eprintln!("  {e}");
            }
            return ExitCode::FAILURE;
        }
    };
    libtest_mimic::run(&args, trials).exit()
}

/// The reference directory: `<CARGO_MANIFEST_DIR>/perft/data`.
fn reference_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("perft/data")
}

/// `PERFT_BUDGET` (underscores allowed), or the default.
fn node_budget() -> Result<u64, String> {
    match std::env::var("PERFT_BUDGET") {
        Err(std::env::VarError::NotPresent) => Ok(DEFAULT_BUDGET),
        Err(e) => Err(format!("PERFT_BUDGET: {e}")),
        Ok(text) => text.trim().replace('_', "").parse().map_err(|e| {
            format!("PERFT_BUDGET must be a node count like 60_000_000, found {text:?}: {e}")
        }),
    }
}

fn build_trials() -> Result<Vec<Trial>, Vec<String>> {
    let dir = reference_dir();
    if !dir.is_dir() {
        return Err(vec![format!(
            "reference data directory {} is missing (expected perft.txt and positions.txt there)",
            dir.display()
        )]);
    }
    let mut errors = Vec::new();
    let budget = node_budget().unwrap_or_else(|e| {
        errors.push(e);
        DEFAULT_BUDGET
    });
    let perft_cases = load(&dir.join("perft.txt"), parse_perft_line, &mut errors);
    let position_cases = load(&dir.join("positions.txt"), parse_position_line, &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }

    let mut trials = Vec::new();
    for case in perft_cases {
        let PerftCase {
            origin,
            line,
            fen,
            counts,
        } = case;
        for (i, &expected) in counts.iter().enumerate() {
            let depth = i as u32 + 1;
            let (origin, fen) = (origin.clone(), fen.clone());
            trials.push(
                Trial::test(format!("perft/{line}/d{depth}"), move || {
                    check_fast(&origin, &fen, depth, expected)
                })
                .with_ignored_flag(expected > budget),
            );
        }
        if counts.first().is_some_and(|&n| n <= PLAIN_LIMIT) {
            trials.push(Trial::test(format!("perft/{line}/plain"), move || {
                check_plain(&origin, &fen, &counts)
            }));
        }
    }
    for case in position_cases {
        trials.push(Trial::test(format!("positions/{}", case.line), move || {
            check_position(&case)
        }));
    }
    Ok(trials)
}

/// Reads `path` and parses each data line (not blank, not `#`) with `parse_line`,
/// collecting `file:line: problem` errors.
fn load<T>(
    path: &Path,
    parse_line: fn(&str, usize, &str) -> Result<T, String>,
    errors: &mut Vec<String>,
) -> Vec<T> {
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) => {
            errors.push(format!("can not read {}: {e}", path.display()));
            return Vec::new();
        }
    };
    let errors_before = errors.len();
    let mut cases = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let origin = format!("{name}:{}", i + 1);
        match parse_line(&origin, i + 1, line) {
            Ok(case) => cases.push(case),
            Err(e) => errors.push(format!(
                "{}:{}: malformed line: {e}: {line:?}",
                path.display(),
                i + 1
            )),
        }
    }
    if cases.is_empty() && errors.len() == errors_before {
        errors.push(format!("{} has no data lines", path.display()));
    }
    cases
}

/// `FEN | n1 n2 n3 ...`
fn parse_perft_line(origin: &str, line: usize, text: &str) -> Result<PerftCase, String> {
    let fields: Vec<&str> = text.split('|').map(str::trim).collect();
    let [fen, counts] = fields[..] else {
        return Err(format!(
            "expected 2 fields separated by '|', found {}",
            fields.len()
        ));
    };
    if fen.is_empty() {
        return Err("empty FEN".into());
    }
    let counts = parse_counts(counts)?;
    if counts.is_empty() {
        return Err("no perft counts".into());
    }
    Ok(PerftCase {
        origin: origin.into(),
        line,
        fen: fen.into(),
        counts,
    })
}

/// `FEN | p1 p2 p3 | eval | move move move ...`
fn parse_position_line(origin: &str, line: usize, text: &str) -> Result<PositionCase, String> {
    let fields: Vec<&str> = text.split('|').map(str::trim).collect();
    let [fen, counts, eval, moves] = fields[..] else {
        return Err(format!(
            "expected 4 fields separated by '|', found {}",
            fields.len()
        ));
    };
    if fen.is_empty() {
        return Err("empty FEN".into());
    }
    let counts: [u64; POSITION_DEPTHS] =
        parse_counts(counts)?.try_into().map_err(|v: Vec<u64>| {
            format!("expected {POSITION_DEPTHS} perft counts, found {}", v.len())
        })?;
    eval.parse::<i32>()
        .map_err(|e| format!("eval {eval:?} is not an integer: {e}"))?;
    let moves: Vec<String> = moves.split_whitespace().map(String::from).collect();
    if moves.len() as u64 != counts[0] {
        return Err(format!(
            "{} moves listed but perft 1 is {}",
            moves.len(),
            counts[0]
        ));
    }
    Ok(PositionCase {
        origin: origin.into(),
        line,
        fen: fen.into(),
        counts,
        moves,
    })
}

fn parse_counts(text: &str) -> Result<Vec<u64>, String> {
    text.split_whitespace()
        .map(|n| {
            n.parse()
                .map_err(|e| format!("perft count {n:?} is not a number: {e}"))
        })
        .collect()
}

fn parse_fen(origin: &str, fen: &str) -> Result<leiserchess::rules::board::Board, Failed> {
    parse(fen).map_err(|e| format!("FEN {fen:?} ({origin}) does not parse: {e}").into())
}

/// The fast perft (threaded for big cases) against the expected count.
fn check_fast(origin: &str, fen: &str, depth: u32, expected: u64) -> Result<(), Failed> {
    let board = parse_fen(origin, fen)?;
    let actual = if expected > THREADED_ABOVE {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        perft_threads(&board, depth, threads)
    } else {
        perft(&mut board.clone(), depth)
    };
    if actual == expected {
        Ok(())
    } else {
        Err(mismatch("perft", origin, fen, depth, expected, actual).into())
    }
}

/// The oracle at every depth whose count is within `PLAIN_LIMIT`.
fn check_plain(origin: &str, fen: &str, counts: &[u64]) -> Result<(), Failed> {
    let mut board = parse_fen(origin, fen)?;
    let within = counts.iter().take_while(|&&n| n <= PLAIN_LIMIT).count();
    let failures = plain_failures(&mut board, origin, fen, &counts[..within]);
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n").into())
    }
}

/// The oracle's mismatches against `counts` (depth 1 first).
fn plain_failures(board: &mut Board, origin: &str, fen: &str, counts: &[u64]) -> Vec<String> {
    let mut failures = Vec::new();
    for (i, &expected) in counts.iter().enumerate() {
        let depth = i as u32 + 1;
        let actual = perft_plain(board, depth);
        if actual != expected {
            failures.push(mismatch(
                "perft_plain",
                origin,
                fen,
                depth,
                expected,
                actual,
            ));
        }
    }
    failures
}

fn mismatch(what: &str, origin: &str, fen: &str, depth: u32, expected: u64, actual: u64) -> String {
    let diff = actual as i128 - expected as i128;
    format!(
        "{what} mismatch for FEN {fen:?} ({origin}) at depth {depth}: \
         expected {expected}, actual {actual} ({diff:+})"
    )
}

/// Every check on one line of `positions.txt`; reports all failures together.
fn check_position(case: &PositionCase) -> Result<(), Failed> {
    let PositionCase { origin, fen, .. } = case;
    let mut board = parse_fen(origin, fen)?;
    let mut failures = Vec::new();

    let round_trip = to_fen(&board);
    if round_trip != *fen {
        failures.push(format!(
            "FEN round trip for {fen:?} ({origin}): to_fen(parse(fen)) gave {round_trip:?}"
        ));
    }

    for (i, &expected) in case.counts.iter().enumerate() {
        let depth = i as u32 + 1;
        let actual = perft(&mut board, depth);
        if actual != expected {
            failures.push(mismatch("perft", origin, fen, depth, expected, actual));
        }
    }
    let within = case.counts.len().min(POSITION_PLAIN_DEPTH);
    failures.extend(plain_failures(
        &mut board,
        origin,
        fen,
        &case.counts[..within],
    ));

    let mut list = MoveList::new();
    generate(&board, &mut list);
    let mut generated: Vec<String> = list.iter().map(|m| m.to_string()).collect();
    generated.sort();
    if generated != case.moves {
        failures.push(move_list_diff(origin, fen, &case.moves, &generated));
    }

    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n").into())
    }
}

/// Describes how the generated (sorted) moves differ from the listed ones, as
/// multisets: the moves missing, the moves extra, or else the order.
fn move_list_diff(origin: &str, fen: &str, listed: &[String], generated: &[String]) -> String {
    let mut balance: BTreeMap<&str, i64> = BTreeMap::new();
    for m in listed {
        *balance.entry(m).or_default() += 1;
    }
    for m in generated {
        *balance.entry(m).or_default() -= 1;
    }
    let expand = |sign: i64| -> Vec<&str> {
        balance
            .iter()
            .filter(|&(_, &n)| n * sign > 0)
            .flat_map(|(&m, &n)| std::iter::repeat_n(m, (n * sign) as usize))
            .collect()
    };
    let (missing, extra) = (expand(1), expand(-1));
    let mut out = format!(
        "move list mismatch for FEN {fen:?} ({origin}): expected {} moves, generated {}",
        listed.len(),
        generated.len()
    );
    if !missing.is_empty() {
        let _ = write!(
            out,
            "\n  missing ({}): {}",
            missing.len(),
            missing.join(" ")
        );
    }
    if !extra.is_empty() {
        let _ = write!(out, "\n  extra ({}): {}", extra.len(), extra.join(" "));
    }
    if missing.is_empty() && extra.is_empty() {
        let _ = write!(
            out,
            "\n  same moves in a different order (the listed moves should be byte-wise sorted)\
             \n  listed:    {}\n  generated: {}",
            listed.join(" "),
            generated.join(" ")
        );
    }
    out
}
