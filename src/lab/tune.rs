//! Texel's method: fit the evaluation weights ([`WEIGHTS`]) to self-play
//! data (the records of `data`).
//!
//! The evaluation is linear in its weights up to integer truncation, so each
//! position reduces to a few numbers, its [`Point`]: per weight, the
//! contribution of one unit of it to the side to move's score in cp, plus
//! the unweighted rest (material). The model's score is `rest + Σ wᵢ fᵢ`,
//! which reproduces `evaluate(..).score_cp()` within a cp or two, and the
//! fit never touches a board again.
//!
//! A position's target is `λ × result + (1 − λ) × σ(K × search score)`,
//! both from the side to move's view; the loss is the mean squared error
//! between `σ(K × model)` and the target. `K`, the scale from centipawns to
//! expected result, is fitted first to the results alone with the starting
//! weights: fitted to a target that holds `K` itself (`λ < 1`), a `K` near 0
//! would win, flattening both sides to one half. Then Adam descends on the
//! weights in mini-batches, each weight held to its range. A held-out share of the positions (chosen by a hash of the
//! record's index and the seed) measures the fit on data it did not see.
//!
//! The output file holds one line `name value` a weight, the UCI option
//! names with integer values (`pcentral 512`): each line is what
//! `setoption name NAME value VALUE` or autotest's `option.NAME=VALUE`
//! takes.

use super::train::model::Adam;
use super::{data, Output};
use crate::declaration::{self, Kind};
use crate::eval::logistic::logistic;
use crate::eval::{evaluate, Weights, WEIGHTS};
use crate::rules::board::Board;
use crate::rules::piece::Color;
use clap::builder::RangedU64ValueParser;
use std::path::PathBuf;
use std::time::Instant;

/// How many weights the tuner fits: the rows of [`WEIGHTS`], in order.
pub const N: usize = WEIGHTS.len();

/// The value every weight is measured at. Large, so that each term's
/// truncation to a whole ev costs under a millionth of a unit.
const SCALE: i64 = 1 << 20;

/// Positions a gradient step averages over.
const BATCH: usize = 1024;

/// One position as the linear model sees it.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Point {
    /// Per weight of [`WEIGHTS`], the side to move's cp at weight 1.
    pub features: [f64; N],
    /// The side to move's cp that no weight scales (material).
    pub rest: f64,
    /// The expected result, side to move's view, that the model should give.
    pub target: f64,
}

impl Point {
    /// `b`'s features, with `target`.
    pub fn new(b: &Board, target: f64) -> Point {
        let w = declaration::apply(Weights::default(), WEIGHTS, |_| SCALE);
        let t = evaluate(b, &w);
        let sign = match t.to_move {
            Color::White => 1.0,
            Color::Black => -1.0,
        };
        // The term `name`, White's minus Black's, side to move's view, in cp.
        let term = |name: &str| {
            let side = |c: usize| {
                let named = t.sides[c].named();
                let term = named.iter().find(|(n, _)| *n == name);
                term.unwrap_or_else(|| panic!("the weight {name} has no evaluation term"))
                    .1
            };
            sign * f64::from(side(0) - side(1)) / 100.0
        };
        Point {
            features: std::array::from_fn(|i| term(WEIGHTS[i].name) / SCALE as f64),
            rest: term("material"),
            target,
        }
    }

    /// The model's score in cp with weights `w`.
    pub fn model(&self, w: &[f64; N]) -> f64 {
        self.rest + self.features.iter().zip(w).map(|(f, w)| f * w).sum::<f64>()
    }
}

/// The mean squared error of `σ(k × model)` against the targets (NaN for
/// no points).
pub fn loss(points: &[Point], w: &[f64; N], k: f64) -> f64 {
    let sum: f64 = points
        .iter()
        .map(|p| (logistic(k * p.model(w)) - p.target).powi(2))
        .sum();
    sum / points.len() as f64
}

