//! The policy's fit: labelled positions as their moves' features, the
//! softmax cross-entropy of the label and its gradient, Adam's descent,
//! and the agreement of a policy with the labels.

use crate::eval::policy::features::{candidates, Features, Position, COUNT, HEURISTIC};
use crate::lab::train::model::Adam;
use crate::rules::board::Board;
use crate::rules::moves::Move;

/// Positions as the trainer sees them: each one's moves' features in one
/// flat list, and which move is the label.
#[derive(Default)]
pub struct Set {
    features: Vec<Features>,
    /// Per position: where its moves start, how many, the label's place.
    index: Vec<(u32, u16, u16)>,
}

impl Set {
    pub fn len(&self) -> usize {
        self.index.len()
    }

    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    /// Adds `b` labelled `best`; false (nothing added) if `best` is not
    /// one of its moves.
    pub fn push(&mut self, b: &Board, best: Move) -> bool {
        let mut moves = Vec::new();
        candidates(b, &mut moves);
        let Some(label) = moves.iter().position(|c| c.mv == best) else {
            return false;
        };
        let position = Position::new(b);
        let start = self.features.len();
        self.features
            .extend(moves.iter().map(|c| position.features(b, c)));
        self.index
            .push((start as u32, moves.len() as u16, label as u16));
        true
    }

    /// Position `i`'s moves' features and its label's place among them.
    fn position(&self, i: usize) -> (&[Features], usize) {
        let (start, n, label) = self.index[i];
        let start = start as usize;
        (&self.features[start..start + n as usize], label as usize)
    }
}

/// The logit of a move with features `f` under weights `w`, in `f64`.
fn logit(w: &[f32], f: &Features) -> f64 {
    f.active
        .iter()
        .fold(f64::from(w[HEURISTIC]) * f64::from(f.score), |s, &i| {
            s + f64::from(w[usize::from(i)])
        })
}

/// The logits of `moves` into `out`, and their log-sum-exp.
fn logits(w: &[f32], moves: &[Features], out: &mut Vec<f64>) -> f64 {
    out.clear();
    out.extend(moves.iter().map(|f| logit(w, f)));
    let top = out.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    top + out.iter().map(|l| (l - top).exp()).sum::<f64>().ln()
}

/// The L2 penalty of `w`: `l2 / 2 × Σ w²`, the zap score's weight aside
/// (it carries the heuristic the fit starts from).
fn penalty(w: &[f32], l2: f64) -> f64 {
    let sum: f64 = w
        .iter()
        .enumerate()
        .filter(|&(j, _)| j != HEURISTIC)
        .map(|(_, &x)| f64::from(x).powi(2))
        .sum();
    l2 / 2.0 * sum
}

/// The mean cross-entropy of the labels of `batch` (indices into `set`)
/// plus the L2 penalty: what the fit minimises.
pub fn loss(w: &[f32], set: &Set, batch: &[usize], l2: f64) -> f64 {
    let mut buf = Vec::new();
    let sum: f64 = batch
        .iter()
        .map(|&i| {
            let (moves, label) = set.position(i);
            let lse = logits(w, moves, &mut buf);
            lse - buf[label]
        })
        .sum();
    sum / batch.len().max(1) as f64 + penalty(w, l2)
}

/// The gradient of [`loss`] into `grad` (overwritten).
pub fn gradient(w: &[f32], set: &Set, batch: &[usize], l2: f64, grad: &mut [f64]) {
    grad.iter_mut().for_each(|g| *g = 0.0);
    let mut buf = Vec::new();
    let n = batch.len().max(1) as f64;
    for &i in batch {
        let (moves, label) = set.position(i);
        let lse = logits(w, moves, &mut buf);
        for (m, (f, &l)) in moves.iter().zip(&buf).enumerate() {
            let d = ((l - lse).exp() - f64::from(u8::from(m == label))) / n;
            grad[HEURISTIC] += d * f64::from(f.score);
            for &a in &f.active {
                grad[usize::from(a)] += d;
            }
        }
    }
    for (j, (g, &x)) in grad.iter_mut().zip(w).enumerate() {
        if j != HEURISTIC {
            *g += l2 * f64::from(x);
        }
    }
}

/// How often a policy's first choices are the labels.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Agreement {
    /// The share of positions whose label is the policy's first choice
    /// (a tie for first counting as the chance of drawing the label).
    pub top1: f64,
    /// The same for the first three choices.
    pub top3: f64,
    /// The mean cross-entropy of the labels (no penalty).
    pub loss: f64,
}

/// The agreement of weights `w` with `set`'s labels.
pub fn agreement(w: &[f32], set: &Set) -> Agreement {
    let (mut top1, mut top3, mut loss) = (0.0, 0.0, 0.0);
    let mut buf = Vec::new();
    for i in 0..set.len() {
        let (moves, label) = set.position(i);
        let lse = logits(w, moves, &mut buf);
        let mine = buf[label];
        let above = buf.iter().filter(|&&l| l > mine).count() as f64;
        let level = buf.iter().filter(|&&l| l == mine).count() as f64;
        let within = |k: f64| ((k - above) / level).clamp(0.0, 1.0);
        top1 += within(1.0);
        top3 += within(3.0);
        loss += lse - mine;
    }
    let n = set.len().max(1) as f64;
    Agreement {
        top1: top1 / n,
        top3: top3 / n,
        loss: loss / n,
    }
}

/// How [`fit`] descends.
#[derive(Clone, Copy, Debug)]
pub struct Descent {
    pub epochs: usize,
    /// Adam's first step; it falls linearly to nothing over the run.
    pub rate: f64,
    /// Positions a step.
    pub batch: usize,
    pub l2: f64,
    /// Seeds each epoch's shuffle.
    pub seed: u64,
}

