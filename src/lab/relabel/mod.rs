//! `leiserchess relabel`: data already made, scored again by another
//! evaluation's search. Each kept position of the input files is searched
//! a fixed number of nodes and written with the new score and its game's
//! result, in input order; the positions `datagen` leaves out are left out
//! here too, by the new search: mate scores, and positions whose searched
//! move zaps (unless `--keep-zaps`). The output is of the inputs' format:
//! format 2's records, or format 3's games with their moves as they were,
//! each position's score replaced or the position marked left out.
//!
//! The inputs are cut into stretches of [`STRETCH`] positions (in data
//! order, mostly one game's positions in a row; format 3's games whole,
//! [`input`]), each searched on one thread from a cleared table, so the
//! output is the same for any `--threads`. The output's cursor file (`OUT.cursor`, [`cursor`]) says
//! how many input positions are done after every stretch written, so a
//! stopped run goes on from there when run again.

mod cursor;
mod input;

use super::data;
use super::datagen::think;
use super::engine_flags::EngineFlags;
use crate::config::EngineConfig;
use crate::eval::nnue::Network;
use crate::rules::board::Board;
use crate::rules::game::Game;
use crate::search::algorithm::Memory;
use crate::search::time::SearchLimits;
use crate::search::{Root, Shared, MATE_BOUND};
use clap::builder::RangedU64ValueParser;
use clap::value_parser;
use cursor::Cursor;
use input::Input;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// Positions searched in a row from one cleared table.
pub const STRETCH: usize = 1024;

/// Self-play data scored again by another evaluation's search.
///
/// Searches every position of the inputs --nodes nodes and writes it to
/// --out with the new score and the old result. Run it again to resume.
#[derive(clap::Parser, Clone, Debug, PartialEq)]
#[command(name = "relabel")]
pub struct Args {
    /// Data files (`datagen`'s), read in order.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// The relabelled data (of the inputs' format), with its cursor in
    /// OUT.cursor.
    #[arg(long, value_name = "OUT")]
    pub out: PathBuf,
    /// Nodes searched a position, 1..100000000.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 3000,
        value_parser = value_parser!(u64).range(1..=100_000_000),
        allow_negative_numbers = true,
    )]
    pub nodes: u64,
    /// Stretches searched at once, 1..256.
    #[arg(
        long,
        value_name = "T",
        default_value_t = 1,
        value_parser = RangedU64ValueParser::<usize>::new().range(1..=256),
        allow_negative_numbers = true,
    )]
    pub threads: usize,
    /// Also keep the positions whose searched move zaps.
    #[arg(long)]
    pub keep_zaps: bool,
    /// The engine that searches.
    #[command(flatten)]
    pub engine: EngineFlags,
}

/// What one run does.
struct Config {
    args: Args,
    engine: EngineConfig,
    net: Arc<Network>,
    /// Positions a stretch: [`STRETCH`] (smaller in tests).
    stretch: usize,
}

impl Config {
    fn new(args: &Args) -> Result<Config, String> {
        let engine = args.engine.engine()?;
        Ok(Config {
            args: args.clone(),
            net: engine.net()?,
            engine,
            stretch: STRETCH,
        })
    }
}

/// The stretch `units` of `input` scored again, its bytes for the output
/// and the positions kept.
fn relabel_stretch(
    c: &Config,
    input: &Input,
    units: std::ops::Range<usize>,
    shared: &Shared,
) -> (Vec<u8>, usize) {
    shared.tt.clear();
    let mut memory = Memory::default();
    let limits = SearchLimits::nodes(c.args.nodes);
    let mut out = Vec::new();
    let mut kept = 0;
    let mut score = |board: &Board| relabel_one(c, board, &limits, shared, &mut memory);
    match input {
        Input::Records(records) => {
            for old in &records[units] {
                if let Some(s) = score(&old.board) {
                    let new = data::Sample {
                        score: s,
                        ..old.clone()
                    };
                    out.extend_from_slice(&data::encode(&new).expect("a read board encodes"));
                    kept += 1;
                }
            }
        }
        Input::Chains(chains) => {
            for old in &chains[units] {
                let mut chain = old.clone();
                for (i, board) in old.boards().iter().enumerate() {
                    if old.plies()[i].score.is_some() {
                        chain.set_score(i, score(board));
                    }
                }
                out.extend_from_slice(&chain.to_bytes());
                kept += chain.kept();
            }
        }
    }
    (out, kept)
}

