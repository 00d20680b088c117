//! The sequential probability ratio test on normalized Elo, as fishtest
//! runs it.
//!
//! [`llr_penta`] and [`llr_wdl`] are a port of fishtest's
//! `server/fishtest/stats/LLRcalc.py` (`LLR_normalized`, `MLE_t_value`,
//! `secular`, `results_to_pdf`, `regularize`): the generalized log-likelihood
//! ratio for *normalized* Elo bounds. The results are turned into an empirical
//! distribution on the scores `i / (k - 1)` (zero counts replaced by `1e-3`);
//! for each bound the maximum-likelihood distribution with t-value
//! `(mu - 1/2) / sigma = t` is found by fishtest's fixed-point iteration, each
//! step of which solves the secular equation `sum p_i a_i / (1 + x a_i) = 0`
//! for the Lagrange multiplier `x` (fishtest uses `scipy.optimize.brentq`; here
//! a bracketed Newton iteration solves it to machine precision); and the LLR
//! is `N * sum p_i ln(p1_i / p0_i)`. A normalized Elo `nelo` corresponds to
//! `t = nelo / (800 / ln 10)` per game, i.e. `t` for the trinomial model and
//! `t * sqrt(2)` for the pentanomial one (where sigma is the per-pair standard
//! deviation of `points / 2`, and `sqrt(2) * sigma_pair` is fishtest's per-game
//! sigma). With no games the LLR is 0; if the constrained MLE does not exist
//! numerically (fishtest would fail an assertion; only for absurd bounds) the
//! LLR is also reported as 0, i.e. "continue".

/// The verdict of a sequential probability ratio test.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SprtDecision {
    /// Accept H0 (the change is not an improvement of `elo1`).
    H0,
    /// Accept H1.
    H1,
    /// Keep playing.
    Continue,
}

/// fishtest's `nelo_divided_by_nt`: normalized Elo per unit of per-game
/// t-value.
const NELO_PER_NT: f64 = 800.0 / std::f64::consts::LN_10;

/// A discrete distribution: (value, probability) pairs.
type Pdf = Vec<(f64, f64)>;

/// Mean and variance of a distribution (fishtest's `stats`, without its
/// assertions).
fn pdf_stats(pdf: &[(f64, f64)]) -> (f64, f64) {
    let mu: f64 = pdf.iter().map(|&(a, p)| p * a).sum();
    let var: f64 = pdf.iter().map(|&(a, p)| p * (a - mu) * (a - mu)).sum();
    (mu, var)
}

/// fishtest's `secular`: the root `x` of `f(x) = sum p_i a_i / (1 + x a_i)`
/// in `(-1/max a + 1e-9, -1/min a - 1e-9)`; `None` unless `min a < 0 < max a`.
///
/// `f` is strictly decreasing there (`f' = -sum p_i a_i^2 / (1 + x a_i)^2`)
/// and goes from `+inf` to `-inf`, so Newton steps are kept inside a shrinking
/// bracket, falling back to bisection when a step would leave it.
fn secular(pdf: &[(f64, f64)]) -> Option<f64> {
    const EPS: f64 = 1e-9;
    let v = pdf.iter().map(|&(a, _)| a).fold(f64::INFINITY, f64::min);
    let w = pdf
        .iter()
        .map(|&(a, _)| a)
        .fold(f64::NEG_INFINITY, f64::max);
    let bracketed = v * w < 0.0; // false for NaN too
    if !bracketed {
        return None;
    }
    let f = |x: f64| -> (f64, f64) {
        let mut val = 0.0;
        let mut der = 0.0;
        for &(a, p) in pdf {
            let q = 1.0 + x * a;
            val += p * a / q;
            der -= p * a * a / (q * q);
        }
        (val, der)
    };
    let mut lo = -1.0 / w + EPS;
    let mut hi = -1.0 / v - EPS;
    let nonempty = lo < hi;
    if !nonempty {
        return None;
    }
    let (flo, _) = f(lo);
    let (fhi, _) = f(hi);
    if flo <= 0.0 {
        return Some(lo);
    }
    if fhi >= 0.0 {
        return Some(hi);
    }
    // f(lo) > 0 > f(hi) from here on; v < 0 < w puts 0 inside the bracket,
    // and f(0) = mean a, so 0 is as good a start as any.
    let mut x = 0.0;
    for _ in 0..200 {
        let (fx, dx) = f(x);
        if fx == 0.0 {
            return Some(x);
        }
        if fx > 0.0 {
            lo = x;
        } else {
            hi = x;
        }
        let newton = x - fx / dx;
        let next = if newton.is_finite() && newton > lo && newton < hi {
            newton
        } else {
            lo + (hi - lo) / 2.0
        };
        if (next - x).abs() <= 4.0 * f64::EPSILON * x.abs().max(1e-300) || next == lo || next == hi
        {
            return Some(next);
        }
        x = next;
    }
    Some(x)
}