/// The `K` that minimises [`loss`] with weights `w`: a scan of `10^-5 ..
/// 10^0` in steps of a twentieth of a decade, then a golden-section search
/// of log `K` around the scan's best.
pub fn fit_k(points: &[Point], w: &[f64; N]) -> f64 {
    let at = |e: f64| loss(points, w, 10f64.powf(e));
    let step = 0.05;
    let (best, _) = (0..=100)
        .map(|i| -5.0 + step * i as f64)
        .map(|e| (e, at(e)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .expect("101 candidates");
    let (mut lo, mut hi) = (best - step, best + step);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let (a, b) = (hi - ratio * (hi - lo), lo + ratio * (hi - lo));
        if at(a) < at(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    10f64.powf((lo + hi) / 2.0)
}

/// Each weight's range, from [`WEIGHTS`].
pub fn bounds() -> [(f64, f64); N] {
    std::array::from_fn(|i| match WEIGHTS[i].kind {
        Kind::Spin { min, max } => (min as f64, max as f64),
        Kind::Check => (0.0, 1.0),
        Kind::Button | Kind::Text | Kind::Combo { .. } => (0.0, 0.0),
    })
}

/// The defaults of [`WEIGHTS`], where a fit starts.
pub fn defaults() -> [f64; N] {
    std::array::from_fn(|i| WEIGHTS[i].default as f64)
}

/// How [`fit`] descends.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Passes over the training points.
    pub epochs: usize,
    /// Adam's first step, in weight units; it falls linearly to 0 over the
    /// run, so that the last steps settle instead of jittering.
    pub rate: f64,
    /// Positions a step averages over.
    pub batch: usize,
    /// Seeds each epoch's shuffle.
    pub seed: u64,
}

/// The state after an epoch (epoch 0: the start).
#[derive(Clone, Copy, Debug)]
pub struct Epoch {
    pub epoch: usize,
    /// The loss on the training points.
    pub train: f64,
    /// NaN without validation points.
    pub valid: f64,
    pub weights: [f64; N],
}

/// Adam on [`loss`] over `train` from `start`, each weight clamped to
/// `bounds`; `report` sees the start and every epoch. Returns the final
/// weights.
pub fn fit(
    train: &[Point],
    valid: &[Point],
    k: f64,
    start: [f64; N],
    bounds: &[(f64, f64); N],
    c: &Config,
    mut report: impl FnMut(&Epoch),
) -> [f64; N] {
    let batch = c.batch.max(1);
    let total = c.epochs.saturating_mul(train.len().div_ceil(batch)).max(1);
    let mut rng = fastrand::Rng::with_seed(c.seed);
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut w = start;
    // ε far below the usual 1e-8, so that it does not damp the last
    // steps, where the gradients (results per weight unit) are smallest.
    let mut adam = Adam::new(N).with_eps(1e-15);
    let state = |epoch, w: &[f64; N]| Epoch {
        epoch,
        train: loss(train, w, k),
        valid: loss(valid, w, k),
        weights: *w,
    };
    report(&state(0, &w));
    for epoch in 1..=c.epochs {
        rng.shuffle(&mut order);
        for chunk in order.chunks(batch) {
            let mut g = [0.0; N];
            for p in chunk.iter().map(|&i| &train[i]) {
                let s = logistic(k * p.model(&w));
                let d = 2.0 * (s - p.target) * s * (1.0 - s) * k;
                for (g, f) in g.iter_mut().zip(&p.features) {
                    *g += d * f;
                }
            }
            for g in &mut g {
                *g /= chunk.len() as f64;
            }
            let rate = c.rate * (total - adam.t as usize) as f64 / total as f64;
            adam.step(&mut w, &g, rate);
            for (w, (low, high)) in w.iter_mut().zip(bounds) {
                *w = w.clamp(*low, *high);
            }
        }
        report(&state(epoch, &w));
    }
    w
}

/// `splitmix64`: the validation split's hash of a record index.
fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Whether record `index` (counted over all the files) is held out.
pub fn held_out(index: usize, seed: u64, fraction: f64) -> bool {
    let h = splitmix(splitmix(seed) ^ index as u64);
    ((h >> 11) as f64) < fraction * (1u64 << 53) as f64
}

/// Fit the evaluation weights to self-play data (Texel's method).
///
/// Target = L × result + (1 − L) × sigmoid(K × search score); the weights
/// are printed, and written to --out as `name value` lines.
#[derive(clap::Parser, Debug)]
#[command(name = "tune")]
pub struct Args {
    /// Self-play data files (`datagen`'s).
    #[arg(value_name = "DATA", required = true)]
    pub files: Vec<PathBuf>,
    /// Passes over the data.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 20,
        value_parser = RangedU64ValueParser::<usize>::new().range(1..),
        allow_negative_numbers = true,
    )]
    pub epochs: usize,
    /// The result's weight L in the target, 0 to 1.
    #[arg(
        long,
        value_name = "L",
        default_value_t = 1.0,
        value_parser = super::lambda,
        allow_negative_numbers = true,
    )]
    pub lambda: f64,
    /// The share of positions held out, 0 up to 1.
    #[arg(
        long,
        value_name = "F",
        default_value_t = 0.1,
        value_parser = super::validation,
        allow_negative_numbers = true,
    )]
    pub validation: f64,
    /// Seeds the split and the shuffles.
    #[arg(
        long,
        value_name = "S",
        default_value_t = 1,
        allow_negative_numbers = true
    )]
    pub seed: u64,
    /// The file the weights are written to.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Adam's first step in weight units, falling to 0 by the end.
    #[arg(
        long,
        value_name = "R",
        default_value_t = 20.0,
        value_parser = super::rate,
        allow_negative_numbers = true,
    )]
    pub rate: f64,
}