/// `board`'s new search's score, or `None` where `datagen` would leave
/// the position out.
fn relabel_one(
    c: &Config,
    board: &Board,
    limits: &SearchLimits,
    shared: &Shared,
    memory: &mut Memory,
) -> Option<i16> {
    let root = Root::new(board.clone());
    shared.stop.store(false, Ordering::Relaxed);
    let answer = think(&c.engine, &root, limits, shared, memory);
    let best = answer.best?;
    let score = answer.last.map_or(0, |it| it.score);
    if score.abs() >= MATE_BOUND {
        return None;
    }
    let mut game = Game::new(board.clone());
    game.play(best).ok()?;
    if !c.args.keep_zaps && game.plies_since_zap() == 0 {
        return None;
    }
    Some(score.clamp(-30000, 30000) as i16)
}

/// Runs `relabel` until every input position is done, printing progress
/// on standard error.
fn run(c: &Config) -> Result<(), String> {
    let input = Input::read(&c.args.files)?;
    let total = input.positions();
    let out_name = crate::user_text::quote(&c.args.out.display().to_string());
    let cursor_path = cursor::path_of(&c.args.out);
    let mut cursor = Cursor::resume(&cursor_path, total)?;
    let mut out = data::open_to_append(&c.args.out, input.format())?;
    let from = input.units_before(cursor.done).ok_or_else(|| {
        format!(
            "{}: its {} positions done end inside a game of the inputs: name a new --out",
            cursor_path.display(),
            cursor.done
        )
    })?;
    cursor.cut(&mut out, from, &out_name)?;
    if cursor.done == total {
        eprintln!(
            "relabel: {out_name} is done: {} of {total} positions kept",
            cursor.kept
        );
        return Ok(());
    }
    let stretches = input.stretches(from, c.stretch);
    let next = AtomicUsize::new(0);
    let enough = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(usize, (Vec<u8>, usize))>();
    std::thread::scope(|scope| -> Result<(), String> {
        for _ in 0..c.args.threads.min(stretches.len()) {
            let tx = tx.clone();
            let (next, enough, stretches, input) = (&next, &enough, &stretches, &input);
            scope.spawn(move || {
                let t = c.engine.table;
                let shared = Shared::with_net(t.hash_mb, t.ways, c.net.clone());
                while !enough.load(Ordering::Relaxed) {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some((units, _)) = stretches.get(k) else {
                        break;
                    };
                    let done = relabel_stretch(c, input, units.clone(), &shared);
                    if tx.send((k, done)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let sizes: Vec<usize> = stretches.iter().map(|s| s.1).collect();
        let result = write_in_order(c, rx, &mut out.file, &mut cursor, &cursor_path, &sizes);
        enough.store(true, Ordering::Relaxed);
        result
    })
}

/// Appends the stretches in input order as they come (holding those
/// that come early), the cursor saved after each.
fn write_in_order(
    c: &Config,
    rx: mpsc::Receiver<(usize, (Vec<u8>, usize))>,
    file: &mut std::fs::File,
    cursor: &mut Cursor,
    cursor_path: &std::path::Path,
    sizes: &[usize],
) -> Result<(), String> {
    let total = cursor.inputs;
    let (start, had) = (Instant::now(), cursor.done);
    let mut shown = Instant::now();
    let mut early = BTreeMap::new();
    let mut want = 0;
    for (k, bytes) in rx {
        early.insert(k, bytes);
        while let Some((bytes, kept)) = early.remove(&want) {
            file.write_all(&bytes)
                .and_then(|()| file.flush())
                .map_err(|e| format!("cannot write {}: {e}", c.args.out.display()))?;
            cursor.done += sizes[want];
            cursor.kept += kept;
            cursor.save(cursor_path)?;
            want += 1;
        }
        if cursor.done == total || shown.elapsed() >= Duration::from_secs(2) {
            shown = Instant::now();
            eprintln!("{}", progress(cursor, had, total, start.elapsed()));
        }
    }
    eprintln!(
        "relabel: done: {} of {total} positions kept in {}",
        cursor.kept,
        c.args.out.display()
    );
    Ok(())
}

/// `relabel: 12288 / 100000 positions (12.3%), 11020 kept, 410/s, about 3m 34s left`.
fn progress(c: &Cursor, had: usize, total: usize, elapsed: Duration) -> String {
    let rate = (c.done - had) as f64 / elapsed.as_secs_f64().max(1e-3);
    let left = if rate > 0.0 {
        super::time_left(((total - c.done) as f64 / rate) as u64)
    } else {
        "time left unknown".to_string()
    };
    format!(
        "relabel: {} / {total} positions ({:.1}%), {} kept, {rate:.0}/s, {left}",
        c.done,
        100.0 * c.done as f64 / total.max(1) as f64,
        c.kept
    )
}

/// `leiserchess relabel …`.
pub fn command(args: &Args) -> Result<(), String> {
    run(&Config::new(args)?)
}

#[cfg(test)]
mod tests;
