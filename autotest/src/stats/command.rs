//! `autotest stats`: the figures of `stats::elo` (Elo with its 95%
//! interval, LOS) and `stats::sprt` (the SPRT's LLR and decision) for
//! results given on the command line, or gathered from PGN files
//! (`pgn::player_results`).

use crate::config::numbers::{real, whole};
use crate::config::spec::SprtSpec;
use crate::pgn::player_results::{self, PlayerResults};
use crate::stats::elo::{elo_shown, estimate_penta, estimate_wdl};
use crate::stats::sprt::{llr_penta, llr_wdl, sprt_bounds, sprt_decision};

/// The results to rate.
enum Results {
    /// Wins, draws, losses.
    Wdl(u64, u64, u64),
    /// Pairs that scored 0, 1/2, …, 2 points.
    Penta([u64; 5]),
}

/// Where the results come from.
enum Source {
    Given(Results),
    /// A player's games in PGN files.
    Pgn {
        files: Vec<String>,
        player: String,
    },
}

/// `autotest stats`: `--wdl W D L`, `--penta P0 P1 P2 P3 P4` or `--pgn
/// FILE [FILE ...] --player NAME`, optionally with `--sprt ELO0 ELO1 ALPHA
/// BETA` (normalized Elo bounds). Returns the report lines; bad input
/// gives an error naming the bad argument.
pub fn run(args: &[String]) -> Result<String, String> {
    let (source, sprt) = parse(args)?;
    match source {
        Source::Given(results) => report(&results, sprt.as_ref()),
        Source::Pgn { files, player } => {
            let r = player_results::gather(&files, &player)?;
            let (mut out, results) = pgn_lines(&r, &player);
            out += &report(&results, sprt.as_ref())?;
            Ok(out)
        }
    }
}

