//! Elo estimates with 95% intervals and the likelihood of superiority
//! (LOS).
//!
//! # Elo estimates
//!
//! [`estimate_wdl`] treats each game as an independent sample with score 0,
//! 1/2 or 1 (the trinomial model); [`estimate_penta`] treats each game *pair*
//! (the same opening played with both colours) as the sample, with score
//! `points / 2` in {0, 1/4, 1/2, 3/4, 1} (the pentanomial model, which accounts
//! for the correlation between the two games of a pair). In both cases:
//!
//! * `score` is the sample mean and `stderr = sqrt(var / n)` its standard
//!   error, where `var` is the (maximum-likelihood, i.e. divided by `n`) sample
//!   variance of the per-sample score and `n` the number of samples;
//! * `elo = -400 log10(1/score - 1)` (the logistic Elo of the mean score);
//! * `lo`/`hi` are `score ∓ 1.959964 stderr` mapped through the same function
//!   (so the interval is asymmetric in Elo);
//! * `los = Phi((score - 1/2) / stderr)`, with `Phi` the standard normal CDF.
//!
//! Degenerate inputs never give NaN or infinities: before the Elo function is
//! applied a score is clamped into `[SCORE_EPS, 1 - SCORE_EPS]` (`1e-6`), so
//! Elo values are capped at about ±2400 (e.g. a clean sweep reports
//! `elo = lo = hi ≈ +2400`). When the sample variance is zero (all wins, all
//! losses, all draws, ...) the standard error is zero, the interval has zero
//! width, and the LOS is 1, 0 or 1/2 according to whether the score is above,
//! below or equal to 1/2. With no games at all the estimators return `None`.
//!
//! # Showing an estimate
//!
//! [`elo_shown`] never prints a zero-width interval or an infinite Elo: at
//! a 100% score (every game won) it prints a lower bound `> +N`, where N
//! is the Elo of the one-sided 95% Clopper–Pearson lower bound on the
//! score, `0.05^(1/n)` for n games won out of n ([`sweep_bound`]; 10 wins
//! give `> +182.7`); at 0% the mirror image `< -N`; with no spread in the
//! results otherwise (every game drawn) the Elo alone, marked
//! `(no spread)`.

/// An Elo estimate with its 95% interval.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Estimate {
    /// Logistic Elo of the mean score.
    pub elo: f64,
    /// Lower end of the 95% interval of the Elo.
    pub lo: f64,
    /// Upper end of the 95% interval of the Elo.
    pub hi: f64,
    /// Likelihood of superiority, `Phi((score - 0.5) / stderr)`.
    pub los: f64,
    /// Mean score per game, in `[0, 1]`.
    pub score: f64,
    /// Trinomial: draws / games. Pentanomial: the fraction of *pairs* that
    /// were drawn overall (pair score exactly 1 out of 2, i.e. `p[2] / pairs`;
    /// the number of drawn games is not recoverable from pair counts, since a
    /// pair scoring 1 is either two draws or a win and a loss).
    pub draw_ratio: f64,
}

/// Scores are clamped into `[SCORE_EPS, 1 - SCORE_EPS]` before conversion to
/// Elo, which caps |Elo| at about 2400.
const SCORE_EPS: f64 = 1e-6;

/// The 97.5% quantile of the standard normal distribution.
const Z_95: f64 = 1.959_963_984_540_054;

/// The logistic Elo difference of a mean score (clamped, see [`SCORE_EPS`]).
fn elo_of_score(score: f64) -> f64 {
    let s = score.clamp(SCORE_EPS, 1.0 - SCORE_EPS);
    // `+ 0.0` turns -0.0 (at score 1/2) into 0.0.
    -400.0 * (1.0 / s - 1.0).log10() + 0.0
}