/// fishtest's `MLE_t_value`: the maximum-likelihood distribution on the
/// support of `pdfhat` whose t-value `(mu - reference) / sigma` is `s`.
fn mle_t_value(pdfhat: &[(f64, f64)], reference: f64, s: f64) -> Option<Pdf> {
    let n = pdfhat.len();
    let mut pdf_mle: Pdf = pdfhat.iter().map(|&(a, _)| (a, 1.0 / n as f64)).collect();
    for _ in 0..10 {
        let prev = pdf_mle.clone();
        let (mu, var) = pdf_stats(&pdf_mle);
        let sigma = var.sqrt();
        let pdf1: Pdf = pdfhat
            .iter()
            .map(|&(a, p)| {
                let z = (mu - a) / sigma;
                (a - reference - s * sigma * (1.0 + z * z) / 2.0, p)
            })
            .collect();
        let x = secular(&pdf1)?;
        pdf_mle = pdfhat
            .iter()
            .zip(&pdf1)
            .map(|(&(a, p), &(b, _))| (a, p / (1.0 + x * b)))
            .collect();
        let change = prev
            .iter()
            .zip(&pdf_mle)
            .map(|(&(_, p), &(_, q))| (p - q).abs())
            .fold(0.0, f64::max);
        if change < 1e-9 {
            break;
        }
    }
    pdf_mle
        .iter()
        .all(|&(_, p)| p.is_finite() && p > 0.0)
        .then_some(pdf_mle)
}

/// fishtest's `LLR_normalized` for results listed from the worst outcome to
/// the best (L, D, W or the five pair scores).
fn llr_normalized(nelo0: f64, nelo1: f64, results: &[u64]) -> f64 {
    if results.iter().all(|&c| c == 0) || !nelo0.is_finite() || !nelo1.is_finite() {
        return 0.0;
    }
    let scale = if results.len() == 5 {
        std::f64::consts::SQRT_2
    } else {
        1.0
    };
    let t0 = nelo0 / NELO_PER_NT * scale;
    let t1 = nelo1 / NELO_PER_NT * scale;
    // results_to_pdf with regularize: zero counts become 1e-3.
    let counts: Vec<f64> = results
        .iter()
        .map(|&c| if c == 0 { 1e-3 } else { c as f64 })
        .collect();
    let n: f64 = counts.iter().sum();
    let k = counts.len() as f64 - 1.0;
    let pdf: Pdf = counts
        .iter()
        .enumerate()
        .map(|(i, &c)| (i as f64 / k, c / n))
        .collect();
    let (Some(pdf0), Some(pdf1)) = (mle_t_value(&pdf, 0.5, t0), mle_t_value(&pdf, 0.5, t1)) else {
        return 0.0;
    };
    let per_sample: f64 = pdf
        .iter()
        .zip(pdf0.iter().zip(&pdf1))
        .map(|(&(_, p), (&(_, p0), &(_, p1)))| p * (p1.ln() - p0.ln()))
        .sum();
    let llr = n * per_sample;
    if llr.is_finite() {
        llr
    } else {
        0.0
    }
}

/// fishtest's SPRT log-likelihood ratio for the pentanomial pair counts `p`
/// (see [`super::elo::estimate_penta`]) between the normalized-Elo
/// hypotheses `elo0` and `elo1`. 0 without pairs.
pub fn llr_penta(p: [u64; 5], elo0: f64, elo1: f64) -> f64 {
    llr_normalized(elo0, elo1, &p)
}

/// fishtest's SPRT log-likelihood ratio for game results (trinomial model)
/// between the normalized-Elo hypotheses `elo0` and `elo1`. 0 without games.
pub fn llr_wdl(w: u64, d: u64, l: u64, elo0: f64, elo1: f64) -> f64 {
    llr_normalized(elo0, elo1, &[l, d, w])
}

/// The SPRT stopping bounds `(ln(beta / (1 - alpha)), ln((1 - beta) / alpha))`
/// for false-positive rate `alpha` and false-negative rate `beta`.
pub fn sprt_bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

