//! `leiserchess datagen`: self-play games for tuning. Each game starts
//! with random legal plies (the openings), then both sides search a fixed
//! number of nodes a move (playouts, when the `Search` option is `mcts`);
//! every position after the opening whose score is
//! not a mate is written (`lab::data` format) with the search's score and,
//! once the game ends, its result.
//!
//! A game's positions are appended in one write when it ends, so stopping
//! the run (Ctrl-C, a kill) loses at most the games in flight; running the
//! same command again goes on from the file's end until it holds the
//! requested number of positions (a torn last record is cut off first).

use super::data::{encode, Outcome, Sample, RECORD};
use crate::config::EngineConfig;
use crate::eval::nnue::Network;
use crate::rules::fen;
use crate::rules::game::{Game, Outcome as GameOutcome};
use crate::rules::piece::Color;
use crate::search::algorithm::{self, Memory, Setup};
use crate::search::time::SearchLimits;
use crate::search::{Answer, Root, Shared, MATE_BOUND};
use clap::builder::RangedU64ValueParser;
use clap::value_parser;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// Self-play data for `tune`, `train` and `wdl`.
///
/// Appends positions with their search score and game result to FILE
/// until it holds --positions; both sides evaluate with the embedded net
/// unless told otherwise. Run it again to resume.
#[derive(clap::Parser, Clone, Debug, PartialEq)]
#[command(name = "datagen")]
pub struct Args {
    /// The data file, appended to.
    pub file: PathBuf,
    /// Positions the file is to hold.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 1_000_000,
        value_parser = value_parser!(u64).range(1..),
        allow_negative_numbers = true,
    )]
    pub positions: u64,
    /// Nodes searched a move (MCTS: playouts), 1..100000000.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 3000,
        value_parser = value_parser!(u64).range(1..=100_000_000),
        allow_negative_numbers = true,
    )]
    pub nodes: u64,
    /// Random plies opening each game, 0..100.
    #[arg(
        long,
        value_name = "K",
        default_value_t = 8,
        value_parser = value_parser!(u32).range(0..=100),
        allow_negative_numbers = true,
    )]
    pub random_plies: u32,
    /// Games played at once, 1..256.
    #[arg(
        long,
        value_name = "T",
        default_value_t = 1,
        value_parser = RangedU64ValueParser::<usize>::new().range(1..=256),
        allow_negative_numbers = true,
    )]
    pub threads: usize,
    /// Seeds the openings.
    #[arg(
        long,
        value_name = "S",
        default_value_t = 1,
        allow_negative_numbers = true
    )]
    pub seed: u64,
    /// Plies after the opening at which a game is a draw, 1..100000.
    #[arg(
        long,
        value_name = "P",
        default_value_t = 400,
        value_parser = value_parser!(u32).range(1..=100_000),
        allow_negative_numbers = true,
    )]
    pub max_plies: u32,
    /// Both sides evaluate with this net (`train`'s) instead.
    #[arg(long, value_name = "FILE", conflicts_with = "hand")]
    pub net: Option<PathBuf>,
    /// Both sides evaluate with the hand-written evaluation instead.
    #[arg(long)]
    pub hand: bool,
    /// Any engine option, as `setoption` sets it (clamped or refused the
    /// same way); repeatable, e.g. `--option draw=-20 --option hash=16`.
    #[arg(long = "option", value_name = "NAME=VALUE", value_parser = engine_option)]
    pub options: Vec<(String, String)>,
}

/// `NAME=VALUE` for `--option`.
fn engine_option(text: &str) -> Result<(String, String), String> {
    let (name, value) = text
        .split_once('=')
        .ok_or_else(|| "wants NAME=VALUE, e.g. draw=-20".to_string())?;
    EngineConfig::default()
        .set(name, Some(value))
        .map_err(|e| e.to_string())?;
    Ok((name.to_string(), value.to_string()))
}

/// What one run does.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub out: PathBuf,
    pub positions: u64,
    pub nodes: u64,
    pub random_plies: u32,
    pub threads: usize,
    pub seed: u64,
    pub max_plies: u32,
    /// Both sides' engine: its options as the flags set them (`--hand`:
    /// `use_nnue` off; `--net`: `EvalFile`; `--option`: any).
    pub engine: EngineConfig,
    /// The net `engine.eval_file` names, loaded.
    pub net: Arc<Network>,
}

