//! Match statistics: Elo estimates with 95% intervals, the likelihood of
//! superiority (LOS), and the SPRT log-likelihood ratio.
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
//!
//! # SPRT
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

/// Scores are clamped into `[SCORE_EPS, 1 - SCORE_EPS]` before conversion to
/// Elo, which caps |Elo| at about 2400.
const SCORE_EPS: f64 = 1e-6;

/// The 97.5% quantile of the standard normal distribution.
const Z_95: f64 = 1.959_963_984_540_054;

/// fishtest's `nelo_divided_by_nt`: normalized Elo per unit of per-game
/// t-value.
const NELO_PER_NT: f64 = 800.0 / std::f64::consts::LN_10;

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
    // f(lo) > 0 > f(hi) from here on.
    let mut x = if lo < 0.0 && 0.0 < hi {
        0.0
    } else {
        (lo + hi) / 2.0
    };
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
/// (see [`estimate_penta`]) between the normalized-Elo hypotheses `elo0` and
/// `elo1`. 0 without pairs.
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

fn parse_count(args: &[String], i: usize, what: &str) -> Result<u64, String> {
    let s = args
        .get(i)
        .ok_or_else(|| format!("stats: missing {what}"))?;
    s.parse::<u64>()
        .map_err(|_| format!("stats: bad {what} '{s}' (expected a non-negative integer)"))
}

fn parse_real(args: &[String], i: usize, what: &str) -> Result<f64, String> {
    let s = args
        .get(i)
        .ok_or_else(|| format!("stats: missing {what}"))?;
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        _ => Err(format!("stats: bad {what} '{s}' (expected a number)")),
    }
}

enum Results {
    Wdl(u64, u64, u64),
    Penta([u64; 5]),
}

struct SprtArgs {
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
}

fn signed(x: f64) -> String {
    format!("{x:+.2}")
}

