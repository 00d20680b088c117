//! `leiserchess datagen`: self-play games for tuning and training. Each
//! game starts with random legal plies (the openings), then both sides
//! search a fixed number of nodes a move (playouts, when the `Search`
//! option is `mcts`) until the game ends or is called decided
//! (`--adjudicate`). Every position after the opening is kept with the
//! search's score and, once the game ends, its result, except: mate
//! scores, positions whose searched move zaps (unless `--keep-zaps`),
//! positions the file already holds, and positions past `--positions`.
//! The file is of `lab::data` format 3 (game chains: the game from its
//! opening's end, the positions left out marked as such) unless
//! `--format 2` asks for a record a kept position.
//!
//! A game is appended in one write when it ends, so stopping the run
//! (Ctrl-C, a kill) loses at most the games in flight; running the same
//! command again goes on from the file's end until it holds the requested
//! number of positions (a torn last record or game is cut off first).

mod game;

pub(crate) use game::think;
pub use game::Adjudication;

use super::data::{self, Format};
use super::engine_flags::EngineFlags;
use crate::config::EngineConfig;
use crate::eval::nnue::Network;
use crate::search::algorithm::Memory;
use crate::search::Shared;
use clap::builder::RangedU64ValueParser;
use clap::value_parser;
use game::{play_game, Played};
use std::collections::HashSet;
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
    /// A game is called won once the searches agree, --adjudicate-plies
    /// in a row, that one side is ahead by CP or more (a mate counts as
    /// any); 0: played out. 0..20000.
    #[arg(
        long,
        value_name = "CP",
        default_value_t = 600,
        value_parser = value_parser!(i32).range(0..=20_000),
        allow_negative_numbers = true,
    )]
    pub adjudicate: i32,
    /// Searches in a row --adjudicate needs, 1..1000.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 6,
        value_parser = value_parser!(u32).range(1..=1000),
        allow_negative_numbers = true,
    )]
    pub adjudicate_plies: u32,
    /// Also keep the positions whose searched move zaps (left out by
    /// default: their score is a shot the static evaluation cannot see).
    #[arg(long)]
    pub keep_zaps: bool,
    /// The data format: 3, game chains (a few bytes a position), or 2, a
    /// record of 20 bytes a position.
    #[arg(
        long,
        value_name = "V",
        default_value_t = 3,
        value_parser = value_parser!(u16).range(2..=3),
        allow_negative_numbers = true,
    )]
    pub format: u16,
    /// The engine both sides play.
    #[command(flatten)]
    pub engine: EngineFlags,
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
    pub adjudication: Adjudication,
    pub keep_zaps: bool,
    pub format: Format,
    /// Both sides' engine: its options as the flags set them (`--hand`:
    /// `use_nnue` off; `--net`: `EvalFile`; `--option`: any).
    pub engine: EngineConfig,
    /// The net `engine.eval_file` names, loaded.
    pub net: Arc<Network>,
}

impl Config {
    /// The run `datagen`'s arguments ask for, with the net loaded; a clamped
    /// engine option is told on stderr with `setoption`'s report.
    pub fn new(a: &Args) -> Result<Config, String> {
        let engine = a.engine.engine()?;
        Ok(Config {
            out: a.file.clone(),
            positions: a.positions,
            nodes: a.nodes,
            random_plies: a.random_plies,
            threads: a.threads,
            seed: a.seed,
            max_plies: a.max_plies,
            adjudication: Adjudication {
                cp: a.adjudicate,
                plies: a.adjudicate_plies,
            },
            keep_zaps: a.keep_zaps,
            format: Format::of_version(a.format).expect("clap allows 2 and 3"),
            net: engine.net()?,
            engine,
        })
    }
}

/// Games in a row that may add no new position before the run stops:
/// its openings are too few to reach the target.
const STALLED: u64 = 100;

/// Runs `datagen` until the file holds `c.positions` positions, printing
/// progress on standard error.
pub fn run(c: &Config) -> Result<(), String> {
    let name = crate::user_text::quote(&c.out.display().to_string());
    let appending = data::open_to_append(&c.out, c.format)?;
    let (mut file, had) = (appending.file, appending.positions);
    if had >= c.positions {
        eprintln!("datagen: {name} already holds {had} positions");
        return Ok(());
    }
    let held = held_keys(&c.out)?;
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
        let mut writer = Writer {
            c,
            file: &mut file,
            held,
            had,
            total: had,
            tally: Tally::default(),
        };
        let result = writer.write_games(rx);
        enough.store(true, Ordering::Relaxed);
        result
    })
}

