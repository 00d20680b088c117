//! The `leiserchess` binary: the UCI loop with no arguments, a one-shot
//! command (`perft`, `bench`, `evalbench`, the lab's), or the browser GUI's
//! server (`gui`).

#![forbid(unsafe_code)]

use leiserchess::declaration::Kind as OptionKind;
use leiserchess::eval::{bench, Weights};
use leiserchess::lab::{book, datagen, train, tune, wdl};
use leiserchess::rules::fen;
use leiserchess::rules::perft::{divide, perft_plain, perft_threads};
use leiserchess::search::params::{TableSize, TABLE};
use leiserchess::search::{self, Params};
use leiserchess::user_text::quote;
use std::process::ExitCode;
use std::time::{Duration, Instant};

const HEADER: &str = "usage:
  leiserchess                 run the Leiserchess UCI loop on stdin/stdout
  leiserchess --version       print the name and version
  leiserchess COMMAND --help  the usage of one command";

const PERFT_USAGE: &str =
    "  leiserchess perft <depth> [--fen FEN|startpos|endgame] [--threads N] [--plain] [--divide]
                              count leaf nodes from a position (default: startpos)";

const BENCH_USAGE: &str =
    "  leiserchess bench [depth] [--hash MB] [--ways K] [--hand] [--check-rep]
                              search the fixed bench positions to depth (default 6),
                              one thread; ends with the node total and nps; --hand
                              evaluates with the hand-written evaluation instead of
                              the embedded net;
                              --check-rep (not in the pedantic build) checks every
                              invariant as the check_rep option does";

const EVALBENCH_USAGE: &str = "  leiserchess evalbench [FILE] [--seconds S]
                              evaluate every FEN of FILE (default: the 300 reference
                              positions) for S seconds (default 3); ends with evals/s";

/// A one-shot command: its name, its usage and what runs it.
type Command = (
    &'static str,
    &'static str,
    fn(&[String]) -> Result<(), String>,
);

/// Every one-shot command, in the order the usage lists them.
const COMMANDS: &[Command] = &[
    ("perft", PERFT_USAGE, perft_command),
    ("bench", BENCH_USAGE, bench_command),
    ("evalbench", EVALBENCH_USAGE, evalbench_command),
    ("gui", leiserchess::gui::USAGE, leiserchess::gui::command),
    ("datagen", datagen::USAGE, datagen::command),
    ("tune", tune::USAGE, tune::command),
    ("train", train::USAGE, train::command),
    ("book", book::USAGE, book::command),
    ("wdl", wdl::USAGE, wdl::command),
];

/// The whole usage text: every command's.
fn usage() -> String {
    let mut text = HEADER.to_string();
    for (_, usage, _) in COMMANDS {
        text += "\n";
        text += usage;
    }
    text
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (result, usage) = match args.first().map(String::as_str) {
        None => {
            leiserchess::protocol::uci::run(std::io::stdin().lock(), std::io::stdout());
            (Ok(()), usage())
        }
        Some("help" | "--help" | "-h") => {
            println!("{}", usage());
            (Ok(()), usage())
        }
        Some("--version" | "-V") => {
            println!("leiserchess {}", env!("CARGO_PKG_VERSION"));
            (Ok(()), usage())
        }
        Some(name) => match COMMANDS.iter().find(|(n, _, _)| *n == name) {
            // `--help` anywhere after a command asks for its usage, never
            // names a file or a value.
            Some((_, usage, _)) if args[1..].iter().any(|a| a == "--help" || a == "-h") => {
                println!("{usage}");
                (Ok(()), usage.to_string())
            }
            Some((_, usage, run)) => (run(&args[1..]), usage.to_string()),
            None => (Err(format!("unknown command '{}'", quote(name))), usage()),
        },
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("leiserchess: {e}\n{usage}");
            ExitCode::from(2)
        }
    }
}

