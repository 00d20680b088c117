//! The `leiserchess` binary: the UCI loop with no arguments, a one-shot
//! command (`perft`, `bench`, `evalbench`, the lab's), or the browser GUI's
//! server (`gui`).

#![forbid(unsafe_code)]

use clap::{value_parser, Parser, Subcommand};
use leiserchess::config::{flag_value, listing, EngineConfig};
use leiserchess::eval::{bench, Weights};
use leiserchess::lab::store::{self, Kind, Record, Role, Store};
use leiserchess::lab::{book, data, datagen, error_fit, policy, relabel, train, tune, wdl};
use leiserchess::protocol::uci::{latency, Output};
use leiserchess::rules::board::Board;
use leiserchess::rules::fen;
use leiserchess::rules::perft::{divide, perft_plain, perft_threads};
use leiserchess::search;
use leiserchess::search::algorithm::Algorithm;
use leiserchess::user_text::quote;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// A Leiserchess 2018 engine and its performance lab.
///
/// With no command it runs the UCI loop on stdin/stdout (`help` there
/// lists the loop's commands).
#[derive(Parser)]
// A flag given twice counts the last time, as the command lines always
// have. Plain text, no colours: `refuse` prints clap's text itself, with
// the user's input in it quoted (`quoted`).
#[command(
    name = "leiserchess",
    version,
    args_override_self = true,
    styles = clap::builder::Styles::plain(),
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Set an engine option before the UCI loop starts, as `setoption`
    /// sets it (for referees that set none); repeatable.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
}

/// The one-shot commands, in the order `--help` lists them.
#[derive(Subcommand)]
enum Command {
    Perft(PerftArgs),
    Bench(BenchArgs),
    Evalbench(EvalbenchArgs),
    Options(OptionsArgs),
    Gui(leiserchess::gui::Args),
    Datagen(Stored<datagen::Args>),
    Relabel(Stored<relabel::Args>),
    Data(data::command::Args),
    Tune(tune::Args),
    Train(Stored<train::Args>),
    TrainPolicy(policy::Args),
    Book(book::Args),
    Wdl(wdl::Args),
    FitError(error_fit::Args),
}

// A lab command whose file goes into the lab's store once written, with
// its lineage record (`lab::store::register`). Not a doc comment: the
// command's own is its help page's.
#[derive(clap::Args)]
struct Stored<A: clap::Args> {
    #[command(flatten)]
    args: A,
    #[command(flatten)]
    store: StoreFlags,
}

// `--store DIR` and `--no-store` (a comment, as `Stored`'s is).
#[derive(clap::Args)]
struct StoreFlags {
    /// The store the file is registered in, and `store:PREFIX` nets are
    /// found in [$LEISERCHESS_STORE, else $XDG_DATA_HOME/leiserchess/store].
    #[arg(long, value_name = "DIR")]
    store: Option<PathBuf>,
    /// Leave the file out of the store.
    #[arg(long, conflicts_with = "store")]
    no_store: bool,
}

/// Count the leaf nodes from a position.
#[derive(clap::Args)]
struct PerftArgs {
    /// Plies to count, 0..12.
    #[arg(value_parser = value_parser!(u32).range(0..=12), allow_negative_numbers = true)]
    depth: u32,
    /// The position: a FEN, `startpos` or `endgame`.
    #[arg(long, value_name = "FEN", default_value = "startpos", value_parser = position)]
    fen: Board,
    /// Threads sharing the work (the second ply's subtrees): the engine's `threads` option
    /// (1..64; clamped as `setoption` clamps).
    #[arg(
        long,
        value_name = "N",
        value_parser = flag_value("threads"),
        allow_negative_numbers = true,
    )]
    threads: Option<String>,
    /// Count with the plain oracle (one thread, no shortcuts).
    #[arg(long)]
    plain: bool,
    /// Print the count under each root move.
    #[arg(long)]
    divide: bool,
}