/// The complementary error function, accurate to about 1e-14 relative.
///
/// For `0 <= x < 3` from the everywhere-positive series
/// `erf x = 2/sqrt(pi) e^{-x^2} sum_n 2^n x^{2n+1} / (1*3*...*(2n+1))`,
/// for `x >= 3` from the Laplace continued fraction
/// `erfc x = e^{-x^2}/sqrt(pi) / (x + (1/2)/(x + 1/(x + (3/2)/(x + ...))))`.
fn erfc(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x < 0.0 {
        return 2.0 - erfc(-x);
    }
    let two_over_sqrt_pi = std::f64::consts::FRAC_2_SQRT_PI;
    if x < 3.0 {
        let x2 = x * x;
        let mut term = x;
        let mut sum = x;
        let mut n = 0.0;
        while n < 500.0 {
            n += 1.0;
            term *= 2.0 * x2 / (2.0 * n + 1.0);
            sum += term;
            if term <= sum * 1e-17 {
                break;
            }
        }
        1.0 - two_over_sqrt_pi * (-x2).exp() * sum
    } else {
        // Evaluate the continued fraction from the tail; 80 levels are far
        // more than needed for x >= 3.
        let mut f = x;
        for k in (1..=80).rev() {
            f = x + (k as f64 / 2.0) / f;
        }
        two_over_sqrt_pi / 2.0 * (-x * x).exp() / f
    }
}

/// The error function.
#[cfg(test)]
fn erf(x: f64) -> f64 {
    1.0 - erfc(x)
}

/// The standard normal cumulative distribution function.
fn normal_cdf(z: f64) -> f64 {
    0.5 * erfc(-z / std::f64::consts::SQRT_2)
}

/// An estimate from samples with values `values[i]` seen `counts[i]` times.
fn estimate(values: &[f64], counts: &[u64], draw_ratio: f64) -> Option<Estimate> {
    // Summed in f64 so that no count can overflow.
    let nf: f64 = counts.iter().map(|&c| c as f64).sum();
    if nf == 0.0 {
        return None;
    }
    let score = values
        .iter()
        .zip(counts)
        .map(|(&a, &c)| a * c as f64)
        .sum::<f64>()
        / nf;
    let var = values
        .iter()
        .zip(counts)
        .map(|(&a, &c)| c as f64 * (a - score) * (a - score))
        .sum::<f64>()
        / nf;
    let stderr = (var / nf).sqrt();
    let los = if stderr > 0.0 {
        normal_cdf((score - 0.5) / stderr)
    } else if score > 0.5 {
        1.0
    } else if score < 0.5 {
        0.0
    } else {
        0.5
    };
    Some(Estimate {
        elo: elo_of_score(score),
        lo: elo_of_score(score - Z_95 * stderr),
        hi: elo_of_score(score + Z_95 * stderr),
        los,
        score,
        draw_ratio,
    })
}

/// Elo estimate from game results (trinomial model): wins, draws, losses of
/// the engine under test. `None` without games.
pub fn estimate_wdl(w: u64, d: u64, l: u64) -> Option<Estimate> {
    let games = w as f64 + d as f64 + l as f64;
    estimate(&[0.0, 0.5, 1.0], &[l, d, w], d as f64 / games)
}

/// Elo estimate from game-pair results (pentanomial model): `p[i]` is the
/// number of pairs in which the engine scored `i / 2` points out of 2.
/// `None` without pairs. See [`Estimate::draw_ratio`] for its meaning here.
pub fn estimate_penta(p: [u64; 5]) -> Option<Estimate> {
    let pairs: f64 = p.iter().map(|&c| c as f64).sum();
    estimate(&[0.0, 0.25, 0.5, 0.75, 1.0], &p, p[2] as f64 / pairs)
}

/// The Elo lower bound that `games` wins out of `games` give, one-sided
/// 95%: the Elo of the Clopper–Pearson bound `0.05^(1/games)` on the
/// score (the score below which `games` straight wins have a chance under
/// 5%). `None` without games.
pub fn sweep_bound(games: u64) -> Option<f64> {
    (games > 0).then(|| elo_of_score(0.05f64.powf(1.0 / games as f64)))
}

