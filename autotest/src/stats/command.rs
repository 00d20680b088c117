//! `autotest stats`: the figures of `stats::elo` (Elo with its 95%
//! interval, LOS) and `stats::sprt` (the SPRT's LLR and decision) for
//! results given on the command line, or gathered from PGN files
//! (`pgn::player_results`).

use crate::config::spec::SprtSpec;
use crate::pgn::move_figures;
use crate::pgn::player_results::{self, PlayerResults};
use crate::stats::elo::{elo_shown, estimate_penta, estimate_wdl};
use crate::stats::sprt::{llr_penta, llr_wdl, sprt_bounds, sprt_decision};
use clap::{ArgAction, ArgGroup};

/// The results to rate.
enum Results {
    /// Wins, draws, losses.
    Wdl(u64, u64, u64),
    /// Pairs that scored 0, 1/2, …, 2 points.
    Penta([u64; 5]),
}

/// `autotest stats`' command line: the results, from one of `--wdl`,
/// `--penta` or `--pgn` (with `--player`), and perhaps an SPRT.
#[derive(clap::Args, Clone, Debug, PartialEq)]
#[command(
    override_usage = "autotest stats --wdl W D L [--sprt ELO0 ELO1 ALPHA BETA]\n       \
                      autotest stats --penta P0 P1 P2 P3 P4 [--sprt ELO0 ELO1 ALPHA BETA]\n       \
                      autotest stats --pgn FILE... --player NAME [--moves [--clock [NAME=]MAIN+INC]...] [--sprt ELO0 ELO1 ALPHA BETA]",
    group(ArgGroup::new("results").required(true).args(["wdl", "penta", "pgn"]))
)]
pub struct StatsArgs {
    /// Wins, draws and losses
    #[arg(long, action = ArgAction::Set, num_args = 3, value_names = ["W", "D", "L"], allow_negative_numbers = true)]
    pub wdl: Option<Vec<u64>>,
    /// Colour-swapped pairs that scored 0, 1/2, 1, 3/2 and 2 points (the
    /// pentanomial counts)
    #[arg(long, action = ArgAction::Set, num_args = 5, value_names = ["P0", "P1", "P2", "P3", "P4"], allow_negative_numbers = true)]
    pub penta: Option<Vec<u64>>,
    /// PGN files, added up: NAME's W/D/L and its colour-swapped pairs
    /// (the same round and opening, colours swapped)
    #[arg(long, action = ArgAction::Set, num_args = 1.., value_name = "FILE", requires = "player")]
    pub pgn: Option<Vec<String>>,
    /// Whose results in the --pgn files are counted
    #[arg(long, value_name = "NAME", requires = "pgn", conflicts_with_all = ["wdl", "penta"])]
    pub player: Option<String>,
    /// Also each side's moves in NAME's games: the median time, depth and
    /// nodes of its searched moves and its mean time a move (from the
    /// `{time depth nodes}` comments)
    #[arg(long, requires = "pgn", conflicts_with_all = ["wdl", "penta"])]
    pub moves: bool,
    /// With --moves, a Fischer clock MAIN+INC in seconds, for every
    /// player or with NAME= for one (given again for each): each side's
    /// clock rebuilt from the move times, its lowest point a game, the
    /// games in which it ran out, and its time over the default plan's goal
    #[arg(long, value_name = "[NAME=]MAIN+INC", requires = "moves", action = ArgAction::Append)]
    pub clock: Vec<move_figures::Clocks>,
    /// An SPRT of normalized Elo bounds ELO0 < ELO1, false-positive rate
    /// ALPHA and false-negative rate BETA (each in (0, 1), their sum
    /// below 1)
    #[arg(long, action = ArgAction::Set, num_args = 4, value_names = ["ELO0", "ELO1", "ALPHA", "BETA"], allow_negative_numbers = true)]
    pub sprt: Option<Vec<f64>>,
}

