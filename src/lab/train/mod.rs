//! `leiserchess train`: fits the learned evaluation ([`crate::eval::nnue`])
//! to self-play data by plain mini-batch Adam in `f32` on all cores.
//!
//! Plain Rust rather than a tensor crate: the first layer sees at most a
//! few dozen of its thousand inputs per position, so a dense framework
//! would multiply a thousand zeros for every useful weight; the sparse
//! forward and backward passes here are a few loops the compiler
//! vectorises.
//!
//! A position's target is `λ × result + (1 − λ) × σ(K × search score)`
//! (side to move's view) and the loss the mean squared error of
//! `σ(K × net score)` against it, as `tune` does. `K` is fitted on the
//! held-out positions to the hand-written evaluation's scores, whose loss
//! on the results is printed once as the bar the net must clear; each
//! epoch then prints the net's loss on the training target and on the
//! held-out results, the same measure.
//!
//! After an epoch whose held-out loss is the lowest so far the quantised
//! net goes to `--out` (so more epochs than the data bears do no harm);
//! after every epoch the whole state (weights, Adam's moments, the epoch,
//! the best loss) goes to `OUT.ckpt` and a line to `OUT.tsv` (the loss
//! curve, drawn to `OUT.svg`); `--resume` goes on from the checkpoint.
//! Shuffles are seeded by the seed and the epoch, so a resumed run makes
//! the same steps as an unbroken one.

mod args;
mod checkpoint;
pub mod mirror;
pub mod model;
pub mod plot;
mod set;

pub use args::Args;
pub use checkpoint::State;
pub use set::{gradient, losses, Parts, Set};

use super::data::{self, Sample};
use super::tune::{self, held_out};
use crate::eval::logistic::logistic;
use crate::eval::nnue::{accumulator::Accumulator, Network};
use model::{Adam, Model};
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};
/// Positions held out together: a file holds its games' positions one
/// game after another, and a net with thousands of weights can learn a
/// game's result from its own positions, so whole stretches of games are
/// held out (a game straddles a stretch's edge only now and then).
const HELD_OUT_BLOCK: usize = 4096;

/// The training target of a position: its `result` blended with its
/// search `score` seen through `K`, with weight `--lambda` on the result.
fn blended(a: &Args, result: f64, score: f64, k: f64) -> f64 {
    a.lambda * result + (1.0 - a.lambda) * logistic(k * score)
}

/// Whether record `i` (counted over all the files) is held out.
fn held_out_block(i: usize, a: &Args) -> bool {
    held_out(i / HELD_OUT_BLOCK, a.seed, a.validation)
}

/// The training and held-out sets of `samples`, targets blended with
/// weight `lambda` and `K`.
fn split(samples: &[Sample], a: &Args, k: f64) -> (Set, Set) {
    let (mut train, mut valid) = (Set::default(), Set::default());
    for (i, s) in samples.iter().enumerate() {
        let result = s.outcome.score_for(s.board.side());
        let target = blended(a, result, f64::from(s.score), k);
        if held_out_block(i, a) {
            valid.push(s, a.beam, target as f32);
            continue;
        }
        train.push(s, a.beam, target as f32);
        if a.mirror {
            let m = Sample {
                board: mirror::mirror(&s.board),
                ..s.clone()
            };
            train.push(&m, a.beam, target as f32);
        }
    }
    (train, valid)
}

/// The bar the net must clear: `K` fitted to the hand-written
/// evaluation's scores of the held-out positions against their results,
/// and that evaluation's held-out loss on the results and on the blended
/// targets.
fn hand_written_bar(samples: &[Sample], a: &Args) -> (f64, f64, f64) {
    let (points, scores): (Vec<tune::Point>, Vec<f64>) = samples
        .iter()
        .enumerate()
        .filter(|(i, _)| held_out_block(*i, a))
        .map(|(_, s)| {
            let result = s.outcome.score_for(s.board.side());
            (tune::Point::new(&s.board, result), f64::from(s.score))
        })
        .unzip();
    let w = tune::defaults();
    let k = tune::fit_k(&points, &w);
    let blended: Vec<tune::Point> = points
        .iter()
        .zip(&scores)
        .map(|(p, &score)| tune::Point {
            target: blended(a, p.target, score, k),
            ..*p
        })
        .collect();
    (k, tune::loss(&points, &w, k), tune::loss(&blended, &w, k))
}

