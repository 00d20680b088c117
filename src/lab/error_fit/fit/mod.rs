//! The fit itself: pure functions of the measured rows (`table::Row`).
//!
//! - The spread: for each deepening of k plies, 1 ≤ k ≤ K = min(4, D)
//!   (`--plies` sets the 4),
//!   the changes Δ = s(d + k) − s(d) over every position and depth d ≥ 0
//!   where neither score is a mate. Their spread `s_k` is the root mean
//!   square about 0, not about their mean: the model's shapes are centred
//!   on 0, so the spread they must match is that of the change itself (the
//!   mean is reported beside it, and is small).
//! - `error_cp` and `growth`: the power law `s_k = error_cp × k^growth` by
//!   least squares in logarithms (with one k: `s_1` and growth 1). The
//!   design's band, linear in k, is the line through the origin
//!   Σ k s_k / Σ k², reported beside it: on our data it misses `s_1` by
//!   half, and the search asks most about one or two plies.
//! - The cost: the nodes' geometric mean over the positions at each depth
//!   (a few long searches would swamp an arithmetic one), and
//!   `ln nodes = ln nodes0 + d ln ebf` by least squares over depths 1..=D.
//!   Depth 0 is left out: it is the quiescence search alone, a different
//!   kind of search than the iterative deepening of depths 1 up; its
//!   geometric mean is the model's `qnodes`.
//! - The shape: every change standardised, z = Δ / (error_cp · k^growth), scored
//!   against the normal and the logistic of standard deviation 1 (no
//!   rescaling: the model fixes it) by mean log-likelihood and the
//!   Kolmogorov–Smirnov distance, and against the empirical shape by
//!   holding out half the positions (quantiles from the even-numbered
//!   positions, distances on the odd ones, the parametric shapes' on the
//!   odd ones too). Halves of positions, not of changes: one position's
//!   changes move together.

use super::table::Row;
use crate::eval::logistic::unit_scale;
use crate::search::bestfirst::model::{
    empirical_cdf, logistic_cdf, normal_cdf, ErrorModel, Family,
};
use crate::search::MATE_BOUND;

/// The deepest deepening the spread is measured over, in plies, unless
/// told otherwise (`--plies`).
pub const PLIES: usize = 4;
/// Quantiles the empirical shape keeps: probabilities 0, 1/32, …, 1.
pub const QUANTILES: usize = 33;
/// Positions the fit needs: each half at least five.
pub const MIN_POSITIONS: usize = 10;

/// `--family`: one shape, or the best held out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    Best,
    Only(Family),
}

impl Choice {
    pub fn parse(text: &str) -> Result<Choice, String> {
        match text {
            "best" => Ok(Choice::Best),
            _ => Family::parse(text)
                .map(Choice::Only)
                .ok_or_else(|| format!("not one of {}, best", Family::NAMES.join(", "))),
        }
    }
}

/// One score change: the position (its row), the shallower depth, the
/// plies deepened and the change in cp.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Change {
    pub row: usize,
    pub depth: usize,
    pub plies: usize,
    pub delta: f64,
}

/// Every change of `rows` over `plies` plies whose two scores are not mates.
pub fn changes(rows: &[Row], plies: usize) -> Vec<Change> {
    let mut out = Vec::new();
    for (row, r) in rows.iter().enumerate() {
        for (depth, pair) in r.scores.windows(plies + 1).enumerate() {
            let (a, b) = (pair[0], pair[plies]);
            if a.abs() < MATE_BOUND && b.abs() < MATE_BOUND {
                let delta = f64::from(b - a);
                out.push(Change {
                    row,
                    depth,
                    plies,
                    delta,
                });
            }
        }
    }
    out
}

/// How far some changes spread: their count, mean and root mean square
/// about 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spread {
    pub count: usize,
    pub mean: f64,
    pub rms: f64,
}

pub fn spread(deltas: impl Iterator<Item = f64>) -> Spread {
    let (mut count, mut sum, mut squares) = (0, 0.0, 0.0);
    for d in deltas {
        count += 1;
        sum += d;
        squares += d * d;
    }
    let n = count.max(1) as f64;
    Spread {
        count,
        mean: sum / n,
        rms: (squares / n).sqrt(),
    }
}

/// The least-squares slope through the origin of `spreads[i].rms` against
/// `k = i + 1`.
pub fn slope(spreads: &[Spread]) -> f64 {
    let (mut ks, mut kk) = (0.0, 0.0);
    for (i, s) in spreads.iter().enumerate() {
        let k = (i + 1) as f64;
        ks += k * s.rms;
        kk += k * k;
    }
    ks / kk
}

/// The power law `a × k^p` through `spreads` by least squares in
/// logarithms, as `(a, p)`; a random walk's spread would have `p = 1/2`.
pub fn power_law(spreads: &[Spread]) -> (f64, f64) {
    let points: Vec<(f64, f64)> = spreads
        .iter()
        .enumerate()
        .map(|(i, s)| (((i + 1) as f64).ln(), s.rms.ln()))
        .collect();
    let (p, ln_a) = line(&points);
    (ln_a.exp(), p)
}