/// Table size of each game's search, MB, unless an option sets it:
/// fixed-node searches are small.
const HASH_MB: &str = "8";

impl Config {
    /// The run `datagen`'s arguments ask for, with the net loaded; a clamped
    /// engine option is told on stderr with `setoption`'s report.
    pub fn new(a: &Args) -> Result<Config, String> {
        let net = a.net.as_ref().map(|p| p.display().to_string());
        let mut flags: Vec<(&str, Option<&str>)> = vec![
            ("hash", Some(HASH_MB)),
            ("EvalFile", net.as_deref()),
            ("use_nnue", a.hand.then_some("false")),
        ];
        flags.extend(
            a.options
                .iter()
                .map(|(n, v)| (n.as_str(), Some(v.as_str()))),
        );
        let engine =
            EngineConfig::from_flags(&flags, |r| eprintln!("{r}")).map_err(|e| e.to_string())?;
        Ok(Config {
            out: a.file.clone(),
            positions: a.positions,
            nodes: a.nodes,
            random_plies: a.random_plies,
            threads: a.threads,
            seed: a.seed,
            max_plies: a.max_plies,
            net: engine.net()?,
            engine,
        })
    }
}

/// One finished game's records.
struct Played {
    records: Vec<[u8; RECORD]>,
}

/// Plays game number `n` of the run; `None` if it ended in its opening.
fn play_game(c: &Config, n: u64, shared: &Shared, memory: &mut Memory) -> Option<Played> {
    let mut rng = fastrand::Rng::with_seed(c.seed ^ n.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut game = Game::from_fen(fen::STARTPOS).expect("the start position parses");
    for _ in 0..c.random_plies {
        let moves = game.legal_moves();
        let m = moves[rng.usize(..moves.len())];
        game.play(m).expect("a legal move");
        if game.outcome().is_some() {
            return None;
        }
    }
    shared.tt.clear();
    *memory = Memory::default();
    let limits = SearchLimits {
        nodes: Some(c.nodes),
        ..SearchLimits::default()
    };
    let mut samples: Vec<(crate::rules::board::Board, i16)> = Vec::new();
    let outcome = loop {
        if let Some(o) = game.outcome() {
            break o;
        }
        if game.moves().len() as u32 >= c.max_plies + c.random_plies {
            break GameOutcome::NoZap;
        }
        let root = Root::from_game(&game);
        shared.stop.store(false, Ordering::Relaxed);
        let answer = think(c, &root, &limits, shared, memory);
        let best = answer.best?;
        let score = answer.last.map_or(0, |it| it.score);
        if score.abs() < MATE_BOUND {
            samples.push((game.board().clone(), score.clamp(-30000, 30000) as i16));
        }
        game.play(best).expect("the search answers a legal move");
    };
    let result = match outcome {
        GameOutcome::KingZapped {
            winner: Color::White,
        } => Outcome::WhiteWins,
        GameOutcome::KingZapped {
            winner: Color::Black,
        } => Outcome::BlackWins,
        GameOutcome::Repetition | GameOutcome::NoZap => Outcome::Draw,
    };
    let records = samples
        .into_iter()
        .filter_map(|(board, score)| {
            encode(&Sample {
                board,
                score,
                outcome: result,
            })
        })
        .collect();
    Some(Played { records })
}

/// One move's search by the algorithm the `Search` option chose, on one
/// thread, with what the game's earlier searches kept (`memory`: PVS's
/// ordering tables, MCTS's tree within `mcts_tree_mb`, as in a game the
/// engine plays).
fn think(
    c: &Config,
    root: &Root,
    limits: &SearchLimits,
    shared: &Shared,
    memory: &mut Memory,
) -> Answer {
    let e = &c.engine;
    let setup = Setup {
        threads: 1,
        ..e.setup()
    };
    algorithm::think(setup, root, limits, e.search, shared, memory, |_, _, _| {}).answer
}

/// Runs `datagen` until the file holds `c.positions` records, printing
/// progress on standard error.
pub fn run(c: &Config) -> Result<(), String> {
    let name = crate::user_text::quote(&c.out.display().to_string());
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&c.out)
        .map_err(|e| format!("cannot open {name}: {e}"))?;
    let len = file
        .metadata()
        .map_err(|e| format!("cannot read {name}: {e}"))?
        .len();
    let torn = len % RECORD as u64;
    if torn != 0 {
        file.set_len(len - torn)
            .map_err(|e| format!("cannot cut the torn last record of {name}: {e}"))?;
        eprintln!("datagen: {name}: cut a torn last record ({torn} bytes)");
    }
    let had = len / RECORD as u64;
    if had >= c.positions {
        eprintln!("datagen: {name} already holds {had} positions");
        return Ok(());
    }
    // Games are numbered on from the positions already there, so a resumed
    // run plays new openings.
    let next_game = AtomicU64::new(had.wrapping_mul(0x2545_f491_4f6c_dd1d));
    let enough = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Played>();
    std::thread::scope(|scope| -> Result<(), String> {
        for _ in 0..c.threads {
            let tx = tx.clone();
            let (next_game, enough) = (&next_game, &enough);
            scope.spawn(move || {
                let table = c.engine.table;
                let shared = Shared::with_net(table.hash_mb, table.ways, c.net.clone());
                let mut memory = Memory::default();
                while !enough.load(Ordering::Relaxed) {
                    let n = next_game.fetch_add(1, Ordering::Relaxed);
                    if let Some(p) = play_game(c, n, &shared, &mut memory) {
                        if tx.send(p).is_err() {
                            break;
                        }
                    }
                }
            });
        }
        drop(tx);
        let result = write_games(c, &mut file, had, rx);
        enough.store(true, Ordering::Relaxed);
        result
    })
}