/// `autotest stats`: the report lines, or an error naming what is wrong.
pub fn run(args: &StatsArgs) -> Result<String, String> {
    let sprt = args.sprt.as_deref().map(parse_sprt).transpose()?;
    match (&args.wdl, &args.penta, &args.pgn, &args.player) {
        (Some(w), ..) => report(&Results::Wdl(w[0], w[1], w[2]), sprt.as_ref()),
        (_, Some(p), ..) => report(
            &Results::Penta([p[0], p[1], p[2], p[3], p[4]]),
            sprt.as_ref(),
        ),
        (_, _, Some(files), Some(player)) => {
            let r = player_results::gather(files, player)?;
            let (mut out, results) = pgn_lines(&r, player);
            out += &report(&results, sprt.as_ref())?;
            if args.moves {
                out += &move_figures::lines(&move_figures::gather(files, player, &args.clock)?);
            }
            Ok(out)
        }
        _ => Err(
            "stats: give --wdl W D L, --penta P0 P1 P2 P3 P4 or --pgn FILE ... --player NAME"
                .into(),
        ),
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

/// `--sprt ELO0 ELO1 ALPHA BETA`, checked.
fn parse_sprt(values: &[f64]) -> Result<SprtSpec, String> {
    let &[elo0, elo1, alpha, beta] = values else {
        return Err("stats: --sprt takes ELO0 ELO1 ALPHA BETA".into());
    };
    if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
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

    /// `autotest stats` with the words of `s`, as clap reads them.
    fn args(s: &str) -> Result<StatsArgs, String> {
        let words: Vec<String> = std::iter::once("stats")
            .chain(s.split_whitespace())
            .map(String::from)
            .collect();
        match crate::subcommands::parse(&words) {
            Ok(crate::subcommands::Subcommand::Stats(a)) => Ok(a),
            Ok(other) => Err(format!("not stats: {other:?}")),
            Err(e) => Err(e.to_string()),
        }
    }

    /// The report of the command line `args` reads, or what refused it.
    fn run(args: &Result<StatsArgs, String>) -> Result<String, String> {
        super::run(args.as_ref().map_err(String::clone)?)
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
        assert!(err("--wdl 1 2").contains("'--wdl <W> <D> <L>'"));
        assert!(err("--wdl 1 x 3").contains("'x'"));
        assert!(err("--wdl 1 -2 3").contains("'-2'"));
        assert!(err("--penta 1 2 3 4").contains("P4"));
        assert!(err("--penta 1 2 3 4 5.5").contains("'5.5'"));
        assert!(err("--wdl 1 2 3 --frobnicate").contains("'--frobnicate'"));
        assert!(err("--wdl 1 2 3 --penta 1 2 3 4 5").contains("cannot be used with"));
        assert!(err("--wdl 1 2 3 --wdl 1 2 3").contains("cannot be used multiple times"));
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
        // The value and the argument it was given to.
        assert!(err("--wdl 1 x 3").contains("invalid value 'x' for '--wdl <W> <D> <L>'"));
        assert!(err("--penta 1 2 3 4 99999999999999999999").contains(
            "invalid value '99999999999999999999' for '--penta <P0> <P1> <P2> <P3> <P4>'"
        ));
        assert!(err("--wdl 1 2 3 --sprt 0 x 0.05 0.05")
            .contains("invalid value 'x' for '--sprt <ELO0> <ELO1> <ALPHA> <BETA>'"));
    }

    /// The test's scratch directory.
    fn scratch(test: &str) -> std::path::PathBuf {
        crate::scratch::dir(&format!("stats-{test}"))
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
        // Each side's moves after the report: every game's two moves
        // are searched, 10 ms each (8 games in the two files).
        let moves = run(&args(&format!("--player old --pgn {b} {a} --moves"))).unwrap();
        assert_eq!(
            moves,
            format!(
                "{out}moves of new: 8 searched: time median 10.00 ms, mean 10.00 ms; \
                 depth median 1; nodes median 1\n\
                 moves of old: 8 searched: time median 10.00 ms, mean 10.00 ms; \
                 depth median 1; nodes median 1\n"
            )
        );
        assert!(run(&args("--wdl 1 2 3 --moves"))
            .unwrap_err()
            .contains("--pgn"));
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
        assert!(err("--pgn --player new").contains("'--pgn <FILE>...'"));
        assert!(err("--player new --pgn").contains("'--pgn <FILE>...'"));
        let both = "cannot be used with";
        assert!(err(&format!("--pgn {a} --player new --wdl 1 2 3")).contains(both));
        assert!(err(&format!("--penta 1 2 3 4 5 --pgn {a}")).contains(both));
        assert!(err(&format!("--pgn {a}")).contains("--player <NAME>"));
        assert!(err("--wdl 1 2 3 --player new").contains(both));
        assert!(err(&format!("--pgn {a} --player")).contains("'--player <NAME>'"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