/// Search the bench positions; the search's signature ends the run.
///
/// Each of the fixed positions is searched on one thread by the default
/// search (the hybrid: a fresh tree's playouts, then a final PVS to the
/// depth), the run ending with its signature, nodes and nps; with
/// `--search pvs` by PVS to the depth with a fresh table, the run ending
/// with the node total and nps; with `--search mcts` by a fixed number of
/// playouts with a fresh tree, the run ending with the trees' signature
/// and playouts/s.
#[derive(clap::Args)]
struct BenchArgs {
    /// Depth of each PVS or best-first search, 1..30 [default: 6]; of the
    /// hybrid's final search [default: 5].
    #[arg(
        value_parser = value_parser!(u32).range(1..=30),
        allow_negative_numbers = true,
    )]
    depth: Option<u32>,
    /// The search: the `Search` option's choices, pvs, mcts, bestfirst or
    /// hybrid (the default, as `Search`'s).
    #[arg(long, value_name = "NAME", value_parser = flag_value("Search"))]
    search: Option<String>,
    /// Playouts of each MCTS search, or of the hybrid's tree,
    /// 1..100000000 [default: 2000].
    #[arg(
        long,
        value_name = "N",
        value_parser = value_parser!(u64).range(1..=100_000_000),
        allow_negative_numbers = true,
    )]
    playouts: Option<u64>,
    /// PVS's table size in MB: the `hash` option (clamped as `setoption`
    /// clamps).
    #[arg(
        long,
        value_name = "MB",
        value_parser = flag_value("hash"),
        allow_negative_numbers = true,
    )]
    hash: Option<String>,
    /// PVS's table entries a bucket: the `tt_ways` option (clamped likewise).
    #[arg(
        long,
        value_name = "K",
        value_parser = flag_value("tt_ways"),
        allow_negative_numbers = true,
    )]
    ways: Option<String>,
    /// Evaluate with the hand-written evaluation, not the embedded net.
    #[arg(long)]
    hand: bool,
    /// Where a move's time goes: every ply of this PGN's games replayed
    /// through the UCI loop as a referee does, a `go` before each; the
    /// report gives each part's percentiles (replay, set-up, search,
    /// output) and the nps against the fixed-depth bench's.
    #[arg(long, value_name = "PGN")]
    latency: Option<PathBuf>,
    /// With --latency: each side's clock at a game's start, in ms.
    #[arg(long, value_name = "MS", default_value_t = 100, requires = "latency")]
    time: u64,
    /// With --latency: the increment, in ms.
    #[arg(long, value_name = "MS", default_value_t = 1, requires = "latency")]
    inc: u64,
    /// Check every invariant during PVS as the `check_rep` option does.
    #[cfg(feature = "debug-commands")]
    #[arg(long)]
    check_rep: bool,
}

/// Evaluations per second over a set of positions.
///
/// Evaluates every position of the file, over and over, for the given
/// seconds; ends with evals/s.
#[derive(clap::Args)]
struct EvalbenchArgs {
    /// FENs, one a line (default: the 300 reference positions).
    file: Option<PathBuf>,
    /// Seconds to evaluate for, 0..3600.
    #[arg(
        long,
        value_name = "S",
        default_value_t = 3.0,
        value_parser = seconds,
        allow_negative_numbers = true,
    )]
    seconds: f64,
}

/// List the engine's options: default, range and what each does.
#[derive(clap::Args)]
struct OptionsArgs {
    /// As a Markdown table (docs/OPTIONS.md's table).
    #[arg(long)]
    markdown: bool,
}

/// The CPU check, then the program. Nothing before the check may run code
/// of this crate's that the compiler gave the build's assumed instructions:
/// the message is a constant written by the standard library (built for
/// any x86-64), and the program is a function of its own, never inlined
/// here.
fn main() -> ExitCode {
    if !leiserchess::cpu::supported() {
        use std::io::Write;
        let _ = std::io::stderr().write_all(b"leiserchess: ");
        let _ = std::io::stderr().write_all(leiserchess::cpu::UNSUPPORTED.as_bytes());
        return ExitCode::from(1);
    }
    run()
}