/// The points of every record of `files` (target: the result) with each
/// one's search score, or an error naming the file.
fn read_points(files: &[PathBuf]) -> Result<(Vec<Point>, Vec<f64>), String> {
    let (mut points, mut scores) = (Vec::new(), Vec::new());
    for file in files {
        let start = Instant::now();
        let samples = data::read(file)?;
        for s in &samples {
            points.push(Point::new(&s.board, s.outcome.score_for(s.board.side())));
            scores.push(f64::from(s.score));
        }
        eprintln!(
            "{}: {} positions in {:.1} s",
            file.display(),
            samples.len(),
            start.elapsed().as_secs_f64()
        );
    }
    if points.is_empty() {
        return Err(format!("no positions in {}", super::names(files)));
    }
    Ok((points, scores))
}

/// The weights rounded, as `name value` pairs joined by `sep`.
fn named(w: &[f64; N], sep: &str) -> String {
    let pairs: Vec<String> = WEIGHTS
        .iter()
        .zip(w)
        .map(|(s, v)| format!("{} {}", s.name, v.round() as i64))
        .collect();
    pairs.join(sep)
}

/// `leiserchess tune` (see [`Args`]): reads the data, fits `K` and then
/// the weights, prints an epoch a line, and writes the weights to `--out`.
pub fn command(a: &Args) -> Result<(), String> {
    let mut out = a
        .out
        .as_deref()
        .map(|path| Output::open("--out", path))
        .transpose()?;
    let start = Instant::now();
    let (points, scores) = read_points(&a.files)?;
    let (mut train, mut valid) = (Vec::new(), Vec::new());
    for (i, p) in points.into_iter().enumerate() {
        let set = if held_out(i, a.seed, a.validation) {
            &mut valid
        } else {
            &mut train
        };
        set.push((p, scores[i]));
    }
    if train.is_empty() {
        return Err(format!(
            "--validation {} leaves no position to train on",
            a.validation
        ));
    }
    let w0 = defaults();
    let results: Vec<Point> = train.iter().map(|(p, _)| *p).collect();
    let k = fit_k(&results, &w0);
    println!(
        "K {k:.6} (loss {:.6} on the results)",
        loss(&results, &w0, k)
    );
    let blend = |set: Vec<(Point, f64)>| -> Vec<Point> {
        set.into_iter()
            .map(|(p, score)| Point {
                target: a.lambda * p.target + (1.0 - a.lambda) * logistic(k * score),
                ..p
            })
            .collect()
    };
    let (train, valid) = (blend(train), blend(valid));
    println!(
        "{} positions to train on, {} held out",
        train.len(),
        valid.len()
    );
    let config = Config {
        epochs: a.epochs,
        rate: a.rate,
        batch: BATCH,
        seed: a.seed,
    };
    let fitting = Instant::now();
    let w = fit(&train, &valid, k, w0, &bounds(), &config, |e| {
        let valid = match e.valid {
            v if v.is_nan() => "-".to_string(),
            v => format!("{v:.8}"),
        };
        println!(
            "epoch {} train {:.8} valid {valid} {}",
            e.epoch,
            e.train,
            named(&e.weights, " ")
        );
        if e.epoch > 0 {
            let each = fitting.elapsed().as_secs_f64() / e.epoch as f64;
            eprintln!(
                "epoch {}/{}: {:.1} s, about {:.1} s left",
                e.epoch,
                a.epochs,
                start.elapsed().as_secs_f64(),
                each * (a.epochs - e.epoch) as f64
            );
        }
    });
    println!("{}", named(&w, "\n"));
    if let Some(out) = &mut out {
        out.replace(format!("{}\n", named(&w, "\n")).as_bytes())?;
    }
    Ok(())
}
