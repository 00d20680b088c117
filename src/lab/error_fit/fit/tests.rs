use super::*;
use crate::rules::fen;
use crate::search::MATE;

fn row(scores: &[i32], nodes: &[u64]) -> Row {
    Row {
        scores: scores.to_vec(),
        nodes: nodes.to_vec(),
        fen: fen::STARTPOS.to_string(),
    }
}

fn gauss(rng: &mut fastrand::Rng) -> f64 {
    // Box–Muller; 1 − u keeps the logarithm's argument above 0.
    let (u, v) = (1.0 - rng.f64(), rng.f64());
    (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
}

fn logistic(rng: &mut fastrand::Rng) -> f64 {
    let u = rng.f64().clamp(1e-12, 1.0 - 1e-12);
    3f64.sqrt() / std::f64::consts::PI * (u / (1.0 - u)).ln()
}

/// `n` positions searched to depth 6 as the model has it: each position's
/// score moves `30 · z` cp a ply, z drawn from `draw` (standard deviation
/// 1), so every change over k plies is `30 · k · z` (growth 1); with
/// `walk`, a fresh z each ply, so that the change over k plies has spread
/// `30 · √k` (growth ½); a depth-d search costs `15 · 3^d` nodes, times a
/// tenth's lognormal noise.
fn synthetic(n: usize, draw: fn(&mut fastrand::Rng) -> f64, seed: u64, walk: bool) -> Vec<Row> {
    let mut rng = fastrand::Rng::with_seed(seed);
    (0..n)
        .map(|_| {
            let (base, z) = (f64::from(rng.i32(-300..=300)), draw(&mut rng));
            let mut at = base;
            let scores: Vec<i32> = (0..=6)
                .map(|d| {
                    if walk {
                        at += if d > 0 { 30.0 * draw(&mut rng) } else { 0.0 };
                        at.round() as i32
                    } else {
                        (base + 30.0 * d as f64 * z).round() as i32
                    }
                })
                .collect();
            let nodes: Vec<u64> = (0..=6)
                .map(|d| (15.0 * 3f64.powi(d) * (0.1 * gauss(&mut rng)).exp()).round() as u64)
                .collect();
            row(&scores, &nodes)
        })
        .collect()
}

/// 40,000 positions: `error_cp / 30` is the sample's root mean square of
/// z, whose relative standard error is 0.35% (normal) or 0.45%
/// (logistic), so 2% is over four of them; the nodes' noise averages to
/// 0.05% in a depth's logarithm, so 1% and 2% leave room for the line's
/// extrapolation to depth 0. The normal and the logistic are 0.023 apart
/// (Kolmogorov–Smirnov); the true shape's held-out distance is about
/// 0.006, and the empirical's at least 0.013, its 33 quantiles drawn
/// linearly across the tails.
#[test]
fn the_fit_recovers_known_constants_and_shape() {
    for (draw, truth, seed) in [
        (gauss as fn(&mut fastrand::Rng) -> f64, Family::Normal, 1),
        (logistic, Family::Logistic, 2),
    ] {
        let rows = synthetic(40_000, draw, seed, false);
        let f = fit(&rows, Choice::Best, PLIES).unwrap();
        let m = &f.model;
        assert!((m.error_cp / 30.0 - 1.0).abs() < 0.02, "{m:?}");
        assert!((m.ebf / 3.0 - 1.0).abs() < 0.01, "{m:?}");
        assert!((m.nodes0 / 15.0 - 1.0).abs() < 0.02, "{m:?}");
        assert!((m.qnodes / 15.0 - 1.0).abs() < 0.02, "{m:?}");
        assert_eq!(m.family, truth, "{:?}", f.shapes);
        // Spread in proportion to the plies: the design's line is the law.
        assert!((m.growth - 1.0).abs() < 0.005 && (f.line / m.error_cp - 1.0).abs() < 0.005);
        for (i, s) in f.by_plies.iter().enumerate() {
            let k = (i + 1) as f64;
            assert!((s.rms / (m.error_cp * k) - 1.0).abs() < 0.005, "{k} {s:?}");
        }
        assert_eq!(f.by_plies.len(), PLIES);
        assert_eq!(f.by_depth.len(), 6);
        // The true shape has the highest likelihood too.
        let ll = |fam| f.shapes.iter().find(|s| s.family == fam).unwrap();
        let other = match truth {
            Family::Normal => Family::Logistic,
            _ => Family::Normal,
        };
        assert!(ll(truth).log_likelihood > ll(other).log_likelihood);
        assert_eq!(m.quantiles.len(), QUANTILES);
        assert!(ErrorModel::parse(&m.to_string()).is_ok());
        // One ply alone: its spread is the slope.
        let one = fit(&rows, Choice::Best, 1).unwrap();
        assert_eq!((one.by_plies.len(), one.model.growth), (1, 1.0));
        assert_eq!(one.model.error_cp, one.by_plies[0].rms);
        assert!((one.model.error_cp / m.error_cp - 1.0).abs() < 1e-3);
        // A shape asked for is the one kept.
        let f = fit(&rows, Choice::Only(Family::Empirical), PLIES).unwrap();
        assert_eq!(f.model.family, Family::Empirical);
    }
}

/// A random walk (a fresh normal change each ply): the spread grows as
/// √k, which the power law recovers (and the design's line does not).
#[test]
fn the_fit_recovers_a_random_walks_growth() {
    let rows = synthetic(40_000, gauss, 3, true);
    let f = fit(&rows, Choice::Best, PLIES).unwrap();
    let m = &f.model;
    assert!((m.error_cp / 30.0 - 1.0).abs() < 0.02, "{m:?}");
    assert!((m.growth - 0.5).abs() < 0.02, "{m:?}");
    for (i, s) in f.by_plies.iter().enumerate() {
        let k = (i + 1) as f64;
        assert!((s.rms / (30.0 * k.sqrt()) - 1.0).abs() < 0.02, "{k} {s:?}");
    }
    assert!(f.line < m.error_cp * 0.8, "{}", f.line);
    assert_eq!(m.family, Family::Normal, "{:?}", f.shapes);
}

#[test]
fn changes_leave_out_mates_and_spread_about_zero() {
    let rows = [
        row(&[10, 20, 20, MATE - 3], &[1, 2, 3, 4]),
        row(&[0, -10, 30, 40], &[1, 2, 3, 4]),
    ];
    let one: Vec<f64> = changes(&rows, 1).iter().map(|c| c.delta).collect();
    assert_eq!(one, [10.0, 0.0, -10.0, 40.0, 10.0]);
    let three = changes(&rows, 3);
    assert_eq!(
        three,
        [Change {
            row: 1,
            depth: 0,
            plies: 3,
            delta: 40.0
        }]
    );
    let s = spread(one.into_iter());
    assert_eq!((s.count, s.mean), (5, 10.0));
    assert!((s.rms - (1900.0f64 / 5.0).sqrt()).abs() < 1e-12);
    // Spreads 10, 20 and 33: the slope (10 + 40 + 99) / 14.
    let at = |rms| Spread {
        count: 1,
        mean: 0.0,
        rms,
    };
    assert!((slope(&[at(10.0), at(20.0), at(33.0)]) - 149.0 / 14.0).abs() < 1e-12);
    let walk: Vec<Spread> = (1..=4).map(|k| at(20.0 * f64::from(k).sqrt())).collect();
    let (a, p) = power_law(&walk);
    assert!(
        (a - 20.0).abs() < 1e-9 && (p - 0.5).abs() < 1e-12,
        "{a} {p}"
    );
}

#[test]
fn quantiles_and_distances_agree_with_hand_counts() {
    let sorted = [0.0, 1.0, 2.0, 3.0, 4.0];
    assert_eq!(quantiles(&sorted, 3), [0.0, 2.0, 4.0]);
    assert_eq!(quantiles(&sorted, 9)[1], 0.5);
    assert_eq!(quantiles(&[7.0], 3), [7.0, 7.0, 7.0]);
    // One point at 0.5 against the uniform on [0, 1]: half either side.
    let uniform = |x: f64| x.clamp(0.0, 1.0);
    assert_eq!(ks(&[0.5], uniform, uniform), 0.5);
    // Three points at 0 against a distribution with an atom of 1/3 there:
    // just below 0 it is at 1/3 (the sample at 0), at 0 at 2/3 (sample 1).
    let q = [-1.0, 0.0, 0.0, 1.0];
    let (cdf, left) = (|x| empirical_cdf(&q, x), |x| empirical_left(&q, x));
    assert!((left(0.0) - 1.0 / 3.0).abs() < 1e-12 && (cdf(0.0) - 2.0 / 3.0).abs() < 1e-12);
    assert!((ks(&[0.0, 0.0, 0.0], cdf, left) - 1.0 / 3.0).abs() < 1e-12);
    for x in [-2.0, -1.0, -0.5, 0.5, 1.0, 2.0] {
        assert!((left(x) - cdf(x)).abs() < 1e-12, "{x}");
    }
}

#[test]
fn too_little_data_is_refused() {
    let ten = |r: Row| vec![r; MIN_POSITIONS];
    let e = fit(&ten(row(&[0, 5, 9], &[1, 3, 9]))[1..], Choice::Best, PLIES).unwrap_err();
    assert_eq!(e, "9 positions: the fit needs at least 10");
    let e = fit(&ten(row(&[0, 5], &[1, 3])), Choice::Best, PLIES).unwrap_err();
    assert_eq!(e, "depths 0 to 1: the fit needs at least 0 to 2");
    let e = fit(&ten(row(&[4, 4, 4], &[1, 3, 9])), Choice::Best, PLIES).unwrap_err();
    assert!(e.contains("every score change is 0"), "{e}");
    let mates = ten(row(&[MATE - 1, MATE - 1, 4], &[1, 3, 9]));
    let e = fit(&mates, Choice::Best, PLIES).unwrap_err();
    assert!(e.contains("over 1 plies"), "{e}");
    let flat = ten(row(&[0, 5, 9], &[9, 9, 9]));
    let e = fit(&flat, Choice::Best, PLIES).unwrap_err();
    assert!(e.contains("do not grow"), "{e}");
}