/// Appends each game as it comes and reports progress, until the file
/// holds `c.positions` records.
fn write_games(
    c: &Config,
    file: &mut std::fs::File,
    had: u64,
    rx: mpsc::Receiver<Played>,
) -> Result<(), String> {
    let start = Instant::now();
    let (mut total, mut games) = (had, 0u64);
    let mut shown = Instant::now();
    for played in rx {
        let want = (c.positions - total) as usize;
        let records = &played.records[..played.records.len().min(want)];
        let bytes: Vec<u8> = records.iter().flatten().copied().collect();
        file.write_all(&bytes)
            .and_then(|()| file.flush())
            .map_err(|e| format!("cannot write {}: {e}", c.out.display()))?;
        total += records.len() as u64;
        games += 1;
        let done = total >= c.positions;
        if done || shown.elapsed() >= Duration::from_secs(2) {
            shown = Instant::now();
            eprintln!(
                "{}",
                progress(total, had, c.positions, games, start.elapsed())
            );
        }
        if done {
            break;
        }
    }
    Ok(())
}

/// `datagen: 12,345 / 100,000 positions (12.3%), 67 games, 1.23M/h, about 4m 10s left`.
fn progress(total: u64, had: u64, target: u64, games: u64, elapsed: Duration) -> String {
    let made = (total - had) as f64;
    let secs = elapsed.as_secs_f64().max(1e-3);
    let rate = made / secs;
    let left = if rate > 0.0 {
        super::time_left(((target - total) as f64 / rate) as u64)
    } else {
        "time left unknown".to_string()
    };
    format!(
        "datagen: {total} / {target} positions ({:.1}%), {games} games, {:.2}M/h, {left}",
        100.0 * total as f64 / target as f64,
        rate * 3600.0 / 1e6
    )
}

