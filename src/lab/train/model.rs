//! The network in `f32`, as the trainer fits it: the same shape as
//! [`crate::eval::nnue`]'s quantised net (one shared layer per perspective,
//! units clipped to `0..=1`, one output times [`SCALE`] in cp), its
//! gradient for one position, Adam, and the quantisation to the engine's
//! integers.
//!
//! The parameters are one flat vector: the first layer's weights, feature
//! by feature ([`HIDDEN`] each), its biases, the output weights (side to
//! move's units first) and the output bias.

use crate::eval::nnue::{features, Network, Row, HIDDEN, QA, QB, SCALE};

/// A first-layer weight's bound: with at most 16 piece and 64 beam
/// features active, `QA × 1.5 × 81` stays inside `i16`.
const FT_BOUND: f32 = 1.5;

#[derive(Clone, PartialEq, Debug)]
pub struct Model {
    pub beam: bool,
    pub params: Vec<f32>,
}

/// One position's inputs: the side to move's features, the other side's,
/// and the result the net should predict (side to move's view).
#[derive(Clone, Copy, Debug)]
pub struct Inputs<'a> {
    pub us: &'a [u16],
    pub them: &'a [u16],
}

/// The first layer's sums of one position from both views.
pub struct Hidden {
    pub us: [f32; HIDDEN],
    pub them: [f32; HIDDEN],
}

impl Model {
    pub fn inputs(beam: bool) -> usize {
        features::count(beam)
    }

    /// The number of parameters of a net with or without beam features.
    pub fn len(beam: bool) -> usize {
        Self::inputs(beam) * HIDDEN + HIDDEN + 2 * HIDDEN + 1
    }

    fn ft_bias_at(&self) -> usize {
        Self::inputs(self.beam) * HIDDEN
    }

    fn out_at(&self) -> usize {
        self.ft_bias_at() + HIDDEN
    }

    /// Small random weights from `seed`, zero biases.
    pub fn random(beam: bool, seed: u64) -> Model {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut m = Model {
            beam,
            params: vec![0.0; Self::len(beam)],
        };
        let (bias, out) = (m.ft_bias_at(), m.out_at());
        for w in &mut m.params[..bias] {
            *w = (rng.f32() - 0.5) * 0.2;
        }
        for w in &mut m.params[out..out + 2 * HIDDEN] {
            *w = (rng.f32() - 0.5) * 0.2;
        }
        m
    }

    /// The engine's integer net in `f32`, each weight divided by its
    /// quantisation factor: [`Model::quantise`] gives `net` back exactly.
    pub fn from_network(net: &Network) -> Model {
        let mut params = Vec::with_capacity(Self::len(net.beam));
        for row in net.ft_weights.iter().chain([&net.ft_bias]) {
            params.extend(row.0.iter().map(|&w| f32::from(w) / QA as f32));
        }
        params.extend(net.out_weights.iter().map(|&w| f32::from(w) / QB as f32));
        params.push(net.out_bias as f32 / (QA * QB) as f32);
        Model {
            beam: net.beam,
            params,
        }
    }

    /// The first layer's sums of a position.
    pub fn hidden(&self, x: &Inputs) -> Hidden {
        let bias: [f32; HIDDEN] = self.params[self.ft_bias_at()..self.out_at()]
            .try_into()
            .expect("HIDDEN biases");
        let sum = |feats: &[u16]| {
            let mut h = bias;
            for &f in feats {
                let row = &self.params[f as usize * HIDDEN..][..HIDDEN];
                for (h, w) in h.iter_mut().zip(row) {
                    *h += w;
                }
            }
            h
        };
        Hidden {
            us: sum(x.us),
            them: sum(x.them),
        }
    }

    /// The score in cp for the side to move.
    pub fn forward(&self, h: &Hidden) -> f32 {
        let out = &self.params[self.out_at()..];
        let clip = |x: f32| x.clamp(0.0, 1.0);
        let us: f32 = h.us.iter().zip(out).map(|(&x, w)| clip(x) * w).sum();
        let them: f32 = h
            .them
            .iter()
            .zip(&out[HIDDEN..])
            .map(|(&x, w)| clip(x) * w)
            .sum();
        (us + them + out[2 * HIDDEN]) * SCALE as f32
    }

    /// Adds `d` (the loss's derivative by the cp score) times the score's
    /// gradient at this position to `grad`.
    pub fn backward(&self, x: &Inputs, h: &Hidden, d: f32, grad: &mut [f32]) {
        let d = d * SCALE as f32;
        let (bias, out) = (self.ft_bias_at(), self.out_at());
        for (view, (units, feats)) in [(&h.us, x.us), (&h.them, x.them)].into_iter().enumerate() {
            let w_out = &self.params[out + view * HIDDEN..][..HIDDEN];
            let mut dh = [0.0f32; HIDDEN];
            for i in 0..HIDDEN {
                let u = units[i];
                grad[out + view * HIDDEN + i] += d * u.clamp(0.0, 1.0);
                dh[i] = if u > 0.0 && u < 1.0 {
                    d * w_out[i]
                } else {
                    0.0
                };
            }
            for (g, dh) in grad[bias..out].iter_mut().zip(&dh) {
                *g += dh;
            }
            for &f in feats {
                let row = &mut grad[f as usize * HIDDEN..][..HIDDEN];
                for (g, dh) in row.iter_mut().zip(&dh) {
                    *g += dh;
                }
            }
        }
        grad[out + 2 * HIDDEN] += d;
    }