/// An estimate as text, with `decimals` digits: `+12.3 ± 4.5` (half the
/// 95% interval); `> +N` at a 100% score and `< -N` at 0% over `games`
/// games ([`sweep_bound`]); the Elo and `(no spread)` when the interval
/// has no width otherwise.
pub fn elo_shown(e: &Estimate, games: u64, decimals: usize) -> String {
    let bound = sweep_bound(games).unwrap_or(0.0);
    if e.score >= 1.0 {
        format!("> {bound:+.decimals$}")
    } else if e.score <= 0.0 {
        format!("< {:+.decimals$}", -bound)
    } else if e.hi - e.lo <= 0.0 {
        format!("{:+.decimals$} (no spread)", e.elo)
    } else {
        format!("{:+.decimals$} ± {:.decimals$}", e.elo, (e.hi - e.lo) / 2.0)
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// Whether `a` is within `tol` of `b`.
    pub(in crate::stats) fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn erf_matches_reference_values() {
        // Reference values to 16 digits.
        let cases = [
            (0.0, 0.0),
            (0.1, 0.1124629160182849),
            (0.5, 0.5204998778130465),
            (1.0, 0.8427007929497149),
            (2.0, 0.9953222650189527),
            (-1.0, -0.8427007929497149),
        ];
        for (x, want) in cases {
            assert!(close(erf(x), want, 1e-13), "erf({x}) = {}", erf(x));
        }
        assert!(close(erfc(3.0) / 2.209049699858544e-05, 1.0, 1e-12));
        assert!(close(erfc(4.0) / 1.541725790028002e-08, 1.0, 1e-12));
        // Continuity at the switch between series and continued fraction.
        assert!(close(erfc(3.0 - 1e-12) / erfc(3.0), 1.0, 1e-10));
        assert!(close(normal_cdf(Z_95), 0.975, 1e-12));
        assert!(close(normal_cdf(-1.0), 0.15865525393145707, 1e-13));
    }

    /// W=60 D=20 L=20 by hand: n = 100, score = (60 + 10)/100 = 0.7;
    /// Elo = -400 log10(1/0.7 - 1) = -400 log10(0.428571) = +147.19.
    /// Per-game variance = (60·0.3² + 20·0.2² + 20·0.7²)/100
    ///   = (5.4 + 0.8 + 9.8)/100 = 0.16, so sd = 0.4 and stderr = 0.4/10 = 0.04.
    /// 95% score interval 0.7 ∓ 1.959964·0.04 = [0.621601, 0.778399]:
    /// lo = -400 log10(0.378399/0.621601) = -400 log10(0.608749)
    ///    = -400 · (-0.215563) = +86.23,
    /// hi = -400 log10(0.221601/0.778399) = -400 log10(0.284689)
    ///    = -400 · (-0.545629) = +218.25.
    /// LOS = Phi(0.2/0.04) = Phi(5) = 0.9999997.
    #[test]
    fn wdl_estimate_by_hand() {
        let e = estimate_wdl(60, 20, 20).unwrap();
        assert!(close(e.score, 0.7, 1e-12));
        assert!(close(e.elo, 147.19, 0.01), "{e:?}");
        assert!(close(e.lo, 86.23, 0.1), "{e:?}");
        assert!(close(e.hi, 218.25, 0.1), "{e:?}");
        assert!(close(e.los, 0.9999997133, 1e-9), "{e:?}");
        assert!(close(e.draw_ratio, 0.2, 1e-12));
    }

    /// Pentanomial by hand: p = [0, 10, 20, 10, 0]; pair scores 1/4, 1/2, 3/4
    /// with mean 1/2 (Elo 0) and variance (10·1/16 + 0 + 10·1/16)/40 = 1/32,
    /// stderr = sqrt(1/32/40) = 0.0279508; 95%: 0.5 ∓ 0.054783 =
    /// [0.445217, 0.554783] → Elo ∓38.22.
    #[test]
    fn penta_estimate_by_hand() {
        let e = estimate_penta([0, 10, 20, 10, 0]).unwrap();
        assert!(close(e.score, 0.5, 1e-12));
        assert!(close(e.elo, 0.0, 1e-9));
        assert!(close(e.hi, 38.22, 0.01), "{e:?}");
        assert!(close(e.lo, -38.22, 0.01), "{e:?}");
        assert!(close(e.los, 0.5, 1e-12));
        assert!(close(e.draw_ratio, 0.5, 1e-12));
        // The pentanomial model and the trinomial one agree on the score.
        let e = estimate_penta([372, 17511, 39320, 17934, 399]).unwrap();
        let g = estimate_wdl(39154, 73241, 38677).unwrap();
        assert!(close(e.score, g.score, 1e-12));
        assert!(close(e.elo, g.elo, 1e-9));
        assert!(e.lo < e.elo && e.elo < e.hi);
    }

    #[test]
    fn los_values() {
        assert_eq!(estimate_wdl(30, 40, 30).unwrap().los, 0.5);
        assert_eq!(estimate_penta([3, 7, 10, 7, 3]).unwrap().los, 0.5);
        assert!(estimate_wdl(70, 10, 20).unwrap().los > 0.9999);
        assert!(estimate_wdl(20, 10, 70).unwrap().los < 1e-4);
        let e = estimate_wdl(11, 0, 9).unwrap();
        assert!(e.los > 0.5 && e.los < 0.9);
    }

    #[test]
    fn degenerate_inputs_are_finite() {
        assert_eq!(estimate_wdl(0, 0, 0), None);
        assert_eq!(estimate_penta([0; 5]), None);
        let all = [
            estimate_wdl(10, 0, 0),
            estimate_wdl(0, 0, 10),
            estimate_wdl(0, 10, 0),
            estimate_wdl(1, 0, 0),
            estimate_penta([0, 0, 0, 0, 7]),
            estimate_penta([7, 0, 0, 0, 0]),
            estimate_penta([0, 0, 7, 0, 0]),
        ];
        for e in all {
            let e = e.unwrap();
            for x in [e.elo, e.lo, e.hi, e.los, e.score, e.draw_ratio] {
                assert!(x.is_finite(), "{e:?}");
            }
            assert!(e.lo <= e.elo && e.elo <= e.hi, "{e:?}");
        }
        let sweep = estimate_wdl(10, 0, 0).unwrap();
        assert!(sweep.elo > 2000.0 && sweep.los == 1.0);
        let wiped = estimate_wdl(0, 0, 10).unwrap();
        assert!(wiped.elo < -2000.0 && wiped.los == 0.0);
        let drawn = estimate_wdl(0, 10, 0).unwrap();
        assert_eq!((drawn.elo, drawn.los), (0.0, 0.5));
    }

    /// 0% and 100% scores show a one-sided bound, never a zero-width
    /// interval or an infinity.
    #[test]
    fn sweeps_show_a_bound() {
        // 0.05^(1/10) = 0.74113: -400 log10(1/0.74113 - 1) = +182.7.
        assert!(close(sweep_bound(10).unwrap(), 182.73, 0.005));
        // One win: 0.05, i.e. -511.5: one game says little.
        assert!(close(sweep_bound(1).unwrap(), -511.5, 0.05));
        assert_eq!(sweep_bound(0), None);
        assert!(sweep_bound(100).unwrap() > sweep_bound(10).unwrap());
        let shown = |e: Option<Estimate>, n| elo_shown(&e.unwrap(), n, 1);
        assert_eq!(shown(estimate_wdl(10, 0, 0), 10), "> +182.7");
        assert_eq!(shown(estimate_wdl(0, 0, 10), 10), "< -182.7");
        assert_eq!(shown(estimate_penta([0, 0, 0, 0, 5]), 10), "> +182.7");
        assert_eq!(shown(estimate_wdl(0, 7, 0), 7), "+0.0 (no spread)");
        assert_eq!(shown(estimate_wdl(60, 20, 20), 100), "+147.2 ± 66.0");
        // A losing estimate keeps its spread (its bounds sum below 0).
        assert_eq!(shown(estimate_wdl(20, 20, 60), 100), "-147.2 ± 66.0");
    }
}
