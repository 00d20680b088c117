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

pub mod mirror;
pub mod model;
pub mod plot;

use super::data::{self, Sample};
use super::tune::{self, held_out, sigmoid};
use crate::eval::nnue::features;
use model::{Adam, Inputs, Model};
use std::io::Write;
use std::time::{Duration, Instant};

pub const USAGE: &str =
    "  leiserchess train DATA... --out FILE [--epochs N] [--lambda L] [--validation F]
                   [--seed S] [--rate R] [--batch B] [--threads T] [--beam] [--mirror]
                   [--resume]
                              train the learned evaluation on self-play data files:
                              target = L × result + (1 − L) × sigmoid(K × search
                              score), L default 0.5; F (default 0.1) held out; N
                              epochs (default 20) of Adam, first step R (default
                              0.001) falling to a tenth; B positions a step
                              (default 16384) over T threads (default 2); --beam
                              adds the laser beams' squares to the inputs; --mirror
                              trains on each position reflected in the a7-h0
                              diagonal too (the same game, turned); the net
                              of the best held-out loss written to FILE, the state
                              after every epoch to FILE.ckpt (--resume goes on from
                              it), the loss curve to FILE.tsv and FILE.svg";

/// The command line of `train`.
#[derive(Clone, Debug, PartialEq)]
pub struct Args {
    pub files: Vec<String>,
    pub out: String,
    pub epochs: usize,
    pub lambda: f64,
    pub validation: f64,
    pub seed: u64,
    pub rate: f64,
    pub batch: usize,
    pub threads: usize,
    pub beam: bool,
    /// Train on every position's reflection too ([`mirror`]).
    pub mirror: bool,
    pub resume: bool,
}

/// The flags that take a value.
const VALUE_FLAGS: [&str; 8] = [
    "--out",
    "--epochs",
    "--batch",
    "--threads",
    "--seed",
    "--lambda",
    "--validation",
    "--rate",
];

pub fn parse_args(args: &[String]) -> Result<Args, String> {
    let mut a = Args {
        files: Vec::new(),
        out: String::new(),
        epochs: 20,
        lambda: 0.5,
        validation: 0.1,
        seed: 1,
        rate: 0.001,
        batch: 16384,
        threads: 2,
        beam: false,
        mirror: false,
        resume: false,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--beam" => a.beam = true,
            "--mirror" => a.mirror = true,
            "--resume" => a.resume = true,
            flag if VALUE_FLAGS.contains(&flag) => {
                let value = it.next().ok_or(format!("{flag} needs a value"))?;
                let bad = |what: &str| format!("{flag} {value}: not {what}");
                let number = || value.parse::<f64>().ok().filter(|x| x.is_finite());
                match flag {
                    "--out" => a.out = value.clone(),
                    "--epochs" => a.epochs = super::whole(flag, value, 1, 10_000)? as usize,
                    "--batch" => a.batch = super::whole(flag, value, 1, 1 << 24)? as usize,
                    "--threads" => a.threads = super::whole(flag, value, 1, 256)? as usize,
                    "--seed" => a.seed = value.parse().map_err(|_| bad("a whole number"))?,
                    "--lambda" => {
                        a.lambda = number()
                            .filter(|x| (0.0..=1.0).contains(x))
                            .ok_or(bad("a number from 0 to 1"))?
                    }
                    "--validation" => {
                        a.validation = number()
                            .filter(|x| (0.0..1.0).contains(x))
                            .ok_or(bad("a number from 0 up to (not including) 1"))?
                    }
                    _ => {
                        a.rate = number()
                            .filter(|&x| x > 0.0)
                            .ok_or(bad("a number above 0"))?
                    }
                }
            }
            flag if flag.starts_with("--") => return Err(format!("train: unknown flag '{flag}'")),
            path => a.files.push(path.to_string()),
        }
    }
    if a.files.is_empty() {
        return Err("train needs at least one DATA file".into());
    }
    if a.out.is_empty() {
        return Err("train needs --out FILE".into());
    }
    Ok(a)
}

/// Positions as the trainer sees them: both views' features in one flat
/// list, and the target.
#[derive(Default)]
pub struct Set {
    feats: Vec<u16>,
    /// Per position: where its features start, how many are the side to
    /// move's (the other side's follow), how many in all.
    index: Vec<(u32, u16, u16)>,
    pub targets: Vec<f32>,
    /// The game's result, side to move's view.
    pub results: Vec<f32>,
}