/// Adam on [`loss`] over `train` from `start`; `report` gets each epoch,
/// its weights and their agreement with `valid`. Returns the weights of
/// the lowest held-out cross-entropy (the last ones when `valid` is
/// empty).
pub fn fit(
    train: &Set,
    valid: &Set,
    start: &[f32],
    d: &Descent,
    mut report: impl FnMut(usize, &[f32], &Agreement),
) -> Vec<f32> {
    let mut w = start.to_vec();
    let mut adam = Adam::new(COUNT);
    let mut grad = vec![0.0; COUNT];
    let mut grad32 = vec![0.0f32; COUNT];
    let mut order: Vec<usize> = (0..train.len()).collect();
    let steps = (d.epochs * train.len().div_ceil(d.batch)).max(1);
    let (mut step, mut best, mut best_loss) = (0, w.clone(), f64::INFINITY);
    for epoch in 1..=d.epochs {
        let mut rng = fastrand::Rng::with_seed(d.seed ^ (epoch as u64).wrapping_mul(0x9e37_79b9));
        rng.shuffle(&mut order);
        for batch in order.chunks(d.batch) {
            gradient(&w, train, batch, d.l2, &mut grad);
            for (g32, g) in grad32.iter_mut().zip(&grad) {
                *g32 = *g as f32;
            }
            let rate = d.rate * (steps - step) as f64 / steps as f64;
            adam.step(&mut w, &grad32, rate as f32);
            step += 1;
        }
        let held = agreement(&w, valid);
        report(epoch, &w, &held);
        if held.loss < best_loss || valid.is_empty() {
            (best, best_loss) = (w.clone(), held.loss);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fen;
    use crate::rules::moves::MoveList;

    fn random_weights(seed: u64) -> Vec<f32> {
        let mut rng = fastrand::Rng::with_seed(seed);
        (0..COUNT).map(|_| 2.0 * rng.f32() - 1.0).collect()
    }

    /// Positions of a few random games, each labelled by `label` from its
    /// moves' features.
    fn set(mut label: impl FnMut(&[Features]) -> usize) -> Set {
        let mut s = Set::default();
        for seed in 0..4 {
            let mut rng = fastrand::Rng::with_seed(seed);
            let mut b = fen::parse(fen::STARTPOS).unwrap();
            for ply in 0..40 {
                if ply % 4 == 3 {
                    let mut one = Set::default();
                    let mut list = MoveList::new();
                    crate::rules::movegen::generate(&b, &mut list);
                    assert!(one.push(&b, list.as_slice()[0]));
                    let pick = label(one.position(0).0);
                    assert!(s.push(&b, list.as_slice()[pick]));
                }
                let mut list = MoveList::new();
                crate::rules::movegen::generate(&b, &mut list);
                let m = list.as_slice()[rng.usize(..list.len())];
                if b.make(m).king_zapped() {
                    break;
                }
            }
        }
        s
    }

    #[test]
    fn the_gradient_is_the_losss_slope() {
        let mut rng = fastrand::Rng::with_seed(3);
        let s = set(|moves| rng.usize(..moves.len()));
        let all: Vec<usize> = (0..s.len()).collect();
        let w = random_weights(9);
        let l2 = 0.01;
        let mut grad = vec![0.0; COUNT];
        gradient(&w, &s, &all, l2, &mut grad);
        let mut checked = 0;
        for j in (0..COUNT).filter(|&j| j == HEURISTIC || grad[j].abs() > 1e-3 || j % 50 == 7) {
            let eps = 1e-2f32;
            let (mut up, mut down) = (w.clone(), w.clone());
            up[j] += eps;
            down[j] -= eps;
            let slope =
                (loss(&up, &s, &all, l2) - loss(&down, &s, &all, l2)) / f64::from(up[j] - down[j]);
            assert!(
                (slope - grad[j]).abs() < 1e-4 + 1e-3 * grad[j].abs(),
                "weight {j}: {slope} against {}",
                grad[j]
            );
            checked += 1;
        }
        assert!(checked > 50, "{checked}");
    }

    /// Labels a linear policy chose can be learnt back from scratch.
    #[test]
    fn fitting_learns_a_linear_teacher() {
        let teacher = random_weights(5);
        let best = |moves: &[Features]| {
            let l: Vec<f64> = moves.iter().map(|f| logit(&teacher, f)).collect();
            (0..l.len()).max_by(|&a, &b| l[a].total_cmp(&l[b])).unwrap()
        };
        let s = set(best);
        assert!(s.len() >= 30, "{}", s.len());
        let all: Vec<usize> = (0..s.len()).collect();
        let zero = vec![0.0; COUNT];
        let d = Descent {
            epochs: 100,
            rate: 0.05,
            batch: 8,
            l2: 0.0,
            seed: 1,
        };
        let w = fit(&s, &Set::default(), &zero, &d, |_, _, _| {});
        assert!(loss(&w, &s, &all, 0.0) < 0.25 * loss(&zero, &s, &all, 0.0));
        assert!(agreement(&w, &s).top1 > 0.9);
        assert_eq!(agreement(&teacher, &s).top1, 1.0);
    }

    /// All weights zero: every move ties, so the first choice is the label
    /// once in as many moves as the position has.
    #[test]
    fn agreement_counts_ties_fairly() {
        let s = set(|_| 0);
        let a = agreement(&vec![0.0; COUNT], &s);
        let want: f64 = (0..s.len())
            .map(|i| 1.0 / s.position(i).0.len() as f64)
            .sum::<f64>()
            / s.len() as f64;
        assert!((a.top1 - want).abs() < 1e-12);
        assert!((a.top3 - 3.0 * want).abs() < 1e-12);
    }
}