/// The position keys of the positions already in `path`, so a resumed
/// run adds no position twice.
fn held_keys(path: &std::path::Path) -> Result<HashSet<u64>, String> {
    let mut held = HashSet::new();
    for g in data::games(path)? {
        held.extend(g?.samples.iter().filter_map(|s| data::board_key(&s.board)));
    }
    Ok(held)
}

/// What a run has done so far, for its progress lines.
#[derive(Default, Debug, Clone, Copy, PartialEq)]
struct Tally {
    games: u64,
    adjudicated: u64,
    repeats: u64,
    zaps: u64,
}

/// Appends the games as they come, each new position once.
struct Writer<'a> {
    c: &'a Config,
    file: &'a mut std::fs::File,
    held: HashSet<u64>,
    had: u64,
    total: u64,
    tally: Tally,
}

impl Writer<'_> {
    /// Appends each game and reports progress, until the file holds
    /// `c.positions` records.
    fn write_games(&mut self, rx: mpsc::Receiver<Played>) -> Result<(), String> {
        let (start, mut shown) = (Instant::now(), Instant::now());
        let mut barren = 0;
        for played in rx {
            let added = self.append(&played)?;
            barren = if added == 0 { barren + 1 } else { 0 };
            let done = self.total >= self.c.positions;
            if done || shown.elapsed() >= Duration::from_secs(2) {
                shown = Instant::now();
                let p = progress(
                    self.total,
                    self.had,
                    self.c.positions,
                    self.tally,
                    start.elapsed(),
                );
                eprintln!("{p}");
            }
            if done {
                break;
            }
            if barren >= STALLED {
                return Err(format!(
                    "datagen: {STALLED} games in a row added no new position (the file holds {}): \
                     too few openings for --positions {}; more --random-plies",
                    self.total, self.c.positions
                ));
            }
        }
        let t = self.tally;
        eprintln!(
            "datagen: done: {} positions; {} repeats and {} zapping moves left out",
            self.total, t.repeats, t.zaps
        );
        Ok(())
    }

    /// Appends `played`'s new positions, at most up to the target (the
    /// others left out); how many.
    fn append(&mut self, played: &Played) -> Result<u64, String> {
        let want = self.c.positions - self.total;
        let mut chain = played.chain.clone();
        let mut added = 0;
        for (i, board) in played.chain.boards().iter().enumerate() {
            if chain.plies()[i].score.is_none() {
                continue;
            }
            let new = added < want
                && match data::board_key(board) {
                    Some(key) if self.held.insert(key) => true,
                    Some(_) => {
                        self.tally.repeats += 1;
                        false
                    }
                    None => false,
                };
            if new {
                added += 1;
            } else {
                chain.set_score(i, None);
            }
        }
        let bytes = match self.c.format {
            Format::Records => chain
                .samples()
                .flat_map(|s| data::encode(&s).expect("a kept position encodes"))
                .collect(),
            Format::Chains if added > 0 => chain.to_bytes(),
            Format::Chains => Vec::new(),
        };
        self.file
            .write_all(&bytes)
            .and_then(|()| self.file.flush())
            .map_err(|e| format!("cannot write {}: {e}", self.c.out.display()))?;
        self.total += added;
        self.tally.games += 1;
        self.tally.adjudicated += u64::from(played.adjudicated);
        self.tally.zaps += played.zaps;
        Ok(added)
    }
}

/// `datagen: 12,345 / 100,000 positions (12.3%), 67 games (12 adjudicated), 1.23M/h, about 4m 10s left`.
fn progress(total: u64, had: u64, target: u64, t: Tally, elapsed: Duration) -> String {
    let made = (total - had) as f64;
    let secs = elapsed.as_secs_f64().max(1e-3);
    let rate = made / secs;
    let left = if rate > 0.0 {
        super::time_left(((target - total) as f64 / rate) as u64)
    } else {
        "time left unknown".to_string()
    };
    format!(
        "datagen: {total} / {target} positions ({:.1}%), {} games ({} adjudicated), {:.2}M/h, {left}",
        100.0 * total as f64 / target as f64,
        t.games,
        t.adjudicated,
        rate * 3600.0 / 1e6
    )
}

/// `leiserchess datagen …`.
pub fn command(args: &Args) -> Result<(), String> {
    run(&Config::new(args)?)
}

#[cfg(test)]
mod tests;