/// `leiserchess datagen …`.
pub fn command(args: &Args) -> Result<(), String> {
    run(&Config::new(args)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::data::decode_all;
    use clap::Parser;

    /// The run of `datagen`'s command line `s`.
    fn parse(s: &str) -> Result<Config, String> {
        let words = std::iter::once("datagen").chain(s.split_whitespace());
        Config::new(&Args::try_parse_from(words).map_err(|e| e.to_string())?)
    }

    #[test]
    fn flags_parse_and_bad_ones_are_named() {
        let c = parse("x.bin --positions 50 --nodes 200 --threads 2").unwrap();
        assert_eq!((c.positions, c.nodes, c.threads), (50, 200, 2));
        assert_eq!(c.engine.table.hash_mb, 8);
        let c = parse("x.bin --option draw=-20 --option Hash=99999").unwrap();
        assert_eq!((c.engine.search.draw, c.engine.table.hash_mb), (-20, 4096));
        for (line, named) in [
            ("", "<FILE>"),
            ("x.bin --nodes 0", "'0' for '--nodes <N>'"),
            ("x.bin --bogus 1", "'--bogus'"),
            ("x.bin --seed", "'--seed <S>'"),
            ("x.bin --net n.nnue --hand", "'--net <FILE>'"),
            ("x.bin --option draw", "NAME=VALUE"),
            ("x.bin --option nosuch=1", "unknown option 'nosuch'"),
            (
                "x.bin --option draw=x",
                "option 'draw' wants a whole number",
            ),
        ] {
            let e = parse(line).unwrap_err();
            assert!(e.contains(named), "{line}: {e}");
        }
        let e = parse("x.bin --net /nonexistent.nnue").unwrap_err();
        assert!(e.contains("'/nonexistent.nnue': cannot read"), "{e}");
    }

    #[test]
    fn a_run_writes_then_resumes_to_the_target() {
        let dir = std::env::temp_dir().join(format!("datagen-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("d.bin");
        let _ = std::fs::remove_file(&out);
        let mut c = parse(&format!("{} --positions 40 --nodes 300", out.display())).unwrap();
        run(&c).unwrap();
        let first = std::fs::read(&out).unwrap();
        let samples = decode_all(&first).unwrap();
        assert_eq!(samples.len(), 40);
        assert!(samples.iter().all(|s| s.score.abs() < MATE_BOUND as i16));
        // A torn record is cut, and the run goes on to the new target.
        std::fs::OpenOptions::new()
            .append(true)
            .open(&out)
            .unwrap()
            .write_all(&[1, 2, 3])
            .unwrap();
        c.positions = 70;
        run(&c).unwrap();
        let second = std::fs::read(&out).unwrap();
        assert_eq!(second.len(), 70 * RECORD);
        assert_eq!(&second[..first.len()], &first[..]);
        assert_eq!(decode_all(&second).unwrap().len(), 70);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_net_plays_by_default_and_hand_or_another_net_on_request() {
        let dir = std::env::temp_dir().join(format!("datagen-net-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let net = dir.join("n.nnue");
        std::fs::write(&net, Network::embedded().to_bytes()).unwrap();
        let data = |flags: &str| {
            let out = dir.join("d.bin");
            let _ = std::fs::remove_file(&out);
            let c = parse(&format!(
                "{} --positions 30 --nodes 300 {flags}",
                out.display()
            ))
            .unwrap();
            run(&c).unwrap();
            let d = decode_all(&std::fs::read(&out).unwrap()).unwrap();
            (c.engine.search.use_nnue, c.net, d)
        };
        let (on, embedded, by_net) = data("");
        assert!(on && Arc::ptr_eq(&embedded, &Network::shared_embedded()));
        let (on, loaded, by_file) = data(&format!("--net {}", net.display()));
        assert!(on && *loaded == Network::embedded());
        let (on, _, by_hand) = data("--hand");
        assert!(!on);
        // `--option` is `setoption`: the same as `--hand`.
        let (on, _, by_option) = data("--option use_nnue=false");
        assert!(!on);
        assert_eq!(by_hand, by_option);
        assert_eq!(by_net.len(), 30);
        // The same games with the same net; another evaluation, other scores.
        let scores = |d: &[Sample]| d.iter().map(|s| s.score).collect::<Vec<_>>();
        assert_eq!(scores(&by_net), scores(&by_file));
        assert_ne!(scores(&by_net), scores(&by_hand));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn progress_shows_rate_and_time_left() {
        let p = progress(500, 0, 1000, 10, Duration::from_secs(10));
        assert!(p.contains("500 / 1000 positions (50.0%)"), "{p}");
        assert!(
            p.contains("0.18M/h") && p.contains("about 0m 10s left"),
            "{p}"
        );
    }
}