/// The least-squares line through `points`, as (slope, intercept).
fn line(points: &[(f64, f64)]) -> (f64, f64) {
    let n = points.len() as f64;
    let mx = points.iter().map(|p| p.0).sum::<f64>() / n;
    let my = points.iter().map(|p| p.1).sum::<f64>() / n;
    let sxy: f64 = points.iter().map(|(x, y)| (x - mx) * (y - my)).sum();
    let sxx: f64 = points.iter().map(|(x, _)| (x - mx) * (x - mx)).sum();
    let b = sxy / sxx;
    (b, my - b * mx)
}

/// What a search costs by depth.
#[derive(Clone, Debug, PartialEq)]
pub struct Cost {
    pub ebf: f64,
    pub nodes0: f64,
    /// The nodes' geometric mean over the positions at each depth 0..=D.
    pub geomean: Vec<f64>,
}

/// The cost line of `rows` (at least one row, depths 0 to at least 2).
pub fn cost(rows: &[Row]) -> Cost {
    let depths = rows[0].nodes.len();
    let geomean: Vec<f64> = (0..depths)
        .map(|d| {
            let logs: f64 = rows.iter().map(|r| (r.nodes[d].max(1) as f64).ln()).sum();
            (logs / rows.len() as f64).exp()
        })
        .collect();
    let points: Vec<(f64, f64)> = (1..depths).map(|d| (d as f64, geomean[d].ln())).collect();
    let (b, a) = line(&points);
    Cost {
        ebf: b.exp(),
        nodes0: a.exp(),
        geomean,
    }
}

/// The quantiles of `sorted` at probabilities `i / (n − 1)`, linear between
/// order statistics (the sample's minimum and maximum at the ends).
pub fn quantiles(sorted: &[f64], n: usize) -> Vec<f64> {
    let last = (sorted.len() - 1) as f64;
    (0..n)
        .map(|i| {
            let h = last * i as f64 / (n - 1) as f64;
            let lo = h.floor() as usize;
            let hi = (lo + 1).min(sorted.len() - 1);
            sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
        })
        .collect()
}

/// The Kolmogorov–Smirnov distance between the sample `sorted` and the
/// distribution `cdf`, whose left limits are `left` (they differ where it
/// jumps: the empirical shape's tied quantiles, at the changes of 0 that
/// the sample also holds many of).
pub fn ks(sorted: &[f64], cdf: impl Fn(f64) -> f64, left: impl Fn(f64) -> f64) -> f64 {
    let n = sorted.len() as f64;
    let mut worst: f64 = 0.0;
    let mut i = 0;
    while i < sorted.len() {
        let x = sorted[i];
        let j = sorted[i..].partition_point(|&y| y <= x) + i;
        let below = i as f64 / n;
        let upto = j as f64 / n;
        worst = worst
            .max((below - left(x)).abs())
            .max((upto - cdf(x)).abs());
        i = j;
    }
    worst
}

/// The empirical shape's distribution function just below `z`.
fn empirical_left(q: &[f64], z: f64) -> f64 {
    let n = q.len();
    if z <= q[0] {
        return 0.0;
    }
    if z > q[n - 1] {
        return 1.0;
    }
    // The last quantile strictly below z; the next is at or above it.
    let i = q.partition_point(|&x| x < z) - 1;
    let within = (z - q[i]) / (q[i + 1] - q[i]);
    (i as f64 + within) / (n - 1) as f64
}

fn normal_ln_density(z: f64) -> f64 {
    -0.5 * z * z - 0.5 * (2.0 * std::f64::consts::PI).ln()
}

fn logistic_ln_density(z: f64) -> f64 {
    let s = unit_scale();
    let t = z.abs() / s;
    -t - 2.0 * (-t).exp().ln_1p() - s.ln()
}

/// How well one shape fits the standardised changes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shape {
    pub family: Family,
    /// Mean log-likelihood a change, nats (the parametric shapes only).
    pub log_likelihood: Option<f64>,
    /// Kolmogorov–Smirnov distance on every change (the empirical shape:
    /// to its own quantiles, not 0 only because it keeps 33).
    pub ks: f64,
    /// The same on the odd-numbered positions, the empirical shape's
    /// quantiles taken from the even-numbered ones.
    pub held_out: f64,
}