#[inline(never)]
fn run() -> ExitCode {
    // Whether glibc took it or not, the engine runs the same.
    leiserchess::allocator::settle();
    let args: Vec<OsString> = std::env::args_os().collect();
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) => return refuse(&e, &args),
    };
    let result = match cli.command {
        None => leiserchess::protocol::uci::run_with(
            &cli.options,
            std::io::stdin().lock(),
            std::io::stdout(),
        ),
        Some(Command::Perft(a)) => perft_command(&a),
        Some(Command::Bench(a)) => bench_command(&a),
        Some(Command::Evalbench(a)) => evalbench_command(&a),
        Some(Command::Options(a)) => {
            let listing = if a.markdown {
                listing::markdown()
            } else {
                listing::plain()
            };
            print!("{listing}");
            Ok(())
        }
        Some(Command::Gui(a)) => leiserchess::gui::command(&a),
        Some(Command::Datagen(a)) => stored(&a, datagen::command, |s| {
            let played = store::evaluation(s, Role::Played, &a.args.engine.engine_quietly()?)?;
            Ok(store::register(
                s,
                &a.args.file,
                Kind::Dataset,
                vec![played],
                &words(&args),
            )?)
        }),
        Some(Command::Relabel(a)) => stored(&a, relabel::command, |s| {
            let engine = a.args.engine.engine_quietly()?;
            let mut parents = inputs(s, Role::StartedFrom, Kind::Dataset, &a.args.files)?;
            parents.push(store::evaluation(s, Role::Labelled, &engine)?);
            Ok(store::register(
                s,
                &a.args.out,
                Kind::Dataset,
                parents,
                &words(&args),
            )?)
        }),
        Some(Command::Data(a)) => data::command::command(&a),
        Some(Command::Tune(a)) => tune::command(&a),
        Some(Command::Train(a)) => stored(&a, train::command, |s| {
            let mut parents = inputs(s, Role::TrainedOn, Kind::Dataset, &a.args.files)?;
            let against = a.args.against.as_slice();
            parents.extend(inputs(s, Role::Baseline, Kind::Net, against)?);
            if let Some(init) = &a.args.init {
                parents.push(store::net(s, Role::StartedFrom, init)?);
            }
            Ok(store::register(
                s,
                &a.args.out,
                Kind::Net,
                parents,
                &words(&args),
            )?)
        }),
        Some(Command::TrainPolicy(a)) => policy::command(&a),
        Some(Command::Book(a)) => book::command(&a),
        Some(Command::Wdl(a)) => wdl::command(&a),
        Some(Command::FitError(a)) => error_fit::command(&a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("leiserchess: {}", quoted(&e, &args));
            // A failed command exits as a refused command line does.
            ExitCode::from(2)
        }
    }
}

/// Runs a lab command, then registers the file it wrote (`register`)
/// unless `--no-store`. `--store DIR` is the store of `store:PREFIX` nets
/// too. The command's work is done when registering fails: that is told
/// on stderr, and the command still succeeds.
fn stored<A: clap::Args>(
    a: &Stored<A>,
    command: fn(&A) -> Result<(), String>,
    register: impl FnOnce(&Store) -> Result<Record, String>,
) -> Result<(), String> {
    if let Some(dir) = &a.store.store {
        // Before any thread: `EvalFile=store:PREFIX` resolves through it.
        std::env::set_var(leiserchess::object_store::ENV, dir);
    }
    command(&a.args)?;
    if a.store.no_store {
        return Ok(());
    }
    let registered = store::open(a.store.store.as_deref())
        .map_err(|e| e.to_string())
        .and_then(|s| register(&s).map(|r| (s, r)));
    match registered {
        Ok((s, r)) => eprintln!("stored as {} in {}", r.sha256, s.root().display()),
        Err(e) => eprintln!("leiserchess: warning: not put in the store: {e}"),
    }
    Ok(())
}

/// Each file of `files` in the store as a parent of `role`.
fn inputs(
    s: &Store,
    role: Role,
    kind: Kind,
    files: &[PathBuf],
) -> Result<Vec<store::Parent>, String> {
    files
        .iter()
        .map(|f| store::input(s, role, kind, Path::new(f)).map_err(|e| e.to_string()))
        .collect()
}