/// `autotest stats`: `--wdl W D L` or `--penta P0 P1 P2 P3 P4`, optionally
/// with `--sprt ELO0 ELO1 ALPHA BETA` (normalized Elo bounds). Returns the
/// report lines; bad input gives an error naming the bad argument.
pub fn stats_command(args: &[String]) -> Result<String, String> {
    let mut results: Option<Results> = None;
    let mut sprt: Option<SprtArgs> = None;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--wdl" | "-wdl" => {
                if results.is_some() {
                    return Err("stats: results given twice (use one --wdl or --penta)".into());
                }
                let w = parse_count(args, i + 1, "W (wins) after --wdl")?;
                let d = parse_count(args, i + 2, "D (draws) after --wdl")?;
                let l = parse_count(args, i + 3, "L (losses) after --wdl")?;
                results = Some(Results::Wdl(w, d, l));
                i += 4;
            }
            "--penta" | "-penta" => {
                if results.is_some() {
                    return Err("stats: results given twice (use one --wdl or --penta)".into());
                }
                let mut p = [0u64; 5];
                for (k, slot) in p.iter_mut().enumerate() {
                    *slot = parse_count(args, i + 1 + k, &format!("P{k} after --penta"))?;
                }
                results = Some(Results::Penta(p));
                i += 6;
            }
            "--sprt" | "-sprt" => {
                if sprt.is_some() {
                    return Err("stats: --sprt given twice".into());
                }
                let elo0 = parse_real(args, i + 1, "ELO0 after --sprt")?;
                let elo1 = parse_real(args, i + 2, "ELO1 after --sprt")?;
                let alpha = parse_real(args, i + 3, "ALPHA after --sprt")?;
                let beta = parse_real(args, i + 4, "BETA after --sprt")?;
                if elo0 >= elo1 {
                    return Err(format!(
                        "stats: bad --sprt bounds: ELO0 {elo0} must be below ELO1 {elo1}"
                    ));
                }
                if !(alpha > 0.0 && alpha < 1.0) {
                    return Err(format!("stats: bad ALPHA {alpha} (must be in (0, 1))"));
                }
                if !(beta > 0.0 && beta < 1.0) {
                    return Err(format!("stats: bad BETA {beta} (must be in (0, 1))"));
                }
                if alpha + beta >= 1.0 {
                    return Err(format!(
                        "stats: bad ALPHA {alpha} / BETA {beta} (their sum must be below 1)"
                    ));
                }
                sprt = Some(SprtArgs {
                    elo0,
                    elo1,
                    alpha,
                    beta,
                });
                i += 5;
            }
            other => return Err(format!("stats: unknown argument '{other}'")),
        }
    }
    let results =
        results.ok_or_else(|| "stats: give --wdl W D L or --penta P0 P1 P2 P3 P4".to_string())?;

    let mut out = String::new();
    let (est, llr, games) = match results {
        Results::Wdl(w, d, l) => {
            let games = w
                .checked_add(d)
                .and_then(|x| x.checked_add(l))
                .ok_or("stats: game counts too large")?;
            out += &format!("games {games} (W {w} D {d} L {l})\n");
            (
                estimate_wdl(w, d, l),
                sprt.as_ref().map(|s| llr_wdl(w, d, l, s.elo0, s.elo1)),
                games,
            )
        }
        Results::Penta(p) => {
            let pairs = p
                .iter()
                .try_fold(0u64, |acc, &c| acc.checked_add(c))
                .and_then(|x| x.checked_mul(2).map(|g| (x, g)))
                .ok_or("stats: pair counts too large")?;
            out += &format!(
                "games {} ({} pairs; pentanomial {} {} {} {} {})\n",
                pairs.1, pairs.0, p[0], p[1], p[2], p[3], p[4]
            );
            (
                estimate_penta(p),
                sprt.as_ref().map(|s| llr_penta(p, s.elo0, s.elo1)),
                pairs.1,
            )
        }
    };
    match est {
        None => out += "no games: no estimate\n",
        Some(e) => {
            out += &format!("score {:.4} ({:.2}%)\n", e.score, 100.0 * e.score);
            out += &if e.score >= 1.0 || e.score <= 0.0 {
                format!(
                    "Elo {} (one-sided 95% bound: a {}% score in {games} games)\n",
                    elo_shown(&e, games, 2),
                    if e.score >= 1.0 { 100 } else { 0 }
                )
            } else if e.hi - e.lo <= 0.0 {
                format!(
                    "Elo {} (no interval: every sample scored the same)\n",
                    signed(e.elo)
                )
            } else {
                format!(
                    "Elo {} (95% interval {} .. {})\n",
                    signed(e.elo),
                    signed(e.lo),
                    signed(e.hi)
                )
            };
            out += &format!("LOS {:.2}%\n", 100.0 * e.los);
            let label = match results {
                Results::Wdl(..) => "draw ratio",
                Results::Penta(..) => "drawn-pair ratio",
            };
            out += &format!("{label} {:.2}%\n", 100.0 * e.draw_ratio);
        }
    }
    if let (Some(s), Some(llr)) = (sprt, llr) {
        let (lower, upper) = sprt_bounds(s.alpha, s.beta);
        let decision = sprt_decision(llr, s.alpha, s.beta);
        out += &format!(
            "SPRT nElo [{}, {}] alpha {} beta {}: LLR {llr:.2} [{lower:.2}, {upper:.2}] {decision:?}\n",
            s.elo0, s.elo1, s.alpha, s.beta
        );
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    fn close(a: f64, b: f64, tol: f64) -> bool {
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

    #[test]
    fn secular_solves_its_equation() {
        let pdf = [(-0.5, 0.2), (0.0, 0.3), (0.5, 0.5)];
        let x = secular(&pdf).unwrap();
        let f: f64 = pdf.iter().map(|&(a, p)| p * a / (1.0 + x * a)).sum();
        assert!(f.abs() < 1e-12, "{x} {f}");
        assert_eq!(secular(&[(0.1, 0.5), (0.2, 0.5)]), None);
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

    #[test]
    fn command_wdl() {
        let out = stats_command(&args("--wdl 60 20 20")).unwrap();
        assert!(out.contains("games 100"), "{out}");
        assert!(out.contains("score 0.7000"), "{out}");
        assert!(out.contains("Elo +147.19"), "{out}");
        assert!(out.contains("+86.23 .. +218.25"), "{out}");
        assert!(out.contains("LOS 100.00%"), "{out}");
        assert!(out.contains("draw ratio 20.00%"), "{out}");
        assert!(!out.contains("SPRT"), "{out}");
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
        let out = stats_command(&args("--wdl 10 0 0")).unwrap();
        assert!(
            out.contains("Elo > +182.73 (one-sided 95% bound: a 100% score in 10 games)"),
            "{out}"
        );
        let out = stats_command(&args("--penta 5 0 0 0 0")).unwrap();
        assert!(out.contains("Elo < -182.73"), "{out}");
        let out = stats_command(&args("--penta 0 0 0 4 0")).unwrap();
        assert!(out.contains("no interval"), "{out}");
        for out in [
            stats_command(&args("--wdl 3 0 0")).unwrap(),
            stats_command(&args("--penta 0 0 9 0 0")).unwrap(),
        ] {
            assert!(!out.contains("inf") && !out.contains(".. "), "{out}");
        }
    }

    #[test]
    fn command_penta_with_sprt() {
        let out = stats_command(&args(
            "--penta 372 17511 39320 17934 399 --sprt 0 2 0.05 0.05",
        ))
        .unwrap();
        assert!(out.contains("games 151072 (75536 pairs"), "{out}");
        assert!(out.contains("drawn-pair ratio"), "{out}");
        assert!(out.contains("LLR 2.93 [-2.94, 2.94] Continue"), "{out}");
        let out = stats_command(&args(
            "--sprt -1.75 0.25 0.05 0.05 --penta 1721 77704 208246 77189 1732",
        ))
        .unwrap();
        assert!(out.contains("LLR 3.19 [-2.94, 2.94] H1"), "{out}");
        let out = stats_command(&args("--wdl 150 500 350 --sprt 0 5 0.05 0.05")).unwrap();
        assert!(out.contains("H0"), "{out}");
        let out = stats_command(&args("--wdl 0 0 0 --sprt 0 5 0.05 0.05")).unwrap();
        assert!(out.contains("no games"), "{out}");
        assert!(out.contains("LLR 0.00"), "{out}");
    }

    #[test]
    fn command_errors_name_the_argument() {
        let err = |s: &str| stats_command(&args(s)).unwrap_err();
        assert!(err("").contains("--wdl"));
        assert!(err("--wdl 1 2").contains("L (losses)"));
        assert!(err("--wdl 1 x 3").contains("'x'"));
        assert!(err("--wdl 1 -2 3").contains("'-2'"));
        assert!(err("--penta 1 2 3 4").contains("P4"));
        assert!(err("--penta 1 2 3 4 5.5").contains("'5.5'"));
        assert!(err("--wdl 1 2 3 --frobnicate").contains("'--frobnicate'"));
        assert!(err("--wdl 1 2 3 --penta 1 2 3 4 5").contains("twice"));
        assert!(err("--wdl 1 2 3 --sprt 0 2 0.05").contains("BETA"));
        assert!(err("--wdl 1 2 3 --sprt 0 2 nan 0.05").contains("ALPHA"));
        assert!(err("--wdl 1 2 3 --sprt 0 2 1.5 0.05").contains("ALPHA"));
        assert!(err("--wdl 1 2 3 --sprt 0 2 0.05 0").contains("BETA"));
        assert!(err("--wdl 1 2 3 --sprt 2 0 0.05 0.05").contains("ELO0"));
        assert!(err("--wdl 1 2 3 --sprt inf 2 0.05 0.05").contains("ELO0"));
        assert!(err("--sprt 0 2 0.05 0.05").contains("--wdl"));
        let big = u64::MAX.to_string();
        assert!(err(&format!("--wdl {big} 1 0")).contains("too large"));
        assert!(err(&format!("--penta {big} 0 0 0 0")).contains("too large"));
    }
}