fn perft_command(args: &[String]) -> Result<(), String> {
    let mut depth = None;
    let mut position = fen::STARTPOS.to_string();
    let mut threads = 1usize;
    let (mut plain, mut per_move) = (false, false);
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match arg.as_str() {
            "--fen" => position = value("--fen")?,
            "--threads" => {
                let v = value("--threads")?;
                threads = v
                    .parse()
                    .ok()
                    .filter(|&n| (1..=256).contains(&n))
                    .ok_or(format!(
                        "--threads wants a number 1..256, got '{}'",
                        quote(&v)
                    ))?;
            }
            "--plain" => plain = true,
            "--divide" => per_move = true,
            d if depth.is_none() => {
                depth = Some(
                    d.parse::<u32>()
                        .ok()
                        .filter(|&d| d <= 12)
                        .ok_or(format!("depth must be a number 0..12, got '{}'", quote(d)))?,
                )
            }
            other => return Err(format!("unexpected argument '{}'", quote(other))),
        }
    }
    let depth = depth.ok_or("perft needs a depth")?;
    let text = match position.as_str() {
        "startpos" => fen::STARTPOS,
        "endgame" => fen::ENDGAME,
        t => t,
    };
    let mut board = fen::parse(text).map_err(|e| format!("bad FEN '{}': {e}", quote(text)))?;
    let start = Instant::now();
    let nodes = if per_move {
        let rows = divide(&mut board, depth);
        for (m, n) in &rows {
            println!("{m} {n}");
        }
        rows.iter().map(|r| r.1).sum()
    } else if plain {
        perft_plain(&mut board, depth)
    } else {
        perft_threads(&board, depth, threads)
    };
    let secs = start.elapsed().as_secs_f64();
    println!("perft {depth} {nodes}");
    println!(
        "info time {:.0} ms nps {:.0}",
        secs * 1000.0,
        nodes as f64 / secs.max(1e-9)
    );
    Ok(())
}

fn evalbench_command(args: &[String]) -> Result<(), String> {
    let mut file = None;
    let mut seconds = 3.0f64;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--seconds" => {
                let v = it.next().ok_or("--seconds needs a value")?;
                seconds = v
                    .parse()
                    .ok()
                    .filter(|s: &f64| s.is_finite() && *s >= 0.0 && *s <= 3600.0)
                    .ok_or(format!("--seconds wants a number 0..3600, got '{v}'"))?;
            }
            f if file.is_none() => file = Some(f.to_string()),
            other => return Err(format!("unexpected argument '{}'", quote(other))),
        }
    }
    let text = match &file {
        Some(f) => std::fs::read_to_string(f).map_err(|e| format!("cannot read {f}: {e}"))?,
        None => bench::DEFAULT_POSITIONS.to_string(),
    };
    let name = file.as_deref().unwrap_or("the reference positions");
    let positions = bench::parse_positions(&text).map_err(|e| format!("{name}: {e}"))?;
    if positions.is_empty() {
        return Err(format!("{name}: no positions"));
    }
    let r = bench::run(
        &positions,
        &Weights::default(),
        Duration::from_secs_f64(seconds),
    );
    let secs = r.elapsed.as_secs_f64();
    println!("positions {} checksum {}", positions.len(), r.checksum);
    println!(
        "evals {} time {:.0} ms ns/eval {:.1}",
        r.evals,
        secs * 1000.0,
        secs * 1e9 / r.evals as f64
    );
    println!("evals/s {:.0}", r.evals as f64 / secs);
    Ok(())
}

fn bench_command(args: &[String]) -> Result<(), String> {
    let mut depth = search::bench::DEFAULT_DEPTH;
    let mut table = TableSize::default();
    let mut params = Params::default();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--hash" => table_flag(&mut table, "--hash", "hash", it.next())?,
            "--ways" => table_flag(&mut table, "--ways", "tt_ways", it.next())?,
            "--hand" => params.use_nnue = false,
            #[cfg(feature = "debug-commands")]
            "--check-rep" => params.check_rep = true,
            d => {
                depth = d
                    .parse()
                    .ok()
                    .filter(|d| (1..=30).contains(d))
                    .ok_or(format!("depth must be a number 1..30, got '{d}'"))?
            }
        }
    }
    let lines = search::bench::run(depth, params, table.hash_mb, table.ways);
    let mut nodes = 0;
    let mut time = Duration::ZERO;
    for (i, l) in lines.iter().enumerate() {
        let best = l.best.map_or("none".to_string(), |m| m.to_string());
        println!(
            "{:>2} bestmove {best:<7} score {:<9} nodes {:>9} time {:>6} ms  {}",
            i + 1,
            search::score_text(l.score),
            l.nodes,
            l.elapsed.as_millis(),
            l.fen
        );
        nodes += l.nodes;
        time += l.elapsed;
    }
    println!(
        "nodes {nodes} nps {:.0}",
        nodes as f64 / time.as_secs_f64().max(1e-9)
    );
    Ok(())
}

/// Sets the table setting `name` from the value after `flag`, within the
/// setting's range (the same as the UCI option's).
fn table_flag(
    table: &mut TableSize,
    flag: &str,
    name: &str,
    value: Option<&String>,
) -> Result<(), String> {
    let s = TABLE
        .iter()
        .find(|s| s.name == name)
        .expect("the flag names a table setting");
    let OptionKind::Spin { min, max } = s.kind else {
        unreachable!("table settings are numbers")
    };
    let v = value.ok_or(format!("{flag} needs a value"))?;
    let n = v
        .parse()
        .ok()
        .filter(|n| (min..=max).contains(n))
        .ok_or(format!("{flag} wants a number {min}..{max}, got '{v}'"))?;
    s.set_number(table, n);
    Ok(())
}