/// The command line's words, as a record keeps them.
fn words(args: &[OsString]) -> Vec<String> {
    args.iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect()
}

/// Prints clap's answer to a command line it did not run (help and the
/// version on stdout, exit 0; an error on stderr, exit 2).
fn refuse(e: &clap::Error, args: &[OsString]) -> ExitCode {
    // `ansi` keeps the text as given (the styles are plain): the plain
    // rendering would drop an escape sequence instead of showing it.
    let text = quoted(&e.render().ansi().to_string(), args);
    if e.use_stderr() {
        eprint!("{text}");
    } else {
        print!("{text}");
    }
    ExitCode::from(e.exit_code().clamp(0, 255) as u8)
}

/// `message` with every argument of `args` it echoes that is long or holds
/// control characters quoted (`quote`): a message stays a few short lines
/// whatever was typed.
fn quoted(message: &str, args: &[OsString]) -> String {
    let mut long: Vec<String> = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .filter(|a| quote(a) != *a)
        .collect();
    // The longest first, so that one argument inside another is not cut
    // before the one that holds it.
    long.sort_by_key(|a| std::cmp::Reverse(a.len()));
    let mut text = message.to_string();
    for a in &long {
        text = text.replace(a.as_str(), &quote(a));
    }
    text
}

/// The position of `--fen`.
fn position(text: &str) -> Result<Board, String> {
    let text = match text {
        "startpos" => fen::STARTPOS,
        "endgame" => fen::ENDGAME,
        t => t,
    };
    fen::parse(text).map_err(|e| format!("bad FEN: {e}"))
}

/// `--seconds`: a finite number from 0 to an hour.
fn seconds(text: &str) -> Result<f64, String> {
    text.parse()
        .ok()
        .filter(|s: &f64| s.is_finite() && (0.0..=3600.0).contains(s))
        .ok_or("not a number from 0 to 3600".to_string())
}

/// The engine options that `flags` set, as `setoption` sets them; each
/// value clamped is told on stderr with `setoption`'s report line.
fn options(flags: &[(&str, Option<&str>)]) -> Result<EngineConfig, String> {
    EngineConfig::from_flags(flags, |r| eprintln!("{r}")).map_err(|e| e.to_string())
}

