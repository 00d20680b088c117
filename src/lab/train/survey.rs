//! The pass over the data before the first epoch: what the plan of the
//! run needs (each file's games and training positions, the held-out
//! positions and the features they take) and the bars the net must clear.
//!
//! `K` is fitted to the hand-written evaluation's scores of the first
//! [`K_SAMPLE`] held-out positions (a fixed number, so that `K`, and with
//! it every target, is the same whatever the memory); the hand-written
//! evaluation's loss (and `--against`'s net's) is then summed over every
//! held-out position as the pass goes on.

use super::set::feature_count;
use super::{blended, held_out_game, Args};
use crate::eval::logistic::logistic;
use crate::eval::nnue::{accumulator::Accumulator, features, Network};
use crate::lab::data::games;
use crate::lab::data::Sample;
use crate::lab::tune::{self, Point};

/// Held-out positions `K` is fitted on.
pub const K_SAMPLE: usize = 1 << 14;

/// What the pass found in one file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FileSurvey {
    pub games: usize,
    /// Training records (before `--mirror`).
    pub train: usize,
    /// Held-out positions.
    pub held_out: usize,
    /// The features of each run of `--window` held-out positions (the
    /// last what is left): kept, each is a set of its own.
    pub held_out_chunks: Vec<usize>,
    /// The features of each of the file's training windows (`--window`
    /// records each, the last what is left; mirrored positions included).
    pub windows: Vec<usize>,
}

/// What the pass found.
pub struct Survey {
    /// Per file, in the order named.
    pub files: Vec<FileSurvey>,
    /// `K`, and the hand-written evaluation's held-out loss on the
    /// results and on the targets.
    pub k: f64,
    pub bar: f64,
    pub bar_target: f64,
    /// `--against`'s net's held-out loss on the targets and on the results.
    pub against: Option<(f64, f64)>,
}

impl Survey {
    /// Training records in all.
    pub fn train_records(&self) -> usize {
        self.files.iter().map(|f| f.train).sum()
    }

    /// Held-out positions in all.
    pub fn held_out(&self) -> usize {
        self.files.iter().map(|f| f.held_out).sum()
    }

    /// The index of file `f`'s first game among all the files' games.
    pub fn first_game(&self, f: usize) -> usize {
        self.files[..f].iter().map(|f| f.games).sum()
    }
}

/// The held-out losses before `K` is known: the first positions are kept
/// to fit it on, the rest summed as they come.
struct Bars<'a> {
    a: &'a Args,
    net: Option<&'a Network>,
    w: [f64; tune::N],
    /// Until `K` is fitted: the points, and their search scores and the
    /// net's.
    sample: Vec<Point>,
    scores: Vec<(f64, f64)>,
    k: Option<f64>,
    /// The hand-written evaluation's losses on the results and on the
    /// targets, the net's on the targets and on the results.
    sums: [f64; 4],
    n: usize,
}

impl Bars<'_> {
    fn push(&mut self, s: &Sample) {
        let point = Point::new(&s.board, s.outcome.score_for(s.board.side()));
        let net = self.net.map_or(0.0, |net| {
            f64::from(net.evaluate(&Accumulator::refresh(net, &s.board), &s.board))
        });
        let score = f64::from(s.score);
        match self.k {
            Some(k) => self.add(&point, score, net, k),
            None => {
                self.sample.push(point);
                self.scores.push((score, net));
                if self.sample.len() == K_SAMPLE {
                    self.fit();
                }
            }
        }
    }

    fn fit(&mut self) {
        let k = tune::fit_k(&self.sample, &self.w);
        self.k = Some(k);
        let (sample, scores) = (
            std::mem::take(&mut self.sample),
            std::mem::take(&mut self.scores),
        );
        for (point, (score, net)) in sample.iter().zip(scores) {
            self.add(point, score, net, k);
        }
    }

    fn add(&mut self, p: &Point, score: f64, net: f64, k: f64) {
        let hand = logistic(k * p.model(&self.w));
        let target = blended(self.a, p.target, score, k);
        let net = logistic(k * net);
        let terms = [hand - p.target, hand - target, net - target, net - p.target];
        for (sum, e) in self.sums.iter_mut().zip(terms) {
            *sum += e * e;
        }
        self.n += 1;
    }
}

/// The features of `s` with or without beams (both views).
fn feats(s: &Sample, beam: bool) -> usize {
    let b = &s.board;
    let beams = if beam {
        features::beam_squares(b).map(u64::count_ones).iter().sum()
    } else {
        0
    };
    feature_count(b.occupied().count_ones(), beams)
}

/// Reads every file named once, through [`games`].
pub fn survey(a: &Args, net: Option<&Network>) -> Result<Survey, String> {
    let mut bars = Bars {
        a,
        net,
        w: tune::defaults(),
        sample: Vec::new(),
        scores: Vec::new(),
        k: None,
        sums: [0.0; 4],
        n: 0,
    };
    let mirror = if a.mirror { 2 } else { 1 };
    let mut files = Vec::with_capacity(a.files.len());
    let mut game = 0;
    for path in &a.files {
        let mut f = FileSurvey::default();
        for g in games(path)? {
            let g = g?;
            let held_out = held_out_game(game, a);
            for sample in &g.samples {
                let n = feats(sample, a.beam);
                if held_out {
                    if f.held_out % a.window == 0 {
                        f.held_out_chunks.push(0);
                    }
                    *f.held_out_chunks.last_mut().expect("a chunk") += n;
                    f.held_out += 1;
                    bars.push(sample);
                    continue;
                }
                if f.train % a.window == 0 {
                    f.windows.push(0);
                }
                *f.windows.last_mut().expect("a window") += mirror * n;
                f.train += 1;
            }
            f.games += 1;
            game += 1;
        }
        files.push(f);
    }
    if bars.k.is_none() && !bars.sample.is_empty() {
        bars.fit();
    }
    let n = bars.n.max(1) as f64;
    let [bar, bar_target, net_target, net_result] = bars.sums.map(|x| x / n);
    Ok(Survey {
        files,
        k: bars.k.unwrap_or(1.0),
        bar,
        bar_target,
        against: net.map(|_| (net_target, net_result)),
    })
}