impl Set {
    pub fn len(&self) -> usize {
        self.targets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.targets.is_empty()
    }

    /// Adds a position with its target.
    pub fn push(&mut self, s: &Sample, beam: bool, target: f32) {
        let start = self.feats.len();
        let side = s.board.side();
        let mut n_us = 0;
        for (i, view) in [side, side.opp()].into_iter().enumerate() {
            self.feats
                .extend(features::pieces(&s.board, view).map(|f| f as u16));
            if beam {
                self.feats
                    .extend(features::beams(&s.board, view).map(|f| f as u16));
            }
            if i == 0 {
                n_us = self.feats.len() - start;
            }
        }
        let n = self.feats.len() - start;
        self.index.push((start as u32, n_us as u16, n as u16));
        self.targets.push(target);
        self.results.push(s.outcome.score_for(side) as f32);
    }

    pub fn inputs(&self, i: usize) -> Inputs<'_> {
        let (start, n_us, n) = self.index[i];
        let all = &self.feats[start as usize..start as usize + n as usize];
        let (us, them) = all.split_at(n_us as usize);
        Inputs { us, them }
    }
}

/// The loss on the targets and on the results of `set`'s positions.
pub fn losses(m: &Model, set: &Set, k: f32) -> (f64, f64) {
    let (mut target, mut result) = (0.0f64, 0.0f64);
    for i in 0..set.len() {
        let p = sigmoid_f32(k * m.forward(&m.hidden(&set.inputs(i))));
        target += f64::from((p - set.targets[i]).powi(2));
        result += f64::from((p - set.results[i]).powi(2));
    }
    let n = set.len().max(1) as f64;
    (target / n, result / n)
}

fn sigmoid_f32(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The mean gradient of the loss over `batch` (indices into `set`), the
/// positions split over `threads`; and the batch's summed loss.
pub fn gradient(m: &Model, set: &Set, batch: &[usize], k: f32, threads: usize) -> (Vec<f32>, f64) {
    let share = batch.len().div_ceil(threads.max(1)).max(1);
    let parts: Vec<(Vec<f32>, f64)> = std::thread::scope(|scope| {
        let handles: Vec<_> = batch
            .chunks(share)
            .map(|part| {
                scope.spawn(move || {
                    let mut grad = vec![0.0f32; m.params.len()];
                    let mut loss = 0.0f64;
                    for &i in part {
                        let x = set.inputs(i);
                        let h = m.hidden(&x);
                        let p = sigmoid_f32(k * m.forward(&h));
                        let e = p - set.targets[i];
                        loss += f64::from(e * e);
                        m.backward(&x, &h, 2.0 * e * p * (1.0 - p) * k, &mut grad);
                    }
                    (grad, loss)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a gradient thread"))
            .collect()
    });
    let mut total = vec![0.0f32; m.params.len()];
    let mut loss = 0.0;
    for (g, l) in parts {
        for (t, g) in total.iter_mut().zip(g) {
            *t += g;
        }
        loss += l;
    }
    let n = batch.len().max(1) as f32;
    for t in &mut total {
        *t /= n;
    }
    (total, loss)
}

/// The trainer's state between epochs: what the checkpoint holds.
#[derive(Clone, PartialEq, Debug)]
pub struct State {
    pub model: Model,
    pub adam: Adam,
    /// Epochs done.
    pub epoch: usize,
    /// The lowest held-out loss after an epoch so far (infinite before the
    /// first): the net at `--out` is that epoch's.
    pub best: f64,
}

const CKPT_MAGIC: &[u8; 8] = b"LTRAIN2\0";

/// The checkpoint's header: magic, beam byte, epoch, Adam's step, best loss.
const CKPT_HEADER: usize = 33;

impl State {
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = CKPT_MAGIC.to_vec();
        out.push(u8::from(self.model.beam));
        out.extend_from_slice(&(self.epoch as u64).to_le_bytes());
        out.extend_from_slice(&self.adam.t.to_le_bytes());
        out.extend_from_slice(&self.best.to_le_bytes());
        for x in self
            .model
            .params
            .iter()
            .chain(&self.adam.m)
            .chain(&self.adam.v)
        {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<State, String> {
        if bytes.len() < CKPT_HEADER || &bytes[..8] != CKPT_MAGIC {
            return Err("not a training checkpoint (no LTRAIN2 header)".into());
        }
        let beam = match bytes[8] {
            0 => false,
            1 => true,
            x => return Err(format!("beam byte {x}, not 0 or 1")),
        };
        let len = Model::len(beam);
        let want = CKPT_HEADER + 3 * 4 * len;
        if bytes.len() != want {
            return Err(format!(
                "{} bytes, a checkpoint of this net has {want}",
                bytes.len()
            ));
        }
        let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
        let floats: Vec<f32> = bytes[CKPT_HEADER..]
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes(b.try_into().expect("4 bytes")))
            .collect();
        Ok(State {
            model: Model {
                beam,
                params: floats[..len].to_vec(),
            },
            adam: Adam {
                m: floats[len..2 * len].to_vec(),
                v: floats[2 * len..].to_vec(),
                t: u64_at(17),
            },
            epoch: u64_at(9) as usize,
            best: f64::from_bits(u64_at(25)),
        })
    }
}

/// Positions held out together: a file holds its games' positions one
/// game after another, and a net with thousands of weights can learn a
/// game's result from its own positions, so whole stretches of games are
/// held out (a game straddles a stretch's edge only now and then).
const HELD_OUT_BLOCK: usize = 4096;

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
        let target = a.lambda * result + (1.0 - a.lambda) * sigmoid(k * f64::from(s.score));
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
            target: a.lambda * p.target + (1.0 - a.lambda) * sigmoid(k * score),
            ..*p
        })
        .collect();
    (k, tune::loss(&points, &w, k), tune::loss(&blended, &w, k))
}

fn write(path: &str, bytes: &[u8]) -> Result<(), String> {
    // Written beside and renamed, so that a stop mid-write keeps the last
    // whole file.
    let tmp = format!("{path}.tmp");
    std::fs::write(&tmp, bytes)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| format!("cannot write {path}: {e}"))
}

/// `12m 05s`.
fn minutes(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}m {:02}s", s / 60, s % 60)
}