/// The three shapes scored on `z` (each tagged with its row), in
/// `Family::NAMES`' order; both halves must hold changes.
pub fn shapes(z: &[(usize, f64)]) -> Vec<Shape> {
    let sorted = |keep: &dyn Fn(usize) -> bool| {
        let mut v: Vec<f64> = z.iter().filter(|(r, _)| keep(*r)).map(|p| p.1).collect();
        v.sort_by(f64::total_cmp);
        v
    };
    let (all, even, odd) = (
        sorted(&|_| true),
        sorted(&|r| r % 2 == 0),
        sorted(&|r| r % 2 == 1),
    );
    let mean_ln = |f: fn(f64) -> f64| all.iter().map(|&x| f(x)).sum::<f64>() / all.len() as f64;
    let parametric = |family, cdf: fn(f64) -> f64, ln_density| Shape {
        family,
        log_likelihood: Some(mean_ln(ln_density)),
        ks: ks(&all, cdf, cdf),
        held_out: ks(&odd, cdf, cdf),
    };
    let own = quantiles(&all, QUANTILES);
    let half = quantiles(&even, QUANTILES);
    vec![
        parametric(Family::Normal, normal_cdf, normal_ln_density),
        parametric(Family::Logistic, logistic_cdf, logistic_ln_density),
        Shape {
            family: Family::Empirical,
            log_likelihood: None,
            ks: ks(
                &all,
                |x| empirical_cdf(&own, x),
                |x| empirical_left(&own, x),
            ),
            held_out: ks(
                &odd,
                |x| empirical_cdf(&half, x),
                |x| empirical_left(&half, x),
            ),
        },
    ]
}

/// The fit and what it was made of.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    pub model: ErrorModel,
    pub positions: usize,
    /// The changes' spread by plies deepened, k = 1..=K.
    pub by_plies: Vec<Spread>,
    /// The design's band: the line through the origin of `by_plies`
    /// ([`slope`]), cp a ply, for comparison.
    pub line: f64,
    /// One ply's changes by the shallower depth d = 0..D: does the error
    /// shrink with depth?
    pub by_depth: Vec<Spread>,
    /// One ply's changes from even and from odd depths: the odd-even effect.
    pub parity: [Spread; 2],
    pub cost: Cost,
    pub shapes: Vec<Shape>,
    /// Every standardised change, ascending (the chart's histogram).
    pub z: Vec<f64>,
}

/// Fits `rows` (depths 0 to at least 2, each row the same) over
/// deepenings of 1 to `plies` plies (at most D), the shape as `choice` says.
pub fn fit(rows: &[Row], choice: Choice, plies: usize) -> Result<Fit, String> {
    if rows.len() < MIN_POSITIONS {
        return Err(format!(
            "{} positions: the fit needs at least {MIN_POSITIONS}",
            rows.len()
        ));
    }
    let depth = rows[0].depth();
    if depth < 2 {
        return Err(format!(
            "depths 0 to {depth}: the fit needs at least 0 to 2"
        ));
    }
    let max_plies = plies.clamp(1, depth);
    let all: Vec<Vec<Change>> = (1..=max_plies).map(|k| changes(rows, k)).collect();
    let halves = |c: &[Change]| [0, 1].map(|h| c.iter().any(|c| c.row % 2 == h));
    for (i, c) in all.iter().enumerate() {
        if halves(c) != [true, true] {
            return Err(format!(
                "no even- and odd-numbered positions both with a change over {} plies \
                 between non-mate scores",
                i + 1
            ));
        }
    }
    let by_plies: Vec<Spread> = all
        .iter()
        .map(|c| spread(c.iter().map(|c| c.delta)))
        .collect();
    if by_plies.iter().any(|s| s.rms <= 0.0) {
        return Err("every score change is 0: no spread to fit".to_string());
    }
    let power = (by_plies.len() >= 2).then(|| power_law(&by_plies));
    let (error_cp, growth) = power.unwrap_or((by_plies[0].rms, 1.0));
    let one = &all[0];
    let by_depth = (0..depth)
        .map(|d| spread(one.iter().filter(|c| c.depth == d).map(|c| c.delta)))
        .collect();
    let parity = [0, 1].map(|p| spread(one.iter().filter(|c| c.depth % 2 == p).map(|c| c.delta)));
    let cost = cost(rows);
    if cost.ebf <= 1.0 || !cost.nodes0.is_finite() {
        return Err(format!(
            "the nodes do not grow with depth (branching factor {:.3})",
            cost.ebf
        ));
    }
    let tagged: Vec<(usize, f64)> = all
        .iter()
        .flatten()
        .map(|c| (c.row, c.delta / (error_cp * (c.plies as f64).powf(growth))))
        .collect();
    let shapes = shapes(&tagged);
    let family = match choice {
        Choice::Only(f) => f,
        Choice::Best => {
            let best = shapes
                .iter()
                .min_by(|a, b| a.held_out.total_cmp(&b.held_out));
            best.expect("three shapes").family
        }
    };
    let mut z: Vec<f64> = tagged.iter().map(|p| p.1).collect();
    z.sort_by(f64::total_cmp);
    Ok(Fit {
        model: ErrorModel {
            error_cp,
            growth,
            ebf: cost.ebf,
            nodes0: cost.nodes0,
            qnodes: cost.geomean[0],
            family,
            quantiles: quantiles(&z, QUANTILES),
        },
        positions: rows.len(),
        line: slope(&by_plies),
        by_plies,
        by_depth,
        parity,
        cost,
        shapes,
        z,
    })
}

#[cfg(test)]
mod tests;
