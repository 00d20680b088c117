//! `leiserchess train-policy`: fits the move policy
//! ([`crate::eval::policy`]) to the moves a fixed-depth PVS chooses in
//! self-play positions.
//!
//! `--positions` records are taken evenly from the data files (one every
//! few plies of every game), labelled by a PVS to `--depth` with the
//! engine's default options (`labels`, kept in a file: a stopped run goes
//! on where it was, and a new fit reuses the labels), and split into
//! training and held-out positions by stretches of the data (whole games,
//! as `train` does). The fit (`fit`) starts from the plain heuristic, so
//! the first epoch's policy is at least as good on the training
//! positions; the policy of the lowest held-out cross-entropy is written.
//! The report: top-1 and top-3 agreement with the labels and the
//! cross-entropy on the held-out positions, of the plain heuristic and of
//! the policy.

mod args;
pub mod fit;
pub mod labels;

pub use args::Args;

use super::data::{self, RECORD};
use super::train::minutes;
use super::tune::held_out;
use crate::config::EngineConfig;
use crate::eval::policy::Policy;
use fit::{agreement, Agreement, Descent, Set};
use std::time::Instant;

/// Data records held out together: about a dozen games.
const HELD_OUT_BLOCK: usize = 1024;

/// The kept positions of the data files (either format), each checked,
/// as format 2 records (the labels file's); the error names the file.
fn records(a: &Args) -> Result<Vec<[u8; RECORD]>, String> {
    let mut out = Vec::new();
    for f in &a.files {
        for s in data::read(f)? {
            out.push(data::encode(&s).expect("a read sample encodes"));
        }
    }
    Ok(out)
}

/// One line of the report.
fn line(name: &str, a: &Agreement) -> String {
    format!(
        "{name:<22} top-1 {:5.1}%  top-3 {:5.1}%  cross-entropy {:.4}",
        100.0 * a.top1,
        100.0 * a.top3,
        a.loss
    )
}

/// `leiserchess train-policy` (see [`Args`]).
pub fn command(a: &Args) -> Result<(), String> {
    // A bad --out fails now, not after the labelling.
    let mut out = super::Output::open("--out", &a.out)?;
    let all = records(a)?;
    if all.is_empty() {
        return Err(format!("no positions in {}", super::names(&a.files)));
    }
    let n = a.positions.min(all.len());
    let chosen: Vec<usize> = (0..n).map(|i| i * all.len() / n).collect();
    let picked: Vec<[u8; RECORD]> = chosen.iter().map(|&i| all[i]).collect();
    let params = EngineConfig::default().search;
    let best = labels::label(&a.labels_path(), &picked, a.depth, a.threads, params)?;
    let start = Instant::now();
    let (mut train, mut valid) = (Set::default(), Set::default());
    let mut held = Vec::new();
    for ((&i, record), &m) in chosen.iter().zip(&picked).zip(&best) {
        let sample = data::decode(record, i).map_err(|e| e.to_string())?;
        let is_held = held_out(i / HELD_OUT_BLOCK, a.seed, a.validation);
        let set = if is_held { &mut valid } else { &mut train };
        if !set.push(&sample.board, m) {
            return Err(format!("record {i}: its label {m} is not one of its moves"));
        }
        if is_held {
            held.push((*record, m));
        }
    }
    if train.is_empty() {
        return Err(format!(
            "--validation {} leaves no position to train on",
            a.validation
        ));
    }
    if let Some(path) = &a.held_out {
        labels::write(path, a.depth, &held)?;
    }
    let heuristic = Policy::heuristic();
    let bar = agreement(heuristic.weights(), &valid);
    println!(
        "{} positions to train on, {} held out ({:.1} s)",
        train.len(),
        valid.len(),
        start.elapsed().as_secs_f64()
    );
    println!("{}", line("held out, heuristic:", &bar));
    let descent = Descent {
        epochs: a.epochs,
        rate: a.rate,
        batch: a.batch,
        l2: a.l2,
        seed: a.seed,
    };
    let fitting = Instant::now();
    let weights = fit::fit(
        &train,
        &valid,
        heuristic.weights(),
        &descent,
        |epoch, _, held| {
            let left = fitting
                .elapsed()
                .mul_f64((a.epochs - epoch) as f64 / epoch as f64);
            println!(
                "epoch {epoch}: held-out top-1 {:.1}%, cross-entropy {:.4} (about {} left)",
                100.0 * held.top1,
                held.loss,
                minutes(left)
            );
        },
    );
    let policy = Policy::new(weights).map_err(|e| format!("the fit diverged: {e}"))?;
    out.replace(&policy.to_bytes())?;
    println!("{}", line("held out, heuristic:", &bar));
    println!(
        "{}",
        line("held out, policy:", &agreement(policy.weights(), &valid))
    );
    println!(
        "{}",
        line("training, policy:", &agreement(policy.weights(), &train))
    );
    println!(
        "the policy of the lowest held-out cross-entropy is {}",
        out.path().display()
    );
    Ok(())
}