/// H1 once the LLR reaches the upper bound, H0 once it reaches the lower
/// bound, otherwise (and for a NaN LLR) continue.
pub fn sprt_decision(llr: f64, alpha: f64, beta: f64) -> SprtDecision {
    let (lower, upper) = sprt_bounds(alpha, beta);
    if llr >= upper {
        SprtDecision::H1
    } else if llr <= lower {
        SprtDecision::H0
    } else {
        SprtDecision::Continue
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::elo::tests::close;

    #[test]
    fn degenerate_results_give_a_finite_llr() {
        for llr in [
            llr_wdl(0, 0, 0, 0.0, 2.0),
            llr_penta([0; 5], 0.0, 2.0),
            llr_wdl(10, 0, 0, 0.0, 2.0),
            llr_wdl(0, 0, 10, 0.0, 2.0),
            llr_wdl(0, 10, 0, 0.0, 2.0),
            llr_penta([0, 0, 0, 0, 10], 0.0, 2.0),
            llr_penta([10, 0, 0, 0, 0], 0.0, 2.0),
            llr_penta([0, 0, 10, 0, 0], -1.75, 0.25),
            llr_penta([1, 0, 0, 0, 0], 0.0, 2.0),
            llr_penta([1, 2, 3, 2, 1], -500.0, 500.0),
            llr_wdl(1, 2, 3, f64::NAN, 2.0),
        ] {
            assert!(llr.is_finite(), "{llr}");
        }
        assert_eq!(llr_wdl(0, 0, 0, 0.0, 2.0), 0.0);
        assert_eq!(llr_penta([0; 5], 0.0, 2.0), 0.0);
    }

    /// fishtest's published results (Stockfish commit messages):
    /// "LLR: 2.93 (-2.94,2.94) <0.00,2.00> ... Ptnml(0-2): 372, 17511, 39320,
    /// 17934, 399", "LLR: 2.96 (-2.94,2.94) <0.50,2.50> ... Ptnml(0-2): 39,
    /// 11353, 31686, 11822, 33" and a non-regression test "LLR: 3.19
    /// <-1.75,0.25> Ptnml(0-2): 1721, 77704, 208246, 77189, 1732".
    #[test]
    fn fishtest_golden_llr() {
        let llr = llr_penta([372, 17511, 39320, 17934, 399], 0.0, 2.0);
        assert!(close(llr, 2.93, 0.005), "{llr}");
        let llr = llr_penta([1721, 77704, 208246, 77189, 1732], -1.75, 0.25);
        assert!(close(llr, 3.19, 0.005), "{llr}");
        let llr = llr_penta([39, 11353, 31686, 11822, 33], 0.5, 2.5);
        assert!(close(llr, 2.96, 0.005), "{llr}");
    }

    #[test]
    fn llr_properties() {
        // Antisymmetry under swapping the hypotheses.
        let p = [372, 17511, 39320, 17934, 399];
        assert!(close(llr_penta(p, 0.0, 2.0), -llr_penta(p, 2.0, 0.0), 1e-9));
        // Mirroring the results mirrors the hypotheses.
        let m = [399, 17934, 39320, 17511, 372];
        assert!(close(llr_penta(p, 0.0, 2.0), llr_penta(m, 0.0, -2.0), 1e-6));
        assert!(close(
            llr_wdl(300, 500, 200, 0.0, 5.0),
            llr_wdl(200, 500, 300, 0.0, -5.0),
            1e-6
        ));
        // Winning pushes toward H1, losing toward H0.
        assert!(llr_wdl(300, 500, 200, 0.0, 5.0) > 0.0);
        assert!(llr_wdl(200, 500, 300, 0.0, 5.0) < 0.0);
        assert!(llr_penta([10, 100, 300, 120, 12], 0.0, 2.0) > 0.0);
        // The exact LLR is close to fishtest's closed-form approximation
        // (LLR_normalized_alt) for large samples.
        let (w, d, l) = (39154u64, 73241u64, 38677u64);
        let n = (w + d + l) as f64;
        let mu = (w as f64 + d as f64 / 2.0) / n;
        let var =
            (w as f64 * (1.0 - mu).powi(2) + d as f64 * (0.5 - mu).powi(2) + l as f64 * mu.powi(2))
                / n;
        let nt = (mu - 0.5) / var.sqrt();
        let (nt0, nt1) = (0.0, 2.0 / NELO_PER_NT);
        let alt = n / 2.0 * ((1.0 + (nt - nt0).powi(2)) / (1.0 + (nt - nt1).powi(2))).ln();
        let exact = llr_wdl(w, d, l, 0.0, 2.0);
        assert!(close(exact, alt, 0.05), "{exact} vs {alt}");
    }

    /// Roots to machine precision, some a Newton step from 0 and some many
    /// steps away (one near each end of the bracket); no root unless the
    /// values straddle 0 strictly.
    #[test]
    fn secular_solves_its_equation() {
        for pdf in [
            &[(-0.5, 0.2), (0.0, 0.3), (0.5, 0.5)][..],
            &[(-0.3, 0.1), (0.1, 0.5), (0.6, 0.4)],
            &[(-0.9, 0.001), (0.2, 0.999)],
            &[(-0.1, 0.999), (0.7, 0.001)],
        ] {
            let x = secular(pdf).unwrap();
            let f: f64 = pdf.iter().map(|&(a, p)| p * a / (1.0 + x * a)).sum();
            assert!(f.abs() < 1e-12, "{pdf:?}: x {x}, f {f}");
        }
        // Random distributions (skewed weights put the root near an end of
        // the bracket, where a Newton step overshoots): the root is inside
        // the bracket, and f changes sign at it.
        let mut rng = fastrand::Rng::with_seed(7);
        for _ in 0..2_000 {
            let k = rng.usize(2..6);
            let mut pdf: Vec<(f64, f64)> = (0..k)
                .map(|_| (rng.f64() * 2.0 - 1.0, rng.f64().powi(4) + 1e-6))
                .collect();
            pdf[0].0 = -pdf[0].0.abs() - 1e-3;
            pdf[1].0 = pdf[1].0.abs() + 1e-3;
            let total: f64 = pdf.iter().map(|&(_, p)| p).sum();
            pdf.iter_mut().for_each(|(_, p)| *p /= total);
            let (v, w) = pdf
                .iter()
                .fold((0.0f64, 0.0f64), |(v, w), &(a, _)| (v.min(a), w.max(a)));
            let x = secular(&pdf).unwrap();
            assert!(-1.0 / w < x && x < -1.0 / v, "{pdf:?}: {x}");
            let f = |x: f64| -> f64 { pdf.iter().map(|&(a, p)| p * a / (1.0 + x * a)).sum() };
            let step = 1e-9 * x.abs().max(1.0);
            assert!(
                f(x - step) >= 0.0 && f(x + step) <= 0.0,
                "{pdf:?}: x {x}, f {}",
                f(x)
            );
        }
        assert_eq!(secular(&[(0.1, 0.5), (0.2, 0.5)]), None);
        assert_eq!(secular(&[(-0.2, 0.5), (0.0, 0.5)]), None);
        assert_eq!(secular(&[(0.0, 0.5), (0.2, 0.5)]), None);
    }

    #[test]
    fn sprt_bounds_and_decisions() {
        let (lo, hi) = sprt_bounds(0.05, 0.05);
        assert!(close(lo, -2.944438979, 1e-9) && close(hi, 2.944438979, 1e-9));
        assert_eq!(format!("{lo:.2} {hi:.2}"), "-2.94 2.94");
        assert_eq!(sprt_decision(2.95, 0.05, 0.05), SprtDecision::H1);
        assert_eq!(sprt_decision(-2.95, 0.05, 0.05), SprtDecision::H0);
        assert_eq!(sprt_decision(2.9, 0.05, 0.05), SprtDecision::Continue);
        assert_eq!(sprt_decision(0.0, 0.05, 0.05), SprtDecision::Continue);
        assert_eq!(sprt_decision(f64::NAN, 0.05, 0.05), SprtDecision::Continue);
        assert_eq!(sprt_decision(hi, 0.05, 0.05), SprtDecision::H1);
        // Asymmetric errors.
        let (lo, hi) = sprt_bounds(0.01, 0.1);
        assert!(close(lo, (0.1f64 / 0.99).ln(), 1e-12) && close(hi, 90f64.ln(), 1e-12));
        let p = [372, 17511, 39320, 17934, 399];
        assert_eq!(
            sprt_decision(llr_penta(p, 0.0, 2.0), 0.05, 0.05),
            SprtDecision::Continue
        );
        assert_eq!(
            sprt_decision(llr_penta(p, 2.0, 0.0), 0.05, 0.05),
            SprtDecision::Continue
        );
    }
}