fn perft_command(a: &PerftArgs) -> Result<(), String> {
    let threads = options(&[("threads", a.threads.as_deref())])?.threads;
    let mut board = a.fen.clone();
    let depth = a.depth;
    let start = Instant::now();
    let nodes = if a.divide {
        let rows = divide(&mut board, depth);
        for (m, n) in &rows {
            println!("{m} {n}");
        }
        rows.iter().map(|r| r.1).sum()
    } else if a.plain {
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

fn evalbench_command(a: &EvalbenchArgs) -> Result<(), String> {
    let text = match &a.file {
        Some(f) => std::fs::read_to_string(f)
            .map_err(|e| format!("cannot read {}: {e}", quote(&f.display().to_string())))?,
        None => bench::DEFAULT_POSITIONS.to_string(),
    };
    let name = a
        .file
        .as_ref()
        .map_or("the reference positions".to_string(), |f| {
            quote(&f.display().to_string())
        });
    let positions = bench::parse_positions(&text).map_err(|e| format!("{name}: {e}"))?;
    if positions.is_empty() {
        return Err(format!("{name}: no positions"));
    }
    let r = bench::run(
        &positions,
        &Weights::default(),
        Duration::from_secs_f64(a.seconds),
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

fn bench_command(a: &BenchArgs) -> Result<(), String> {
    let config = options(&[
        ("Search", a.search.as_deref()),
        ("hash", a.hash.as_deref()),
        ("tt_ways", a.ways.as_deref()),
        ("use_nnue", a.hand.then_some("false")),
        #[cfg(feature = "debug-commands")]
        ("check_rep", a.check_rep.then_some("true")),
    ])?;
    if let Some(pgn) = &a.latency {
        return latency_bench(pgn, a, &config);
    }
    match config.algorithm {
        Algorithm::Pvs => match a.playouts {
            Some(_) => Err("bench: --playouts is for --search mcts and hybrid".to_string()),
            None => {
                let depth = a.depth.unwrap_or(search::bench::DEFAULT_DEPTH);
                pvs_bench(depth, &config);
                Ok(())
            }
        },
        Algorithm::BestFirst => match a.playouts {
            Some(_) => Err("bench: --playouts is for --search mcts and hybrid".to_string()),
            None => {
                let depth = a.depth.unwrap_or(search::bench::DEFAULT_DEPTH);
                bestfirst_bench(depth, &config);
                Ok(())
            }
        },
        Algorithm::Mcts | Algorithm::Hybrid => {
            let hybrid = config.algorithm == Algorithm::Hybrid;
            let pvs_only = [
                (a.depth.is_some() && !hybrid, "a depth"),
                (a.hash.is_some(), "--hash"),
                (a.ways.is_some(), "--ways"),
                #[cfg(feature = "debug-commands")]
                (a.check_rep, "--check-rep"),
            ];
            if let Some((_, what)) = pvs_only.iter().find(|(given, _)| *given) {
                let takes = if hybrid {
                    "hybrid takes --playouts and a depth"
                } else {
                    "mcts takes --playouts"
                };
                return Err(format!(
                    "bench: {what} is for --search pvs (--search {takes})"
                ));
            }
            let playouts = a.playouts.unwrap_or(search::bench::DEFAULT_PLAYOUTS);
            if hybrid {
                let depth = a.depth.unwrap_or(search::bench::HYBRID_DEPTH);
                hybrid_bench(playouts, depth, &config);
            } else {
                mcts_bench(playouts, &config);
            }
            Ok(())
        }
    }
}

/// `bench --latency`: the games replayed through the UCI loop with the
/// flags' options, then the fixed-depth bench's nps (PVS) to compare,
/// under PVS or the hybrid (whose every node is a PVS node: under a 100
/// ms goal it is PVS alone).
fn latency_bench(pgn: &Path, a: &BenchArgs, config: &EngineConfig) -> Result<(), String> {
    if a.depth.is_some() || a.playouts.is_some() {
        return Err(
            "bench: --latency takes no depth or --playouts (its clock is --time, --inc)"
                .to_string(),
        );
    }
    let games = latency::read_games(pgn)?;
    let setup: Vec<String> = [
        ("Search", a.search.as_deref()),
        ("hash", a.hash.as_deref()),
        ("tt_ways", a.ways.as_deref()),
        ("use_nnue", a.hand.then_some("false")),
    ]
    .iter()
    .filter_map(|(name, v)| v.map(|v| format!("setoption name {name} value {v}")))
    .collect();
    let clock = latency::Clock {
        time_ms: a.time,
        inc_ms: a.inc,
    };
    // The engine's lines go where a referee's pipe would take them: to a
    // file written line by line (the null device).
    let sink = std::fs::File::create("/dev/null").map_err(|e| format!("/dev/null: {e}"))?;
    let run = latency::run(&games, clock, &setup, Output::new(sink))?;
    let pvs_nodes = matches!(config.algorithm, Algorithm::Pvs | Algorithm::Hybrid);
    let bench_nps = pvs_nodes.then(|| {
        let table = config.table;
        let depth = search::bench::DEFAULT_DEPTH;
        let lines = search::bench::run(depth, config.search, table.hash_mb, table.ways);
        let nodes: u64 = lines.iter().map(|l| l.nodes).sum();
        let time: Duration = lines.iter().map(|l| l.elapsed).sum();
        nodes as f64 / time.as_secs_f64().max(1e-9)
    });
    print!("{}", latency::report(&run, bench_nps));
    Ok(())
}

/// `bench` by PVS: each position's line, then the node total and nps.
fn pvs_bench(depth: u32, config: &EngineConfig) {
    let table = config.table;
    let lines = search::bench::run(depth, config.search, table.hash_mb, table.ways);
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
}

/// `bench --search bestfirst`: each position's line, then the nodes, nps
/// and the promotions and nodes by the depth below the root they reached.
fn bestfirst_bench(depth: u32, config: &EngineConfig) {
    let table = config.table;
    let lines = search::bench::run_bestfirst(depth, config.search, table.hash_mb, table.ways);
    let (mut nodes, mut time) = (0, Duration::ZERO);
    let (mut promotions, mut spent) = (Vec::<u64>::new(), Vec::<u64>::new());
    for (i, l) in lines.iter().enumerate() {
        let best = l.best.map_or("none".to_string(), |m| m.to_string());
        println!(
            "{:>2} bestmove {best:<7} score {:<9} depth {:>2} nodes {:>9} time {:>6} ms  {}",
            i + 1,
            search::score_text(l.score),
            l.depth,
            l.nodes,
            l.elapsed.as_millis(),
            l.fen
        );
        nodes += l.nodes;
        time += l.elapsed;
        for (sum, add) in [
            (&mut promotions, &l.promotions),
            (&mut spent, &l.nodes_by_depth),
        ] {
            sum.resize(sum.len().max(add.len()), 0);
            sum.iter_mut().zip(add).for_each(|(s, a)| *s += a);
        }
    }
    for (d, (p, n)) in promotions
        .iter()
        .zip(&spent)
        .enumerate()
        .filter(|(_, (p, _))| **p > 0)
    {
        println!("depth {d:>2} promotions {p:>7} nodes {n:>10}");
    }
    println!(
        "nodes {nodes} nps {:.0}",
        nodes as f64 / time.as_secs_f64().max(1e-9)
    );
}

/// `bench --search hybrid`: each position's line, then the signature (the
/// trees' and the final searches' nodes), the nodes and nps.
fn hybrid_bench(playouts: u64, depth: u32, config: &EngineConfig) {
    let lines = search::bench::run_hybrid(playouts, depth, config.search, config.tree_mb);
    let (mut signature, mut nodes, mut time) = (0, 0, Duration::ZERO);
    for (i, l) in lines.iter().enumerate() {
        let best = l.best.map_or("none".to_string(), |m| m.to_string());
        let by = if l.by_search { "search" } else { "tree" };
        println!(
            "{:>2} bestmove {best:<7} by {by:<6} score {:<9} playouts {:>5} tree nodes {:>8} final nodes {:>8} signature {:>9} time {:>6} ms  {}",
            i + 1,
            search::score_text(l.score),
            l.playouts,
            l.tree_nodes,
            l.final_nodes,
            l.signature,
            l.elapsed.as_millis(),
            l.fen
        );
        signature += l.signature;
        nodes += l.tree_nodes + l.final_nodes;
        time += l.elapsed;
    }
    println!(
        "signature {signature} nodes {nodes} nps {:.0}",
        nodes as f64 / time.as_secs_f64().max(1e-9)
    );
}

/// `bench --search mcts`: each position's line, then the trees' signature,
/// the playouts and playouts/s.
fn mcts_bench(playouts: u64, config: &EngineConfig) {
    let lines = search::bench::run_mcts(playouts, config.search, config.tree_mb);
    let (mut signature, mut total, mut nodes, mut bytes) = (0, 0, 0, 0);
    let mut time = Duration::ZERO;
    for (i, l) in lines.iter().enumerate() {
        let best = l.best.map_or("none".to_string(), |m| m.to_string());
        println!(
            "{:>2} bestmove {best:<7} score {:<9} playouts {:>8} signature {:>9} time {:>6} ms  {}",
            i + 1,
            search::score_text(l.score),
            l.playouts,
            l.signature,
            l.elapsed.as_millis(),
            l.fen
        );
        signature += l.signature;
        total += l.playouts;
        time += l.elapsed;
        nodes += l.tree_nodes;
        bytes += l.tree_bytes;
    }
    // The arena's bytes count its vectors' capacity: up to twice the use.
    println!(
        "tree nodes {nodes} bytes/node {:.0}",
        bytes as f64 / nodes.max(1) as f64
    );
    println!(
        "signature {signature} playouts {total} playouts/s {:.0}",
        total as f64 / time.as_secs_f64().max(1e-9)
    );
}
