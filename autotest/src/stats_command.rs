//! `autotest stats`: the figures of `crate::stats` (Elo with its 95%
//! interval, LOS, the SPRT's LLR and decision) for results given on the
//! command line.

use crate::numbers::{real, whole};
use crate::spec::SprtSpec;
use crate::stats::sprt::{llr_penta, llr_wdl, sprt_bounds, sprt_decision};
use crate::stats::{elo_shown, estimate_penta, estimate_wdl};

/// The results to rate.
enum Results {
    /// Wins, draws, losses.
    Wdl(u64, u64, u64),
    /// Pairs that scored 0, 1/2, …, 2 points.
    Penta([u64; 5]),
}

/// `autotest stats`: `--wdl W D L` or `--penta P0 P1 P2 P3 P4`, optionally
/// with `--sprt ELO0 ELO1 ALPHA BETA` (normalized Elo bounds). Returns the
/// report lines; bad input gives an error naming the bad argument.
pub fn run(args: &[String]) -> Result<String, String> {
    let (results, sprt) = parse(args)?;
    report(&results, sprt.as_ref())
}

/// The argument at `i`, `what` it is.
fn arg<'a>(args: &'a [String], i: usize, what: &str) -> Result<&'a str, String> {
    args.get(i)
        .map(String::as_str)
        .ok_or_else(|| format!("stats: missing {what}"))
}

fn count(args: &[String], i: usize, what: &str) -> Result<u64, String> {
    whole(arg(args, i, what)?, what).map_err(|m| format!("stats: {m}"))
}

fn number(args: &[String], i: usize, what: &str) -> Result<f64, String> {
    real(arg(args, i, what)?, what).map_err(|m| format!("stats: {m}"))
}

fn parse(args: &[String]) -> Result<(Results, Option<SprtSpec>), String> {
    let mut results: Option<Results> = None;
    let mut sprt: Option<SprtSpec> = None;
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        match flag {
            "--wdl" | "-wdl" | "--penta" | "-penta" => {
                if results.is_some() {
                    return Err("stats: results given twice (use one --wdl or --penta)".into());
                }
                if flag.ends_with("wdl") {
                    let w = count(args, i + 1, "W (wins) after --wdl")?;
                    let d = count(args, i + 2, "D (draws) after --wdl")?;
                    let l = count(args, i + 3, "L (losses) after --wdl")?;
                    results = Some(Results::Wdl(w, d, l));
                    i += 4;
                } else {
                    let mut p = [0u64; 5];
                    for (k, slot) in p.iter_mut().enumerate() {
                        *slot = count(args, i + 1 + k, &format!("P{k} after --penta"))?;
                    }
                    results = Some(Results::Penta(p));
                    i += 6;
                }
            }
            "--sprt" | "-sprt" => {
                if sprt.is_some() {
                    return Err("stats: --sprt given twice".into());
                }
                sprt = Some(parse_sprt(args, i)?);
                i += 5;
            }
            other => return Err(format!("stats: unknown argument '{other}'")),
        }
    }
    let results =
        results.ok_or_else(|| "stats: give --wdl W D L or --penta P0 P1 P2 P3 P4".to_string())?;
    Ok((results, sprt))
}

/// `ELO0 ELO1 ALPHA BETA` after the `--sprt` at `i`.
fn parse_sprt(args: &[String], i: usize) -> Result<SprtSpec, String> {
    let elo0 = number(args, i + 1, "ELO0 after --sprt")?;
    let elo1 = number(args, i + 2, "ELO1 after --sprt")?;
    let alpha = number(args, i + 3, "ALPHA after --sprt")?;
    let beta = number(args, i + 4, "BETA after --sprt")?;
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
    Ok(SprtSpec {
        elo0,
        elo1,
        alpha,
        beta,
    })
}

fn signed(x: f64) -> String {
    format!("{x:+.2}")
}

/// The report: the games, then the estimate, then the SPRT if asked for.
fn report(results: &Results, sprt: Option<&SprtSpec>) -> Result<String, String> {
    let mut out = String::new();
    let (est, llr, games) = match *results {
        Results::Wdl(w, d, l) => {
            let games = w
                .checked_add(d)
                .and_then(|x| x.checked_add(l))
                .ok_or("stats: game counts too large")?;
            out += &format!("games {games} (W {w} D {d} L {l})\n");
            (
                estimate_wdl(w, d, l),
                sprt.map(|s| llr_wdl(w, d, l, s.elo0, s.elo1)),
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
                sprt.map(|s| llr_penta(p, s.elo0, s.elo1)),
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

    #[test]
    fn command_wdl() {
        let out = run(&args("--wdl 60 20 20")).unwrap();
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
        let out = run(&args("--wdl 10 0 0")).unwrap();
        assert!(
            out.contains("Elo > +182.73 (one-sided 95% bound: a 100% score in 10 games)"),
            "{out}"
        );
        let out = run(&args("--penta 5 0 0 0 0")).unwrap();
        assert!(out.contains("Elo < -182.73"), "{out}");
        let out = run(&args("--penta 0 0 0 4 0")).unwrap();
        assert!(out.contains("no interval"), "{out}");
        for out in [
            run(&args("--wdl 3 0 0")).unwrap(),
            run(&args("--penta 0 0 9 0 0")).unwrap(),
        ] {
            assert!(!out.contains("inf") && !out.contains(".. "), "{out}");
        }
    }

    #[test]
    fn command_penta_with_sprt() {
        let out = run(&args(
            "--penta 372 17511 39320 17934 399 --sprt 0 2 0.05 0.05",
        ))
        .unwrap();
        assert!(out.contains("games 151072 (75536 pairs"), "{out}");
        assert!(out.contains("drawn-pair ratio"), "{out}");
        assert!(out.contains("LLR 2.93 [-2.94, 2.94] Continue"), "{out}");
        let out = run(&args(
            "--sprt -1.75 0.25 0.05 0.05 --penta 1721 77704 208246 77189 1732",
        ))
        .unwrap();
        assert!(out.contains("LLR 3.19 [-2.94, 2.94] H1"), "{out}");
        let out = run(&args("--wdl 150 500 350 --sprt 0 5 0.05 0.05")).unwrap();
        assert!(out.contains("H0"), "{out}");
        let out = run(&args("--wdl 0 0 0 --sprt 0 5 0.05 0.05")).unwrap();
        assert!(out.contains("no games"), "{out}");
        assert!(out.contains("LLR 0.00"), "{out}");
    }

    #[test]
    fn command_errors_name_the_argument() {
        let err = |s: &str| run(&args(s)).unwrap_err();
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
        // The shared number parser's words, with the place.
        assert_eq!(
            err("--wdl 1 x 3"),
            "stats: D (draws) after --wdl must be a whole number, got 'x'"
        );
        assert_eq!(
            err("--penta 1 2 3 4 99999999999999999999"),
            "stats: P4 after --penta is too large: '99999999999999999999'"
        );
        assert_eq!(
            err("--wdl 1 2 3 --sprt 0 x 0.05 0.05"),
            "stats: ELO1 after --sprt must be a number, got 'x'"
        );
    }
}