/// The lines on a player's PGN results before the report, and the
/// results to rate: the pairs, or without any, the games.
fn pgn_lines(r: &PlayerResults, player: &str) -> (String, Results) {
    let mut out = format!("{player}: W {} D {} L {}\n", r.wins, r.draws, r.losses);
    if r.unfinished > 0 {
        out += &format!(
            "games without a result (* or cut short), skipped: {}\n",
            r.unfinished
        );
    }
    if r.unpaired > 0 {
        out += &format!("games in no complete pair, in W/D/L only: {}\n", r.unpaired);
    }
    if r.pairs.iter().sum::<u64>() == 0 && r.games() > 0 {
        out += "no complete pairs: the estimate is from the games\n";
        return (out, Results::Wdl(r.wins, r.draws, r.losses));
    }
    (out, Results::Penta(r.pairs))
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

fn parse(args: &[String]) -> Result<(Source, Option<SprtSpec>), String> {
    let mut results: Option<Results> = None;
    let mut files: Option<Vec<String>> = None;
    let mut player: Option<String> = None;
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
            "--pgn" | "-pgn" => {
                if files.is_some() {
                    return Err("stats: --pgn given twice (list every FILE after one)".into());
                }
                let list: Vec<String> = args[i + 1..]
                    .iter()
                    .take_while(|a| !a.starts_with('-'))
                    .cloned()
                    .collect();
                if list.is_empty() {
                    return Err("stats: --pgn needs at least one FILE after it".into());
                }
                i += 1 + list.len();
                files = Some(list);
            }
            "--player" | "-player" => {
                if player.is_some() {
                    return Err("stats: --player given twice".into());
                }
                player = Some(arg(args, i + 1, "NAME after --player")?.to_string());
                i += 2;
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
    let source = match (results, files, player) {
        (Some(_), Some(_), _) => {
            return Err("stats: give --pgn or --wdl/--penta, not both".into());
        }
        (Some(_), None, Some(_)) => {
            return Err("stats: --player goes with --pgn FILE ..., not --wdl/--penta".into());
        }
        (Some(results), None, None) => Source::Given(results),
        (None, Some(files), Some(player)) => Source::Pgn { files, player },
        (None, Some(_), None) => {
            return Err("stats: --pgn needs --player NAME: whose results to count".into());
        }
        (None, None, _) => {
            return Err(
                "stats: give --wdl W D L, --penta P0 P1 P2 P3 P4 or --pgn FILE ... --player NAME"
                    .into(),
            );
        }
    };
    Ok((source, sprt))
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
        assert!(err("--wdl 1 2 3 --sprt 0 2 0.6 0.5").contains("sum must be below 1"));
        assert!(err("--wdl 1 2 3 --sprt 0 2 0.5 0.5").contains("sum must be below 1"));
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

    /// A scratch directory of this test process.
    fn scratch(test: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("autotest-{test}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn game(round: &str, white: &str, black: &str, result: &str, opening: &str) -> String {
        let opening = match opening {
            "" => String::new(),
            o => format!("[Opening \"{o}\"]\n"),
        };
        format!(
            "[Event \"lab\"]\n[Site \"?\"]\n[Date \"2024.01.01\"]\n[Round \"{round}\"]\n\
             [White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n\
             [Termination \"normal\"]\n{opening}\n1. d1c1 {{0.010 1 1}} e6f6 {{0.010 1 1}}\n\
             {{King zapped}} {result}\n\n"
        )
    }

    /// `new`'s results in two files, worked out by hand:
    /// a.pgn: 1.1 new-old 1-0 and 1.2 old-new ½ (opening g4L b3L): a pair
    ///   of 1½ points, P3; 1.3 new-old 1-0 and 1.4 old-new 0-1 (h0R): 2
    ///   points, P4; 2.5 new-old 0-1 alone, as 2.6 is unfinished (`*`).
    /// b.pgn: 1.1 new-old ½ and 1.2 old-new 1-0: ½ point, P1.
    /// W 3 (a 1.1 1.3 1.4), D 2 (a 1.2, b 1.1), L 2 (a 2.5, b 1.2); the
    /// pentanomial 0 1 0 1 1: 3 pairs, 6 games; 1 game alone, 1 skipped.
    #[test]
    fn command_pgn() {
        let dir = scratch("stats-pgn");
        let (a, b) = (dir.join("a.pgn"), dir.join("b.pgn"));
        let a_games = [
            game("1.1", "new", "old", "1-0", "g4L b3L"),
            game("1.2", "old", "new", "1/2-1/2", "g4L b3L"),
            game("1.3", "new", "old", "1-0", "h0R"),
            game("1.4", "old", "new", "0-1", "h0R"),
            game("2.5", "new", "old", "0-1", ""),
            game("2.6", "old", "new", "*", ""),
        ];
        std::fs::write(&a, a_games.concat()).unwrap();
        let b_games = [
            game("1.1", "new", "old", "1/2-1/2", ""),
            game("1.2", "old", "new", "1-0", ""),
        ];
        std::fs::write(&b, b_games.concat()).unwrap();
        let (a, b) = (a.display().to_string(), b.display().to_string());
        let sprt = "--sprt 0 5 0.05 0.05";
        let out = run(&args(&format!("--pgn {a} {b} --player new {sprt}"))).unwrap();
        let head = "new: W 3 D 2 L 2\n\
                    games without a result (* or cut short), skipped: 1\n\
                    games in no complete pair, in W/D/L only: 1\n";
        let penta = run(&args(&format!("--penta 0 1 0 1 1 {sprt}"))).unwrap();
        assert_eq!(out, format!("{head}{penta}"));
        assert!(
            out.contains("games 6 (3 pairs; pentanomial 0 1 0 1 1)"),
            "{out}"
        );
        // Every game in a pair, none unfinished: no line for either.
        let out = run(&args(&format!("--pgn {b} --player new"))).unwrap();
        let penta = run(&args("--penta 0 1 0 0 0")).unwrap();
        assert_eq!(out, format!("new: W 0 D 1 L 1\n{penta}"));
        // The other side; the flags in any order.
        let out = run(&args(&format!("--player old --pgn {b} {a}"))).unwrap();
        assert!(out.starts_with("old: W 2 D 2 L 3\n"), "{out}");
        assert!(out.contains("pentanomial 1 1 0 1 0"), "{out}");
        // With no pair, the games are rated.
        let out = run(&args(&format!(
            "--pgn {a} --player new --sprt 0 5 0.05 0.05"
        )))
        .unwrap();
        assert!(out.contains("pentanomial 0 0 0 1 1"), "{out}");
        let single = dir.join("single.pgn");
        std::fs::write(&single, &a_games[4]).unwrap();
        let out = run(&args(&format!("--pgn {} --player new", single.display()))).unwrap();
        assert!(
            out.contains(
                "no complete pairs: the estimate is from the games\ngames 1 (W 0 D 0 L 1)"
            ),
            "{out}"
        );
        // Only unfinished games: nothing to rate, and no estimate claimed.
        let unfinished = dir.join("unfinished.pgn");
        std::fs::write(&unfinished, &a_games[5]).unwrap();
        let out = run(&args(&format!(
            "--pgn {} --player new",
            unfinished.display()
        )))
        .unwrap();
        assert!(out.starts_with("new: W 0 D 0 L 0\n"), "{out}");
        assert!(!out.contains("no complete pairs"), "{out}");
        assert!(out.contains("no games"), "{out}");

        let err = |s: &str| run(&args(s)).unwrap_err();
        let missing = dir.join("missing.pgn").display().to_string();
        let e = err(&format!("--pgn {a} {missing} --player new"));
        assert!(
            e.starts_with(&format!("stats: cannot read {missing}: ")),
            "{e}"
        );
        assert_eq!(
            err(&format!("--pgn {a} {b} --player nobody")),
            format!("stats: 'nobody' plays in no game of {a}, {b} (players there: new, old)")
        );
        assert_eq!(
            err("--pgn --player new"),
            "stats: --pgn needs at least one FILE after it"
        );
        assert_eq!(
            err("--player new --pgn"),
            "stats: --pgn needs at least one FILE after it"
        );
        assert!(err(&format!("--pgn {a} --player new --wdl 1 2 3")).contains("not both"));
        assert!(err(&format!("--penta 1 2 3 4 5 --pgn {a}")).contains("not both"));
        assert!(err(&format!("--pgn {a}")).contains("--player NAME"));
        assert!(err("--wdl 1 2 3 --player new").contains("--player goes with --pgn"));
        assert!(err(&format!("--pgn {a} --player")).contains("NAME after --player"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