    /// Holds the first layer inside what the quantised net can add up.
    pub fn clip(&mut self) {
        let out = self.out_at();
        for w in &mut self.params[..out] {
            *w = w.clamp(-FT_BOUND, FT_BOUND);
        }
    }

    /// The engine's integer net.
    pub fn quantise(&self) -> Network {
        let q16 = |w: f32, q: i32| {
            (w * q as f32)
                .round()
                .clamp(i16::MIN as f32, i16::MAX as f32) as i16
        };
        let (bias, out) = (self.ft_bias_at(), self.out_at());
        let row = |at: usize, q: i32| -> Row {
            Row(std::array::from_fn(|i| q16(self.params[at + i], q)))
        };
        let mut out_weights = [0i16; 2 * HIDDEN];
        for (o, &w) in out_weights
            .iter_mut()
            .zip(&self.params[out..out + 2 * HIDDEN])
        {
            *o = q16(w, QB);
        }
        Network {
            beam: self.beam,
            ft_weights: (0..Self::inputs(self.beam))
                .map(|f| row(f * HIDDEN, QA))
                .collect(),
            ft_bias: row(bias, QA),
            out_weights,
            out_bias: (self.params[out + 2 * HIDDEN] * (QA * QB) as f32).round() as i32,
        }
    }

    /// The largest difference, in cp, between this model's score and its
    /// quantised net's for a position with `active` features a side: each
    /// first-layer weight rounds by at most `1/2QA`, each output weight by
    /// `1/2QB`, the output bias by `1/2QAQB`, and the final division
    /// truncates by under a cp.
    pub fn quantisation_bound(&self, active: usize) -> f32 {
        let out = self.out_at();
        let w_out: f32 = self.params[out..out + 2 * HIDDEN]
            .iter()
            .map(|w| w.abs())
            .sum();
        let unit = (active + 1) as f32 * 0.5 / QA as f32;
        let per_out = 2.0 * HIDDEN as f32 * 0.5 / QB as f32;
        let bias = 0.5 / (QA * QB) as f32;
        (w_out * unit + per_out * (1.0 + unit) + bias) * SCALE as f32 + 1.0
    }
}

/// A float Adam works in: `f32` for the nets, `f64` for the tuner's
/// weights.
pub trait Real:
    Copy
    + std::ops::Add<Output = Self>
    + std::ops::Sub<Output = Self>
    + std::ops::Mul<Output = Self>
    + std::ops::Div<Output = Self>
    + std::ops::SubAssign
{
    const ZERO: Self;
    const ONE: Self;
    /// The moments' decays β₁ and β₂, and the usual ε.
    const BETA1: Self;
    const BETA2: Self;
    const EPS: Self;
    fn powi(self, n: i32) -> Self;
    fn sqrt(self) -> Self;
}

macro_rules! real {
    ($t:ty) => {
        impl Real for $t {
            const ZERO: $t = 0.0;
            const ONE: $t = 1.0;
            const BETA1: $t = 0.9;
            const BETA2: $t = 0.999;
            const EPS: $t = 1e-8;
            fn powi(self, n: i32) -> $t {
                <$t>::powi(self, n)
            }
            fn sqrt(self) -> $t {
                <$t>::sqrt(self)
            }
        }
    };
}
real!(f32);
real!(f64);

/// Adam's state: the moments of every parameter, the step count and ε.
#[derive(Clone, PartialEq, Debug)]
pub struct Adam<F: Real> {
    pub m: Vec<F>,
    pub v: Vec<F>,
    pub t: u64,
    eps: F,
}

impl<F: Real> Adam<F> {
    pub fn new(len: usize) -> Adam<F> {
        Adam::resume(vec![F::ZERO; len], vec![F::ZERO; len], 0)
    }

    /// The state after `t` steps with moments `m` and `v` (a checkpoint's).
    pub fn resume(m: Vec<F>, v: Vec<F>, t: u64) -> Adam<F> {
        Adam {
            m,
            v,
            t,
            eps: F::EPS,
        }
    }

    /// The same with `eps` for ε.
    pub fn with_eps(self, eps: F) -> Adam<F> {
        Adam { eps, ..self }
    }

    /// One step of `rate` down the mean gradient `grad`.
    pub fn step(&mut self, params: &mut [F], grad: &[F], rate: F) {
        let (b1, b2, eps) = (F::BETA1, F::BETA2, self.eps);
        self.t += 1;
        let c1 = F::ONE - b1.powi(self.t as i32);
        let c2 = F::ONE - b2.powi(self.t as i32);
        let it = params
            .iter_mut()
            .zip(grad)
            .zip(self.m.iter_mut().zip(&mut self.v));
        for ((p, &g), (m, v)) in it {
            *m = b1 * *m + (F::ONE - b1) * g;
            *v = b2 * *v + (F::ONE - b2) * g * g;
            *p -= rate * (*m / c1) / ((*v / c2).sqrt() + eps);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The trainer's start from a net (`train --init`) is that net: its
    /// quantisation gives the same integers back.
    #[test]
    fn a_net_in_f32_quantises_back_to_itself() {
        let net = Network::embedded();
        let model = Model::from_network(&net);
        assert_eq!(model.params.len(), Model::len(net.beam));
        assert!(model.quantise() == net);
    }
}
