//! The positions as the trainer holds them, and the loss and its gradient
//! over them.

use super::model::{Inputs, Model};
use crate::eval::logistic::logistic_f32;
use crate::eval::nnue::features;
use crate::lab::data::Sample;

/// Positions as the trainer sees them: both views' features in one flat
/// list, and the target.
#[derive(Default)]
pub struct Set {
    feats: Vec<u16>,
    /// Per position: where its features start, how many are the side to
    /// move's (the other side's follow), how many in all. A set holds at
    /// most a window of positions (`--window`, at most 2²², mirrored 2²³):
    /// at most 288 features a position, its features fit a `u32`.
    index: Vec<(u32, u16, u16)>,
    pub targets: Vec<f32>,
    /// The game's result, side to move's view.
    pub results: Vec<f32>,
}

/// The bytes a position takes in a [`Set`] besides its features: its
/// index entry, target and result.
pub const POSITION_BYTES: usize = 16;

/// The most features a position has: 16 pieces (the data holds no more)
/// and two beams over every square, both views.
pub const MAX_FEATS: usize = 2 * (16 + 128);

/// The features of a position with `pieces` pieces and `beams` beam
/// squares (both beams'), both views.
pub fn feature_count(pieces: u32, beams: u32) -> usize {
    2 * (pieces + beams) as usize
}

impl Set {
    /// An empty set whose storage is set aside for `positions` positions
    /// of `feats` features in all (untouched, it is not resident).
    pub fn with_capacity(positions: usize, feats: usize) -> Set {
        Set {
            feats: Vec::with_capacity(feats),
            index: Vec::with_capacity(positions),
            targets: Vec::with_capacity(positions),
            results: Vec::with_capacity(positions),
        }
    }

    /// Empties the set, keeping its storage.
    pub fn clear(&mut self) {
        self.feats.clear();
        self.index.clear();
        self.targets.clear();
        self.results.clear();
    }

    /// The features of all the positions.
    pub fn feats_len(&self) -> usize {
        self.feats.len()
    }

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
        // The beams traced once for both views.
        let paths = beam.then(|| features::beam_squares(&s.board));
        for (i, view) in [side, side.opp()].into_iter().enumerate() {
            self.feats
                .extend(features::pieces(&s.board, view).map(|f| f as u16));
            if let Some(paths) = paths {
                self.feats
                    .extend(features::beams_of(paths, view).map(|f| f as u16));
            }
            if i == 0 {
                n_us = self.feats.len() - start;
            }
        }
        let n = self.feats.len() - start;
        let start = u32::try_from(start).expect("a set holds at most a window's features");
        self.index.push((start, n_us as u16, n as u16));
        self.targets.push(target);
        self.results.push(s.outcome.score_for(side) as f32);
    }

    pub fn inputs(&self, i: usize) -> Inputs<'_> {
        let (start, n_us, n) = self.index[i];
        let start = start as usize;
        let all = &self.feats[start..start + n as usize];
        let (us, them) = all.split_at(n_us as usize);
        Inputs { us, them }
    }
}

/// The loss on the targets and on the results of `set`'s positions.
pub fn losses(m: &Model, set: &Set, k: f32) -> (f64, f64) {
    let mut sums = (0.0, 0.0);
    add_losses(m, set, k, &mut sums);
    let n = set.len().max(1) as f64;
    (sums.0 / n, sums.1 / n)
}

/// Adds the squared errors on the targets and on the results of `set`'s
/// positions to `sums`, one position after another (so that sets summed
/// one after another give the sums of one set holding them all).
pub fn add_losses(m: &Model, set: &Set, k: f32, sums: &mut (f64, f64)) {
    for i in 0..set.len() {
        let p = logistic_f32(k * m.forward(&m.hidden(&set.inputs(i))));
        sums.0 += f64::from((p - set.targets[i]).powi(2));
        sums.1 += f64::from((p - set.results[i]).powi(2));
    }
}

/// Parts a batch is cut into, whatever the threads: the gradient is the
/// sum of the parts' sums in their order, so that the net does not depend
/// on `--threads` (float addition is not associative).
pub const PARTS: usize = 16;

/// The parts' gradient sums, kept from batch to batch (allocating them
/// for each cost a third of the training's time).
pub struct Parts(Vec<Vec<f32>>);

impl Parts {
    pub fn new(m: &Model) -> Parts {
        Parts(vec![vec![0.0; m.params.len()]; PARTS])
    }
}

/// The mean gradient of the loss over `batch` (indices into `set`), its
/// [`PARTS`] shared over `threads`; and the batch's summed loss.
pub fn gradient(
    m: &Model,
    set: &Set,
    batch: &[usize],
    k: f32,
    threads: usize,
    sums: &mut Parts,
) -> (Vec<f32>, f64) {
    let pieces: Vec<&[usize]> = batch.chunks(batch.len().div_ceil(PARTS).max(1)).collect();
    let used = &mut sums.0[..pieces.len()];
    let per = pieces.len().div_ceil(threads.max(1)).max(1);
    let losses: Vec<f64> = std::thread::scope(|scope| {
        let handles: Vec<_> = used
            .chunks_mut(per)
            .zip(pieces.chunks(per))
            .map(|(bufs, pieces)| {
                scope.spawn(move || {
                    bufs.iter_mut()
                        .zip(pieces)
                        .map(|(grad, piece)| part_gradient(m, set, piece, k, grad))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a gradient thread"))
            .collect()
    });
    let mut total = vec![0.0f32; m.params.len()];
    let span = total.len().div_ceil(threads.max(1)).max(1);
    let used = &*used;
    std::thread::scope(|scope| {
        for (n, out) in total.chunks_mut(span).enumerate() {
            scope.spawn(move || {
                let at = n * span;
                for part in used {
                    for (t, g) in out.iter_mut().zip(&part[at..]) {
                        *t += g;
                    }
                }
            });
        }
    });
    let loss = losses.iter().sum();
    let n = batch.len().max(1) as f32;
    for t in &mut total {
        *t /= n;
    }
    (total, loss)
}

/// The summed gradient (into `grad`, cleared first) and loss of one part
/// of a batch, in its order.
fn part_gradient(m: &Model, set: &Set, part: &[usize], k: f32, grad: &mut [f32]) -> f64 {
    grad.fill(0.0);
    let mut loss = 0.0f64;
    for &i in part {
        let x = set.inputs(i);
        let h = m.hidden(&x);
        let p = logistic_f32(k * m.forward(&h));
        let e = p - set.targets[i];
        loss += f64::from(e * e);
        m.backward(&x, &h, 2.0 * e * p * (1.0 - p) * k, grad);
    }
    loss
}