/// `leiserchess train` (see [`USAGE`]).
pub fn command(args: &[String]) -> Result<(), String> {
    let a = parse_args(args)?;
    let ckpt = format!("{}.ckpt", a.out);
    let mut state = if a.resume && std::path::Path::new(&ckpt).exists() {
        let bytes = std::fs::read(&ckpt).map_err(|e| format!("cannot read {ckpt}: {e}"))?;
        let s = State::from_bytes(&bytes).map_err(|e| format!("{ckpt}: {e}"))?;
        if s.model.beam != a.beam {
            return Err(format!(
                "{ckpt}: its net {} beam features; drop or add --beam",
                if s.model.beam { "has" } else { "has no" }
            ));
        }
        eprintln!("train: resuming {ckpt} after epoch {}", s.epoch);
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
        return Err(format!("no positions in {}", a.files.join(", ")));
    }
    let (k, bar, bar_target) = hand_written_bar(&samples, &a);
    let (train, valid) = split(&samples, &a, k);
    drop(samples);
    if train.is_empty() {
        return Err(format!(
            "--validation {} leaves no position to train on",
            a.validation
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
        .open(format!("{}.tsv", a.out))
        .map_err(|e| format!("cannot open {}.tsv: {e}", a.out))?;
    if state.epoch == 0 {
        writeln!(
            tsv,
            "epoch\ttrain\tvalid\tvalid_results\thand_written\thand_written_results"
        )
        .map_err(|e| format!("cannot write {}.tsv: {e}", a.out))?;
    }
    let run_start = Instant::now();
    let first = state.epoch;
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
            let (grad, l) = gradient(&state.model, &train, batch, k, a.threads);
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
        .map_err(|e| format!("cannot write {}.tsv: {e}", a.out))?;
        let tsv_path = format!("{}.tsv", a.out);
        let curve = std::fs::read_to_string(&tsv_path)
            .map_err(|e| format!("cannot read {tsv_path}: {e}"))?;
        write(
            &format!("{}.svg", a.out),
            plot::svg(&plot::rows(&curve), &a.out).as_bytes(),
        )?;
        if best {
            state.best = v;
            write(&a.out, &state.model.quantise().to_bytes())?;
        }
        write(&ckpt, &state.to_bytes())?;
    }
    println!(
        "the net of the best held-out loss ({:.6}) is {}",
        state.best, a.out
    );
    Ok(())
}