/// Net `net`'s held-out loss on the blended targets and on the results,
/// its scores from the engine's own (quantised) evaluation.
fn net_bar(samples: &[Sample], a: &Args, k: f64, net: &Network) -> (f64, f64) {
    let (mut target, mut result, mut n) = (0.0, 0.0, 0usize);
    for (_, s) in samples
        .iter()
        .enumerate()
        .filter(|(i, _)| held_out_block(*i, a))
    {
        let outcome = s.outcome.score_for(s.board.side());
        let target_of = blended(a, outcome, f64::from(s.score), k);
        let acc = Accumulator::refresh(net, &s.board);
        let p = logistic(k * f64::from(net.evaluate(&acc, &s.board)));
        target += (p - target_of).powi(2);
        result += (p - outcome).powi(2);
        n += 1;
    }
    let n = n.max(1) as f64;
    (target / n, result / n)
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    // Written beside and renamed, so that a stop mid-write keeps the last
    // whole file.
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    std::fs::write(&tmp, bytes)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// `12m 05s`.
pub(crate) fn minutes(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}m {:02}s", s / 60, s % 60)
}

/// `leiserchess train` (see [`Args`]).
pub fn command(a: &Args) -> Result<(), String> {
    let ckpt = a.beside(".ckpt");
    let (tsv_path, svg_path) = (a.beside(".tsv"), a.beside(".svg"));
    let (ckpt_name, tsv_name) = (ckpt.display(), tsv_path.display());
    let out_name = a.out.display().to_string();
    let mut state = if a.resume && ckpt.exists() {
        let bytes = std::fs::read(&ckpt).map_err(|e| format!("cannot read {ckpt_name}: {e}"))?;
        let s = State::from_bytes(&bytes).map_err(|e| format!("{ckpt_name}: {e}"))?;
        if s.model.beam != a.beam {
            return Err(format!(
                "{ckpt_name}: its net {} beam features; drop or add --beam",
                if s.model.beam { "has" } else { "has no" }
            ));
        }
        eprintln!("train: resuming {ckpt_name} after epoch {}", s.epoch);
        s
    } else {
        let model = Model::random(a.beam, a.seed);
        let adam = Adam::new(model.params.len());
        State {
            model,
            adam,
            epoch: 0,
            best: f64::INFINITY,
        }
    };
    let start = Instant::now();
    let mut samples = Vec::new();
    for f in &a.files {
        samples.extend(data::read(f)?);
    }
    if samples.is_empty() {
        return Err(format!("no positions in {}", super::names(&a.files)));
    }
    let (k, bar, bar_target) = hand_written_bar(&samples, a);
    if let Some(path) = &a.against {
        let (t, r) = net_bar(&samples, a, k, &Network::load(path)?);
        println!(
            "net {}'s held-out loss: on the targets {t:.6}, on the results {r:.6}",
            path.display()
        );
    }
    let (train, valid) = split(&samples, a, k);
    drop(samples);
    if train.is_empty() {
        return Err(format!(
            "--validation {} leaves no position to train on",
            a.validation
        ));
    }
    // The net kept is the one of the best held-out loss: with nothing
    // held out every epoch would score 0 and the first would be kept.
    if valid.is_empty() {
        return Err(format!(
            "--validation {} holds out no position of {}: positions are held out in blocks of {HELD_OUT_BLOCK}, and the net kept is the one of the best held-out loss; give more positions or a larger --validation",
            a.validation,
            train.len()
        ));
    }
    println!(
        "{} positions to train on, {} held out ({:.1} s); K {k:.6}; the hand-written evaluation's held-out loss: on the targets {bar_target:.6}, on the results {bar:.6}",
        train.len(),
        valid.len(),
        start.elapsed().as_secs_f64()
    );
    let k = k as f32;
    let steps_per_epoch = train.len().div_ceil(a.batch);
    let total_steps = (a.epochs * steps_per_epoch).max(1);
    let mut order: Vec<usize> = (0..train.len()).collect();
    // A fresh run starts a new curve; a resumed one goes on with it.
    let mut tsv = std::fs::OpenOptions::new()
        .create(true)
        .append(state.epoch > 0)
        .write(true)
        .truncate(state.epoch == 0)
        .open(&tsv_path)
        .map_err(|e| format!("cannot open {tsv_name}: {e}"))?;
    if state.epoch == 0 {
        writeln!(
            tsv,
            "epoch\ttrain\tvalid\tvalid_results\thand_written\thand_written_results"
        )
        .map_err(|e| format!("cannot write {tsv_name}: {e}"))?;
    }
    let run_start = Instant::now();
    let first = state.epoch;
    let mut parts = Parts::new(&state.model);
    while state.epoch < a.epochs {
        let epoch = state.epoch + 1;
        let mut rng =
            fastrand::Rng::with_seed(a.seed ^ (epoch as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        order.sort_unstable();
        rng.shuffle(&mut order);
        let (mut loss, mut shown) = (0.0, Instant::now());
        for (n, batch) in order.chunks(a.batch).enumerate() {
            let step = state.epoch * steps_per_epoch + n;
            let rate = a.rate * (1.0 - 0.9 * step as f64 / total_steps as f64);
            let (grad, l) = gradient(&state.model, &train, batch, k, a.threads, &mut parts);
            loss += l;
            state.adam.step(&mut state.model.params, &grad, rate as f32);
            state.model.clip();
            if shown.elapsed() >= Duration::from_secs(2) {
                shown = Instant::now();
                let done = (epoch - 1 - first) as f64 + (n + 1) as f64 / steps_per_epoch as f64;
                let left = run_start
                    .elapsed()
                    .mul_f64((a.epochs - first) as f64 / done - 1.0);
                eprintln!(
                    "train: epoch {epoch}/{} {:.0}%, loss {:.6}, about {} left",
                    a.epochs,
                    100.0 * (n + 1) as f64 / steps_per_epoch as f64,
                    loss / ((n + 1) * a.batch).min(train.len()) as f64,
                    minutes(left)
                );
            }
        }
        state.epoch = epoch;
        let (v, vr) = losses(&state.model, &valid, k);
        let t = loss / train.len() as f64;
        let best = v < state.best;
        println!(
            "epoch {epoch} train {t:.6} valid {v:.6} valid-results {vr:.6} ({}){}",
            minutes(start.elapsed()),
            if best { ", best so far: written" } else { "" }
        );
        writeln!(
            tsv,
            "{epoch}\t{t:.6}\t{v:.6}\t{vr:.6}\t{bar_target:.6}\t{bar:.6}"
        )
        .map_err(|e| format!("cannot write {tsv_name}: {e}"))?;
        let curve = std::fs::read_to_string(&tsv_path)
            .map_err(|e| format!("cannot read {tsv_name}: {e}"))?;
        let chart = plot::svg(&plot::rows(&curve), &out_name)?;
        write(&svg_path, chart.as_bytes())?;
        if best {
            state.best = v;
            write(&a.out, &state.model.quantise().to_bytes())?;
        }
        write(&ckpt, &state.to_bytes())?;
    }
    println!(
        "the net of the best held-out loss ({:.6}) is {}",
        state.best, out_name
    );
    Ok(())
}
